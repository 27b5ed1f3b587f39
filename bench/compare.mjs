// `node bench/compare.mjs <originA>=<dirA> <originB>=<dirB> [page ...]`: one page of bench/pages.mjs on two Cohort
// servers that are already running (for example the working tree and a worktree of the last commit, each started
// with `NODE_ENV=production PORT=... npm start`), measured in alternating segments under the bench's load. Prints,
// per server, requests per second and the CPU time per request of its busiest workerd process (the one thread that
// runs the Worker and, locally, its D1), each the median over the segments.
//
// Why: a change worth a tenth of a page's cost disappears in `npm run bench`, whose throughput moves by a fifth
// between segments on a two-core machine. The CPU each request costs the Worker's process moves far less, and two
// servers measured in turn, on the same machine, in the same minutes, share whatever else the machine is doing.
// A server's processes are told apart by their working directory (the folder it was started from), so the two
// servers must run from different folders. Linux only (/proc); loopback only; bounded in time.
import { busiestPerRequest, startedFrom, workerdCpu } from "./cpu.mjs";
import { measure, median } from "./load.mjs";
import { pageTargets } from "./pages.mjs";

const CONCURRENCY = 16;
const ROUNDS = Number(process.env.ROUNDS ?? 6);
const SEGMENT_MS = Number(process.env.SEGMENT_MS ?? 4000);

const [a, b, ...pages] = process.argv.slice(2);
if (!a?.includes("=") || !b?.includes("=")) {
  console.error("usage: node bench/compare.mjs http://127.0.0.1:8790=/path/to/tree-a http://127.0.0.1:8791=/path/to/tree-b [page name ...]");
  process.exit(2);
}
const servers = [a, b].map((arg, i) => {
  const at = arg.indexOf("=");
  return { label: "AB"[i], origin: arg.slice(0, at), dir: arg.slice(at + 1).replace(/\/+$/, ""), segments: [] };
});

/** CPU milliseconds so far of each workerd process started from `dir`. */
const cpuByProcess = (dir) => workerdCpu(startedFrom(dir));

for (const s of servers) s.targets = await pageTargets(s.origin);
for (const name of pages.length ? pages : ["course home"]) {
  for (const s of servers) {
    s.target = s.targets.find((t) => t.name === name);
    if (!s.target) throw new Error(`no page "${name}" in bench/pages.mjs`);
    if (!cpuByProcess(s.dir)?.size) throw new Error(`no workerd process started from ${s.dir}`);
    s.segments = [];
    await measure(s.origin + s.target.path, { concurrency: CONCURRENCY, durationMs: 1000, headers: s.target.headers ?? {} });
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const s of round % 2 === 0 ? servers : [...servers].reverse()) {
      const before = cpuByProcess(s.dir);
      const m = await measure(s.origin + s.target.path, { concurrency: CONCURRENCY, durationMs: SEGMENT_MS, headers: s.target.headers ?? {} });
      const after = cpuByProcess(s.dir);
      const n = m.latencies.length;
      if (n === 0 || Object.keys(m.statuses).some((st) => Number(st) !== (s.target.expected ?? 200))) throw new Error(`${s.origin}${s.target.path}: unexpected answers`);
      const busiest = busiestPerRequest(before, after, n);
      s.segments.push({ rps: n / (m.elapsedMs / 1000), busiest });
    }
  }
  const [A, B] = servers.map((s) => ({ rps: median(s.segments.map((x) => x.rps)), busiest: median(s.segments.map((x) => x.busiest)), all: s.segments.map((x) => x.busiest.toFixed(1)).join(" ") }));
  console.log(`${name}`);
  for (const [s, r] of [[servers[0], A], [servers[1], B]]) console.log(`  ${s.label} ${s.dir}: ${r.rps.toFixed(0)} req/s, busiest process ${r.busiest.toFixed(2)} ms CPU per request (segments: ${r.all})`);
  console.log(`  A/B CPU per request: ${(A.busiest / B.busiest).toFixed(3)}x`);
}
