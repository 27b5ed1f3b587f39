/**
 * Code exercises (issue "Code exercises graded at the edge"; docs/decisions/0016-code-exercises.md): a task whose
 * hand-in is code, graded the moment it arrives by the tests, in the Worker's WebAssembly sandbox (`ctx.runCode`).
 *
 * - Staff write the exercise (starter code, visible and hidden tests, limits, a reference solution). Every save runs
 *   the reference; it can be published only when the reference passes every test.
 * - Students see the statement, the starter code, the visible tests and only the names of the hidden ones; hidden
 *   tests, the reference and other students' code never leave this module for them.
 * - A hand-in is rate-limited per student and exercise, runs every test (bounded by the sandbox's budget) and is
 *   stored as the task's submission with its report and its score, scaled to the task's maximum. Staff can still
 *   grade it over in the grader; until they do, the student may hand in again.
 */
import { and, count, eq, isNotNull, sql } from "drizzle-orm";
import type { Actor } from "../../app/lib/permissions";
import { SUBMIT_RATE, type ExerciseInput } from "../../app/lib/exercise-schemas";
import { exerciseDrafts, exercises, extensions, submissions } from "../../db/schema";
import type { ServiceContext } from "../context";
import { leaseFor, underCodeLease, underLeaseNow } from "./code-lease";
import { extensionOf } from "./extension-join";
import { AppError, forbidden, notFound } from "../http/errors";
import { notStaffOf, outsider, placeFacts, requireCourseRunning } from "./group-access";
import { studentReport } from "../sandbox/report";
import type { RunReport } from "../sandbox/types";
import { hitRateLimit } from "./rate-limit";
import { latePenalty, penalised } from "../../app/lib/late-penalty";
import { asStudentSees, findTask, isStaff, judgeLateness, taskHidden, ownSubmission, replaceable, scoreShown, staffGraded, staffGradedSql, storeSubmission, tellRegraded, type TaskRecord } from "./tasks";
import type { Viewer } from "./sessions";
import { isMember } from "./memberships";
import { formatMessage } from "../../app/i18n/translate";

type ExerciseRow = typeof exercises.$inferSelect;
type ExerciseTask = TaskRecord & { exercise: ExerciseRow | null };

/** The task (by id or slug, on any lecture) with the viewer's membership, and its exercise if it has one. */
async function findExerciseTask(ctx: ServiceContext, viewer: Actor, key: string): Promise<ExerciseTask | null> {
  const task = await findTask(ctx, viewer, null, key);
  if (!task) return null;
  const [exercise] = await ctx.db.select().from(exercises).where(eq(exercises.taskId, task.id));
  return { ...task, exercise: exercise ?? null };
}

async function requireManaged(ctx: ServiceContext, viewer: Actor, key: string): Promise<ExerciseTask> {
  const task = await findExerciseTask(ctx, viewer, key);
  if (!task) throw notFound("No such task.");
  if (!isStaff(viewer, task)) throw notStaffOf(viewer, placeFacts(task), taskHidden(task), "No such task.");
  return task;
}

/** The exercise as its group's members may see it: published, on a published lecture; staff see every one. */
function assertReadable(viewer: Actor, task: ExerciseTask | null): asserts task is ExerciseTask & { exercise: ExerciseRow } {
  if (!task) throw notFound("No such exercise.");
  const staff = isStaff(viewer, task);
  // Not shown yet (unpublished, on an unpublished lecture, or scheduled for later, issue 22): to anyone but its staff
  // it does not exist, in the group or not.
  if (!task.exercise || (!staff && (!task.exercise.published || !task.lecturePublished || task.publishAt))) throw notFound("No such exercise.");
  if (!staff && !isMember(task)) throw outsider(viewer, placeFacts(task), "Only the group's members and staff can see its exercises.", "No such exercise.");
}

async function requireReadable(ctx: ServiceContext, viewer: Actor, key: string) {
  const task = await findExerciseTask(ctx, viewer, key);
  assertReadable(viewer, task);
  return task;
}

