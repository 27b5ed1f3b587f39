/**
 * One definition of a student's progress in one group (PRODUCT.md §3 Progress; docs/decisions/0015-progress.md).
 * The server counts records (worker/services/progress.ts) and this module turns the counts into the numbers every
 * API answer, page and export shows, so they can never disagree. Client-safe: no I/O.
 *
 * - lectures: `attended` (present or late) of `held`. A lecture is held once its start time has passed (published
 *   lectures) or its attendance has been opened; a lecture the student has a record for counts as held for them;
 *   an excused lecture leaves their `held`.
 * - tasks: `submitted` of `given` (tasks of published lectures whose due time has passed, plus those the student
 *   handed in early or without a due time); `averageScore` over the `graded` ones. The task rate that enters
 *   `overall` counts each missing task (given, not handed in) as 0 and leaves ungraded hand-ins out until graded.
 * - quizzes: `taken` of `published` (published quizzes of published lectures that have opened); `averageScore` of
 *   the best attempt of each taken quiz. The quiz rate counts a quiz not taken as 0.
 * - `overall`: the mean of the rates that exist (attendance, task, quiz), or null while none exists.
 * Every percentage is a whole number from 0 to 100, and each comes with its "x of y".
 */

/** Students whose overall is below this percentage... */
export const AT_RISK_BELOW_PERCENT = 70;
/** ...once their group has held at least this many lectures are flagged for staff. */
export const AT_RISK_AFTER_HELD = 5;

export interface Progress {
  lectures: { attended: number; held: number; rate: number | null };
  tasks: { submitted: number; given: number; graded: number; averageScore: number | null; rate: number | null };
  quizzes: { taken: number; published: number; averageScore: number | null; rate: number | null };
  overall: number | null;
}

/** What the server counts for one student in one group (all from the records, at the time of the request). */
export interface ProgressCounts {
  /** Lectures the group has held (start passed, or attendance opened). */
  groupHeld: number;
  /** The student's present or late records. */
  attended: number;
  /** Their excused records on lectures the group has held. */
  excusedHeld: number;
  /** Their present, late or absent records on lectures the group has not held (yet): held for them. */
  extraHeld: number;
  /** Tasks of published lectures whose due time has passed. */
  tasksDue: number;
  /** Their hand-ins to tasks of published lectures... */
  submitted: number;
  /** ...of which to tasks not (yet) due or without a due time. */
  submittedNotDue: number;
  /** Their graded hand-ins, and the sum of score / maxScore over them (each 0 to 1). */
  graded: number;
  gradedSum: number;
  /** Quizzes that have opened (published, on a published lecture). */
  quizzesOpened: number;
  /** Opened quizzes they have handed in at least once, and the sum of their best score / maxScore (each 0 to 1). */
  taken: number;
  bestSum: number;
}

export const EMPTY_COUNTS: Omit<ProgressCounts, "groupHeld" | "tasksDue" | "quizzesOpened"> = {
  attended: 0,
  excusedHeld: 0,
  extraHeld: 0,
  submitted: 0,
  submittedNotDue: 0,
  graded: 0,
  gradedSum: 0,
  taken: 0,
  bestSum: 0,
};

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
/** A fraction (0 to 1) as a whole percentage; null when there is nothing to divide by. */
const percent = (part: number, whole: number): number | null => (whole > 0 ? Math.round(clamp01(part / whole) * 100) : null);

export function progressFrom(c: ProgressCounts): Progress {
  const held = Math.max(0, c.groupHeld - c.excusedHeld + c.extraHeld);
  const attended = Math.min(c.attended, held);
  const given = c.tasksDue + c.submittedNotDue;
  const submitted = Math.min(c.submitted, given);
  const missing = given - submitted;
  const published = c.quizzesOpened;
  const taken = Math.min(c.taken, published);

  const rates: number[] = [];
  if (held > 0) rates.push(attended / held);
  if (c.graded + missing > 0) rates.push(clamp01(c.gradedSum / (c.graded + missing)));
  if (published > 0) rates.push(clamp01(c.bestSum / published));

  return {
    lectures: { attended, held, rate: percent(attended, held) },
    tasks: { submitted, given, graded: c.graded, averageScore: percent(c.gradedSum, c.graded), rate: percent(c.gradedSum, c.graded + missing) },
    quizzes: { taken, published, averageScore: percent(c.bestSum, taken), rate: percent(c.bestSum, published) },
    overall: rates.length > 0 ? Math.round((rates.reduce((s, r) => s + r, 0) / rates.length) * 100) : null,
  };
}

/** Flagged for staff: below 70 % overall once the group has held 5 lectures. */
export function isAtRisk(p: Progress, groupHeld: number): boolean {
  return groupHeld >= AT_RISK_AFTER_HELD && p.overall !== null && p.overall < AT_RISK_BELOW_PERCENT;
}
