/**
 * The Worker's JavaScript runner: the shared QuickJS runner (quickjs-runner.ts) on the engine's WebAssembly, which
 * wrangler compiles from the import below when it bundles the Worker.
 */
import type { QuickJSWASMModule } from "quickjs-emscripten-core";
// A relative path ending in .wasm: wrangler compiles it as a WebAssembly module (notes/toolchain.md).
import wasmModule from "../../node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm";
import { loadEngine, runTests } from "./quickjs-runner";
import type { CodeTest, RunLimits, RunReport } from "./types";

let engine: Promise<QuickJSWASMModule> | null = null;

export async function runJavaScript(code: string, tests: CodeTest[], limits: RunLimits): Promise<RunReport> {
  return runTests(await (engine ??= loadEngine(wasmModule)), code, tests, limits);
}