const limitsOf = (e: ExerciseRow) => ({ timeMs: e.timeMs, memoryMb: e.memoryMb });
const allPassed = (report: RunReport) => report.results.every((r) => r.passed);

/** GET /api/exercises/{taskId}: staff get everything; a student the visible part, their draft and last hand-in. */
export async function getExercise(ctx: ServiceContext, viewer: Actor, key: string) {
  return present(ctx, viewer, await requireReadable(ctx, viewer, key));
}

async function present(ctx: ServiceContext, viewer: Actor, task: ExerciseTask & { exercise: ExerciseRow }) {
  const e = task.exercise;
  const base = {
    task: { _id: task.id, slug: task.slug, title: task.title, body: task.body, dueAt: task.dueAt?.toISOString() ?? null, maxScore: task.maxScore, allowLate: task.allowLate, lectureSlug: task.lectureSlug },
    group: { _id: task.groupId, slug: task.groupSlug, title: task.groupTitle },
    language: e.language,
    starterCode: e.starterCode,
    timeMs: e.timeMs,
    memoryMb: e.memoryMb,
    published: e.published,
  };
  if (isStaff(viewer, task)) {
    // How many students' code the tests have graded: what "run the tests again" would run.
    const [handedIn] = await ctx.db.select({ n: count() }).from(submissions).where(and(eq(submissions.taskId, task.id), isNotNull(submissions.code)));
    return { ...base, isStaff: true as const, tests: e.tests, referenceSolution: e.referenceSolution, verifiedAt: e.verifiedAt?.toISOString() ?? null, handIns: handedIn?.n ?? 0 };
  }
  const [[draft], own] = await Promise.all([
    ctx.db.select().from(exerciseDrafts).where(and(eq(exerciseDrafts.taskId, task.id), eq(exerciseDrafts.userId, viewer.userId))),
    ownSubmission(ctx, task.id, viewer.userId),
  ]);
  const seen = own ? asStudentSees(task, own) : undefined;
  return {
    ...base,
    isStaff: false as const,
    visibleTests: e.tests.filter((t) => !t.hidden).map(({ name, call, expected, points }) => ({ name, call, expected, points })),
    hiddenTests: e.tests.filter((t) => t.hidden).map(({ name, points }) => ({ name, points })),
    draft: draft ? { code: draft.code, savedAt: draft.savedAt.toISOString() } : null,
    // A staff grade on a task that holds its grades reads as handed in until released (ADR 0021).
    submission: seen
      ? { code: seen.code, score: seen.score, submittedAt: seen.submittedAt.toISOString(), late: seen.late, gradedByStaff: seen.gradedBy !== null, feedback: seen.feedback, report: seen.report ? studentReport(seen.report) : null }
      : null,
  };
}

/**
 * For the task page: null when the task takes a link, `{ preparing: true }` for a student while the exercise is not
 * published yet, otherwise what getExercise answers the viewer.
 */
export async function exerciseForPage(ctx: ServiceContext, viewer: Actor, taskId: string) {
  const task = await findExerciseTask(ctx, viewer, taskId);
  if (!task?.exercise) return null;
  if (!isStaff(viewer, task) && !task.exercise.published) return { preparing: true as const };
  assertReadable(viewer, task);
  return present(ctx, viewer, task);
}

/**
 * PUT /api/exercises/{taskId} (staff): writes the whole exercise after running the reference solution against its
 * tests. Publishing needs every test to pass; otherwise nothing is written and the answer (409) carries the report.
 */
