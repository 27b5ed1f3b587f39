/**
 * The code runner's language-neutral shapes: a language module (javascript.ts today) takes the solution, the tests
 * and the limits and answers a report. Adding a language means adding a module with the same signature.
 */
export const CODE_LANGUAGES = ["javascript"] as const;
export type CodeLanguage = (typeof CODE_LANGUAGES)[number];

export interface CodeTest {
  name: string;
  /** An expression calling the solution, e.g. `sum(2, 3)`. */
  call: string;
  /** The expected value as JSON, e.g. `5` or `{"a": 1}`. */
  expected: string;
  points: number;
  /** Hidden tests never reach a browser; a student sees only their name and whether they passed. */
  hidden: boolean;
}

export interface RunLimits {
  /** Per test. */
  timeMs: number;
  /** Per runtime (one per test). */
  memoryMb: number;
}

export interface TestResult {
  name: string;
  points: number;
  hidden: boolean;
  passed: boolean;
  /** The error or limit that ended the test, in one line. */
  error?: string;
  /** The returned and the expected value as canonical JSON (never sent to a student for a hidden test). */
  actual?: string;
  expected?: string;
  /** What the code printed with console.log, cut at the output limit. */
  output?: string;
  /** Milliseconds of work (engine steps over the steps per ms), so the same on every machine; never shown for a hidden test. */
  ms?: number;
}

export interface RunReport {
  results: TestResult[];
  score: number;
  maxScore: number;
  ms: number;
  /** True in lists: output and values were left out (the whole report is one request away). */
  partial?: boolean;
}
