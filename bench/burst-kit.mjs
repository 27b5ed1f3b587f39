// What the benchmarks that serve a Worker share (runWorkerBench: bench/progress.mjs, bench/exercise.mjs) and the burst
// benchmarks add (runBurst: bench/attendance-burst.mjs, bench/quiz-burst.mjs): a built Worker on a fresh
// database with the demo data, a soak group of N students each signed in with their own session and address, the
// admin's token, a watchdog, and the same p50/p99-as-ratio report line. Loopback only.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { quantile } from "./load.mjs";
import { build, freePort, migrate, seed, startWorker } from "../scripts/lib.mjs";

/** A distinct private address per student, so per-address rate limits never mix them up. */
export const ip = (i) => `10.88.${Math.floor(i / 250)}.${(i % 250) + 1}`;

export async function json(res, what) {
  if (!res.ok) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function pool(items, size, work) {
  const queue = [...items];
  await Promise.all(Array.from({ length: size }, async () => {
    while (queue.length) await work(queue.shift());
  }));
}

/** `{ "201": 210 }`: how many answers had each status. */
export const statusCounts = (results) => results.reduce((m, r) => ((m[r.status] = (m[r.status] ?? 0) + 1), m), {});

/** "p50 X ms (Nx lone)   p99 Y ms (Mx lone)" for the burst against the lone requests' median. */
export function burstLine(lone, burst) {
  const loneMedian = quantile(lone.map((r) => r.ms), 0.5);
  const p50 = quantile(burst.map((r) => r.ms), 0.5);
  const p99 = quantile(burst.map((r) => r.ms), 0.99);
  return { loneMedian, line: `p50 ${p50.toFixed(1)} ms (${(p50 / loneMedian).toFixed(1)}x lone)   p99 ${p99.toFixed(1)} ms (${(p99 / loneMedian).toFixed(1)}x lone)` };
}

/**
 * Runs `main({ origin, post })` against a fresh Worker (the built app on a fresh database with the demo data), then
 * stops everything; a watchdog ends the run after `watchdogMs`. `post(path, body, token, from)` sends JSON from a
 * private address. `--build` on the command line builds first. Shared by every bench that needs a served Worker.
 */
export async function runWorkerBench(name, { watchdogMs = 4 * 60_000, runner = true, inspectorPort } = {}, main) {
  let worker = null;
  const persistTo = mkdtempSync(join(tmpdir(), `cohort-${name}-`));
  const cleanup = () => {
    worker?.stop();
    rmSync(persistTo, { recursive: true, force: true });
  };
  const watchdog = setTimeout(() => {
    console.error(`${name} bench: still running after ${watchdogMs / 60_000} minutes; stopping.`);
    cleanup();
    process.exit(1);
  }, watchdogMs);
  try {
    if (process.argv.includes("--build")) build();
    migrate(persistTo);
    worker = await startWorker({ port: await freePort(), persistTo, runner, production: true, inspectorPort });
    const origin = worker.origin;
    await seed(origin);
    const post = (path, body, token, from = "10.99.0.1") =>
      fetch(`${origin}${path}`, { method: "POST", headers: { "content-type": "application/json", origin, "cf-connecting-ip": from, ...(token ? { authorization: token } : {}) }, body: JSON.stringify(body) });
    process.exitCode = (await main({ origin, post })) === false ? 1 : 0;
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 1;
  } finally {
    clearTimeout(watchdog);
    cleanup();
  }
}

/**
 * Runs `main(world)` against a fresh Worker with `students` signed-in students (runWorkerBench); `world` =
 * { origin, post, soak, tokens, admin }. `main` answers whether the run passed its own checks.
 */
export function runBurst(name, { students, watchdogMs = 4 * 60_000, runner = true }, main) {
  return runWorkerBench(name, { watchdogMs, runner }, async ({ origin, post }) => {
    const { soak } = await json(await post("/api/dev/seed", { soak: { users: students } }), "soak seed");
    const tokens = new Array(students);
    await pool([...soak.emails.keys()], 8, async (i) => {
      tokens[i] = (await json(await post("/api/users/login", { email: soak.emails[i], password: soak.password }, undefined, ip(i)), "login")).accessToken;
    });
    const admin = await json(await post("/api/users/login", { email: "admin@example.com", password: "demo-admin-pass" }), "admin login");
    return Boolean(await main({ origin, post, soak, tokens, admin }));
  });
}