export async function saveExercise(ctx: ServiceContext, viewer: Actor, key: string, input: ExerciseInput, now = Date.now()) {
  const task = await requireManaged(ctx, viewer, key);
  // Staff code takes the same one-run-at-a-time lease as a student's (code-lease.ts): an instructor's endless
  // reference sent fifteen times at once waits its turn too.
  const report = await underCodeLease(ctx, viewer.userId, () => ctx.runCode(input.language, input.referenceSolution, input.tests, { timeMs: input.timeMs, memoryMb: input.memoryMb }));
  const passed = allPassed(report);
  if (input.published && !passed) {
    const failing = report.results.filter((r) => !r.passed);
    const fails = formatMessage("The reference solution fails {failing} of {total, plural, one {# test} other {# tests}}: fix it or the tests before publishing.", { failing: failing.length, total: report.results.length }, "en");
    throw new AppError(409, "conflict", fails, {
      referenceSolution: failing.map((r) => `${r.name}: ${r.error ?? `got ${r.actual}, expected ${r.expected}`}`).join("\n"),
    });
  }
  const values = {
    language: input.language,
    starterCode: input.starterCode,
    tests: input.tests,
    timeMs: input.timeMs,
    memoryMb: input.memoryMb,
    referenceSolution: input.referenceSolution,
    published: input.published,
    verifiedAt: passed ? new Date(now) : null,
    updatedAt: new Date(now),
  };
  await ctx.db
    .insert(exercises)
    .values({ taskId: task.id, ...values })
    .onConflictDoUpdate({ target: exercises.taskId, set: values });
  return { ...(await getExercise(ctx, viewer, task.id)), reference: report };
}

/** POST /api/exercises/{taskId}/reference (staff): runs the stored reference solution; answers the report. */
export async function checkReference(ctx: ServiceContext, viewer: Actor, key: string) {
  const task = await requireManaged(ctx, viewer, key);
  if (!task.exercise) throw notFound("This task has no exercise yet.");
  const exercise = task.exercise;
  return underCodeLease(ctx, viewer.userId, () => ctx.runCode(exercise.language, exercise.referenceSolution, exercise.tests, limitsOf(exercise)));
}

/** The exercise editor's "run against the reference solution": runs the form's values without saving them. */
export async function tryReference(ctx: ServiceContext, viewer: Actor, key: string, input: ExerciseInput) {
  await requireManaged(ctx, viewer, key);
  return underCodeLease(ctx, viewer.userId, () => ctx.runCode(input.language, input.referenceSolution, input.tests, { timeMs: input.timeMs, memoryMb: input.memoryMb }));
}

/**
 * Makes a new task a code exercise: an empty, unpublished exercise the author fills in on the task's page. Until it
 * is published its students are told it is being prepared, and link hand-ins are refused.
 */
export async function startExercise(ctx: ServiceContext, viewer: Actor, key: string, now = Date.now()) {
  const task = await requireManaged(ctx, viewer, key);
  await ctx.db
    .insert(exercises)
    .values({ taskId: task.id, language: "javascript", starterCode: "", tests: [], referenceSolution: "", published: false, verifiedAt: null, updatedAt: new Date(now) })
    .onConflictDoNothing();
}

const GRADED_BY_STAFF = "Your instructor already graded this work. Ask them if you want to hand in a new version.";

const writeDraft = (ctx: ServiceContext, taskId: string, userId: string, code: string, now: number) =>
  ctx.db
    .insert(exerciseDrafts)
    .values({ taskId, userId, code, savedAt: new Date(now) })
    .onConflictDoUpdate({ target: [exerciseDrafts.taskId, exerciseDrafts.userId], set: { code, savedAt: new Date(now) } });

/** PUT /api/exercises/{taskId}/draft: the student's code as they type (idempotent). */
export async function saveDraft(ctx: ServiceContext, viewer: Actor, key: string, code: string, now = Date.now()) {
  const task = await requireReadable(ctx, viewer, key);
  if (!isMember(task)) throw forbidden("Only the group's students write exercises. Staff try the reference solution instead.");
  // An ended course keeps nothing new, a draft included (ADR 64); the page keeps the code in the browser instead.
  requireCourseRunning(viewer, placeFacts(task));
  await writeDraft(ctx, task.id, viewer.userId, code, now);
  return { savedAt: new Date(now).toISOString() };
}

/**
 * POST /api/exercises/{taskId}/submit: runs every test on the server and stores the hand-in with its report and
 * score (passed points scaled to the task's maximum). Refused past the due time when the task takes no late work,
 * and once staff graded it (unless they asked for a new version).
 */
