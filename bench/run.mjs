// `npm run bench`: builds the app, serves the built Worker on a free port with a fresh database and the
// demo data, then measures in ONE run and prints:
//   (a) every page of issue 23 (cached and not), as throughput and p99 ratios to a JSON 404 of the same Worker
//   (b) the member pages again with the local D1 in a process of its own and no wrangler proxy in front (ADR 74)
//   (c) the client JavaScript the landing page loads, gzipped
//   (d) the Worker bundle that `wrangler deploy` would upload, raw and gzipped
//   (e) forgot-password answer time for known vs unknown addresses (their median ratio)
//   (f) chat: persist-first fan-out against broadcast-only fan-out (p99 and p50 ratios)
//   (g) Worker startup (`wrangler check startup`) against a hello-world Worker with the same settings
// Loopback only; every loop is bounded in time and count; the Worker and the browser are stopped at the end.
// See bench/README.md for how to read the numbers.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { bin, build, env, freePort, migrate, root, seed, startWorker } from "../scripts/lib.mjs";
import { forgotTiming, printForgotTiming } from "./forgot-timing.mjs";
import { below, busiestPerRequest, workerdCpu } from "./cpu.mjs";
import { measure, median, summarize } from "./load.mjs";
import { pageTargets } from "./pages.mjs";
import { chatPersistVsBroadcast, printChatPersistVsBroadcast } from "./chat.mjs";
import { measureStartup, printStartup } from "./startup.mjs";

const CONCURRENCY = 16;
const WARMUP_MS = 500;
const ROUNDS = 5;
const SEGMENT_MS = 2_000;
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
/** The whole run is stopped if it takes longer than this (normally about ten minutes, the load test most of them). */
const WATCHDOG_MS = 20 * 60_000;

const kB = (bytes) => (bytes / 1000).toFixed(1);
const ms = (n) => n.toFixed(2);
const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);

const cleanups = [];
function cleanup() {
  for (const fn of cleanups.splice(0).reverse()) {
    try {
      fn();
    } catch {
      // best effort
    }
  }
}
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    cleanup();
    process.exit(130);
  });
}
setTimeout(() => {
  console.error(`bench: gave up after ${WATCHDOG_MS / 60_000} minutes`);
  cleanup();
  process.exit(1);
}, WATCHDOG_MS).unref();

/**
 * (a): each target's segment is measured right next to a segment of the baseline (before it in even rounds, after it
 * in odd ones), and the target's throughput ratio is the median over the rounds of target / its own baseline
 * segment: each ratio compares two measurements taken back to back, so drift (other processes, heat, JIT, the load
 * generator's own share of the CPU) cancels out instead of deciding the result. Targets are rotated every round.
 * Each segment also records the CPU per request of the Worker's busiest workerd process (`readCpu`; bench/cpu.mjs),
 * and each pair its ratio the other way up (the baseline's CPU per request over the target's): the same quantity as
 * the throughput ratio while that one thread is the bottleneck, by a route that does not depend on the share of the
 * machine the load generator and everything else take (its rounds still move: the Worker's own CPU per request does).
 */
async function loadTest(origin, targets, readCpu, databasePid = () => null) {
  const opts = (t, durationMs) => ({ concurrency: CONCURRENCY, durationMs, headers: t.headers });
  for (const t of targets) await measure(origin + t.path, opts(t, WARMUP_MS));
  const base = targets.find((t) => t.baseline);
  const others = targets.filter((t) => !t.baseline);
  const segments = new Map(targets.map((t) => [t.name, []]));
  const ratios = new Map(others.map((t) => [t.name, []]));
  const cpuRatios = new Map(others.map((t) => [t.name, []]));
  const rps = (segment) => segment.latencies.length / (segment.elapsedMs / 1000);
  for (let round = 0; round < ROUNDS; round++) {
    const order = others.map((_, i) => others[(i + round) % others.length]);
    for (const t of order) {
      const pair = {};
      for (const x of round % 2 === 0 ? [base, t] : [t, base]) {
        const before = readCpu();
        const segment = await measure(origin + x.path, opts(x, SEGMENT_MS));
        const after = readCpu();
        segment.cpuPerRequest = busiestPerRequest(before, after, segment.latencies.length);
        const db = String(databasePid());
        if (before?.has(db) && after?.has(db)) segment.databaseCpuPerRequest = (after.get(db) - before.get(db)) / segment.latencies.length;
        segments.get(x.name).push(segment);
        pair[x === base ? "base" : "target"] = segment;
      }
      ratios.get(t.name).push(rps(pair.target) / rps(pair.base));
      if (pair.target.cpuPerRequest && pair.base.cpuPerRequest) cpuRatios.get(t.name).push(pair.base.cpuPerRequest / pair.target.cpuPerRequest);
    }
  }
  return targets.map((t) => ({
    ...t,
    ...summarize(segments.get(t.name), t.expected ?? 200),
    pairedRatios: ratios.get(t.name) ?? null,
    cpuRatios: cpuRatios.get(t.name) ?? null,
    cpuPerRequest: median(segments.get(t.name).map((x) => x.cpuPerRequest).filter((x) => x !== null)) ?? null,
    databaseCpuPerRequest: median(segments.get(t.name).map((x) => x.databaseCpuPerRequest).filter((x) => x !== undefined)) ?? null,
  }));
}

