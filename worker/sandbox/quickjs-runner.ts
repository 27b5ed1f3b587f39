/**
 * Runs untrusted JavaScript against tests in QuickJS compiled to WebAssembly (quickjs-emscripten; Workers have no
 * eval). The same code grades hand-ins in the Worker (javascript.ts) and runs the visible tests in the student's
 * browser (app/components/exercises/runner.worker.ts), so both agree on every result; only the way the engine's
 * WebAssembly is loaded differs. Every test gets a fresh runtime and context: the student's code is evaluated, then
 * the test's call, and the result is compared with the expected value as canonical JSON.
 *
 * Limits do not depend on a clock (on Cloudflare, `Date.now()` does not advance while code runs): the engine's
 * WebAssembly is metered (scripts/meter-wasm.mjs adds a step counter to every loop of the engine, its native
 * builtins included), so `while (true) {}`, a loop around `a.sort()` and `(10n ** 200000n).toString()` all stop
 * when their steps run out. A test's time limit is a number of steps (FUEL_PER_MS per millisecond of the limit), the
 * whole hand-in has a budget of RUN_BUDGET_MS, and a memory cap and a stack cap bound every runtime. Output is cut
 * per line and per test whatever `console.log` receives, a result too large to compare is refused before the host
 * reads it, and a report never grows past REPORT_LIMIT bytes. Inside there is no fetch, no timers, no modules and
 * nothing of the Worker: the sandbox's globals are QuickJS's own plus `console`, with `Math.random` and the clock
 * made deterministic (DETERMINISTIC_PRELUDE).
 */
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSContext, type QuickJSHandle, type QuickJSWASMModule } from "quickjs-emscripten-core";
import releaseSync from "@jitl/quickjs-wasmfile-release-sync";
import type { CodeTest, RunLimits, RunReport, TestResult } from "./types";

/** Console output kept per test; the rest is dropped and marked. */
export const OUTPUT_LIMIT = 4_000;
/** One console.log line is cut here, whatever it was given. */
export const LINE_LIMIT = 1_000;
/** The whole run's budget, in milliseconds of work: tests after it are reported as not run. */
export const RUN_BUDGET_MS = 6_000;
/** A stored report is at most this many bytes of JSON. */
export const REPORT_LIMIT = 64 * 1024;
/**
 * Engine steps per millisecond of a time limit: the metered engine's rate on the machine the limits were tuned on
 * (about 400,000 loop iterations of QuickJS and its builtins per ms; `npm run bench:sandbox` prints the rate seen).
 * Steps, not the clock, are the limit, so a test ends at the same point on every machine and in production.
 */
export const FUEL_PER_MS = 400_000;
/**
 * The engine's WebAssembly memory: 16 MB to start (the engine's own) and at most ENGINE_MEMORY_MB. QuickJS's own
 * memory limit counts objects but not the size of large buffers in this build, so this cap is what bounds a string,
 * an ArrayBuffer or a typed array, far below a Worker's 128 MB.
 */
export const ENGINE_MEMORY_MB = 48;
/** What one console.log costs in steps, per argument: the host's work that the meter cannot see. */
const HOST_CALL_STEPS = 2_000;
/** A result whose JSON is longer than this is refused before the host copies it. */
const RESULT_LIMIT = 100_000;
/** Stack per runtime: deep recursion ends in a clean "stack overflow" (512 KB overflowed the host in tests). */
const STACK_BYTES = 192 * 1024;
/** How much of a wrong value a report shows. */
const SHOWN = 300;
/** The meter's value between tests: the host's own calls (setting up, disposing) are never cut short. */
const UNMETERED = 0x7fffffff;

/** The metered engine: QuickJS on one instance of the WebAssembly, and that instance's step counter. */
export interface Engine {
  quickjs: QuickJSWASMModule;
  fuel: WebAssembly.Global;
}

/**
 * A fresh engine on the metered module (compiled by wrangler in the Worker, fetched in a browser). Each call makes
 * a new WebAssembly instance: an engine stopped mid-step (out of steps) is thrown away, never reused.
 */
export async function loadEngine(wasmModule: WebAssembly.Module): Promise<Engine> {
  let fuel: WebAssembly.Global | undefined;
  const quickjs = await newQuickJSWASMModuleFromVariant(
    newVariant(releaseSync, {
      wasmMemory: new WebAssembly.Memory({ initial: 256, maximum: ENGINE_MEMORY_MB * 16 }),
      emscriptenModule: {
        instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) {
          void WebAssembly.instantiate(wasmModule, imports).then((instance) => {
            fuel = instance.exports.fuel as WebAssembly.Global | undefined;
            done(instance, wasmModule);
          });
          return {};
        },
      } as never,
    }),
  );
  if (!(fuel instanceof WebAssembly.Global)) throw new Error("The code runner needs the metered engine (scripts/meter-wasm.mjs).");
  return { quickjs, fuel };
}

