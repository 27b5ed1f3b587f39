/**
 * The browser's code runner, in a Web Worker so an endless loop never freezes the page: the same QuickJS runner the
 * Worker grades with (worker/sandbox/quickjs-runner.ts), with the same limits, on the engine's WebAssembly fetched
 * from the site. Runs only the tests the page was given (the visible ones); grading happens on the server.
 */
/// <reference lib="webworker" />
import wasmUrl from "../../../worker/sandbox/quickjs-metered.wasm?url";
import { engines, runTests } from "../../../worker/sandbox/quickjs-runner";
import type { CodeTest, RunLimits } from "../../../worker/sandbox/types";

export interface RunRequest {
  id: number;
  code: string;
  tests: CodeTest[];
  limits: RunLimits;
}

let compiled: Promise<WebAssembly.Module> | null = null;
const pool = engines(() => (compiled ??= WebAssembly.compileStreaming(fetch(wasmUrl))));

self.addEventListener("message", (event: MessageEvent<RunRequest>) => {
  const { id, code, tests, limits } = event.data;
  runTests(pool, code, tests, limits)
    .then(
      (report) => self.postMessage({ id, ok: true, report }),
      (err: unknown) => self.postMessage({ id, ok: false, message: err instanceof Error ? err.message : String(err) })
    );
});
