/**
 * The rubric rules the grader and the editor share that need no validation library (rubric-schemas.ts re-exports
 * them beside its schemas): a staff page that grades or edits rubrics does not download zod for them.
 */
import type { RubricChoices, RubricCriterion } from "./rubric-schemas";

export const RUBRIC_LIMITS = { title: 120, criteria: 20, levels: 8, text: 160, description: 600, points: 1000 } as const;

/** The most a criterion earns: its best level. */
export const criterionMax = (c: { levels: { points: number }[] }) => Math.max(0, ...c.levels.map((l) => l.points));

/** The rubric's total: the best level of every criterion (a task that carries the rubric has this maximum score). */
export const rubricTotal = (criteria: { levels: { points: number }[] }[]) => criteria.reduce((sum, c) => sum + criterionMax(c), 0);

/** A filled rubric as kept on a hand-in: the criteria as they were, each with the level picked. */
export interface RubricAssessment {
  rubricId: string;
  title: string;
  criteria: (RubricCriterion & { chosen: number })[];
}

/**
 * Fills `criteria` with `choices`: every criterion needs a level that exists. Returns the assessment's criteria and
 * its points, or the first criterion without a valid level.
 */
export function fillRubric(criteria: RubricCriterion[], choices: RubricChoices): { ok: true; criteria: RubricAssessment["criteria"]; points: number } | { ok: false; missing: string } {
  const filled: RubricAssessment["criteria"] = [];
  let total = 0;
  for (const c of criteria) {
    const chosen = Object.hasOwn(choices, c.id) ? choices[c.id] : undefined;
    if (chosen === undefined || !c.levels[chosen]) return { ok: false, missing: c.title };
    filled.push({ ...c, chosen });
    total += c.levels[chosen]!.points;
  }
  return { ok: true, criteria: filled, points: total };
}
