import type { RunReport, TestResult } from "./types";

/**
 * What a student may see of a report: a hidden test's name, points and whether it passed. Nothing that depends on
 * its inputs: no call, value, output, error text or time (a solution that spends time in proportion to its input
 * would read the input back from a time), and the report's total time counts the visible tests only.
 */
export function studentReport(report: RunReport): RunReport {
  const results = report.results.map((r): TestResult => (r.hidden ? { name: r.name, points: r.points, hidden: true, passed: r.passed } : r));
  return { ...report, results, ms: results.reduce((sum, r) => sum + (r.ms ?? 0), 0) };
}

/**
 * A report as a list of submissions carries it: every test's name, points, verdict and error, without console output
 * or values (`partial: true`). A list of a hundred hand-ins stays small; the grader loads one whole report at a time.
 */
export function summaryReport(report: RunReport): RunReport {
  return { ...report, partial: true, results: report.results.map(({ output: _o, actual: _a, expected: _e, ...rest }) => rest) };
}