/** (c): every script the landing page loads in a real browser, gzipped one by one. */
async function landingScripts(origin) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  cleanups.push(() => void browser.close().catch(() => {}));
  try {
    const page = await browser.newPage();
    const pending = [];
    page.on("response", (res) => {
      const type = res.request().resourceType();
      const contentType = res.headers()["content-type"] ?? "";
      if (type === "script" || contentType.includes("javascript")) {
        pending.push(res.body().then((body) => ({ url: res.url(), status: res.status(), raw: body.length, gzip: gzipSync(body).length })));
      }
    });
    const res = await page.goto(`${origin}/`, { waitUntil: "networkidle", timeout: 30_000 });
    if (res?.status() !== 200) throw new Error(`GET / answered ${res?.status()}`);
    const byUrl = new Map((await Promise.all(pending)).map((s) => [s.url, s]));
    return [...byUrl.values()];
  } finally {
    await browser.close();
  }
}

/** (d): the bundle `wrangler deploy` would upload. */
function workerBundle() {
  const out = mkdtempSync(join(tmpdir(), "cohort-bench-bundle-"));
  cleanups.push(() => rmSync(out, { recursive: true, force: true }));
  const res = spawnSync(bin("wrangler"), ["deploy", "--dry-run", "--outdir", out], { cwd: root, env, encoding: "utf8", timeout: 120_000 });
  if (res.status !== 0) throw new Error(`wrangler deploy --dry-run failed:\n${res.stdout}\n${res.stderr}`);
  // The code and its WebAssembly modules (the QuickJS sandbox): both count toward Cloudflare's size limit.
  const files = readdirSync(out, { recursive: true }).filter((f) => /\.(m?js|wasm)$/.test(f));
  let raw = 0;
  let gzip = 0;
  for (const f of files) {
    const body = readFileSync(join(out, f));
    raw += statSync(join(out, f)).size;
    gzip += gzipSync(body).length;
  }
  return { files, raw, gzip };
}

function printLoad(results, heading = "") {
  const base = results.find((r) => r.baseline);
  if (heading) console.log(`\n${heading}`);
  console.log(`\nThroughput and latency (${CONCURRENCY} concurrent keep-alive connections; ${ROUNDS} rounds of ${SEGMENT_MS / 1000} s per target, each next to ${SEGMENT_MS / 1000} s of the baseline, after ${WARMUP_MS / 1000} s warm-up)\n`);
  console.log(`${pad("target", 26)}${lpad("requests", 9)}${lpad("errors", 8)}${lpad("req/s", 8)}${lpad("p50 ms", 9)}${lpad("p99 ms", 9)}   req/s per round`);
  for (const r of results) {
    // The baseline ran next to every target: its range, not its many segments.
    const rounds = r.baseline ? `${Math.min(...r.roundRps).toFixed(0)}-${Math.max(...r.roundRps).toFixed(0)} over ${r.roundRps.length} segments` : r.roundRps.map((x) => x.toFixed(0)).join(" / ");
    console.log(`${pad(r.name, 26)}${lpad(r.requests, 9)}${lpad(r.errors, 8)}${lpad(r.rps.toFixed(0), 8)}${lpad(ms(r.p50), 9)}${lpad(ms(r.p99), 9)}   ${rounds}`);
  }
  console.log(`\nRatios to ${base.name} (same Worker, same run; throughput: the median over the rounds of each segment against the baseline's segment next to it, higher is better; cpu: the baseline's CPU per request in the Worker's busiest workerd process over the target's, paired the same way, higher is better; p99: lower is better)\n`);
  if (base.cpuPerRequest) console.log(`  (${base.name}: ${base.cpuPerRequest.toFixed(2)} ms of CPU per request in the Worker's busiest workerd process, the median over its segments)\n`);
  for (const r of results.filter((x) => !x.baseline)) {
    if (r.errors > 0 || base.errors > 0) {
      console.log(`  ${pad(r.name, 26)} n/a: unexpected answers ${JSON.stringify(r.errors > 0 ? r.statuses : base.statuses)}`);
      continue;
    }
    const ratio = median(r.pairedRatios);
    const goal = r.goal ? `   goal ${r.goal.toFixed(2)}x: ${ratio >= r.goal ? "met" : "NOT met"}` : "";
    const rounds = r.pairedRatios.map((x) => x.toFixed(2)).join(" / ");
    const cpu = r.cpuRatios?.length ? `   cpu ${median(r.cpuRatios).toFixed(2)}x (${r.cpuRatios.map((x) => x.toFixed(2)).join(" / ")})` : "";
    const database = r.databaseCpuPerRequest !== null && r.databaseCpuPerRequest !== undefined ? `   (the database's process: ${r.databaseCpuPerRequest.toFixed(2)} ms per request, the Worker's ${r.cpuPerRequest.toFixed(2)} ms)` : "";
    console.log(`  ${pad(r.name, 26)} throughput ${ratio.toFixed(2)}x (rounds ${rounds})${cpu}   p99 ${(r.p99 / base.p99).toFixed(2)}x${goal}${database}`);
  }
}

