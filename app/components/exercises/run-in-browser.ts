/**
 * Runs the visible tests in a Web Worker (runner.worker.ts). The worker's own limits end a loop per test; as a last
 * guard the page stops the worker when a run takes far longer than its tests may, and starts a new one next time.
 */
import type { CodeTest, RunLimits, RunReport } from "../../../worker/sandbox/types";
import type { RunRequest } from "./runner.worker";

export type BrowserRun = { ok: true; report: RunReport } | { ok: false; reason: "stopped" | "failed"; message?: string };

let worker: Worker | null = null;
let nextId = 1;

function runner(): Worker {
  worker ??= new Worker(new URL("./runner.worker.ts", import.meta.url), { type: "module" });
  return worker;
}

/** Stops the worker (a hung run, or the page leaving). */
export function stopRunner() {
  worker?.terminate();
  worker = null;
}

export function runInBrowser(code: string, tests: CodeTest[], limits: RunLimits): Promise<BrowserRun> {
  const id = nextId++;
  const w = runner();
  // The engine's first load plus every test's own limit, with room to spare.
  const guardMs = 10_000 + tests.length * limits.timeMs * 2;
  return new Promise((resolve) => {
    const done = (result: BrowserRun) => {
      window.clearTimeout(guard);
      w.removeEventListener("message", onMessage);
      w.removeEventListener("error", onError);
      resolve(result);
    };
    const onMessage = (event: MessageEvent<{ id: number } & ({ ok: true; report: RunReport } | { ok: false; message: string })>) => {
      if (event.data.id !== id) return;
      done(event.data.ok ? { ok: true, report: event.data.report } : { ok: false, reason: "failed", message: event.data.message });
    };
    const onError = (event: ErrorEvent) => {
      event.preventDefault();
      stopRunner();
      done({ ok: false, reason: "failed", message: event.message });
    };
    const guard = window.setTimeout(() => {
      stopRunner();
      done({ ok: false, reason: "stopped" });
    }, guardMs);
    w.addEventListener("message", onMessage);
    w.addEventListener("error", onError);
    const request: RunRequest = { id, code, tests, limits };
    w.postMessage(request);
  });
}