/** JSON with object keys sorted, so {a,b} and {b,a} compare equal. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

const clip = (text: string, max = SHOWN) => (text.length > max ? `${text.slice(0, max)}…` : text);

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
    // Out of memory while throwing, QuickJS has no error object to give and throws null (a plain `throw null` reads
    // the same; nobody's code does that on purpose).
    if (dumped === null) return "out of memory";
    return clip(`Uncaught ${String(dumped)}`);
  } catch {
    return "The code threw something that cannot be shown.";
  } finally {
    handle.dispose();
  }
}

const timeLimitText = (timeMs: number) => `Time limit exceeded (${timeMs} ms of work): is there an endless loop, or one very slow step?`;

/** Friendlier words for the limits QuickJS reports. */
function limitText(message: string, timeMs: number): string {
  if (/interrupted/i.test(message)) return timeLimitText(timeMs);
  if (/out of memory/i.test(message)) return "Memory limit exceeded: the code allocated too much.";
  if (/stack overflow/i.test(message)) return "Stack overflow: is there a recursion without an end?";
  return message;
}

/**
 * Evaluated in every fresh context before the student's code, outside the meter. The same code gets the same verdict
 * everywhere (ADR 17): in the browser, on the server and in a regrade next month. So `Math.random` is a seeded
 * generator (xorshift32: the same sequence in every test of every run), and the clock reads one fixed moment,
 * 2025-01-01T00:00:00Z: `Date.now()`, `new Date()` and `Date()`. Local time is UTC wherever the code runs (the
 * engine takes the host's time zone, a student's browser in Cairo and the server in UTC): the local getters and
 * setters are the UTC ones, the offset is 0, a date built from parts is built in UTC, and a date reads as UTC.
 */
export const DETERMINISTIC_PRELUDE = `(() => {
  let state = 0x2545f491;
  Math.random = function random() {
    state ^= state << 13; state ^= state >>> 17; state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  const RealDate = globalThis.Date;
  const FIXED = RealDate.UTC(2025, 0, 1);
  const P = RealDate.prototype;
  for (const part of ["FullYear", "Month", "Date", "Day", "Hours", "Minutes", "Seconds", "Milliseconds"]) {
    P["get" + part] = P["getUTC" + part];
    if (part !== "Day") P["set" + part] = P["setUTC" + part];
  }
  P.getTimezoneOffset = function getTimezoneOffset() { return 0; };
  const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  const two = (n) => String(n).padStart(2, "0");
  const day = (d) => DAYS[d.getUTCDay()] + " " + MONTHS[d.getUTCMonth()] + " " + two(d.getUTCDate()) + " " + String(d.getUTCFullYear()).padStart(4, "0");
  const time = (d) => two(d.getUTCHours()) + ":" + two(d.getUTCMinutes()) + ":" + two(d.getUTCSeconds()) + " GMT+0000";
  const valid = (d, text) => (isNaN(d.getTime()) ? "Invalid Date" : text);
  P.toString = function toString() { return valid(this, day(this) + " " + time(this)); };
  P.toDateString = function toDateString() { return valid(this, day(this)); };
  P.toTimeString = function toTimeString() { return valid(this, time(this)); };
  P.toLocaleString = P.toString;
  P.toLocaleDateString = P.toDateString;
  P.toLocaleTimeString = P.toTimeString;
  const FixedDate = function Date(...args) {
    if (!new.target) return new RealDate(FIXED).toString();
    if (args.length === 0) return new RealDate(FIXED);
    // Parts (year, month, ...) are local time: here, UTC.
    return args.length >= 2 ? new RealDate(RealDate.UTC(...args)) : new RealDate(args[0]);
  };
  FixedDate.prototype = P;
  P.constructor = FixedDate;
  FixedDate.now = () => FIXED;
  FixedDate.UTC = RealDate.UTC;
  FixedDate.parse = RealDate.parse;
  globalThis.Date = FixedDate;
})();`;

/** Thrown when the engine stopped mid-step: the engine is unusable afterwards. */
class EngineStopped extends Error {}

/**
 * One test on a fresh runtime of `engine`, with `fuel` steps. Throws EngineStopped when the engine's WebAssembly
 * trapped (out of steps, or a fault): the caller reports the test and replaces the engine.
 */
