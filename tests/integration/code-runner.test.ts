/**
 * The JavaScript sandbox (worker/sandbox/javascript.ts over quickjs-runner.ts), inside workerd: right, wrong, partly right, throwing,
 * looping, memory-hungry, recursing and hostile solutions each end in a per-test result with a clear message, never a
 * hung run or a crashed isolate; every test starts from a fresh context.
 */
import { describe, expect, it } from "vitest";
import { runJavaScript } from "../../worker/sandbox/javascript";
import { canonical } from "../../worker/sandbox/quickjs-runner";

const limits = { timeMs: 300, memoryMb: 8 };
const test = (call: string, expected: string, points = 1, hidden = false) => ({ name: call, call, expected, points, hidden });
const SUM_TESTS = [test("sum(1, 2)", "3", 2), test("sum(-1, 1)", "0", 3), test("sum(0.5, 0.25)", "0.75", 5, true)];

describe("the JavaScript sandbox", () => {
  it("scores a correct solution with every test's points", async () => {
    const report = await runJavaScript("function sum(a, b) { return a + b; }", SUM_TESTS, limits);
    expect(report.results.map((r) => r.passed)).toEqual([true, true, true]);
    expect([report.score, report.maxScore]).toEqual([10, 10]);
  });

  it("scores a wrong and a partly right solution by the tests they pass, showing what came back", async () => {
    const wrong = await runJavaScript("function sum(a, b) { return a - b; }", SUM_TESTS, limits);
    expect(wrong.score).toBe(0);
    expect(wrong.results[0]).toMatchObject({ passed: false, actual: "-1", expected: "3" });
    // Right for integers only: 2 + 3 of 10 points.
    const partly = await runJavaScript("function sum(a, b) { return Math.round(a) + Math.round(b); }", SUM_TESTS, limits);
    expect(partly.results.map((r) => r.passed)).toEqual([true, true, false]);
    expect(partly.score).toBe(5);
  });

  it("gives the same code the same verdict every time: Math.random is seeded and the clock reads 2025-01-01", async () => {
    const code = "function probe() { return [Math.random(), Math.random(), Date.now(), new Date().toISOString(), typeof Date(), new Date(2020, 1, 2).getFullYear(), new Date() instanceof Date]; }";
    const first = await runJavaScript(code, [test("probe()", "null"), test("probe()", "null")], limits);
    const again = await runJavaScript(code, [test("probe()", "null")], limits);
    const values = (r: { actual?: string }) => JSON.parse(r.actual!) as [number, number, number, string, string, number, boolean];
    const [a, b, now, iso, called, built, isDate] = values(first.results[0]!);
    expect(a).not.toBe(b);
    for (const x of [a, b]) expect(x >= 0 && x < 1).toBe(true);
    expect([now, iso, called, built, isDate]).toEqual([Date.UTC(2025, 0, 1), "2025-01-01T00:00:00.000Z", "string", 2020, true]);
    // Every test and every run starts the same sequence.
    expect(values(first.results[1]!)).toEqual(values(first.results[0]!));
    expect(values(again.results[0]!)).toEqual(values(first.results[0]!));
    // Local time is UTC wherever it runs (the browser's runner is tested in Cairo, tests/e2e/exercises.test.ts).
    const local = await runJavaScript("const f = () => [String(new Date()), new Date().getTimezoneOffset(), new Date(2020, 1, 2, 3).toISOString(), new Date(NaN).toString()];", [test("f()", "null")], limits);
    expect(JSON.parse(local.results[0]!.actual!)).toEqual(["Wed Jan 01 2025 00:00:00 GMT+0000", 0, "2020-02-02T03:00:00.000Z", "Invalid Date"]);
  });

  it("compares values, not their spelling: object keys in any order, arrays in order", async () => {
    const report = await runJavaScript("const pair = () => ({ b: [1, 2], a: 'x' });", [test("pair()", '{"a":"x","b":[1,2]}'), test("pair().b", "[2,1]")], limits);
    expect(report.results.map((r) => r.passed)).toEqual([true, false]);
    expect(canonical({ b: 1, a: { d: 1, c: 2 } })).toBe('{"a":{"c":2,"d":1},"b":1}');
  });

  it("reports a thrown error and a syntax error as the test's error", async () => {
    const thrown = await runJavaScript("function sum() { throw new RangeError('too big'); }", [test("sum(1, 2)", "3")], limits);
    expect(thrown.results[0]).toMatchObject({ passed: false, error: "RangeError: too big" });
    const broken = await runJavaScript("function sum(a, b) { return a + ; }", [test("sum(1, 2)", "3")], limits);
    expect(broken.results[0]!.error).toMatch(/^SyntaxError/);
    const missing = await runJavaScript("function add(a, b) { return a + b; }", [test("sum(1, 2)", "3")], limits);
    expect(missing.results[0]!.error).toBe("ReferenceError: 'sum' is not defined");
  });

  it("ends an endless loop at the per-test limit and still runs the next tests", async () => {
    const report = await runJavaScript("function sum(a, b) { if (a === 1) { while (true) {} } return a + b; }", SUM_TESTS, limits);
    expect(report.results[0]!.error).toBe("Time limit exceeded (300 ms of work): is there an endless loop, or one very slow step?");
    expect(report.results[0]!.ms).toBe(300);
    expect(report.results.slice(1).map((r) => r.passed)).toEqual([true, true]);
  });

  it("ends a memory-hungry solution at the memory cap", async () => {
    const hungry = [
      "function sum() { const all = []; for (;;) all.push({ a: 1, b: [1, 2, 3] }); }",
      "function sum() { return 'x'.repeat(64 * 1024 * 1024).length; }",
      "function sum() { return new Array(1e8).fill(1).length; }",
    ];
    for (const code of hungry) {
      const report = await runJavaScript(code, [test("sum(1, 2)", "3"), test("1 + 2", "3")], { timeMs: 2_000, memoryMb: 8 });
      expect(report.results[0], code).toMatchObject({ passed: false, error: "Memory limit exceeded: the code allocated too much." });
      // The next test runs in a fresh runtime with its full memory.
      expect(report.results[1]!.passed, code).toBe(true);
    }
  });

  it("ends deep recursion with a stack overflow, not a crashed isolate", async () => {
    const report = await runJavaScript("function sum(a, b) { return sum(a, b) + 1; }", [test("sum(1, 2)", "3"), test("1 + 2", "3")], limits);
    expect(report.results[0]!.error).toBe("Stack overflow: is there a recursion without an end?");
    expect(report.results[1]!.passed).toBe(true);
  });

  it("keeps console output, and cuts a huge one at the limit", async () => {
    const chatty = await runJavaScript("function sum(a, b) { console.log('adding', a, b, { a }); return a + b; }", [test("sum(1, 2)", "3")], limits);
    expect(chatty.results[0]!.output).toBe('adding 1 2 {"a":1}\n');
    const flood = await runJavaScript("function sum(a, b) { for (let i = 0; i < 100000; i++) console.log('x'.repeat(100)); return a + b; }", [test("sum(1, 2)", "3")], { timeMs: 2_000, memoryMb: 8 });
    const out = flood.results[0]!.output!;
    // 4,000 characters per test (ADR 0016), then a mark.
    expect(out.length).toBeGreaterThanOrEqual(4_000);
    expect(out.length).toBeLessThan(4_000 + 200);
    expect(out).toContain("(output cut at 4000 characters)");
  });

  it("has nothing of the host: no fetch, no timers, no modules, no Worker globals", async () => {
    const probes = [
      test("typeof fetch", '"undefined"'),
      test("typeof setTimeout", '"undefined"'),
      test("typeof process", '"undefined"'),
      test("typeof caches", '"undefined"'),
      test("typeof WebAssembly", '"undefined"'),
      test("Object.keys(globalThis).filter((k) => !['console', 'probe'].includes(k))", "[]"),
    ];
    const report = await runJavaScript("var probe = 1;", probes, limits);
    expect(report.results.map((r) => [r.name, r.passed, r.actual])).toEqual(probes.map((p) => [p.name, true, p.expected]));
    const importing = await runJavaScript("function sum() { return import('https://example.com/x.js'); }", [test("sum()", "3")], limits);
    expect(importing.results[0]!.passed).toBe(false);
    const fetching = await runJavaScript("function sum() { return fetch('https://example.com'); }", [test("sum()", "3")], limits);
    expect(fetching.results[0]!.error).toBe("ReferenceError: 'fetch' is not defined");
  });

  it("cannot fake a pass by replacing JSON.stringify, and each test starts from a fresh context", async () => {
    const faker = await runJavaScript("JSON.stringify = () => '3'; function sum() { return 0; }", [test("sum(1, 2)", "3")], limits);
    expect(faker.results[0]!.passed).toBe(false);
    // Tampering with a prototype in one test does not reach the next one.
    const leak = await runJavaScript("var count = (globalThis.count || 0) + 1; Array.prototype.includes = () => true;", [test("count", "1"), test("count", "1"), test("[1].includes(2)", "true")], limits);
    expect(leak.results.map((r) => r.passed)).toEqual([true, true, true]);
    const clean = await runJavaScript("var x = 1;", [test("[1].includes(2)", "false")], limits);
    expect(clean.results[0]!.passed).toBe(true);
  });

  it("bounds a whole hand-in's work at 6,000 ms: tests past the budget are not run, and the last one runs only what is left", async () => {
    const many = Array.from({ length: 30 }, (_, i) => test(`spin(${i})`, "0"));
    const report = await runJavaScript("function spin() { for (;;) {} }", many, { timeMs: 400, memoryMb: 8 });
    // 6,000 ms of work (ADR 0016) is 15 tests of 400 ms; the rest are not run, and the total never passes the budget.
    expect(report.results.filter((r) => r.error?.startsWith("Time limit exceeded")).length).toBe(15);
    expect(report.results.filter((r) => r.error === "Not run: this hand-in used up its time budget.").length).toBe(15);
    expect(report.ms).toBeLessThanOrEqual(6_000);
    // 2,500 ms tests: two run whole, the third gets the 1,000 ms left, not its full 2,500.
    const slow = await runJavaScript("function spin() { for (;;) {} }", many.slice(0, 4), { timeMs: 2_500, memoryMb: 8 });
    expect(slow.results.map((r) => r.ms)).toEqual([2_500, 2_500, 1_000, 0]);
    expect(slow.ms).toBe(6_000);
  });
});
