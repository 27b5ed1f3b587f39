import { createDb, type Database } from "../db/client";
import type { ReadAhead } from "./http/read-ahead";
import { getSettings, type Bindings, type Settings } from "./env";
import { runCode, type RunCode } from "./sandbox/registry";
import type { RunReport } from "./sandbox/types";

/**
 * What every service receives: the database, the parsed settings and the raw bindings.
 * Built once per request by the API and by the Remix load context alike, so both call the same services.
 */
export interface ServiceContext {
  db: Database;
  env: Bindings;
  settings: Settings;
  /** Keeps background work (e-mail, realtime fan-out) alive after the response is sent. */
  waitUntil: (promise: Promise<unknown>) => void;
  /**
   * Runs `work` only once the response has left: nothing of it (not even its first query) shares the request's
   * time, so an answer cannot reveal what the work found (forgot-password for a known or unknown address).
   */
  afterResponse: (work: () => Promise<unknown>) => void;
  /** Client IP as Cloudflare reports it, for rate limits. */
  ip: string;
  /** Runs untrusted code against tests in the WebAssembly sandbox (worker/sandbox). */
  runCode: RunCode;
  /**
   * Request-scoped reads: a question asked again in the same request (who the viewer is, asked by the root, layout
   * and page loaders; a group with the viewer's membership, asked by each list of a page) is read once. Only a GET
   * remembers anything (a write may change the answer); `remember` files an answer under another key too.
   */
  memo<T>(key: string, load: () => Promise<T>): Promise<T>;
  remember<T>(key: string, value: T): void;
  /**
   * Set only while a signed-in page is rendered for a GET (worker/pages.ts): rows kept from this isolate's earlier
   * requests that a read may start from, each checked against the database before the page is sent (ADR 0033).
   */
  readAhead?: ReadAhead;
}

/**
 * How long `afterResponse` waits before it starts. A Worker cannot tell when its response has been written, and
 * background I/O that starts at once competes with writing it (measured: +3.5 ms, 21 % of a forgot-password answer,
 * with work that starts immediately; within 5 % with this delay; bench/forgot-timing.mjs).
 */
const AFTER_RESPONSE_DELAY_MS = 25;

let warned = false;

/**
 * Student code runs in the runner Worker (wrangler.runner.toml) through the RUNNER binding, never in this isolate.
 * In development a lone `wrangler dev` has the binding but no runner to reach: there, and only there, the same
 * engine runs here instead (bounded by its steps all the same). Without a binding at all it runs here too.
 */
function runnerFor(env: Bindings): RunCode {
  const remote = env.RUNNER;
  if (!remote) return runCode;
  return async (language, code, tests, limits) => {
    try {
      return (await remote.run(language, code, tests, limits)) as RunReport;
    } catch (err) {
      if (env.ENVIRONMENT !== "development") throw err;
      if (!warned) console.warn("The code runner Worker is not running (npm start starts it): running code in this Worker.");
      warned = true;
      return runCode(language, code, tests, limits);
    }
  };
}

export function createServiceContext(env: Bindings, exec: Pick<ExecutionContext, "waitUntil">, request?: Request): ServiceContext {
  const reads = request && (request.method === "GET" || request.method === "HEAD") ? new Map<string, Promise<unknown>>() : null;
  return {
    memo<T>(key: string, load: () => Promise<T>): Promise<T> {
      if (!reads) return load();
      let answer = reads.get(key) as Promise<T> | undefined;
      if (!answer) {
        answer = load();
        reads.set(key, answer);
        // A failed read is not remembered: the next caller asks again.
        answer.catch(() => reads.delete(key));
      }
      return answer;
    },
    remember(key, value) {
      if (reads && !reads.has(key)) reads.set(key, Promise.resolve(value));
    },
    db: createDb(env.DB),
    env,
    settings: getSettings(env),
    waitUntil: (p) => exec.waitUntil(p.catch((e) => console.error("background task failed", e))),
    afterResponse: (work) => exec.waitUntil(new Promise((resolve) => setTimeout(resolve, AFTER_RESPONSE_DELAY_MS)).then(work).catch((e) => console.error("background task failed", e))),
    ip: request?.headers.get("cf-connecting-ip") ?? "127.0.0.1",
    runCode: runnerFor(env),
  };
}
