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
