import type { RunReport, TestResult } from "./types";

/** What a student may see of a report: a hidden test's name and whether it passed, nothing of its values. */
export function studentReport(report: RunReport): RunReport {
  return { ...report, results: report.results.map((r): TestResult => (r.hidden ? { name: r.name, points: r.points, hidden: true, passed: r.passed, ms: r.ms } : r)) };
}
