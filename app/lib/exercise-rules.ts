/**
 * Code exercises' limits and checks that need no validation library (exercise-schemas.ts re-exports them): the
 * editors import these, so a staff page does not download zod for them.
 */
export const EXERCISE_LIMITS = {
  code: 20_000,
  tests: 50,
  testName: 120,
  call: 1_000,
  expected: 5_000,
  points: 100,
  timeMs: { min: 100, max: 3_000, default: 1_000 },
  memoryMb: { min: 8, max: 32, default: 16 },
} as const;
/** Hand-ins per student and exercise in a window: each one runs every test on the server. */
export const SUBMIT_RATE = { max: 10, windowMs: 60_000 } as const;

/** Whether a text is valid JSON (an expected value). */
export const isJson = (v: string) => {
  try {
    JSON.parse(v);
    return true;
  } catch {
    return false;
  }
};
