// `npm run bench:progress`: how the staff's progress call grows with the group. Serves the built Worker with a fresh
// database and makes three groups with the same coursework (6 lectures, 5 held; everyone's attendance; 3 tasks with
// hand-ins, a third ungraded; a quiz everyone has taken) and 10, 100 and 1,000 students. Then, in rounds that
// rotate the order of the groups, it asks `GET /api/groups/{id}/progress` one request at a time and prints each
// group's p50 latency and its ratio to the 10-student group's, measured in the same run. The statement count is
// the same for every size (tests/integration/progress-queries.test.ts); what grows is the rows each statement
// aggregates and the JSON it answers. Loopback only, bounded in count and time (a watchdog ends the run after
// 4 minutes).
import { json, runWorkerBench } from "./burst-kit.mjs";
import { quantile } from "./load.mjs";

const SIZES = [10, 100, 1000];
const ROUNDS = 5;
const PER_ROUND = 8;
const WARM_UP = 3;

await runWorkerBench("progress", {}, async ({ origin, post }) => {
  const admin = await json(await post("/api/users/login", { email: "admin@example.com", password: "demo-admin-pass" }), "admin login");
  const groups = [];
  for (const students of SIZES) {
    const { soak } = await json(await post("/api/dev/seed", { soak: { users: students, coursework: true } }), `soak seed ${students}`);
    groups.push({ students, slug: soak.group.slug, samples: [] });
  }
  const ask = async (group) => {
    const started = performance.now();
    const res = await fetch(`${origin}/api/groups/${group.slug}/progress`, { headers: { authorization: admin.accessToken, "cf-connecting-ip": "10.99.0.2" } });
    const body = await json(res, `progress of ${group.students}`);
    const ms = performance.now() - started;
    if (body.students.length !== group.students) throw new Error(`expected ${group.students} students, got ${body.students.length}`);
    return ms;
  };
  for (const g of groups) for (let i = 0; i < WARM_UP; i++) await ask(g);
  for (let round = 0; round < ROUNDS; round++) {
    const order = groups.map((_, i) => groups[(i + round) % groups.length]);
    for (const g of order) for (let i = 0; i < PER_ROUND; i++) g.samples.push(await ask(g));
  }
  const base = quantile(groups[0].samples, 0.5);
  console.log(`GET /api/groups/{id}/progress, ${ROUNDS * PER_ROUND} requests per group, one at a time (p50, and the ratio to 10 students):`);
  for (const g of groups) {
    const p50 = quantile(g.samples, 0.5);
    console.log(`  ${String(g.students).padStart(5)} students   p50 ${p50.toFixed(1).padStart(7)} ms   ${(p50 / base).toFixed(2)}x`);
  }
});