function runOne(engine: Engine, code: string, test: CodeTest, limits: RunLimits, fuel: number, timeMs: number): { result: TestResult; used: number } {
  const runtime = engine.quickjs.newRuntime();
  runtime.setMemoryLimit(limits.memoryMb * 1024 * 1024);
  runtime.setMaxStackSize(STACK_BYTES);
  const vm = runtime.newContext();
  let output = "";
  let dropped = false;
  const base = { name: test.name, points: test.points, hidden: test.hidden };
  const held: QuickJSHandle[] = [];
  let used = 0;
  const meter = engine.fuel;
  const start = () => (meter.value = fuel);
  const stop = () => {
    used = fuel - Number(meter.value);
    meter.value = UNMETERED;
  };
  const done = (result: Omit<TestResult, "name" | "points" | "hidden" | "ms">): { result: TestResult; used: number } => {
    stop();
    const shown = dropped ? `${output}… (output cut at ${OUTPUT_LIMIT} characters)` : output;
    return { result: { ...base, ...result, output: shown, ms: Math.min(timeMs, Math.round(used / FUEL_PER_MS)) }, used };
  };
  let trapped = false;
  const failure = (handle: QuickJSHandle) => limitText(errorText(vm, handle), timeMs);
  try {
    // QuickJS's own JSON.stringify, String and String.prototype.slice, taken before the solution runs: replacing
    // the globals cannot fake a result or make the host copy an endless string.
    const json = vm.getProp(vm.global, "JSON");
    const stringify = vm.getProp(json, "stringify");
    json.dispose();
    const stringFn = vm.getProp(vm.global, "String");
    const proto = vm.getProp(stringFn, "prototype");
    const slice = vm.getProp(proto, "slice");
    proto.dispose();
    held.push(stringify, stringFn, slice);

    /** At most `max` characters of a sandbox value as text, read through the captured builtins. */
    const textOf = (value: QuickJSHandle, max: number): string => {
      let text = value;
      let own = false;
      if (vm.typeof(value) !== "string") {
        const asJson = vm.callFunction(stringify, vm.undefined, value);
        const ok = !asJson.error && vm.typeof(asJson.value) === "string";
        if (asJson.error) asJson.error.dispose();
        else if (!ok) asJson.value.dispose();
        const shown = ok ? asJson : vm.callFunction(stringFn, vm.undefined, value);
        if (shown.error) {
          shown.error.dispose();
          return `[${vm.typeof(value)}]`;
        }
        text = shown.value;
        own = true;
      }
      const cut = vm.callFunction(slice, text, vm.newNumber(0), vm.newNumber(max + 1));
      if (own) text.dispose();
      if (cut.error) {
        cut.error.dispose();
        return `[${vm.typeof(value)}]`;
      }
      const s = vm.getString(cut.value);
      cut.value.dispose();
      return s;
    };

    // console.log / error / warn / info write to this test's output: each line cut at LINE_LIMIT, the test's output
    // at OUTPUT_LIMIT, checked before anything is read.
    const consoleObject = vm.newObject();
    const write = vm.newFunction("log", (...args) => {
      // The host's side of a call is work too: it is paid in steps, so a loop of console.log ends like any loop.
      meter.value = Math.max(0, Number(meter.value) - HOST_CALL_STEPS * (1 + args.length));
      const left = OUTPUT_LIMIT - output.length;
      if (left <= 0) {
        dropped = true;
        return;
      }
      const room = Math.min(LINE_LIMIT, left);
      const parts: string[] = [];
      let length = 0;
      for (const a of args) {
        if (length > room) break;
        const part = textOf(a, room - length);
        parts.push(part);
        length += part.length + 1;
      }
      let line = parts.join(" ");
      if (line.length > LINE_LIMIT) line = `${line.slice(0, LINE_LIMIT)}…`;
      if (line.length > left) {
        line = line.slice(0, left);
        dropped = true;
      }
      output += `${line}\n`;
    });
    for (const name of ["log", "error", "warn", "info"]) vm.setProp(consoleObject, name, write);
    vm.setProp(vm.global, "console", consoleObject);
    write.dispose();
    consoleObject.dispose();

    const prelude = vm.evalCode(DETERMINISTIC_PRELUDE, "prelude.js");
    if (prelude.error) {
      const why = errorText(vm, prelude.error);
      throw new Error(`The sandbox's prelude failed: ${why}`);
    }
    prelude.value.dispose();

    start();
    const loaded = vm.evalCode(code, "solution.js");
    if (loaded.error) return done({ passed: false, error: failure(loaded.error) });
    loaded.value.dispose();

    const called = vm.evalCode(`(function () { return (${test.call}\n); })()`, "test.js");
    if (called.error) return done({ passed: false, error: failure(called.error) });
    const serialized = vm.callFunction(stringify, vm.undefined, called.value);
    called.value.dispose();
    if (serialized.error) return done({ passed: false, error: failure(serialized.error) });
    let text: string | undefined;
    if (vm.typeof(serialized.value) === "string") {
      const length = vm.getProp(serialized.value, "length");
      const size = vm.getNumber(length);
      length.dispose();
      if (size > RESULT_LIMIT) {
        serialized.value.dispose();
        return done({ passed: false, error: `The result is too large to compare (over ${RESULT_LIMIT.toLocaleString("en")} characters of JSON).` });
      }
      text = vm.getString(serialized.value);
    }
    serialized.value.dispose();
    const actual = text === undefined ? "undefined" : canonical(JSON.parse(text));
    const expected = canonical(JSON.parse(test.expected));
    return done({ passed: actual === expected, actual: clip(actual), expected: clip(expected) });
  } catch (err) {
    if (err instanceof WebAssembly.RuntimeError) {
      // The engine stopped mid-step: out of steps (the meter below zero) or a fault. Either way it is discarded.
      trapped = true;
      const outOfSteps = Number(meter.value) < 0;
      const result = done({ passed: false, error: outOfSteps ? timeLimitText(timeMs) : "The code stopped the engine: it was ended." });
      throw Object.assign(new EngineStopped(), result);
    }
    // A limit hit while the host was reading a value (a memory cap mid-call).
    const message = err instanceof Error ? err.message : String(err);
    return done({ passed: false, error: limitText(clip(message), timeMs) });
  } finally {
    if (!trapped) {
      try {
        for (const h of held) h.dispose();
        vm.dispose();
        runtime.dispose();
      } catch {
        // A runtime that ran out of memory can refuse to free cleanly; it is dropped with the test either way.
      }
    }
  }
}