export async function submitCode(ctx: ServiceContext, viewer: Viewer, key: string, code: string, now = Date.now()) {
  const task = await requireReadable(ctx, viewer, key);
  if (!isMember(task)) throw forbidden("Only the group's students hand in exercises. Staff try the reference solution instead.");
  requireCourseRunning(viewer, placeFacts(task));
  const late = task.dueAt !== null && now > task.dueAt.getTime();
  if (late && !task.allowLate) throw new AppError(409, "conflict", "The due time has passed and this exercise does not accept late work.");
  const existing = await ownSubmission(ctx, task.id, viewer.userId);
  // Checked before the code runs as well, so a refused hand-in costs no sandbox time.
  if (existing && !replaceable(task, existing)) throw new AppError(409, "conflict", GRADED_BY_STAFF);
  await hitRateLimit(ctx, `exercise:${task.id}:${viewer.userId}`, SUBMIT_RATE, "You handed this exercise in many times in a minute. Please wait a moment and try again.");

  // One run at a time per student (code-lease.ts): a flood of hand-ins waits its turn or is refused, never queues
  // minutes of work that everyone else's hand-ins wait behind. The hand-in is read again and stored under the lease,
  // so hand-ins sent at once land one after another, each replacing the one before.
  const { created, score, report } = await underCodeLease(ctx, viewer.userId, async () => {
    const current = await ownSubmission(ctx, task.id, viewer.userId);
    if (current && !replaceable(task, current)) throw new AppError(409, "conflict", GRADED_BY_STAFF);
    const report = await ctx.runCode(task.exercise.language, code, task.exercise.tests, limitsOf(task.exercise));
    const passed = report.maxScore > 0 ? Math.round((report.score / report.maxScore) * task.maxScore) : 0;
    // Late on a task with a late penalty: the share its lateness leaves, as for work staff grade (the tests' points
    // are kept beside it, as the score before the penalty).
    const penalty = late ? latePenalty(task, now) : { days: 0, percent: 0 };
    const { score, raw: rawScore } = penalised(passed, penalty.percent);
    // The tests' own figures are kept beside the grade columns: a held staff grade keeps those, its student sees these.
    const values = { link: "", notes: null, code, report, submittedAt: new Date(now), late, score, rawScore, testsScore: score, testsRawScore: rawScore, rubric: null, feedback: null, gradedBy: null, gradedAt: new Date(now), resubmitRequestedAt: null, feedbackWithRequest: false };
    // Auto-graded hand-ins stay replaceable until staff grade them (or again once they ask for a new version, or
    // while the task holds its grades: the staff grade is kept, storeSubmission).
    const { created } = await storeSubmission(ctx, viewer, task, current, values, GRADED_BY_STAFF);
    return { created, score, report };
  });
  await writeDraft(ctx, task.id, viewer.userId, code, now);
  return { created, score, maxScore: task.maxScore, late, report: studentReport(report) };
}

/** The most hand-ins one "run the tests again" takes: several classes. Past it nothing runs (409), never half of them. */
export const RERUN_LIMIT = 200;

/**
 * POST /api/exercises/{taskId}/rerun (staff): after the tests changed, runs them as they are now on the code of every
 * hand-in to the exercise, one after another. Each hand-in keeps its lateness (the task's rules and the student's
 * extension as they are now, as `reapplyLateness` judges it); its report and the tests' score are replaced, and so is
 * its grade unless staff graded it (a staff grade stays, the new tests' figures beside it in the grader). A hand-in
 * replaced while the tests ran keeps its own run. Every row is written in one batch at the end: a run cut short writes
 * nothing. One run at a time per exercise: a second is refused at once (409 `rerun_running`). Students whose grade
 * they can read changed are told (`exercise-retested`).
 */
