// Makes the code runner's metered engine: QuickJS's WebAssembly (@jitl/quickjs-wasmfile-release-sync) with a step
// counter at every loop header and function exit of the engine, native builtins included (binaryen's
// log-execution pass places the hooks; each hook is replaced by an in-module function that decrements the exported
// global `fuel` and traps below zero). The runner sets `fuel` before each test, so a test ends after a number of
// steps whatever the clock says (docs/decisions/0017-code-runner-limits.md).
//
// Written to worker/sandbox/quickjs-metered.wasm (not committed); the Vite and vitest configs call
// ensureMeteredWasm(), so `npm start`, `npm test` and `npm run build` make it when it is missing or stale.
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const source = join(root, "node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm");
export const target = join(root, "worker/sandbox/quickjs-metered.wasm");
const self = fileURLToPath(import.meta.url);

export async function meter(bytes) {
  const { default: binaryen } = await import("binaryen");
  const m = binaryen.readBinary(bytes);
  const F = binaryen.Features;
  // The features emscripten's build uses, plus an exported mutable global.
  m.setFeatures(F.MutableGlobals | F.SignExt | F.BulkMemory | (F.BulkMemoryOpt ?? 0) | F.NontrappingFPToInt | F.Multivalue | F.ReferenceTypes);
  // memory.copy and memory.fill are one instruction whatever their length: lower them to loops first, so a loop
  // copying megabytes per turn pays for every byte, like any other loop.
  m.runPasses(["llvm-memory-copy-fill-lowering"]);
  binaryen.setPassArgument("log-execution", "meter");
  m.runPasses(["log-execution"]);
  let hook;
  for (let i = 0; i < m.getNumFunctions(); i++) {
    const f = binaryen.getFunctionInfo(m.getFunctionByIndex(i));
    if (f.base === "log_execution") hook = f.name;
  }
  if (!hook) throw new Error("binaryen's log-execution pass added no hook");
  m.removeFunction(hook);
  m.addGlobal("fuel", binaryen.i32, true, m.i32.const(0x7fffffff));
  const fuel = () => m.global.get("fuel", binaryen.i32);
  m.addFunction(
    hook,
    binaryen.createType([binaryen.i32]),
    binaryen.none,
    [],
    m.block(null, [m.global.set("fuel", m.i32.sub(fuel(), m.i32.const(1))), m.if(m.i32.lt_s(fuel(), m.i32.const(0)), m.unreachable())]),
  );
  m.addGlobalExport("fuel", "fuel");
  if (!m.validate()) throw new Error("the metered engine does not validate");
  const out = m.emitBinary();
  m.dispose();
  return out;
}

/** Writes the metered engine unless it is newer than both its source and this script. */
export async function ensureMeteredWasm() {
  if (existsSync(target)) {
    const made = statSync(target).mtimeMs;
    if (made >= statSync(source).mtimeMs && made >= statSync(self).mtimeMs) return target;
  }
  writeFileSync(target, await meter(readFileSync(source)));
  return target;
}

if (process.argv[1] === self) {
  await ensureMeteredWasm();
  console.log(`metered engine: ${target}`);
}
