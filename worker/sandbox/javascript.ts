/**
 * The Worker's JavaScript runner: the shared QuickJS runner (quickjs-runner.ts) on the metered engine, which
 * wrangler compiles from the import below when it bundles the Worker (scripts/meter-wasm.mjs makes the file).
 */
// A relative path ending in .wasm: wrangler compiles it as a WebAssembly module (notes/toolchain.md).
import wasmModule from "./quickjs-metered.wasm";
import { engines, runTests } from "./quickjs-runner";
import type { CodeTest, RunLimits, RunReport } from "./types";

const pool = engines(() => Promise.resolve(wasmModule));

export function runJavaScript(code: string, tests: CodeTest[], limits: RunLimits): Promise<RunReport> {
  return runTests(pool, code, tests, limits);
}