export async function rerunExercise(ctx: ServiceContext, viewer: Actor, key: string): Promise<{ ran: number; changed: number }> {
  const task = await requireManaged(ctx, viewer, key);
  const exercise = task.exercise;
  if (!exercise) throw notFound("This task has no exercise yet.");
  if (exercise.tests.length === 0) throw new AppError(409, "no_tests", "This exercise has no tests to run yet.");
  // Tests the reference solution does not pass (a draft's) would grade every hand-in by a mistake.
  if (!exercise.published || exercise.verifiedAt === null) {
    throw new AppError(409, "not_published", "Publish the exercise first: its tests run again on the hand-ins only once the reference solution passes them all.");
  }
  const rows = await ctx.db
    .select({
      id: submissions.id,
      userId: submissions.userId,
      code: submissions.code,
      submittedAt: submissions.submittedAt,
      score: submissions.score,
      testsScore: submissions.testsScore,
      gradedAt: submissions.gradedAt,
      gradedBy: submissions.gradedBy,
      extendedTo: extensions.dueAt,
    })
    .from(submissions)
    .leftJoin(extensions, extensionOf("task", task.id, submissions.userId))
    .where(and(eq(submissions.taskId, task.id), isNotNull(submissions.code)));
  if (rows.length > RERUN_LIMIT) {
    const counts = { n: String(rows.length), max: String(RERUN_LIMIT) };
    throw new AppError(409, "too_many_hand_ins", formatMessage("This exercise has {n} hand-ins; the tests run again on at most {max} at once.", counts, "en"), counts);
  }
  const busy = () => new AppError(409, "rerun_running", "The tests are already running again on this exercise's hand-ins. Wait a moment, then reload.");
  // Staff's grade stays theirs, one given while the tests ran too (decided by the write itself); an auto-graded
  // hand-in's grade is the tests'.
  const own = (value: number | null, kept: typeof submissions.score | typeof submissions.rawScore) => sql<number | null>`case when ${staffGradedSql} then ${kept} else ${value} end`;
  return underLeaseNow(ctx, `rerun:${task.id}`, busy, async () => {
    const updates = [];
    const outcomes: { row: (typeof rows)[number]; changed: boolean }[] = [];
    for (const row of rows) {
      const report = await ctx.runCode(exercise.language, row.code ?? "", exercise.tests, limitsOf(exercise));
      const passed = report.maxScore > 0 ? Math.round((report.score / report.maxScore) * task.maxScore) : 0;
      const { late, percent } = judgeLateness(task, row.submittedAt, row.extendedTo);
      const tests = penalised(passed, percent);
      updates.push(
        ctx.db
          .update(submissions)
          .set({ report, late, testsScore: tests.score, testsRawScore: tests.raw, score: own(tests.score, submissions.score), rawScore: own(tests.raw, submissions.rawScore) })
          .where(and(eq(submissions.id, row.id), eq(submissions.submittedAt, row.submittedAt)))
          .returning({ score: submissions.score, testsScore: submissions.testsScore, gradedAt: submissions.gradedAt, gradedBy: submissions.gradedBy, submittedAt: submissions.submittedAt }),
      );
      // What the tests gave before: their own figure (an auto grade written before it was kept is the grade itself).
      const testsBefore = row.testsScore ?? (staffGraded(row) ? null : row.score);
      outcomes.push({ row, changed: tests.score !== testsBefore });
    }
    const written = updates.length > 0 ? await ctx.db.batch(updates as [(typeof updates)[number], ...(typeof updates)[number][]]) : [];
    // Only the hand-ins still as they were count (a replaced one was not written). Their students are told when the
    // score they read moved, unless staff graded the hand-in meanwhile (that grade told them already).
    const applied: typeof outcomes = [];
    const told: { userId: string; score: number }[] = [];
    outcomes.forEach((o, i) => {
      const after = written[i]?.[0];
      if (!after) return;
      applied.push(o);
      const now = { ...after, hasCode: true };
      const shown = scoreShown(now, task.gradesHeld);
      if (staffGraded(now) === staffGraded(o.row) && shown !== null && shown !== scoreShown(o.row, task.gradesHeld)) told.push({ userId: o.row.userId, score: shown });
    });
    await tellRegraded(ctx, task, told, task.maxScore, "tests");
    return { ran: applied.length, changed: applied.filter((o) => o.changed).length };
  }, leaseFor(rows.length));
}
