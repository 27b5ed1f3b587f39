/**
 * Hostile hand-ins against the code runner with the clock frozen, as on Cloudflare (where `Date.now()` does not
 * advance while code runs): an endless loop, a loop around a long native sort, a huge BigInt and an allocation
 * loop each end with their own message inside the hand-in's budget, and the next test still runs. Output floods are
 * cut per line, per test and per report, and a hidden test's report says nothing that depends on its input.
 */
import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createServiceContext } from "../../worker/context";
import { runJavaScript } from "../../worker/sandbox/javascript";
import { studentReport } from "../../worker/sandbox/report";

const test = (call: string, expected: string, hidden = false) => ({ name: call, call, expected, points: 1, hidden });
const TIME_LIMIT = "Time limit exceeded (1000 ms of work): is there an endless loop, or one very slow step?";
const MEMORY_LIMIT = "Memory limit exceeded: the code allocated too much.";

describe("hostile code with the clock frozen", () => {
  beforeEach(() => {
    vi.spyOn(Date, "now").mockReturnValue(1_700_000_000_000);
    vi.spyOn(performance, "now").mockReturnValue(0);
  });
  afterEach(() => vi.restoreAllMocks());

  const hostile: [string, string, string][] = [
    ["an endless loop", "function chunk() { while (true) {} }", TIME_LIMIT],
    // QuickJS asks its interrupt handler only every few thousand bytecodes: each sort of 200,000 items is one of them.
    ["a loop around a long native sort", "function chunk() { const a = []; for (let i = 0; i < 2e5; i++) a.push(i); for (let k = 0; k < 1e9; k++) a.sort(); }", TIME_LIMIT],
    ["a loop around a huge BigInt", "function chunk() { const n = 10n ** 200000n; for (;;) n.toString(); }", TIME_LIMIT],
    // One instruction copies or fills a whole buffer: the meter must count its bytes, or this runs for hours.
    ["a loop copying a long string", "function chunk() { const s = 'x'.repeat(8e6); for (;;) s.slice(1); }", TIME_LIMIT],
    // The host's side of console.log is work too, or a console loop runs far past its limit.
    ["a console flood", "function chunk() { const y = 'y'.repeat(1000000); for (;;) console.log(...Array(20).fill(y)); }", TIME_LIMIT],
    ["an allocation loop of objects", "function chunk() { const all = []; for (;;) all.push({ x: [1, 2, 3] }); }", MEMORY_LIMIT],
    // Large buffers escape QuickJS's own count in this build: the engine's capped memory stops them.
    ["an allocation loop of typed arrays", "function chunk() { const all = []; for (;;) all.push(new Float64Array(1e5)); }", MEMORY_LIMIT],
    ["an allocation loop of long strings", "function chunk() { const all = []; for (let i = 0; ; i++) all.push('x'.repeat(8e5) + i); }", MEMORY_LIMIT],
  ];

  for (const [what, code, message] of hostile) {
    it(`ends ${what} with its message, inside the hand-in's budget, and runs the next test`, async () => {
      const report = await runJavaScript(code, [test("chunk([1, 2, 3], 2)", "[[1,2],[3]]"), test("[1, 2].length", "2")], { timeMs: 1_000, memoryMb: 16 });
      expect(report.results[0]).toMatchObject({ passed: false, error: message });
      // At most the test's 1,000 ms of work, far inside the hand-in's 6,000.
      expect(report.results[0]!.ms).toBeLessThanOrEqual(1_000);
      expect(report.ms).toBeLessThanOrEqual(6_000);
      expect(report.results[1]).toMatchObject({ passed: true });
    });
  }

  it("ends the BigInt seen in the attack ((10n ** 200000n).toString(), 7.6 s before) inside its test's 1,000 ms of work", async () => {
    const report = await runJavaScript("function chunk() { return (10n ** 200000n).toString().length; }", [test("chunk()", "200001")], { timeMs: 1_000, memoryMb: 16 });
    expect(report.results[0]!.ms).toBeLessThanOrEqual(1_000);
  });

  it("never lets a hostile hand-in pass its budget, whatever it does in each test", async () => {
    const tests = Array.from({ length: 12 }, (_, i) => test(`chunk(${i})`, "0"));
    const code = "function chunk(i) { if (i % 2) { const a = []; for (let j = 0; j < 2e5; j++) a.push(j); for (;;) a.sort(); } return (10n ** 300000n).toString().length; }";
    const report = await runJavaScript(code, tests, { timeMs: 1_000, memoryMb: 16 });
    expect(report.ms).toBeLessThanOrEqual(6_000);
    expect(report.results.filter((r) => r.error === "Not run: this hand-in used up its time budget.").length).toBe(6);
  });

  it("cuts console output per line (1,000 characters) and per test (4,000), however large the arguments", async () => {
    const report = await runJavaScript("function chunk() { const y = 'y'.repeat(1000000); console.log(y); console.log(...Array(20).fill(y)); console.log({ big: y }); return 1; }", [test("chunk()", "1")], { timeMs: 2_000, memoryMb: 32 });
    const lines = report.results[0]!.output!.split("\n");
    expect(lines[0]).toBe(`${"y".repeat(1_000)}…`);
    expect(lines[1]!.length).toBeLessThanOrEqual(1_001);
    expect(report.results[0]!.output!.length).toBeLessThanOrEqual(4_000 + 60);
    expect(report.results[0]!.passed).toBe(true);
  });

  it("charges the host's side of console.log in steps: 1,000 calls of 20 arguments cost at least 100 ms of work", async () => {
    const report = await runJavaScript("function chunk() { for (let i = 0; i < 1000; i++) console.log(...Array(20).fill(1)); return 1; }", [test("chunk()", "1")], { timeMs: 3_000, memoryMb: 16 });
    expect(report.results[0]!.passed).toBe(true);
    expect(report.results[0]!.ms).toBeGreaterThanOrEqual(100);
  });

  it("keeps a whole report under 64 kB with 50 chatty tests", async () => {
    const tests = Array.from({ length: 50 }, (_, i) => test(`chunk(${i})`, "1"));
    const report = await runJavaScript("function chunk() { for (let i = 0; i < 100; i++) console.log('z'.repeat(2000)); return 1; }", tests, { timeMs: 500, memoryMb: 8 });
    expect(new TextEncoder().encode(JSON.stringify(report)).length).toBeLessThanOrEqual(64 * 1024);
    expect(report.results.every((r) => r.passed)).toBe(true);
  });

  it("refuses a result too large to compare without copying it out", async () => {
    const report = await runJavaScript("function chunk() { return 'x'.repeat(2000000); }", [test("chunk()", '"x"')], { timeMs: 1_000, memoryMb: 32 });
    expect(report.results[0]).toMatchObject({ passed: false, error: "The result is too large to compare (over 100,000 characters of JSON)." });
  });

  it("gives a student nothing of a hidden test that depends on its input: no time, no output, no error, no value", async () => {
    // The attack seen: spend time in proportion to a character of the hidden input, and read the time back.
    const code = "function chunk(s) { const n = String(s).charCodeAt(0); let x = 0; for (let i = 0; i < n * 20000; i++) x++; console.log(s); throw new Error(String(s)); }";
    const hidden = (call: string, name: string) => ({ ...test(call, "1", true), name });
    const report = await runJavaScript(code, [test("chunk('visible')", "1"), hidden("chunk('secret-a')", "hidden 1"), hidden("chunk('zecret-b')", "hidden 2")], { timeMs: 1_000, memoryMb: 8 });
    // The full report (staff) has what the student must not see.
    expect(JSON.stringify(report)).toMatch(/secret-a/);
    const shown = studentReport(report);
    for (const r of shown.results.filter((x) => x.hidden)) expect(Object.keys(r).sort()).toEqual(["hidden", "name", "passed", "points"]);
    expect(JSON.stringify(shown)).not.toMatch(/secret|zecret/);
    // The report's total counts the visible test only.
    expect(shown.ms).toBe(shown.results[0]!.ms);
  });

  it("shows nothing that depends on a hidden test even in the visible tests after it: they run first, sharing the budget", async () => {
    // The attack seen: visible tests that loop to their limit, a hidden one between them that spends time in proportion
    // to its input; with the 6,000 ms budget shared, the last visible test's time was what the hidden one left.
    const code = "function add(a, b) { if ((a === 1 && b === 2) || (a === 2 && b === 2)) { while (true) {} } let x = 0; for (let i = 0; i < a * 12300; i++) x += i; return x; }";
    const run = (hiddenCall: string) =>
      runJavaScript(code, [test("add(1, 2)", "3"), { ...test(hiddenCall, "440", true), name: "hidden" }, test("add(2, 2)", "4")], { timeMs: 3_000, memoryMb: 8 });
    const [a, b] = await Promise.all([run("add(417, 23)"), run("add(100, 23)")]);
    // What the student sees is the same to the last millisecond whatever the hidden input: the visible tests, in
    // their places, had the budget first.
    expect(studentReport(a)).toEqual(studentReport(b));
    expect(a.results.map((r) => r.name)).toEqual(["add(1, 2)", "hidden", "add(2, 2)"]);
  });

  it("gives the same verdict and the same work every time: the limit is steps, not the clock", async () => {
    const code = "function chunk(n) { let x = 0; for (let i = 0; i < n; i++) x += i % 7; return x > 0 ? 1 : 0; }";
    const runs = await Promise.all([0, 1, 2].map(() => runJavaScript(code, [test("chunk(3e5)", "1"), test("chunk(1e9)", "1")], { timeMs: 200, memoryMb: 8 })));
    expect(runs.map((r) => r.results.map((x) => [x.passed, x.ms]))).toEqual([0, 1, 2].map(() => runs[0]!.results.map((x) => [x.passed, x.ms])));
    expect(runs[0]!.results[0]!.passed).toBe(true);
    expect(runs[0]!.results[1]!.error).toBe("Time limit exceeded (200 ms of work): is there an endless loop, or one very slow step?");
  });
});