async function main() {
  console.log(`Cohort benchmarks, ${new Date().toISOString()}, Node ${process.version}, ${cpus().length} CPUs`);
  console.log("Building...");
  build();
  // wrangler dev rebuilds when build/ changes; a rebuild by anyone else mid-run would skew the numbers.
  const builtAt = statSync(join(root, "build", "server", "index.js")).mtimeMs;
  const buildChanged = () => {
    try {
      return statSync(join(root, "build", "server", "index.js")).mtimeMs !== builtAt;
    } catch {
      return true;
    }
  };
  const persistTo = mkdtempSync(join(tmpdir(), "cohort-bench-"));
  cleanups.push(() => rmSync(persistTo, { recursive: true, force: true }));
  migrate(persistTo);
  const port = await freePort();
  const worker = await startWorker({ port, persistTo, production: true });
  cleanups.push(() => worker.stop());
  await seed(worker.origin);
  console.log(`Serving the built Worker at ${worker.origin} (fresh database, demo data)`);

  const loadBefore = loadavg()[0];
  // The Worker's workerd processes are the ones below this run's wrangler dev (off Linux: no reading, no cpu column).
  const readCpu = () => workerdCpu(below(worker.child.pid));
  const load = await loadTest(worker.origin, await pageTargets(worker.origin), readCpu);
  printLoad(load);
  const scripts = await landingScripts(worker.origin);
  const forgot = await forgotTiming(worker.origin);
  // 1000 samples of each: the p99 is then the 10th-slowest (at 400 one or two stray pauses decided it; ADR 66).
  const chat = await chatPersistVsBroadcast(worker.origin, { samples: 1000 });
  worker.stop();
  await worker.stopped();
  // (b): the member pages again, as they stand on Cloudflare: the local D1 in a workerd process of its own (D1 works
  // on its own machines there; here it otherwise shares the Worker's thread) and the requests straight to the
  // Worker's socket (no wrangler proxy in front, as none is at the edge). Same database, same load, same pairing.
  const apart = await startWorker({ port: await freePort(), persistTo, production: true, d1Apart: true });
  cleanups.push(() => apart.stop());
  const memberTargets = (await pageTargets(apart.direct)).filter((t) => t.baseline || t.headers);
  const apartLoad = await loadTest(apart.direct, memberTargets, () => workerdCpu(below(apart.child.pid)), apart.databasePid);
  apart.stop();
  const startup = await measureStartup();
  const changed = buildChanged();
  const bundle = workerBundle();

  const raw = scripts.reduce((n, s) => n + s.raw, 0);
  const gz = scripts.reduce((n, s) => n + s.gzip, 0);
  console.log(`\nLanding page (/) client JavaScript in Chromium: ${scripts.length} scripts, ${kB(raw)} kB raw, ${kB(gz)} kB gzipped`);
  for (const s of [...scripts].sort((a, b) => b.gzip - a.gzip)) {
    console.log(`  ${lpad(kB(s.gzip), 7)} kB gz  ${lpad(kB(s.raw), 7)} kB  ${new URL(s.url).pathname}${s.status === 200 ? "" : `  (status ${s.status})`}`);
  }
  printForgotTiming(forgot);
  printLoad(apartLoad, "Member pages as on Cloudflare: the local D1 in its own workerd process, requests straight to the Worker's socket (ADR 74)");
  printChatPersistVsBroadcast(chat);
  printStartup(startup);
  console.log(`\nWorker bundle (wrangler deploy --dry-run): ${kB(bundle.raw)} kB raw, ${kB(bundle.gzip)} kB gzipped (${bundle.files.join(", ")})`);
  console.log(`\nMachine load average (1 min) before the load test: ${loadBefore.toFixed(2)} on ${cpus().length} CPUs.`);
  if (changed) console.log("WARNING: build/ was rebuilt during the run (another build on this machine); the load numbers are unreliable, run again.");
  console.log("1 kB = 1000 bytes. How to read these numbers: bench/README.md");
}

try {
  await main();
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
} finally {
  cleanup();
}
