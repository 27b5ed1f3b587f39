// `npm run bench:sandbox`: can a hostile hand-in hold the site? Serves the built Worker (fresh database, demo data),
// makes a code exercise of 2 tests with a 1,000 ms limit each (so a hand-in's budget is 2,000 ms of work), then:
//   1. `GET /api/health` alone, one request at a time: the baseline p50 and p99;
//   2. each of the five hostile hand-ins of the security review alone (an endless loop, a loop around a 200,000-item
//      sort, a loop around a huge BigInt, an allocation loop, a console flood of 1 MB arguments): its wall time as a
//      ratio to its budget;
//   3. the ten at once (the five, twice, from ten students) while health requests keep going one at a time: health's
//      p50 and p99 as ratios to the baseline, and each hand-in's wall time as a ratio to its budget.
// Twice: with the code runner in its own Worker (as deployed, `npm start`), then with the engine inside the main
// Worker (no runner started), to show what the separation buys. Every figure is a ratio measured in one run.
// Loopback only, bounded (a watchdog ends the run after 8 minutes).
import { ip, json, runBurst } from "./burst-kit.mjs";
import { quantile } from "./load.mjs";

const TESTS = 2;
const TIME_MS = 1_000;
const BUDGET_MS = TESTS * TIME_MS; // below the 6,000 ms a hand-in may use at most
const HOSTILE = [
  ["endless loop", "while (true) {}"],
  ["sort loop", "const xs = []; for (let i = 0; i < 2e5; i++) xs.push(i); for (let k = 0; k < 1e9; k++) xs.sort();"],
  ["BigInt loop", "const n = 10n ** 200000n; for (;;) n.toString();"],
  ["allocation loop", "const all = []; for (;;) all.push(new Float64Array(1e5));"],
  ["console flood", "const y = 'y'.repeat(1000000); for (;;) console.log(...Array(20).fill(y));"],
];
const HEALTH_ALONE = 200;

async function phase(label, runner) {
  const out = {};
  await runBurst(`sandbox-${runner ? "split" : "inline"}`, { students: 10, watchdogMs: 4 * 60_000, runner }, async ({ origin, soak, tokens, admin }) => {
    const request = (method, path, body, token, from = "10.99.0.1") =>
      fetch(`${origin}${path}`, { method, headers: { "content-type": "application/json", origin, "cf-connecting-ip": from, ...(token ? { authorization: token } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
    const lecture = await json(await request("POST", `/api/lectures/group/${soak.group.slug}`, { title: "Hostile", published: true }, admin.accessToken), "lecture");
    const task = await json(await request("POST", `/api/lectures/${lecture.slug}/tasks`, { title: "Sum", maxScore: 10 }, admin.accessToken), "task");
    const tests = Array.from({ length: TESTS }, (_, i) => ({ name: `case ${i + 1}`, call: `sum(${i}, 1)`, expected: String(i + 1), points: 1, hidden: i === TESTS - 1 }));
    await json(await request("PUT", `/api/exercises/${task.slug}`, { tests, referenceSolution: "function sum(a, b) { return a + b; }", published: true, timeMs: TIME_MS, memoryMb: 16 }, admin.accessToken), "exercise");

    const timed = async (send) => {
      const started = performance.now();
      const res = await send();
      const body = await res.text();
      return { ms: performance.now() - started, status: res.status, body: res.ok ? "" : body };
    };
    const health = () => timed(() => request("GET", "/api/health"));
    const handIn = (code, i) => timed(() => request("POST", `/api/exercises/${task.slug}/submit`, { code: `function sum(a, b) { ${code} }` }, tokens[i], ip(i)));

    for (let i = 0; i < 20; i++) await health(); // warm-up
    const alone = [];
    for (let i = 0; i < HEALTH_ALONE; i++) alone.push((await health()).ms);
    const baseP50 = quantile(alone, 0.5);
    const baseP99 = quantile(alone, 0.99);

    const lone = [];
    for (const [i, [name, code]] of HOSTILE.entries()) {
      const r = await handIn(code, i);
      if (r.status >= 300) throw new Error(`${name} alone: ${r.status} ${r.body}`);
      lone.push([name, r.ms]);
    }

    let running = true;
    const during = [];
    const probe = (async () => {
      while (running) during.push((await health()).ms);
    })();
    const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => handIn(HOSTILE[i % 5][1], i).then((r) => ({ name: HOSTILE[i % 5][0], ...r }))));
    running = false;
    await probe;
    const refused = burst.filter((r) => r.status >= 300);
    if (refused.length) throw new Error(`hand-ins refused: ${refused.map((r) => `${r.status} ${r.body.slice(0, 200)}`).join(", ")}`);

    const ratio = (x) => `${x.toFixed(2)}x`;
    console.log(`\n${label}`);
    console.log(`  GET /api/health alone: p50 ${baseP50.toFixed(1)} ms, p99 ${baseP99.toFixed(1)} ms (${HEALTH_ALONE} requests)`);
    console.log(`  each hostile hand-in alone, wall time / its ${BUDGET_MS} ms budget:`);
    for (const [name, ms] of lone) console.log(`    ${name.padEnd(16)} ${ratio(ms / BUDGET_MS)}`);
    const p50 = quantile(during, 0.5);
    const p99 = quantile(during, 0.99);
    console.log(`  10 hostile hand-ins at once: GET /api/health p50 ${ratio(p50 / baseP50)} and p99 ${ratio(p99 / baseP99)} of the baseline (${during.length} requests meanwhile)`);
    const walls = burst.map((r) => r.ms / BUDGET_MS).sort((a, b) => a - b);
    console.log(`  their wall time / budget: fastest ${ratio(walls[0])}, median ${ratio(quantile(walls, 0.5))}, slowest ${ratio(walls.at(-1))}`);
    Object.assign(out, { p99: p99 / baseP99 });
    return true;
  });
  return out;
}

await phase("Code runner in its own Worker (as deployed; npm start)", true);
await phase("Engine inside the main Worker (no runner Worker: what the separation avoids)", false);
console.log(
  "\nLocally one workerd process runs the runner Worker, so hand-ins sent at once take turns; on Cloudflare concurrent calls",
  "\nare spread over isolates and machines. The limits themselves are engine steps, the same everywhere (ADR 0017).",
);