/** Cuts console output, longest first, until the report's JSON fits in REPORT_LIMIT bytes. */
export function fitReport(report: RunReport): RunReport {
  const size = (r: RunReport) => new TextEncoder().encode(JSON.stringify(r)).length;
  if (size(report) <= REPORT_LIMIT) return report;
  const results = report.results.map((r) => ({ ...r }));
  const byOutput = [...results].sort((a, b) => (b.output?.length ?? 0) - (a.output?.length ?? 0));
  for (const r of byOutput) {
    if (!r.output) continue;
    r.output = "… (output left out: the report's size limit)";
    if (size({ ...report, results }) <= REPORT_LIMIT) return { ...report, results };
  }
  // Still too large (never with the schema's limits): keep names and verdicts only.
  return { ...report, results: results.map(({ name, points, hidden, passed, ms }) => ({ name, points, hidden, passed, ms })) };
}

/**
 * Runs every test against the code and scores the passed tests' points; the results come in the tests' order.
 * The visible tests run first and the hidden ones after them: the budget is shared, so a visible test run after a
 * hidden one would show, in its time or in "Not run", what the hidden one spent, and a solution that spends time in
 * proportion to its input would read the hidden input back. `engine` is asked for an engine before each test;
 * `discard` is told when one stopped mid-step, so the next test gets a fresh one.
 */
export async function runTests(source: { engine(): Promise<Engine>; discard(): void }, code: string, tests: CodeTest[], limits: RunLimits): Promise<RunReport> {
  const budget = RUN_BUDGET_MS * FUEL_PER_MS;
  let spent = 0;
  const results: TestResult[] = new Array(tests.length);
  const order = [...tests.keys()].filter((i) => !tests[i]!.hidden).concat([...tests.keys()].filter((i) => tests[i]!.hidden));
  for (const i of order) {
    const test = tests[i]!;
    const left = budget - spent;
    if (left <= 0) {
      results[i] = { name: test.name, points: test.points, hidden: test.hidden, passed: false, error: "Not run: this hand-in used up its time budget.", ms: 0 };
      continue;
    }
    const fuel = Math.min(limits.timeMs * FUEL_PER_MS, left);
    const engine = await source.engine();
    try {
      const { result, used } = runOne(engine, code, test, limits, fuel, limits.timeMs);
      results[i] = result;
      spent += used;
    } catch (err) {
      if (!(err instanceof EngineStopped)) throw err;
      source.discard();
      const { result, used } = err as EngineStopped & { result: TestResult; used: number };
      results[i] = result;
      spent += used;
    }
  }
  const score = results.reduce((sum, r) => sum + (r.passed ? r.points : 0), 0);
  const maxScore = tests.reduce((sum, t) => sum + t.points, 0);
  return fitReport({ results, score, maxScore, ms: Math.round(spent / FUEL_PER_MS) });
}

/** Engines on one compiled module: one kept for the next test, replaced after it stopped mid-step. */
export function engines(load: () => Promise<WebAssembly.Module>) {
  let current: Promise<Engine> | null = null;
  return {
    engine: () => (current ??= load().then(loadEngine)),
    discard() {
      current = null;
    },
  };
}
