/**
 * One definition of a student's progress in one group (PRODUCT.md §3 Progress; docs/decisions/0015-progress.md).
 * The server counts records (worker/services/progress.ts) and this module turns the counts into the numbers every
 * API answer, page and export shows, so they can never disagree. Client-safe: no I/O.
 *
 * Only work that is due counts, and work still open never counts against anyone:
 * - lectures: `attended` (present or late) of `held`. A lecture is held once its start time has passed (published
 *   lectures) or its attendance has been opened, except while its attendance is open right now (the student may
 *   still check in). A lecture the student has a record for counts as held for them (also while it is open); an
 *   excused lecture leaves their `held`.
 * - tasks: the rate is the mean of score / max over the `counted` tasks: those graded (whenever handed in) and those
 *   past their due time and not handed in (0). A hand-in waiting for a grade, a task not due yet and a task without
 *   a due time that was not handed in count nowhere. `submitted` of `given` (tasks due, plus those handed in early
 *   or without a due time) is shown beside it.
 * - quizzes: the rate is the mean of the best attempt's score / max over the `counted` quizzes: those taken and those
 *   closed without an attempt (0). A quiz still open (or without a closing time) that the student has not taken
 *   counts nowhere. `taken` of `published` (published quizzes of published lectures that have opened) is beside it.
 * - `overall`: the mean of the rates that exist, equal weights, computed from the whole percentages the screens show
 *   (so anyone can check it from them); null while none exists.
 * "Due" and "closed" are the student's own: an extension (issue 21) moves a task's due time or a quiz's close for
 * that student only, so work given more time does not count against them until their own time has passed.
 * Every percentage is a whole number from 0 to 100. `averageScore` is the same number as `rate` (the name older
 * clients read); there is no second task or quiz figure.
 */

/**
 * A score's share of its maximum, from 0 to 1. Work worth nothing (a quiz of 0-point questions) is all earned once it
 * is done: taking it is the whole of it. The same rule as `ratio` in worker/services/progress.ts, which counts it in SQL.
 */
export function scoreShare(score: number, max: number): number {
  if (max <= 0) return 1;
  return Math.min(1, Math.max(0, score / max));
}

/** Staff see a student as needing support when their overall or their attendance is below this percentage... */
export const AT_RISK_BELOW_PERCENT = 70;
/** ...from the group's first held lecture on. */
export const AT_RISK_AFTER_HELD = 1;

export interface Progress {
  lectures: { attended: number; held: number; rate: number | null };
  tasks: { submitted: number; given: number; graded: number; counted: number; rate: number | null; averageScore: number | null };
  quizzes: { taken: number; published: number; counted: number; rate: number | null; averageScore: number | null };
  overall: number | null;
}

/** Why a student needs support: the figure below the threshold and its value. */
export interface AtRiskReason {
  kind: "overall" | "attendance";
  percent: number;
}

/** What the server counts for one student in one group (all from the records, at the time of the request). */
export interface ProgressCounts {
  /** Lectures the group has held (start passed, or attendance opened; not while attendance is open). */
  groupHeld: number;
  /** The student's present or late records. */
  attended: number;
  /** Their excused records on lectures the group has held. */
  excusedHeld: number;
  /** Their present, late or absent records on lectures the group has not held (yet, or open now): held for them. */
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
  /** Quizzes that have opened (published, on a published lecture)... */
  quizzesOpened: number;
  /** ...of which have closed. */
  quizzesClosed: number;
  /** Opened quizzes they have handed in at least once, and the sum of their best score / maxScore (each 0 to 1)... */
  taken: number;
  bestSum: number;
  /** ...of which have closed. */
  takenClosed: number;
  /**
   * Work from before the student joined that they have no record of, which counts nowhere for them: lectures held
   * (without attendance of theirs), tasks due (not handed in) and quizzes closed (not taken). 0 when absent.
   */
  heldBeforeJoining?: number;
  dueBeforeJoining?: number;
  closedBeforeJoining?: number;
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
/** A fraction (0 to 1) as a whole percentage; null when there is nothing to divide by. */
const percent = (part: number, whole: number): number | null => (whole > 0 ? Math.round(clamp01(part / whole) * 100) : null);

export function progressFrom(c: ProgressCounts): Progress {
  const held = Math.max(0, c.groupHeld - c.excusedHeld + c.extraHeld - (c.heldBeforeJoining ?? 0));
  const attended = Math.min(c.attended, held);
  // Before joining, what they did not do was never given to them.
  const tasksDue = Math.max(0, c.tasksDue - (c.dueBeforeJoining ?? 0));
  const given = tasksDue + c.submittedNotDue;
  const submitted = Math.min(c.submitted, given);
  // Due and not handed in: 0 each. A hand-in waiting for a grade is in neither `graded` nor `missing`.
  const missing = Math.max(0, tasksDue - (c.submitted - c.submittedNotDue));
  const tasksCounted = c.graded + missing;
  const published = Math.max(0, c.quizzesOpened - (c.closedBeforeJoining ?? 0));
  const taken = Math.min(c.taken, published);
  // Closed and never handed in: 0 each. An open quiz not taken yet counts nowhere.
  const notTakenClosed = Math.max(0, c.quizzesClosed - (c.closedBeforeJoining ?? 0) - c.takenClosed);
  const quizzesCounted = taken + notTakenClosed;

  const lectureRate = percent(attended, held);
  const taskRate = percent(c.gradedSum, tasksCounted);
  const quizRate = percent(c.bestSum, quizzesCounted);
  const rates = [lectureRate, taskRate, quizRate].filter((r): r is number => r !== null);

  return {
    lectures: { attended, held, rate: lectureRate },
    tasks: { submitted, given, graded: c.graded, counted: tasksCounted, rate: taskRate, averageScore: taskRate },
    quizzes: { taken, published, counted: quizzesCounted, rate: quizRate, averageScore: quizRate },
    overall: rates.length > 0 ? Math.round(rates.reduce((s, r) => s + r, 0) / rates.length) : null,
  };
}

/**
 * Why staff should look at a student (empty: they need not): overall below 70 %, attendance below 70 %, or both,
 * from the group's first held lecture on. The group's held count, so one excused student is not flagged later.
 */
export function atRiskReasons(p: Progress, groupHeld: number): AtRiskReason[] {
  if (groupHeld < AT_RISK_AFTER_HELD) return [];
  const reasons: AtRiskReason[] = [];
  if (p.overall !== null && p.overall < AT_RISK_BELOW_PERCENT) reasons.push({ kind: "overall", percent: p.overall });
  if (p.lectures.rate !== null && p.lectures.rate < AT_RISK_BELOW_PERCENT) reasons.push({ kind: "attendance", percent: p.lectures.rate });
  return reasons;
}
