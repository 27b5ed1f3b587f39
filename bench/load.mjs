// A small, bounded HTTP load generator for loopback benchmarks: fixed concurrency, fixed duration,
// a hard cap on the number of requests, keep-alive connections, per-request latency.
import { Agent, request } from "node:http";

/** Upper bound per measured segment, whatever the duration: the loop always stops by itself. */
const MAX_REQUESTS_PER_SEGMENT = 200_000;

function once(agent, url, headers) {
  return new Promise((resolve) => {
    const start = performance.now();
    const req = request(url, { agent, headers: { "user-agent": "cohort-bench", ...headers } }, (res) => {
      // Read the whole body: a page is not served until its last byte is.
      res.on("data", () => {});
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - start }));
      res.on("error", () => resolve({ status: 0, ms: performance.now() - start }));
    });
    req.setTimeout(10_000, () => req.destroy(new Error("timeout")));
    req.on("error", () => resolve({ status: 0, ms: performance.now() - start }));
    req.end();
  });
}

/**
 * Runs `concurrency` request loops against `url` for `durationMs` (with extra request `headers`, e.g. a cookie). Returns every latency (ms) and
 * the status counts. Requests still in flight at the deadline finish and are counted.
 */
export async function measure(url, { concurrency, durationMs, headers = {} }) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies = [];
  const statuses = {};
  const started = performance.now();
  const deadline = started + durationMs;
  let issued = 0;
  async function loop() {
    while (performance.now() < deadline && issued < MAX_REQUESTS_PER_SEGMENT) {
      issued++;
      const { status, ms } = await once(agent, url, headers);
      latencies.push(ms);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  }
  await Promise.all(Array.from({ length: concurrency }, loop));
  const elapsedMs = performance.now() - started;
  agent.destroy();
  return { latencies, statuses, elapsedMs };
}

/** The median of some numbers (the mean of the middle two for an even count), or undefined for none. */
export function median(xs) {
  if (xs.length === 0) return undefined;
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The q-quantile (0..1) of a list of numbers, nearest-rank method. */
export function quantile(values, q) {
  if (values.length === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** Merges measured segments of one target into req/s, p50 and p99; an answer other than `expected` is an error. */
export function summarize(segments, expected = 200) {
  const latencies = segments.flatMap((s) => s.latencies);
  const elapsedMs = segments.reduce((sum, s) => sum + s.elapsedMs, 0);
  const statuses = {};
  for (const s of segments) for (const [k, v] of Object.entries(s.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
  const ok = statuses[expected] ?? 0;
  return {
    requests: latencies.length,
    errors: latencies.length - ok,
    statuses,
    rps: latencies.length / (elapsedMs / 1000),
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    roundRps: segments.map((s) => s.latencies.length / (s.elapsedMs / 1000)),
  };
}
