// `npm run bench:exercise`: what grading code costs in the Worker. Serves the built Worker with a fresh database,
// makes a group of 8 students and three code exercises of the same shape with 1, 10 and 50 tests (each test calls a
// small function on a short array), then, one request at a time in rotating rounds:
//   - `GET /api/health` (a bare Worker request: the baseline);
//   - `POST /api/exercises/{id}/reference` for each exercise (grading alone: every test in a fresh QuickJS runtime);
//   - `POST /api/exercises/{id}/submit` of the 10-test exercise by the students (a whole hand-in: grading, the
//     submission's write and its draft), at most 5 per student to stay under the 10-a-minute limit.
// It prints each p50 and its ratio to the health request's p50 from the same run, and how grading grows from 1 to
// 10 to 50 tests. Loopback only, bounded in count and time (a watchdog ends the run after 4 minutes).
import { ip, json, runBurst } from "./burst-kit.mjs";
import { quantile } from "./load.mjs";

const SIZES = [1, 10, 50];
const STUDENTS = 8;
const ROUNDS = 5;
const PER_ROUND = 6;

const SOLUTION = "function stats(xs) { let sum = 0; for (const x of xs) sum += x; return { count: xs.length, sum, max: Math.max(...xs) }; }";
const testsOf = (n) =>
  Array.from({ length: n }, (_, i) => {
    const xs = Array.from({ length: 20 }, (_, j) => (i * 7 + j * 3) % 50);
    return { name: `case ${i + 1}`, call: `stats(${JSON.stringify(xs)})`, expected: JSON.stringify({ count: 20, sum: xs.reduce((a, b) => a + b, 0), max: Math.max(...xs) }), points: 1, hidden: i % 3 === 2 };
  });

await runBurst("exercise", { students: STUDENTS }, async ({ origin, soak, tokens: students, admin: signedIn }) => {
  const admin = signedIn.accessToken;
  const request = (method, path, body, token, from = "10.99.0.1") =>
    fetch(`${origin}${path}`, { method, headers: { "content-type": "application/json", origin, "cf-connecting-ip": from, ...(token ? { authorization: token } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
  const lecture = await json(await request("POST", `/api/lectures/group/${soak.group.slug}`, { title: "Arrays", published: true }, admin), "lecture");
  const exercises = [];
  for (const n of SIZES) {
    const task = await json(await request("POST", `/api/lectures/${lecture.slug}/tasks`, { title: `Stats with ${n} tests`, maxScore: 100 }, admin), "task");
    await json(await request("PUT", `/api/exercises/${task.slug}`, { tests: testsOf(n), referenceSolution: SOLUTION, published: true, timeMs: 1000, memoryMb: 16 }, admin), `exercise ${n}`);
    exercises.push({ n, slug: task.slug, samples: [] });
  }

  const timed = async (what, send, check) => {
    const started = performance.now();
    const res = await send();
    const body = await json(res, what);
    const ms = performance.now() - started;
    check?.(body);
    return ms;
  };
  const health = { samples: [] };
  const handIns = { samples: [] };
  const ten = exercises.find((e) => e.n === 10);
  let handInsLeft = STUDENTS * 5;
  const targets = [
    async () => health.samples.push(await timed("health", () => request("GET", "/api/health"))),
    ...exercises.map((e) => async () =>
      e.samples.push(await timed(`reference ${e.n}`, () => request("POST", `/api/exercises/${e.slug}/reference`, undefined, admin), (r) => {
        if (r.score !== e.n) throw new Error(`the reference scored ${r.score} of ${e.n}`);
      })),
    ),
    async () => {
      if (handInsLeft === 0) return;
      const i = handInsLeft-- % STUDENTS;
      handIns.samples.push(await timed("hand-in", () => request("POST", `/api/exercises/${ten.slug}/submit`, { code: SOLUTION }, students[i], ip(i)), (r) => {
        if (r.score !== 100) throw new Error(`a hand-in scored ${r.score}`);
      }));
    },
  ];
  for (const run of targets) await run(); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < targets.length; k++) {
      const run = targets[(k + round) % targets.length];
      for (let i = 0; i < PER_ROUND; i++) await run();
    }
  }
  const base = quantile(health.samples, 0.5);
  const line = (label, samples) => {
    const p50 = quantile(samples, 0.5);
    return `  ${label.padEnd(34)} p50 ${p50.toFixed(1).padStart(7)} ms   ${(p50 / base).toFixed(1).padStart(5)}x health`;
  };
  console.log("Code exercises in the Worker, one request at a time (p50, and the ratio to GET /api/health in the same run):");
  console.log(line("GET /api/health (bare request)", health.samples));
  for (const e of exercises) console.log(line(`grading ${e.n} test${e.n === 1 ? "" : "s"} (reference run)`, e.samples));
  console.log(line("hand-in of the 10-test exercise", handIns.samples));
  const one = quantile(exercises[0].samples, 0.5);
  console.log(`  growth: 10 tests ${(quantile(exercises[1].samples, 0.5) / one).toFixed(1)}x and 50 tests ${(quantile(exercises[2].samples, 0.5) / one).toFixed(1)}x the 1-test grading`);
  return true;
});
