/** The late-penalty rule (issue 21), client-safe and without zod: the task page, the grader and the server share it. */
const DAY_MS = 86_400_000;

/**
 * The late penalty of a hand-in (issue 21): every started day after the due time takes `perDay` percent of the grade,
 * never more than 100 - `floor` percent in all. On time, without a due time or without a penalty: none.
 */
export function latePenalty(task: { dueAt: string | Date | null; latePenaltyPerDay: number; latePenaltyFloor: number }, submittedAt: string | Date | number): { days: number; percent: number } {
  if (!task.dueAt || task.latePenaltyPerDay <= 0) return { days: 0, percent: 0 };
  const late = new Date(submittedAt).getTime() - new Date(task.dueAt).getTime();
  if (late <= 0) return { days: 0, percent: 0 };
  const days = Math.ceil(late / DAY_MS);
  return { days, percent: Math.min(task.latePenaltyPerDay * days, Math.max(0, 100 - task.latePenaltyFloor)) };
}

/** A grade after its penalty: the whole points kept (rounded to the nearest point). */
export const afterPenalty = (score: number, percent: number) => Math.round((score * (100 - percent)) / 100);


/** Points given under a penalty: what counts (`score`) and, when the penalty took any share, the points before it (`raw`). */
export function penalised(points: number, percent: number): { score: number; raw: number | null } {
  return percent > 0 ? { score: afterPenalty(points, percent), raw: points } : { score: points, raw: null };
}