describe("the runner Worker (RUNNER service binding)", () => {
  it("runs hand-ins in its own Worker, with the same limits", async () => {
    const report = await env.RUNNER!.run("javascript", "while (true) {}", [test("1 + 1", "2"), test("2 + 2", "4")], { timeMs: 300, memoryMb: 8 });
    expect(report.results.map((r) => r.error)).toEqual([TIME_LIMIT.replace("1000", "300"), TIME_LIMIT.replace("1000", "300")]);
  });

  it("is where services send code when it is bound, and a failure there is not hidden in production", async () => {
    const run = vi.fn(async () => ({ results: [], score: 0, maxScore: 0, ms: 0 }));
    const ctx = createServiceContext({ ...env, RUNNER: { run } as never }, { waitUntil: () => {} });
    await ctx.runCode("javascript", "1", [], { timeMs: 100, memoryMb: 8 });
    expect(run).toHaveBeenCalledOnce();
    const broken = createServiceContext({ ...env, ENVIRONMENT: "production", AUTH_SECRET: "a".repeat(40), PASSWORD_PEPPER: "p".repeat(20), CERTIFICATE_SIGNING_KEY: JSON.stringify({ kty: "RSA", n: "m", e: "AQAB", d: "d" }), RUNNER: { run: async () => { throw new Error("runner down"); } } as never }, { waitUntil: () => {} });
    await expect(broken.runCode("javascript", "1", [test("1", "1")], { timeMs: 100, memoryMb: 8 })).rejects.toThrow("runner down");
  });
});
