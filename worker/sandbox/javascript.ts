/**
 * The Worker's JavaScript runner: the shared QuickJS runner (quickjs-runner.ts) on the metered engine, which
 * wrangler compiles from the import below when it bundles the Worker (scripts/meter-wasm.mjs makes the file).
 */
import { engines, runTests } from "./quickjs-runner";
import type { CodeTest, RunLimits, RunReport } from "./types";

// A relative path ending in .wasm: wrangler compiles it as a WebAssembly module (notes/toolchain.md). Imported when
// the first engine is made, not when the Worker starts: a static import would link the module at every cold start.
const pool = engines(() => import("./quickjs-metered.wasm").then((wasm) => wasm.default));

export function runJavaScript(code: string, tests: CodeTest[], limits: RunLimits): Promise<RunReport> {
  return runTests(pool, code, tests, limits);
}
