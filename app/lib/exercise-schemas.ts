/**
 * Input schemas for code exercises (issue "Code exercises graded at the edge"), shared by the API and the pages.
 * Client-safe: the limits here are what the server enforces whatever a browser sends.
 */
import { z } from "zod";
import { CODE_LANGUAGES } from "../../worker/sandbox/types";
import { EXERCISE_LIMITS, isJson } from "./exercise-rules";

export * from "./exercise-rules";

const code = (what: string) => z.string({ error: `Give the ${what} as text.` }).max(EXERCISE_LIMITS.code, `The ${what} must be at most ${EXERCISE_LIMITS.code} characters.`);

export const codeTestInput = z.object({
  name: z.string({ error: "Give every test a name." }).trim().min(1, "Give every test a name.").max(EXERCISE_LIMITS.testName, `Test names are at most ${EXERCISE_LIMITS.testName} characters.`),
  call: z.string({ error: "Give every test the call it makes, e.g. sum(2, 3)." }).trim().min(1, "Give every test the call it makes, e.g. sum(2, 3).").max(EXERCISE_LIMITS.call, `A test's call is at most ${EXERCISE_LIMITS.call} characters.`),
  expected: z
    .string({ error: "Give every test its expected value as JSON, e.g. 5 or \"five\"." })
    .trim()
    .max(EXERCISE_LIMITS.expected, `An expected value is at most ${EXERCISE_LIMITS.expected} characters.`)
    .refine(isJson, 'The expected value must be JSON, e.g. 5, "five", [1, 2] or {"a": 1}.'),
  points: z.number({ error: "Points are a whole number from 1 to 100." }).int("Points are a whole number from 1 to 100.").min(1, "Points are a whole number from 1 to 100.").max(EXERCISE_LIMITS.points, "Points are a whole number from 1 to 100.").default(1),
  hidden: z.boolean({ error: "Say hidden: true or false." }).default(false),
});

/** PUT /api/exercises/{taskId} (staff): the whole exercise; `published` asks the server to check the reference first. */
export const exerciseInput = z.object({
  language: z.enum(CODE_LANGUAGES, { error: "The language must be javascript." }).default("javascript"),
  starterCode: code("starter code").default(""),
  tests: z.array(codeTestInput, { error: "Give the tests as a list." }).min(1, "Add at least one test.").max(EXERCISE_LIMITS.tests, `At most ${EXERCISE_LIMITS.tests} tests.`),
  timeMs: z.number().int().min(EXERCISE_LIMITS.timeMs.min, `The time limit is ${EXERCISE_LIMITS.timeMs.min} to ${EXERCISE_LIMITS.timeMs.max} ms per test.`).max(EXERCISE_LIMITS.timeMs.max, `The time limit is ${EXERCISE_LIMITS.timeMs.min} to ${EXERCISE_LIMITS.timeMs.max} ms per test.`).default(EXERCISE_LIMITS.timeMs.default),
  memoryMb: z.number().int().min(EXERCISE_LIMITS.memoryMb.min, `The memory limit is ${EXERCISE_LIMITS.memoryMb.min} to ${EXERCISE_LIMITS.memoryMb.max} MB.`).max(EXERCISE_LIMITS.memoryMb.max, `The memory limit is ${EXERCISE_LIMITS.memoryMb.min} to ${EXERCISE_LIMITS.memoryMb.max} MB.`).default(EXERCISE_LIMITS.memoryMb.default),
  referenceSolution: code("reference solution").trim().min(1, "Give a reference solution: it must pass every test before students see the exercise."),
  published: z.boolean({ error: "Say published: true or false." }).default(false),
});
export type ExerciseInput = z.infer<typeof exerciseInput>;

/** PUT /api/exercises/{taskId}/draft and POST /api/exercises/{taskId}/submit: the student's code. */
export const codeInput = z.object({ code: code("code") });
