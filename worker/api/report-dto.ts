/** A code run's report as the API documents it (exercises and code hand-ins in the tasks API). */
import { z } from "@hono/zod-openapi";

const testResult = z
  .object({
    name: z.string(),
    points: z.number(),
    hidden: z.boolean(),
    passed: z.boolean(),
    error: z.string().optional(),
    actual: z.string().optional(),
    expected: z.string().optional(),
    output: z.string().optional(),
    ms: z.number().optional().openapi({ description: "Milliseconds of work (engine steps, the same on every machine); never given for a hidden test." }),
  })
  .openapi("TestResult", { description: "For a student, a hidden test carries only its name, points, and whether it passed: nothing that depends on its input." });
export const report = z.object({ results: z.array(testResult), score: z.number(), maxScore: z.number(), ms: z.number().openapi({ description: "Milliseconds of work of the tests shown (for a student, the visible ones)." }), partial: z.boolean().optional().openapi({ description: "In lists: console output and values left out; GET the submission for the whole report." }) }).openapi("RunReport");
