/**
 * Rubrics (issue 21): a group's reusable scoring guides. A rubric has criteria, each with levels (a title, a
 * description and the points that level earns); a task that carries one is graded by picking a level per criterion,
 * and its maximum score is the rubric's total (the best level of every criterion). The filled rubric is kept on the
 * hand-in as it was when graded, so a later edit of the rubric never rewrites a grade a student has seen.
 * Client-safe: the staff editor, the grader, the Remix actions and the API share these rules.
 */
import { z } from "zod";
import { freeText } from "./schemas";
import { withoutControls } from "./text";

import { RUBRIC_LIMITS, rubricTotal } from "./rubric-rules";

export * from "./rubric-rules";

const description = z
  .string()
  .overwrite(withoutControls)
  .trim()
  .max(RUBRIC_LIMITS.description, `A description is at most ${RUBRIC_LIMITS.description} characters.`)
  .default("");

const points = z
  .number({ error: "Points are a whole number from 0 to 1000." })
  .int("Points are a whole number from 0 to 1000.")
  .min(0, "Points are a whole number from 0 to 1000.")
  .max(RUBRIC_LIMITS.points, "Points are a whole number from 0 to 1000.");

export const rubricLevel = z.object({
  title: freeText("Give every level a title.").max(RUBRIC_LIMITS.text, `A level's title is at most ${RUBRIC_LIMITS.text} characters.`),
  description,
  points,
});

export const rubricCriterion = z.object({
  /** Stable across edits (the grader's choices name it); the editor makes one for a new criterion. */
  // Not a name every object already has (`__proto__`, `constructor`...): a grade's choices are keyed by these ids.
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,40}$/, "A criterion's id is 1 to 40 letters, digits, - or _.")
    .refine((id) => !(id in Object.prototype), "A criterion's id cannot be a name JavaScript reserves (such as __proto__ or constructor)."),
  title: freeText("Give every criterion a title.").max(RUBRIC_LIMITS.text, `A criterion's title is at most ${RUBRIC_LIMITS.text} characters.`),
  description,
  levels: z
    .array(rubricLevel, { error: "Give each criterion its levels." })
    .min(2, "A criterion needs at least 2 levels.")
    .max(RUBRIC_LIMITS.levels, `A criterion has at most ${RUBRIC_LIMITS.levels} levels.`),
});

/** POST /api/groups/{id}/rubrics and PUT .../rubrics/{rubricId}. */
export const rubricInput = z
  .object({
    title: freeText("Give the rubric a title.").max(RUBRIC_LIMITS.title, `The title is at most ${RUBRIC_LIMITS.title} characters.`),
    criteria: z
      .array(rubricCriterion, { error: "Give the rubric its criteria." })
      .min(1, "A rubric needs at least one criterion.")
      .max(RUBRIC_LIMITS.criteria, `A rubric has at most ${RUBRIC_LIMITS.criteria} criteria.`),
  })
  .refine((r) => new Set(r.criteria.map((c) => c.id)).size === r.criteria.length, { message: "Two criteria have the same id.", path: ["criteria"] })
  .refine((r) => rubricTotal(r.criteria) >= 1, { message: "The best levels must add up to at least 1 point.", path: ["criteria"] });
export type RubricInput = z.infer<typeof rubricInput>;
export type RubricCriterion = z.infer<typeof rubricCriterion>;

/** The grader's choice: criterion id -> the index of the level picked (0 is the first level listed). */
export const rubricChoices = z.record(z.string().max(40), z.number().int().min(0).max(RUBRIC_LIMITS.levels - 1), { error: "Pick a level for every criterion." });
export type RubricChoices = z.infer<typeof rubricChoices>;
