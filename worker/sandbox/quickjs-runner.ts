/**
 * Runs untrusted JavaScript against tests in QuickJS compiled to WebAssembly (quickjs-emscripten; Workers have no
 * eval). The same code grades hand-ins in the Worker (javascript.ts) and runs the visible tests in the student's
 * browser (app/components/exercises/runner.worker.ts), so both agree on every result; only the way the engine's
 * WebAssembly is loaded differs. Every test gets a fresh runtime and context: the student's code is
 * evaluated, then the test's call, and the result is compared with the expected value as canonical JSON.
 *
 * Limits are enforced here, whatever the browser did: a deadline per test (an interrupt handler), a memory cap
 * and a stack cap per runtime, at most OUTPUT_LIMIT characters of console output per test, and a time budget for
 * the whole run, so one hand-in costs at most RUN_BUDGET_MS of CPU. Inside there is no fetch, no timers, no
 * modules and nothing of the Worker: the sandbox's globals are QuickJS's own plus `console`.
 */
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSContext, type QuickJSHandle, type QuickJSWASMModule } from "quickjs-emscripten-core";
import releaseSync from "@jitl/quickjs-wasmfile-release-sync";
import type { CodeTest, RunLimits, RunReport, TestResult } from "./types";

/** Console output kept per test; the rest is dropped and marked. */
export const OUTPUT_LIMIT = 4_000;
/** The whole run's time budget: tests after it are reported as not run. */
export const RUN_BUDGET_MS = 6_000;
/** Stack per runtime: deep recursion ends in a clean "stack overflow" (512 KB overflowed the host in tests). */
const STACK_BYTES = 192 * 1024;
/** How much of a wrong value a report shows. */
const SHOWN = 300;

/** The engine from its compiled WebAssembly module (compiled by wrangler in the Worker, fetched in a browser). */
export const loadEngine = (wasmModule: WebAssembly.Module) => newQuickJSWASMModuleFromVariant(newVariant(releaseSync, { wasmModule }));

/** JSON with object keys sorted, so {a,b} and {b,a} compare equal. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

const clip = (text: string) => (text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text);

/** The message of an error thrown inside the sandbox, in one line ("TypeError: x is not a function"). */
function errorText(vm: QuickJSContext, handle: QuickJSHandle): string {
  try {
    const dumped = vm.dump(handle) as unknown;
    if (dumped && typeof dumped === "object") {
      const e = dumped as { name?: unknown; message?: unknown };
      const name = typeof e.name === "string" ? e.name : "Error";
      const message = typeof e.message === "string" ? e.message : "";
      return clip(message ? `${name}: ${message}` : name);
    }
    return clip(`Uncaught ${String(dumped)}`);
  } catch {
    return "The code threw something that cannot be shown.";
  } finally {
    handle.dispose();
  }
}

/** Friendlier words for the limits QuickJS reports. */
function limitText(message: string, timeMs: number): string {
  if (/interrupted/i.test(message)) return `Time limit exceeded (${timeMs} ms): is there an endless loop?`;
  if (/out of memory/i.test(message)) return "Memory limit exceeded: the code allocated too much.";
  if (/stack overflow/i.test(message)) return "Stack overflow: is there a recursion without an end?";
  return message;
}

async function runOne(module: QuickJSWASMModule, code: string, test: CodeTest, limits: RunLimits, timeMs: number): Promise<TestResult> {
  const started = Date.now();
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(limits.memoryMb * 1024 * 1024);
  runtime.setMaxStackSize(STACK_BYTES);
  const deadline = started + timeMs;
  runtime.setInterruptHandler(() => Date.now() > deadline);
  const vm = runtime.newContext();
  let output = "";
  let dropped = false;
  const base = { name: test.name, points: test.points, hidden: test.hidden };
  const disposeLater: QuickJSHandle[] = [];
  try {
    // console.log / error / warn / info write to this test's output, up to the limit.
    const consoleObject = vm.newObject();
    const write = vm.newFunction("log", (...args) => {
      const line = args.map((a) => {
        const t = vm.typeof(a);
        if (t === "string") return vm.getString(a);
        try {
          return JSON.stringify(vm.dump(a)) ?? String(vm.dump(a));
        } catch {
          return `[${t}]`;
        }
      });
      if (output.length < OUTPUT_LIMIT) output += `${line.join(" ")}\n`;
      else dropped = true;
    });
    for (const name of ["log", "error", "warn", "info"]) vm.setProp(consoleObject, name, write);
    vm.setProp(vm.global, "console", consoleObject);
    write.dispose();
    consoleObject.dispose();

    // QuickJS's own JSON.stringify, taken before the solution runs: replacing the global cannot fake a result.
    const json = vm.getProp(vm.global, "JSON");
    const stringify = vm.getProp(json, "stringify");
    json.dispose();
    disposeLater.push(stringify);

    const loaded = vm.evalCode(code, "solution.js");
    if (loaded.error) return { ...base, passed: false, error: limitText(errorText(vm, loaded.error), timeMs), output: shownOutput(output, dropped), ms: Date.now() - started };
    loaded.value.dispose();

    const called = vm.evalCode(`(function () { return (${test.call}\n); })()`, "test.js");
    if (called.error) return { ...base, passed: false, error: limitText(errorText(vm, called.error), timeMs), output: shownOutput(output, dropped), ms: Date.now() - started };
    const serialized = vm.callFunction(stringify, vm.undefined, called.value);
    called.value.dispose();
    if (serialized.error) return { ...base, passed: false, error: limitText(errorText(vm, serialized.error), timeMs), output: shownOutput(output, dropped), ms: Date.now() - started };
    const text = vm.typeof(serialized.value) === "string" ? vm.getString(serialized.value) : undefined;
    serialized.value.dispose();
    const actual = text === undefined ? "undefined" : canonical(JSON.parse(text));
    const expected = canonical(JSON.parse(test.expected));
    const passed = actual === expected;
    return { ...base, passed, actual: clip(actual), expected: clip(expected), output: shownOutput(output, dropped), ms: Date.now() - started };
  } catch (err) {
    // A limit hit while the host was reading a value (a huge result, a memory cap mid-call).
    const message = err instanceof Error ? err.message : String(err);
    return { ...base, passed: false, error: limitText(clip(message), timeMs), output: shownOutput(output, dropped), ms: Date.now() - started };
  } finally {
    try {
      for (const h of disposeLater) h.dispose();
      vm.dispose();
      runtime.dispose();
    } catch {
      // A runtime that ran out of memory can refuse to free cleanly; it is dropped with the test either way.
    }
  }
}

const shownOutput = (output: string, dropped: boolean) => (dropped ? `${output}… (output cut at ${OUTPUT_LIMIT} characters)` : output);

/** Runs every test (in order) against the code and scores the passed tests' points. */
export async function runTests(module: QuickJSWASMModule, code: string, tests: CodeTest[], limits: RunLimits): Promise<RunReport> {
  const started = Date.now();
  const results: TestResult[] = [];
  for (const test of tests) {
    const left = RUN_BUDGET_MS - (Date.now() - started);
    if (left <= 0) {
      results.push({ name: test.name, points: test.points, hidden: test.hidden, passed: false, error: "Not run: this hand-in used up its time budget.", ms: 0 });
      continue;
    }
    results.push(await runOne(module, code, test, limits, Math.min(limits.timeMs, left)));
  }
  const score = results.reduce((sum, r) => sum + (r.passed ? r.points : 0), 0);
  const maxScore = tests.reduce((sum, t) => sum + t.points, 0);
  return { results, score, maxScore, ms: Date.now() - started };
}
