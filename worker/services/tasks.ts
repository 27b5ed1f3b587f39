/**
 * Tasks, submissions and grading (PRODUCT.md §2 "Task", "Submission"; §3 "Tasks"). Staff set tasks on lectures;
 * a member submits a link to their work (replacing it until it is graded, or again once staff ask for a new version);
 * staff grade with a score and feedback, and the student is notified and e-mailed. Times are the server's.
 */
import { and, asc, eq, inArray, isNotNull, isNull, or, sql, type Placeholder } from "drizzle-orm";
import { byName } from "../../app/lib/names";
import type { SQL } from "drizzle-orm";
import { can, type Actor } from "../../app/lib/permissions";
import { latePenalty, submitTaskInput, type CreateTaskInput, type GradeSubmissionInput, type SubmissionState, type SubmitTaskInput, type UpdateTaskInput } from "../../app/lib/task-schemas";
import { fillRubric, rubricTotal, type RubricAssessment } from "../../app/lib/rubric-schemas";
import { EMPTY_FILE_MESSAGE, KIND_OF_TYPE, sniffHandIn } from "../../app/lib/hand-in-files";
import { fileNameAsStored } from "../../app/lib/text";
import { exercises, extensions, groups, lectures, memberships, rubrics, submissions, submissionVersions, tasks, users, MEMBER_STATUSES, type GroupStatus } from "../../db/schema";
import { rubricOfGroup, rubricsByIds } from "./rubrics";
import { isMember, memberIds } from "./memberships";
import type { Database } from "../../db/client";
import { preparedOnce } from "../../db/prepared";
import type { ServiceContext } from "../context";
import { readOrAssume } from "../http/read-ahead";
import { htmlOf, withHtml } from "./stored-html";
import { groupForUser, notStaffOf, outsider, placeFacts, requireCourseRunning, requireManagedGroup, workPlaceColumns } from "./group-access";
import { AppError, forbidden, notFound } from "../http/errors";
import { isForeignKeyViolation, newId, slugCandidates, withFreshSlugs } from "./ids";
import { sendMail } from "./mail";
import { mailLang } from "./accounts-mail";
import { gradedMail, newVersionMail } from "./grade-mail";
import { notifyUsers } from "./notifications";
import type { Viewer } from "./sessions";
import { studentReport, summaryReport } from "../sandbox/report";
import { studentSeesTask } from "./released";
import { armPublisher, SCHEDULE_SLACK_MS } from "./publisher-client";
import type { RunReport } from "../sandbox/types";
import { extendsTime, ownTime } from "./own-time";
import { hitRateLimit } from "./rate-limit";
import { extensionOf } from "./extension-join";
import { penalised } from "../../app/lib/late-penalty";

export interface TaskDto {
  _id: string;
  slug: string;
  title: string;
  dueAt: string | null;
  maxScore: number;
  allowLate: boolean;
  /** Staff-given grades are held from students until released (ADR 0021). */
  gradesHeld: boolean;
  /** Late penalty: percent of the grade off per started day late, and the share a late hand-in always keeps. */
  latePenaltyPerDay: number;
  latePenaltyFloor: number;
  /** Graded with this rubric of the group (its total is `maxScore`), or null. */
  rubricId: string | null;
  /** The task's own due time when the reader has an extension (then `dueAt` is theirs); null otherwise. */
  extendedFrom: string | null;
  /** A file hand-in: the kinds accepted (empty: a link) and the largest file in megabytes. */
  fileKinds: string[];
  maxFileMb: number;
  lectureSlug: string;
  /** Scheduled (issue 22): students see the task from this time, when the server publishes it; null: with its lecture. */
  publishAt: string | null;
}

export interface SubmissionDto {
  _id: string;
  user: { _id: string; name: string };
  link: string;
  notes: string | null;
  /** A file hand-in: its name, type (by content) and size; read it at .../submissions/{id}/file. */
  file: { name: string; type: string; size: number } | null;
  /** A code exercise's hand-in and its test report (see toSubmissionDto for who sees how much). */
  code: string | null;
  report: RunReport | null;
  submittedAt: string;
  late: boolean;
  score: number | null;
  /** The score staff gave before the late penalty (null when no penalty was applied); `score` is what counts. */
  rawScore: number | null;
  /** This hand-in's late penalty: started days late and the percent it takes (0 when on time or without a penalty). */
  latePenalty: { days: number; percent: number };
  feedback: string | null;
  /** The filled rubric as it was when graded (null: a plain score, not graded, or held from its student). */
  rubric: RubricAssessment | null;
  gradedAt: string | null;
  state: SubmissionState;
  /**
   * Its student cannot replace it: staff graded it, the grade is out (not held) and no new version was asked for. While
   * a task holds its grades a graded hand-in stays replaceable, as one not graded yet is (its student cannot tell them
   * apart; ADR 0021).
   */
  locked: boolean;
  /**
   * Staff only: handed in again after staff graded it (while the task held its grades). The grade kept is the older
   * version's: it is graded again before the task's grades are released.
   */
  changedSinceGraded: boolean;
  /** Staff only: a grade of theirs its student does not see yet; the release shows it and tells them (`releaseGrades`). */
  heldGrade: boolean;
}

type SubmissionRow = typeof submissions.$inferSelect;

/** Who graded a hand-in and when, when it was handed in, and whether it is code (a list reads `hasCode`, not the code). */
type GradedFacts = Pick<SubmissionRow, "gradedAt" | "gradedBy" | "submittedAt"> & ({ code: string | null } | { hasCode: boolean });

/**
 * Graded by staff, not only by an exercise's tests, even once the grader's account is gone (`graded_by` is then null).
 * A link or file hand-in is graded by staff alone, so its graded time says so. An exercise's tests grade it in the
 * statement that stores it, its graded time its hand-in time: any other graded time is a staff grade's (ADR 0041).
 */
/** Whether a hand-in is code (an exercise's), from its code or, in a list that does not read the code, `hasCode`. */
const isCode = (row: GradedFacts) => ("hasCode" in row ? row.hasCode : row.code !== null);

export const staffGraded = (row: GradedFacts) => row.gradedBy !== null || (row.gradedAt !== null && (!isCode(row) || row.gradedAt.getTime() !== row.submittedAt.getTime()));
export const staffGradedSql = sql`(${submissions.gradedBy} is not null or (${submissions.gradedAt} is not null and (${submissions.code} is null or ${submissions.gradedAt} <> ${submissions.submittedAt})))`;

/**
 * Whether a hand-in's grade is held from its student (ADR 0021): the task holds its grades and staff graded it. A code
 * exercise's own score (from its tests) is never held: its test report, which the student sees at once, says it anyway.
 */
export function gradeHeld(task: { gradesHeld: boolean }, row: GradedFacts): boolean {
  return task.gradesHeld && row.gradedAt !== null && staffGraded(row);
}

/**
 * A hand-in as its student may see it: a held grade reads as handed in (submitted or late), with no score, rubric,
 * graded time or feedback. A request for a new version is not a release: it shows as the request, with only the
 * feedback written with it (`feedbackWithRequest`); the held grade and its feedback stay hidden. A code exercise
 * reads as its tests graded it when it was handed in (`testsScore`), exactly as before staff graded it (ADR 0041).
 */
export function asStudentSees<
  T extends GradedFacts &
    Pick<SubmissionRow, "score" | "feedback" | "resubmitRequestedAt" | "testsScore" | "testsRawScore" | "submittedAt"> & { feedbackWithRequest?: boolean; rawScore?: number | null; rubric?: RubricAssessment | null },
>(task: { gradesHeld: boolean }, row: T): T {
  if (!gradeHeld(task, row)) return row;
  const feedback = row.resubmitRequestedAt && row.feedbackWithRequest ? row.feedback : null;
  const tested = isCode(row) && row.testsScore !== null;
  // Nor who graded it: a hand-in nobody graded yet looks the same (an exercise: graded by its tests when handed in).
  return tested
    ? { ...row, score: row.testsScore, rawScore: row.testsRawScore, feedback, gradedAt: row.submittedAt, gradedBy: null, rubric: null }
    : { ...row, score: null, rawScore: null, feedback, gradedAt: null, gradedBy: null, rubric: null };
}

/**
 * Whether its student may hand in again over `row`: staff have not graded it, or they asked for a new version, or the
 * task holds its grades (a held grade must not show as a lock; the grade is kept, see `storeSubmission`). The same
 * rule as `replaceableInSql`, for the checks made before a file is stored or code is run.
 */
export function replaceable(task: { gradesHeld: boolean }, row: GradedFacts & Pick<SubmissionRow, "resubmitRequestedAt">): boolean {
  return !staffGraded(row) || row.resubmitRequestedAt !== null || task.gradesHeld;
}

/** `replaceable` as the UPDATE's condition, the task's flag read in the same statement (a release meanwhile wins). */
const replaceableInSql = sql`(not ${staffGradedSql} or ${submissions.resubmitRequestedAt} is not null or exists (select 1 from ${tasks} where ${tasks.id} = ${submissions.taskId} and ${tasks.gradesHeld} = 1))`;

/** A new version keeps a staff grade nobody asked to replace (a held one): graded again before its release. */
const keepsGradeSql = sql`(${staffGradedSql} and ${submissions.resubmitRequestedAt} is null)`;
const GRADE_COLUMNS = ["score", "rawScore", "rubric", "feedback", "gradedBy", "gradedAt", "feedbackWithRequest"] as const;

type PenaltyRules = Pick<TaskRecord, "dueAt" | "latePenaltyPerDay" | "latePenaltyFloor">;

/**
 * Handed in again after staff graded it (possible only while the task held its grades): the grade is the older
 * version's. The column is set by the replacing write itself (`storeSubmission`), never read from clocks: a grade
 * saved while a hand-in was on its way is later than the hand-in's time and still for the older version.
 */
const changedSinceGradedSql = sql`(${submissions.changedSinceGraded} = 1)`;

/** One clear state for a submission (or its absence). */
export function submissionState(row: Pick<SubmissionRow, "late" | "score" | "gradedAt" | "resubmitRequestedAt"> | null | undefined): SubmissionState {
  if (!row) return "not-submitted";
  if (row.resubmitRequestedAt) return "resubmission-requested";
  if (row.gradedAt) return "graded";
  return row.late ? "late" : "submitted";
}

/**
 * `staff`: staff see a code hand-in's whole report (`whole`) or, in lists, its summary; its student sees hidden tests
 * by name and result only.
 */
function toSubmissionDto(row: SubmissionRow, name: string, staff: boolean, rules: PenaltyRules & { gradesHeld: boolean }, whole = true): SubmissionDto {
  return {
    _id: row.id,
    user: { _id: row.userId, name },
    link: row.link,
    notes: row.notes,
    file: row.fileKey ? { name: fileNameAsStored(row.fileName ?? ""), type: row.fileType ?? "application/octet-stream", size: row.fileSize ?? 0 } : null,
    code: row.code,
    report: row.report ? (staff ? (whole ? row.report : summaryReport(row.report)) : studentReport(row.report)) : null,
    submittedAt: row.submittedAt.toISOString(),
    late: row.late,
    score: row.score,
    rawScore: row.rawScore,
    latePenalty: row.late ? latePenalty(rules, row.submittedAt) : { days: 0, percent: 0 },
    feedback: row.feedback,
    rubric: row.rubric ?? null,
    gradedAt: row.gradedAt ? row.gradedAt.toISOString() : null,
    // Staff grade again what changed since they graded it (their grade is kept in the form meanwhile).
    state: staff && row.changedSinceGraded ? (row.late ? "late" : "submitted") : submissionState(row),
    locked: !replaceable(rules, row),
    changedSinceGraded: staff && row.changedSinceGraded,
    heldGrade: staff && gradeHeld(rules, row),
  };
}

export interface TaskRecord {
  id: string;
  publishAt: Date | null;
  slug: string;
  title: string;
  body: string;
  bodyHtml: string | null;
  dueAt: Date | null;
  maxScore: number;
  allowLate: boolean;
  gradesHeld: boolean;
  latePenaltyPerDay: number;
  latePenaltyFloor: number;
  rubricId: string | null;
  /** The task's own due time when the viewer has an extension (`dueAt` is then the viewer's); null otherwise. */
  extendedFrom: Date | null;
  fileKinds: string[];
  maxFileMb: number;
  lectureId: string;
  lectureSlug: string;
  lectureTitle: string;
  lecturePublished: boolean;
  groupId: string;
  groupSlug: string;
  groupTitle: string;
  /** To someone outside a draft group its tasks are unknown (404; `outsider()`). */
  groupStatus: GroupStatus;
  instructorId: string | null;
  membershipStatus: string | null;
}

const toTaskDto = (t: Pick<TaskRecord, "id" | "slug" | "title" | "dueAt" | "maxScore" | "allowLate" | "gradesHeld" | "latePenaltyPerDay" | "latePenaltyFloor" | "rubricId" | "fileKinds" | "maxFileMb" | "lectureSlug" | "publishAt"> & { extendedFrom?: Date | null }): TaskDto => ({
  _id: t.id,
  slug: t.slug,
  title: t.title,
  dueAt: t.dueAt ? t.dueAt.toISOString() : null,
  maxScore: t.maxScore,
  allowLate: t.allowLate,
  gradesHeld: t.gradesHeld,
  latePenaltyPerDay: t.latePenaltyPerDay,
  latePenaltyFloor: t.latePenaltyFloor,
  rubricId: t.rubricId,
  extendedFrom: t.extendedFrom ? t.extendedFrom.toISOString() : null,
  fileKinds: t.fileKinds,
  maxFileMb: t.maxFileMb,
  lectureSlug: t.lectureSlug,
  publishAt: t.publishAt ? t.publishAt.toISOString() : null,
});

const byKey = (column: typeof tasks.id | typeof lectures.id, key: string | Placeholder, slugColumn: typeof tasks.slug | typeof lectures.slug) => or(eq(column, key), eq(slugColumn, key));

/**
 * A task (by id or slug) of a lecture (by id or slug; null: whichever lecture it is on), with its group and the
 * viewer's membership. Task slugs are unique, so the lecture only narrows the lookup to the address's lecture.
 */
export function findTask(ctx: ServiceContext, viewer: Actor, lectureKey: string | null, taskKey: string): Promise<TaskRecord | null> {
  // Read once per request (a GET's memo): the task page's task, hand-ins, history and exercise all check it.
  // Any lecture (null) is keyed apart from every lecture key an address can carry.
  const lecture = lectureKey === null ? "any" : `lecture=${lectureKey}`;
  const key = `task:${viewer.userId}:${lecture}:${taskKey}`;
  return ctx.memo(key, () => readTask(ctx, viewer, key, lectureKey, taskKey));
}

/**
 * The id of the task `findTask` finds, as a subquery: for reads that may start before the task's row is known (the
 * grader's history), whose results are used only once the task is checked.
 */
export function taskIdOf(db: Database, lectureKey: string | Placeholder, taskKey: string | Placeholder) {
  return db.select({ id: tasks.id }).from(tasks).innerJoin(lectures, eq(lectures.id, tasks.lectureId)).where(taskAt(lectureKey, taskKey));
}

/** The condition both lookups share: the task by id or slug, on the lecture by id or slug (null: any lecture). */
const taskAt = (lectureKey: string | Placeholder | null, taskKey: string | Placeholder) =>
  and(byKey(tasks.id, taskKey, tasks.slug), lectureKey === null ? undefined : byKey(lectures.id, lectureKey, lectures.slug));

/**
 * A task's columns as a list shows it (what `toTaskDto` and the hand-in rules read): never its Markdown body and
 * rendered HTML, which a list does not show and which make most of a task's row (a course of 30 tasks with a page of
 * text each would send the course home and the Tasks tab half a megabyte from D1 at every visit).
 */
const taskListColumns = {
  id: tasks.id,
  slug: tasks.slug,
  title: tasks.title,
  dueAt: tasks.dueAt,
  maxScore: tasks.maxScore,
  allowLate: tasks.allowLate,
  gradesHeld: tasks.gradesHeld,
  latePenaltyPerDay: tasks.latePenaltyPerDay,
  latePenaltyFloor: tasks.latePenaltyFloor,
  rubricId: tasks.rubricId,
  fileKinds: tasks.fileKinds,
  maxFileMb: tasks.maxFileMb,
  publishAt: tasks.publishAt,
};

async function readTask(ctx: ServiceContext, viewer: Actor, key: string, lectureKey: string | null, taskKey: string): Promise<TaskRecord | null> {
  // Every task page and the grader run it: built once per isolate, for a lecture's task and for any lecture's (db/prepared.ts).
  const query = preparedOnce(ctx, lectureKey === null ? "tasks.read.any" : "tasks.read.lecture", (db) =>
    db
      .select({
        ...taskListColumns,
        body: tasks.body,
        bodyHtml: tasks.bodyHtml,
        ...workPlaceColumns,
        extendedDueAt: extensions.dueAt,
      })
      .from(tasks)
      .innerJoin(lectures, eq(lectures.id, tasks.lectureId))
      .innerJoin(groups, eq(groups.id, lectures.groupId))
      .leftJoin(memberships, and(eq(memberships.groupId, groups.id), eq(memberships.userId, sql.placeholder("userId"))))
      .leftJoin(extensions, extensionOf("task", tasks.id, sql.placeholder("userId")))
      .where(taskAt(lectureKey === null ? null : sql.placeholder("lectureKey"), sql.placeholder("taskKey")))
      .limit(1),
  );
  // A signed-in page starts from the row this isolate saw last and checks it before sending (ADR 0033): the grader's
  // hand-ins, rubric and extensions need not wait for it.
  const row = await readOrAssume(ctx, key, () => query.all({ userId: viewer.userId, lectureKey, taskKey }).then(([r]) => r));
  if (!row) return null;
  // The viewer's own due time: an extension's when they have one that is later (own-time.ts; the late rules and the
  // pages follow it).
  const { extendedDueAt, ...task } = row;
  return extendsTime(task.dueAt, extendedDueAt) ? { ...task, dueAt: extendedDueAt, extendedFrom: task.dueAt } : { ...task, extendedFrom: null };
}

/** Students' own due times on a task (their extensions), for the staff lists and the late rules of their hand-ins. */
export async function extendedDueTimes(ctx: ServiceContext, taskId: string, userIds?: string[]): Promise<Map<string, Date>> {
  const rows = userIds
    ? await ctx.db
        .select({ userId: extensions.userId, dueAt: extensions.dueAt })
        .from(extensions)
        .where(and(eq(extensions.taskId, taskId), inArray(extensions.userId, userIds)))
    : // The grader runs it for every hand-in: built once per isolate (db/prepared.ts).
      await preparedOnce(ctx, "tasks.extendedDueTimes", (db) =>
        db.select({ userId: extensions.userId, dueAt: extensions.dueAt }).from(extensions).where(eq(extensions.taskId, sql.placeholder("taskId"))),
      ).all({ taskId });
  return new Map(rows.filter((r) => r.dueAt).map((r) => [r.userId, r.dueAt!]));
}

/** The late rules of one student's hand-in: the task's, with their own due time. */
const rulesOf = <T extends PenaltyRules>(task: T, own: Map<string, Date>, userId: string): T => ({ ...task, dueAt: ownTime(task.dueAt, own.get(userId)) });

const facts = (t: { instructorId: string | null; membershipStatus: string | null }) => ({ instructorId: t.instructorId, membershipStatus: t.membershipStatus });
export const isStaff = (viewer: Actor, t: TaskRecord) => can(viewer, "group.manage", { group: facts(t) });

/** A task the viewer may read: members (of a published lecture) and staff; 404 otherwise for the unpublished. */
export async function requireReadableTask(ctx: ServiceContext, viewer: Actor, lectureKey: string, taskKey: string): Promise<TaskRecord> {
  const task = await findTask(ctx, viewer, lectureKey, taskKey);
  if (!task) throw notFound("No such task.");
  // Not yet shown (its lecture unpublished, or scheduled): to anyone but its staff it does not exist, in the group or not.
  if ((!task.lecturePublished || task.publishAt) && !isStaff(viewer, task)) throw notFound("No such task.");
  if (!can(viewer, "group.viewInside", { group: facts(task) })) throw outsider(viewer, placeFacts(task), "Only the group's members and staff can see its tasks.", "No such task.");
  return task;
}

/** The refusal of a file above a task's limit, before its body is read and after. */
export const fileTooLargeMessage = (mb: number) => `Files for this task are limited to ${mb} MB.`;

/** Whether the address's group (its slug or id) is the task's own: a task page under another group's address is not found. */
export const taskInGroup = (task: Pick<TaskRecord, "groupId" | "groupSlug">, groupKey: string) => task.groupSlug === groupKey || task.groupId === groupKey;

/** Not shown to its group yet: its lecture unpublished, or the task itself scheduled for later. */
export const taskHidden = (t: Pick<TaskRecord, "lecturePublished" | "publishAt">) => !t.lecturePublished || t.publishAt !== null;

/** A task the viewer runs (its group's staff), on this lecture (null: any). Anyone else: see `notStaffOf`. */
export async function requireManagedTask(ctx: ServiceContext, viewer: Actor, lectureKey: string | null, taskKey: string): Promise<TaskRecord> {
  const task = await findTask(ctx, viewer, lectureKey, taskKey);
  if (!task) throw notFound("No such task.");
  if (!isStaff(viewer, task)) throw notStaffOf(viewer, placeFacts(task), taskHidden(task), "No such task.");
  return task;
}

export interface TaskListItem extends TaskDto {
  /** The caller's own submission state (students), or null for staff. */
  submission: { state: SubmissionState; score: number | null; feedback: string | null; feedbackHtml: string | null; submittedAt: string | null } | null;
}

/** GET /api/lectures/groups/{id}/tasks: the group's tasks by due time; students see those of published lectures, with their state. */
export async function listGroupTasks(ctx: ServiceContext, viewer: Actor, groupKey: string): Promise<TaskListItem[]> {
  const group = await groupForUser(ctx, viewer.userId, groupKey);
  if (!group) throw notFound("No such group.");
  if (!can(viewer, "group.viewInside", { group: facts(group) })) throw outsider(viewer, group, "Only the group's members and staff can see its tasks.");
  const staff = can(viewer, "group.manage", { group: facts(group) });
  // The course home runs it: built once per isolate for staff and for students (db/prepared.ts).
  const query = preparedOnce(ctx, staff ? "tasks.listGroupTasks.staff" : "tasks.listGroupTasks.student", (db) =>
    db
      // Of the viewer's hand-in, what the list shows: never its code, test report or file, which may be large.
      .select({
        task: taskListColumns,
        lectureSlug: lectures.slug,
        submission: {
          id: submissions.id,
          late: submissions.late,
          score: submissions.score,
          feedback: submissions.feedback,
          feedbackHtml: submissions.feedbackHtml,
          gradedAt: submissions.gradedAt,
          gradedBy: submissions.gradedBy,
          hasCode: sql<boolean>`${submissions.code} is not null`.mapWith(Boolean),
          resubmitRequestedAt: submissions.resubmitRequestedAt,
          feedbackWithRequest: submissions.feedbackWithRequest,
          submittedAt: submissions.submittedAt,
          testsScore: submissions.testsScore,
          testsRawScore: submissions.testsRawScore,
        },
        extendedDueAt: extensions.dueAt,
      })
      .from(tasks)
      .innerJoin(lectures, eq(lectures.id, tasks.lectureId))
      .leftJoin(submissions, and(eq(submissions.taskId, tasks.id), eq(submissions.userId, sql.placeholder("userId"))))
      .leftJoin(extensions, extensionOf("task", tasks.id, sql.placeholder("userId")))
      .where(and(eq(lectures.groupId, sql.placeholder("groupId")), staff ? undefined : studentSeesTask))
      .orderBy(asc(tasks.dueAt), asc(tasks.title)),
  );
  const rows = await query.all({ userId: viewer.userId, groupId: group.id });
  return rows.map((r) => {
    const seen = r.submission ? asStudentSees(r.task, r.submission) : null;
    const shown = seen?.gradedAt || seen?.resubmitRequestedAt ? seen.feedback : null;
    return {
    ...toTaskDto({ ...r.task, lectureSlug: r.lectureSlug, ...(extendsTime(r.task.dueAt, r.extendedDueAt) ? { dueAt: r.extendedDueAt, extendedFrom: r.task.dueAt } : {}) }),
    submission: staff
      ? null
      : {
          state: submissionState(seen),
          // The grade and feedback show once staff have graded (they stay visible while a new version is asked for).
          score: seen?.gradedAt ? seen.score : null,
          feedback: shown,
          // Rendered when it was given (stored-html.ts), not at every read.
          feedbackHtml: shown && r.submission ? htmlOf(ctx, "submissions", { id: r.submission.id, source: shown, html: r.submission.feedback === shown ? r.submission.feedbackHtml : null }) : null,
          submittedAt: seen ? seen.submittedAt.toISOString() : null,
        },
    };
  });
}

export interface StaffTaskItem extends TaskDto {
  lectureTitle: string;
  submitted: number;
  graded: number;
  members: number;
}

/** The group's tasks for its staff, each with how many members handed in and how many are graded (two queries). */
export async function listTasksForStaff(ctx: ServiceContext, viewer: Actor, groupKey: string): Promise<StaffTaskItem[]> {
  const group = await requireManagedGroup(ctx, viewer, groupKey);
  // Two statements side by side, not a D1 batch: a batch returns rows keyed by column name, so the task's and the
  // lecture's `slug` and `title` would overwrite each other (tests/integration/tasks-queries.test.ts).
  // The staff's Tasks tab runs them: built once per isolate (db/prepared.ts).
  const [rows, [members]] = await Promise.all([
    preparedOnce(ctx, "tasks.listForStaff", (db) =>
      db
        .select({
          task: taskListColumns,
          lectureSlug: lectures.slug,
          lectureTitle: lectures.title,
          submitted: sql<number>`count(${submissions.id})`,
          // A hand-in changed since it was graded waits to be graded again.
          graded: sql<number>`count(case when ${changedSinceGradedSql} then null else ${submissions.gradedAt} end)`,
        })
        .from(tasks)
        .innerJoin(lectures, eq(lectures.id, tasks.lectureId))
        .leftJoin(submissions, eq(submissions.taskId, tasks.id))
        .where(eq(lectures.groupId, sql.placeholder("groupId")))
        .groupBy(tasks.id)
        .orderBy(asc(tasks.dueAt), asc(tasks.title)),
    ).all({ groupId: group.id }),
    preparedOnce(ctx, "tasks.memberCount", (db) =>
      db
        .select({ n: sql<number>`count(*)` })
        .from(memberships)
        .where(and(eq(memberships.groupId, sql.placeholder("groupId")), inArray(memberships.status, [...MEMBER_STATUSES]))),
    ).all({ groupId: group.id }),
  ]);
  return rows.map((r) => ({ ...toTaskDto({ ...r.task, lectureSlug: r.lectureSlug }), lectureTitle: r.lectureTitle, submitted: r.submitted, graded: r.graded, members: members?.n ?? 0 }));
}

/** GET /api/lectures/{lectureId}/tasks/{taskId}: the task with its Markdown body rendered. */
export async function getTask(ctx: ServiceContext, viewer: Actor, lectureKey: string, taskKey: string) {
  const task = await requireReadableTask(ctx, viewer, lectureKey, taskKey);
  const rubric = task.rubricId ? ((await rubricsByIds(ctx, [task.rubricId])).get(task.rubricId) ?? null) : null;
  return {
    ...toTaskDto(task),
    // Everyone who reads the task sees how it will be graded.
    rubric: rubric ? { _id: rubric.id, title: rubric.title, criteria: rubric.criteria, total: rubricTotal(rubric.criteria) } : null,
    body: task.body,
    bodyHtml: htmlOf(ctx, "tasks", { id: task.id, source: task.body, html: task.bodyHtml }),
    lecture: { _id: task.lectureId, slug: task.lectureSlug, title: task.lectureTitle },
    // `ended`: the group is archived, its course over: the task is read, not handed in (course_ended).
    group: { _id: task.groupId, slug: task.groupSlug, title: task.groupTitle, ended: task.groupStatus === "archived" },
  };
}

async function freeTaskSlug(ctx: ServiceContext, title: string): Promise<string> {
  for (const candidate of slugCandidates(title)) {
    const [row] = await ctx.db.select({ id: tasks.id }).from(tasks).where(eq(tasks.slug, candidate)).limit(1);
    if (!row) return candidate;
  }
  throw new AppError(409, "conflict", "Please try again.");
}

/** A rubric of the task's group for a task form: another group's (or a deleted) rubric is a field error. */
async function rubricFor(ctx: ServiceContext, groupId: string, rubricId: string) {
  try {
    return await rubricOfGroup(ctx, groupId, rubricId);
  } catch (err) {
    if (err instanceof AppError && err.status === 404) throw new AppError(400, "validation_failed", "Choose one of the group's rubrics.", { rubricId: "Choose one of the group's rubrics." });
    throw err;
  }
}

/** Students must see a task before it is due: a task shown at or after its due time would be overdue on arrival. */
export function refuseShownAfterDue(publishAt: number, dueAt: number, field: "publishAt" | "dueAt" = "publishAt") {
  if (publishAt >= dueAt) {
    const message = field === "publishAt" ? "Students must see a task before it is due: choose a time before its due time." : "Students see this task only from its publishing time: choose a due time after it.";
    throw new AppError(400, "publish_after_due", message, { [field]: message });
  }
}

/** POST /api/lectures/{lectureId}/tasks (staff): members of a published lecture are told of the new task. */
export async function createTask(ctx: ServiceContext, viewer: Viewer, lectureKey: string, input: CreateTaskInput): Promise<TaskDto> {
  const [lecture] = await ctx.db
    .select({ id: lectures.id, slug: lectures.slug, published: lectures.published, groupId: groups.id, groupSlug: groups.slug, groupTitle: groups.title, status: groups.status, instructorId: groups.instructorId })
    .from(lectures)
    .innerJoin(groups, eq(groups.id, lectures.groupId))
    .where(or(eq(lectures.id, lectureKey), eq(lectures.slug, lectureKey)))
    .limit(1);
  if (!lecture) throw notFound("No such lecture.");
  if (!can(viewer, "group.manage", { group: lecture })) throw notStaffOf(viewer, lecture, !lecture.published, "No such lecture.");
  const rubric = input.rubricId ? await rubricFor(ctx, lecture.groupId, input.rubricId) : null;
  if (rubric) refuseOtherMaximum(rubricTotal(rubric.criteria), input.maxScore);
  const now = Date.now();
  if (input.publishAt != null && input.publishAt < now - SCHEDULE_SLACK_MS) {
    throw new AppError(400, "validation_failed", "Choose a time in the future.", { publishAt: "Choose a time in the future." });
  }
  const publishAt = input.publishAt != null && input.publishAt > now ? new Date(input.publishAt) : null;
  if (publishAt && input.dueAt != null) refuseShownAfterDue(publishAt.getTime(), input.dueAt);
  const fields = {
    lectureId: lecture.id,
    title: input.title,
    body: input.body ?? "",
    bodyHtml: withHtml(input.body ?? ""),
    dueAt: input.dueAt ? new Date(input.dueAt) : null,
    // A rubric sets the maximum: its best levels added up.
    maxScore: rubric ? rubricTotal(rubric.criteria) : (input.maxScore ?? 100),
    rubricId: rubric?.id ?? null,
    fileKinds: [...new Set(input.fileKinds ?? [])],
    maxFileMb: input.maxFileMb ?? 10,
    allowLate: input.allowLate ?? true,
    gradesHeld: input.gradesHeld ?? false,
    latePenaltyPerDay: input.latePenaltyPerDay ?? 0,
    latePenaltyFloor: input.latePenaltyFloor ?? 0,
    publishAt,
    createdAt: new Date(),
  };
  // Two tasks of one title made at the same moment may find the same slug free: the second is written again with another.
  const row = await withFreshSlugs(async () => {
    const made = { id: newId(), slug: await freeTaskSlug(ctx, input.title), ...fields };
    await ctx.db.insert(tasks).values(made);
    return made;
  });
  if (publishAt) await armPublisher(ctx, lecture.groupId, publishAt.getTime());
  else if (lecture.published) {
    await notifyUsers(ctx, await memberIds(ctx, lecture.groupId), {
      kind: "task-created",
      params: { task: row.title, group: lecture.groupTitle },
      link: `/course/${lecture.groupSlug}/lecture/${lecture.slug}/Add-Task/${row.slug}`,
    });
  }
  return toTaskDto({ ...row, lectureSlug: lecture.slug });
}

const GRADES_OUT = "Students have already seen grades on this task, so they can no longer be held. Hold grades on a new task, before its first grade.";

/** PUT /api/lectures/{lectureId}/tasks/{taskId} (staff). */
export async function updateTask(ctx: ServiceContext, viewer: Viewer, lectureKey: string, taskKey: string, input: UpdateTaskInput): Promise<TaskDto> {
  const task = await requireManagedTask(ctx, viewer, lectureKey, taskKey);
  if (input.dueAt != null && task.publishAt) refuseShownAfterDue(task.publishAt.getTime(), input.dueAt, "dueAt");
  // With a rubric the maximum is the rubric's total, whatever maxScore says; taking the rubric off keeps the maximum.
  const rubricId = input.rubricId === undefined ? task.rubricId : input.rubricId;
  const rubric = rubricId ? await rubricFor(ctx, task.groupId, rubricId) : null;
  if (rubric) refuseOtherMaximum(rubricTotal(rubric.criteria), input.maxScore);
  const maxScore = rubric ? rubricTotal(rubric.criteria) : (input.maxScore ?? task.maxScore);
  // What the check below found must still hold when the task is written (a grade given meanwhile, from another tab
  // or by a colleague, is seen by the write itself): the same condition goes into the UPDATE.
  let stillFits: SQL | undefined;
  if (rubricId !== task.rubricId && maxScore !== task.maxScore) {
    const graded = ctx.db.select({ id: submissions.id }).from(submissions).where(and(eq(submissions.taskId, task.id), isNotNull(submissions.gradedAt)));
    if ((await graded.limit(1)).length > 0) throw new AppError(409, "conflict", `Work on this task was already graded out of ${task.maxScore}: choose a rubric worth ${task.maxScore} points, or none.`);
    stillFits = sql`not exists ${graded}`;
  } else if (maxScore < task.maxScore) {
    // A lower maximum must stay above every score given (before any late penalty): 95 of 10 is no grade.
    // An exercise's tests' score counts too: its student reads it while a staff grade is held (ADR 0041).
    const given = sql<number>`max(coalesce(${submissions.rawScore}, ${submissions.score}, 0), coalesce(${submissions.testsRawScore}, ${submissions.testsScore}, 0))`;
    const [top] = await ctx.db
      .select({ score: sql<number | null>`max(${given})` })
      .from(submissions)
      .where(eq(submissions.taskId, task.id));
    if (top?.score != null && top.score > maxScore) {
      const message = `Work on this task was already graded up to ${top.score} points: the maximum score cannot go below that.`;
      throw new AppError(409, "conflict", message, { maxScore: message });
    }
    stillFits = sql`not exists ${ctx.db.select({ id: submissions.id }).from(submissions).where(and(eq(submissions.taskId, task.id), sql`${given} > ${maxScore}`))}`;
  }
  const values = {
    ...(input.title !== undefined ? { title: input.title } : {}),
    ...(input.body !== undefined ? { body: input.body, bodyHtml: withHtml(input.body) } : {}),
    ...(input.dueAt !== undefined ? { dueAt: input.dueAt === null ? null : new Date(input.dueAt) } : {}),
    ...(input.maxScore !== undefined || maxScore !== task.maxScore ? { maxScore } : {}),
    ...(input.rubricId !== undefined ? { rubricId: rubric?.id ?? null } : {}),
    ...(input.fileKinds !== undefined ? { fileKinds: [...new Set(input.fileKinds)] } : {}),
    ...(input.maxFileMb !== undefined ? { maxFileMb: input.maxFileMb } : {}),
    ...(input.allowLate !== undefined ? { allowLate: input.allowLate } : {}),
    // Holding (again) only while no grade is out (below); releasing is its own call (POST .../release-grades), which
    // tells the students.
    ...(input.gradesHeld === true ? { gradesHeld: true } : {}),
    ...(input.latePenaltyPerDay !== undefined ? { latePenaltyPerDay: input.latePenaltyPerDay } : {}),
    ...(input.latePenaltyFloor !== undefined ? { latePenaltyFloor: input.latePenaltyFloor } : {}),
  };
  if (input.gradesHeld === false && task.gradesHeld) {
    throw new AppError(409, "conflict", "Release held grades with POST .../release-grades, which also tells the students.");
  }
  // A task that shows its grades cannot start holding them once staff have graded work on it: students have read
  // those grades, and holding would hide them again and reopen the graded work for a new hand-in (ADR 0040: a grade
  // that is out stays out). Checked here for the message, and again by the write.
  let nothingOut: SQL | undefined;
  const out = ctx.db.select({ id: submissions.id }).from(submissions).where(and(eq(submissions.taskId, task.id), staffGradedSql));
  if (input.gradesHeld === true && !task.gradesHeld) {
    if ((await out.limit(1)).length > 0) throw new AppError(409, "grades_out", GRADES_OUT, { gradesHeld: GRADES_OUT });
    nothingOut = sql`not exists ${out}`;
  }
  // Nothing to change (say `gradesHeld: false` on a task that holds nothing): the task as it is.
  if (Object.keys(values).length === 0) return toTaskDto(task);
  const [row] = await ctx.db.update(tasks).set(values).where(and(eq(tasks.id, task.id), stillFits, nothingOut)).returning();
  if (!row) {
    if (nothingOut && (await out.limit(1)).length > 0) throw new AppError(409, "grades_out", GRADES_OUT, { gradesHeld: GRADES_OUT });
    const message = "Work on this task was graded while you were saving: open it again to see the scores given, then choose the maximum.";
    throw new AppError(409, "conflict", message, { maxScore: message });
  }
  if (["dueAt", "latePenaltyPerDay", "latePenaltyFloor"].some((k) => k in values)) await reapplyLateness(ctx, task);
  return toTaskDto({ ...row, lectureSlug: task.lectureSlug });
}

/**
 * After the rules a hand-in was judged by change (the task's due time or late penalty, or one student's extension),
 * each hand-in is judged again by the rules as they are now: whether it is late, and the share of its grade the
 * penalty takes (a staff grade's and the tests' alike, from the points given before any penalty). So the grade, the
 * "late" mark and the penalty a page names always agree, and an extension given after grading lifts the penalty, as
 * Canvas re-applies its late policy (ADR 57). `userIds` limits it to those students (an extension). Constant
 * statements: one read of the hand-ins with their extensions, one batch of the rows that change.
 */
export async function reapplyLateness(ctx: ServiceContext, task: Pick<TaskRecord, "id" | "title" | "groupSlug" | "lectureSlug" | "slug">, userIds?: string[]): Promise<number> {
  const taskId = task.id;
  const [rules] = await ctx.db
    .select({ dueAt: tasks.dueAt, latePenaltyPerDay: tasks.latePenaltyPerDay, latePenaltyFloor: tasks.latePenaltyFloor, maxScore: tasks.maxScore, gradesHeld: tasks.gradesHeld })
    .from(tasks)
    .where(eq(tasks.id, taskId));
  if (!rules) return 0;
  const rows = await ctx.db
    .select({
      id: submissions.id,
      submittedAt: submissions.submittedAt,
      late: submissions.late,
      score: submissions.score,
      rawScore: submissions.rawScore,
      testsScore: submissions.testsScore,
      testsRawScore: submissions.testsRawScore,
      userId: submissions.userId,
      gradedAt: submissions.gradedAt,
      gradedBy: submissions.gradedBy,
      hasCode: sql<boolean>`${submissions.code} is not null`.mapWith(Boolean),
      extendedTo: extensions.dueAt,
    })
    .from(submissions)
    .leftJoin(extensions, extensionOf("task", taskId, submissions.userId))
    // Judging everyone again is right too: a long list of students is not bound one by one (D1's parameter limit).
    .where(and(eq(submissions.taskId, taskId), userIds && userIds.length <= 90 ? inArray(submissions.userId, userIds) : undefined));
  // The points given before any penalty are `raw` when one was taken, else the score itself.
  const judged = (given: number | null, raw: number | null, percent: number) => (given === null ? { score: null, raw: null } : penalised(raw ?? given, percent));
  const updates = [];
  // Students whose grade they can read changed: told, as a grade is (a held staff grade is not theirs to read yet).
  const told: { userId: string; score: number }[] = [];
  for (const row of rows) {
    const { late, percent } = judgeLateness(rules, row.submittedAt, row.extendedTo);
    const grade = judged(row.score, row.rawScore, percent);
    const tests = judged(row.testsScore, row.testsRawScore, percent);
    if (late === row.late && grade.score === row.score && grade.raw === row.rawScore && tests.score === row.testsScore && tests.raw === row.testsRawScore) continue;
    updates.push(ctx.db.update(submissions).set({ late, score: grade.score, rawScore: grade.raw, testsScore: tests.score, testsRawScore: tests.raw }).where(eq(submissions.id, row.id)));
    const shown = scoreShown({ ...row, score: grade.score, testsScore: tests.score }, rules.gradesHeld);
    if (shown !== null && shown !== scoreShown(row, rules.gradesHeld)) told.push({ userId: row.userId, score: shown });
  }
  if (updates.length > 0) await ctx.db.batch(updates as [(typeof updates)[number], ...(typeof updates)[number][]]);
  await tellRegraded(ctx, task, told, rules.maxScore, "late");
  return updates.length;
}

/**
 * Whether a hand-in made at `submittedAt` is late by the task's rules as they are now with the student's extension
 * (`extendedTo`), and the share of its grade the late penalty takes: what `reapplyLateness` and an exercise's rerun
 * judge each hand-in by.
 */
export function judgeLateness(rules: PenaltyRules, submittedAt: Date, extendedTo: Date | null): { late: boolean; percent: number } {
  const dueAt = ownTime(rules.dueAt, extendedTo);
  const late = dueAt !== null && submittedAt.getTime() > dueAt.getTime();
  return { late, percent: late ? latePenalty({ ...rules, dueAt }, submittedAt).percent : 0 };
}

/**
 * The score a hand-in's student reads, as `asStudentSees` shows it: none before it is graded; while the task holds a
 * staff grade, the tests' score of a code hand-in (none of another); else the grade.
 */
export function scoreShown(row: GradedFacts & Pick<SubmissionRow, "score" | "testsScore">, gradesHeld: boolean): number | null {
  if (row.gradedAt === null) return null;
  if (!gradeHeld({ gradesHeld }, row)) return row.score;
  return isCode(row) ? row.testsScore : null;
}

/**
 * Tells students their grade changed, and why (`late`: the late rules or their extension; `tests`: an exercise's
 * tests, run again): one write per new score, not per student (the same sentence to everyone with it).
 */
export async function tellRegraded(ctx: ServiceContext, task: Pick<TaskRecord, "title" | "groupSlug" | "lectureSlug" | "slug">, told: { userId: string; score: number }[], maxScore: number, why: "late" | "tests"): Promise<void> {
  const byScore = new Map<number, string[]>();
  for (const { userId, score } of told) byScore.set(score, [...(byScore.get(score) ?? []), userId]);
  for (const [score, ids] of byScore) {
    await notifyUsers(ctx, ids, { kind: why === "late" ? "submission-regraded" : "exercise-retested", params: { task: task.title, score, max: maxScore }, link: taskLink(task) });
  }
}

/** A task graded by a rubric is out of the rubric's total: another maximum sent with it is refused, not ignored. */
function refuseOtherMaximum(total: number, maxScore: number | undefined) {
  if (maxScore === undefined || maxScore === total) return;
  const message = `This task is graded by its rubric, so its maximum score is the rubric's total, ${total}. Leave maxScore out, or choose no rubric.`;
  throw new AppError(400, "validation_failed", message, { maxScore: message });
}

/** DELETE /api/lectures/{lectureId}/tasks/{taskId} (staff): the task and its submissions. */
export async function deleteTask(ctx: ServiceContext, viewer: Viewer, lectureKey: string, taskKey: string): Promise<{ message: string }> {
  const task = await requireManagedTask(ctx, viewer, lectureKey, taskKey);
  await ctx.db.delete(tasks).where(eq(tasks.id, task.id));
  return { message: "The task was deleted." };
}

/** A member's own submission to a task, if any. */
export async function ownSubmission(ctx: ServiceContext, taskId: string, userId: string): Promise<SubmissionRow | undefined> {
  const [row] = await ctx.db.select().from(submissions).where(and(eq(submissions.taskId, taskId), eq(submissions.userId, userId)));
  return row;
}

/**
 * Writes a member's hand-in (a link, a file, or code with its report): the first one is inserted and the group's staff
 * are told; a later one replaces `existing` only while it is `replaceable` (`refused` is the 409's message otherwise).
 * The rule is the UPDATE's condition, so a grade or a release that lands meanwhile is never overwritten. A staff grade
 * the hand-in may be replaced over (held by its task) is kept with the new version, column by column in the same
 * UPDATE: staff see the hand-in changed since they graded it and grade it again before releasing.
 */
export async function storeSubmission(
  ctx: ServiceContext,
  viewer: Viewer,
  task: { id: string; title: string; slug: string; lectureSlug: string; groupSlug: string; groupTitle: string; instructorId: string | null },
  existing: SubmissionRow | undefined,
  values: Omit<typeof submissions.$inferInsert, "id" | "taskId" | "userId">,
  refused: string,
  /**
   * A hand-in that repeats one that just landed (a double click, a retried request): the UPDATE leaves such a row
   * alone, and the row as it is comes back, so no second version is kept.
   */
  repeat?: { of: SQL; isRepeat: (row: SubmissionRow) => boolean },
): Promise<{ created: boolean; row: SubmissionRow }> {
  // Every version is kept (issue 21): the same batch copies the hand-in just written into its history, only if this
  // write is the one that landed (its id and its new hand-in time), so a refused replace copies nothing.
  const keep = (id: string) =>
    ctx.db.insert(submissionVersions).select(
      ctx.db
        .select({
          id: sql`${newId()}`.as("vid"),
          submissionId: submissions.id,
          link: submissions.link,
          notes: submissions.notes,
          code: submissions.code,
          fileKey: submissions.fileKey,
          fileName: submissions.fileName,
          fileType: submissions.fileType,
          fileSize: submissions.fileSize,
          submittedAt: submissions.submittedAt,
          late: submissions.late,
        })
        .from(submissions)
        .where(and(eq(submissions.id, id), eq(submissions.submittedAt, values.submittedAt))),
    );
  if (existing) {
    const set: Record<string, unknown> = { ...values };
    for (const column of GRADE_COLUMNS) {
      if (column in values) set[column] = sql`case when ${keepsGradeSql} then ${submissions[column]} else ${sql.param(values[column] ?? null, submissions[column])} end`;
    }
    // A kept grade is an older version's from now on: staff grade it again before it can be released.
    set.changedSinceGraded = sql`case when ${keepsGradeSql} then 1 else 0 end`;
    const [[row]] = await ctx.db.batch([
      ctx.db
        .update(submissions)
        .set(set as typeof values)
        .where(and(eq(submissions.id, existing.id), replaceableInSql, repeat ? sql`not ${repeat.of}` : undefined))
        .returning(),
      keep(existing.id),
    ]);
    if (row) return { created: false, row };
    if (repeat) {
      const current = await ownSubmission(ctx, task.id, viewer.userId);
      if (current && repeat.isRepeat(current)) return { created: false, row: current };
    }
    throw new AppError(409, "conflict", refused);
  }
  const id = newId();
  const [[row]] = await ctx.db
    .batch([ctx.db.insert(submissions).values({ id, taskId: task.id, userId: viewer.userId, ...values }).onConflictDoNothing().returning(), keep(id)])
    .catch((e: unknown) => {
      // The task was deleted after it was read (or the account, in its last moments): nothing was stored.
      throw isForeignKeyViolation(e) ? notFound("No such task.") : e;
    });
  if (!row) {
    const current = repeat ? await ownSubmission(ctx, task.id, viewer.userId) : undefined;
    if (current && repeat?.isRepeat(current)) return { created: false, row: current };
    throw new AppError(409, "conflict", "Your work was just submitted from another tab. Reload to see it.");
  }
  await notifyTaskStaff(ctx, task, { kind: "submission-created", params: { name: viewer.name, task: task.title, group: task.groupTitle } }, row.id);
  return { created: true, row };
}

/** Whether a hand-in now is late; past the due time of a task that takes no late work, a 409 (links and files alike). */
function lateness(task: Pick<TaskRecord, "dueAt" | "allowLate">, now: number): boolean {
  const late = task.dueAt !== null && now > task.dueAt.getTime();
  if (late && !task.allowLate) throw new AppError(409, "conflict", "The due time has passed and this task does not accept late work.");
  return late;
}

/** How long a hand-in of the same link and notes counts as a repeat of the last one (a double click, a retry). */
const REPEAT_WINDOW_MS = 10_000;

/** A link or file hand-in is replaceable until graded (and its grade out), or again once a new version was asked for. */
const GRADED_REFUSAL = "This work was already graded. Ask your instructor if you want to hand in a new version.";

/**
 * POST /api/lectures/{lectureId}/submit-task/{taskId}: the member's link and notes, dated by the server. A first
 * submission is created (201), a later one replaces it (200) until it is graded (409) unless staff asked for a new
 * version. Past the due time it is refused when the task allows no late work, and marked late otherwise.
 */
export async function submitTask(ctx: ServiceContext, viewer: Viewer, lectureKey: string, taskKey: string, input: SubmitTaskInput, now = Date.now()) {
  const task = await requireReadableTask(ctx, viewer, lectureKey, taskKey);
  if (!isMember(task)) throw forbidden("Only the group's students submit its tasks.");
  requireCourseRunning(viewer, placeFacts(task));
  const [exercise] = await ctx.db.select({ taskId: exercises.taskId }).from(exercises).where(eq(exercises.taskId, task.id));
  if (exercise) throw new AppError(409, "conflict", "This task is a code exercise: hand in your code on its page.");
  if (task.fileKinds.length > 0) throw new AppError(409, "conflict", "This task asks for a file: upload it on the task's page (POST .../submit-task/{taskId}/file).");
  const late = lateness(task, now);
  const values = { link: input.link, notes: input.notes || null, fileKey: null, fileName: null, fileType: null, fileSize: null, submittedAt: new Date(now), late, score: null, rawScore: null, rubric: null, feedback: null, gradedBy: null, gradedAt: null, resubmitRequestedAt: null, feedbackWithRequest: false };
  // The same link and notes again within REPEAT_WINDOW_MS of the last hand-in are that hand-in, not a new version.
  const since = new Date(now - REPEAT_WINDOW_MS);
  const repeat = {
    of: sql`(${submissions.fileKey} is null and ${submissions.link} = ${values.link} and coalesce(${submissions.notes}, '') = ${values.notes ?? ""} and ${submissions.submittedAt} > ${since.getTime()})`,
    isRepeat: (row: SubmissionRow) => row.fileKey === null && row.link === values.link && (row.notes ?? "") === (values.notes ?? "") && row.submittedAt.getTime() > since.getTime(),
  };
  const { created, row } = await storeSubmission(ctx, viewer, task, await ownSubmission(ctx, task.id, viewer.userId), values, GRADED_REFUSAL, repeat);
  return { created, submission: toSubmissionDto(asStudentSees(task, row), viewer.name, false, task) };
}

/** GET .../tasks/{taskId}/submissions: staff get every member (with or without a submission); a student their own. */
export async function listSubmissions(ctx: ServiceContext, viewer: Viewer, lectureKey: string, taskKey: string) {
  const task = await requireReadableTask(ctx, viewer, lectureKey, taskKey);
  if (!isStaff(viewer, task)) {
    const [own] = await ctx.db.select().from(submissions).where(and(eq(submissions.taskId, task.id), eq(submissions.userId, viewer.userId)));
    return { task: toTaskDto(task), submissions: own ? [toSubmissionDto(asStudentSees(task, own), viewer.name, false, task)] : [], missing: [] as { _id: string; name: string }[] };
  }
  const [rows, own] = await Promise.all([
    // The grader runs it: built once per isolate (db/prepared.ts).
    preparedOnce(ctx, "tasks.listSubmissions.staff", (db) =>
      db
        .select({ userId: users.id, name: users.name, submission: submissions })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .leftJoin(submissions, and(eq(submissions.taskId, sql.placeholder("taskId")), eq(submissions.userId, memberships.userId)))
        .where(and(eq(memberships.groupId, sql.placeholder("groupId")), inArray(memberships.status, [...MEMBER_STATUSES])))
        .orderBy(asc(users.name)),
    ).all({ taskId: task.id, groupId: task.groupId }),
    extendedDueTimes(ctx, task.id),
  ]);
  byName(rows, (r) => r.name);
  return {
    task: toTaskDto(task),
    submissions: rows.filter((r) => r.submission).map((r) => toSubmissionDto(r.submission!, r.name, true, rulesOf(task, own, r.userId), false)),
    missing: rows.filter((r) => !r.submission).map((r) => ({ _id: r.userId, name: r.name })),
  };
}

/**
 * GET .../submissions/{submissionId}: one submission with its whole report (staff), or the student's own as they may
 * see it. Lists carry only report summaries.
 */
export async function getSubmission(ctx: ServiceContext, viewer: Viewer, lectureKey: string | null, taskKey: string, submissionId: string) {
  const task = lectureKey === null ? await findTask(ctx, viewer, null, taskKey) : await requireReadableTask(ctx, viewer, lectureKey, taskKey);
  if (!task) throw notFound("No such submission.");
  const staff = isStaff(viewer, task);
  const [row] = await ctx.db
    .select({ submission: submissions, name: users.name })
    .from(submissions)
    .innerJoin(users, eq(users.id, submissions.userId))
    .where(and(eq(submissions.id, submissionId), eq(submissions.taskId, task.id)));
  if (!row || (!staff && row.submission.userId !== viewer.userId)) throw notFound("No such submission.");
  // A student's `task` already carries their own due time; staff read the student's extension.
  const rules = staff ? rulesOf(task, await extendedDueTimes(ctx, task.id, [row.submission.userId]), row.submission.userId) : task;
  return toSubmissionDto(staff ? row.submission : asStudentSees(task, row.submission), row.name, staff, rules);
}

/** PUT .../submissions/{submissionId} (staff): a score (0 to maxScore) with feedback, or a request for a new version. */
export async function gradeSubmission(ctx: ServiceContext, viewer: Viewer, lectureKey: string, taskKey: string, submissionId: string, input: GradeSubmissionInput) {
  const task = await requireManagedTask(ctx, viewer, lectureKey, taskKey);
  const [current] = await ctx.db
    .select({ submission: submissions, name: users.name, email: users.email, locale: users.locale })
    .from(submissions)
    .innerJoin(users, eq(users.id, submissions.userId))
    .where(and(eq(submissions.id, submissionId), eq(submissions.taskId, task.id)));
  if (!current) throw notFound("No such submission.");
  const rules = rulesOf(task, await extendedDueTimes(ctx, task.id, [current.submission.userId]), current.submission.userId);
  const now = new Date();
  let values;
  // A grade by rubric lands only on the rubric its points were read from (one changed meanwhile refuses it).
  let stillTheRubric: SQL | undefined;
  if ("requestResubmission" in input) {
    // A new version the student could not hand in is not asked for: past their own due time, a task that takes no
    // late work refuses it (lateness), so they would be told to do what they cannot. An extension comes first.
    if (!task.allowLate && rules.dueAt !== null && now.getTime() > rules.dueAt.getTime()) {
      const message = "This task takes no late work and its due time has passed for this student: give them more time first (an extension), then ask for a new version.";
      throw new AppError(409, "past_due_no_late_work", message);
    }
    // Feedback written with the request is the request's: its student sees it even while the task holds its grades.
    // Without any, the feedback stays what it was (a held grade's stays hidden with the grade).
    const feedback = input.feedback ?? current.submission.feedback;
    const feedbackWithRequest = input.feedback !== undefined || current.submission.feedbackWithRequest;
    values = { resubmitRequestedAt: now, feedback, feedbackHtml: withHtml(feedback), feedbackWithRequest, gradedBy: viewer.userId, changedSinceGraded: false };
  } else {
    const { given, rubric, rubricAsRead } = "rubric" in input ? await scoreByRubric(ctx, task, input.rubric) : { given: input.score, rubric: null, rubricAsRead: undefined };
    stillTheRubric = rubricAsRead;
    if (given > task.maxScore) throw new AppError(400, "validation_failed", `The score is at most ${task.maxScore}.`, { score: `The score is at most ${task.maxScore}.` });
    // A late hand-in on a task with a late penalty keeps the share its lateness leaves (the grader shows both).
    const penalty = current.submission.late ? latePenalty(rules, current.submission.submittedAt) : { days: 0, percent: 0 };
    const { score, raw } = penalised(given, penalty.percent);
    values = { score, rawScore: raw, rubric, feedback: input.feedback || null, feedbackHtml: withHtml(input.feedback || null), gradedBy: viewer.userId, gradedAt: now, resubmitRequestedAt: null, feedbackWithRequest: false, changedSinceGraded: false };
  }
  // Given for the version the grader saw (when they say which): a newer one handed in meanwhile is not graded blind.
  const seen = input.version !== undefined ? eq(submissions.submittedAt, new Date(input.version)) : undefined;
  // And over the grade the grader saw (when they say which): one given meanwhile (another tab, a colleague) is not
  // replaced without their knowing.
  const gradeSeen = input.graded === undefined ? undefined : input.graded ? eq(submissions.gradedAt, new Date(input.graded)) : isNull(submissions.gradedAt);
  // The score is checked against the task's maximum as it is when the grade is written: one lowered meanwhile (another
  // tab, a colleague) refuses it instead of leaving 10 of 5.
  const fits = "score" in values && values.score !== null ? sql`${"rawScore" in values && values.rawScore !== null ? values.rawScore : values.score} <= (select ${tasks.maxScore} from ${tasks} where ${tasks.id} = ${task.id})` : undefined;
  // Whether the task holds its grades is read in the same transaction as the grade is written: a release at the same
  // moment either comes after (and tells this student with the rest) or came before (and this grade tells them).
  const [[row], [heldNow]] = await ctx.db.batch([
    ctx.db.update(submissions).set(values).where(and(eq(submissions.id, submissionId), seen, gradeSeen, fits, stillTheRubric)).returning(),
    ctx.db.select({ gradesHeld: tasks.gradesHeld }).from(tasks).where(eq(tasks.id, task.id)),
  ]);
  if (!row) {
    if (stillTheRubric) {
      const [live] = await ctx.db.select({ id: submissions.id }).from(submissions).where(and(eq(submissions.id, submissionId), stillTheRubric));
      if (!live) throw new AppError(409, "conflict", "The rubric changed while you were grading: open the hand-in again and grade it with the rubric as it is now.", { rubric: "The rubric changed while you were grading." });
    }
    const [live] = await ctx.db.select({ maxScore: tasks.maxScore }).from(tasks).where(eq(tasks.id, task.id));
    if (fits && live && live.maxScore !== task.maxScore) {
      throw new AppError(409, "conflict", `The task's maximum score changed to ${live.maxScore} while you were grading: grade it again out of ${live.maxScore}.`, { score: `The score is at most ${live.maxScore}.` });
    }
    const [now] = await ctx.db.select({ submittedAt: submissions.submittedAt, gradedAt: submissions.gradedAt, score: submissions.score }).from(submissions).where(eq(submissions.id, submissionId));
    if (now && gradeSeen && (input.version === undefined || now.submittedAt.getTime() === new Date(input.version).getTime())) {
      const score = now.score === null ? "" : String(now.score);
      const message = `This hand-in was graded meanwhile${score ? ` (${score} of ${task.maxScore})` : ""}, in another tab or by a colleague: look at that grade; saving again replaces it.`;
      throw new AppError(409, "graded_elsewhere", message, { graded: now.gradedAt?.toISOString() ?? "", score });
    }
    throw new AppError(409, "changed_since_opened", "A new version was handed in since you opened this one: look at it, then grade it.");
  }
  const graded = !("requestResubmission" in input);
  const rulesNow = { ...rules, gradesHeld: heldNow?.gradesHeld ?? task.gradesHeld };
  // A held grade tells nobody yet: releasing the task's grades does (releaseGrades). A request for a new version is
  // not a grade and always goes out.
  if (graded && rulesNow.gradesHeld) return toSubmissionDto(row!, current.name, true, rulesNow);
  const link = taskLink(task);
  await notifyUsers(ctx, [current.submission.userId], {
    kind: graded ? "submission-graded" : "submission-returned",
    params: graded ? { task: task.title, score: row!.score ?? 0, max: task.maxScore } : { task: task.title },
    link,
  });
  // Only the feedback the student may see (a held grade's is not theirs yet).
  const shownFeedback = asStudentSees(rulesNow, row!).feedback;
  const mail = { name: current.name, task: task.title, feedback: shownFeedback, href: `${ctx.settings.publicOrigin}${link}`, lang: mailLang(current.locale) };
  ctx.waitUntil(sendMail(ctx, { to: current.email, ...(graded ? gradedMail({ ...mail, score: row!.score, max: task.maxScore, rawScore: row!.rawScore }) : newVersionMail(mail)) }));
  return toSubmissionDto(row!, current.name, true, rulesNow);
}

/** A level per criterion of the task's rubric: the points they add up to and the filled rubric kept with the grade. */
async function scoreByRubric(ctx: ServiceContext, task: TaskRecord, choices: Record<string, number>): Promise<{ given: number; rubric: RubricAssessment; rubricAsRead: SQL }> {
  if (!task.rubricId) throw new AppError(400, "validation_failed", "This task has no rubric: give a score.", { rubric: "This task has no rubric: give a score." });
  const rubric = await rubricOfGroup(ctx, task.groupId, task.rubricId);
  // A level for a criterion the rubric does not have is refused, not dropped: the grader meant to grade something it
  // will not count (most likely a rubric changed since their page was opened).
  const unknown = Object.keys(choices).find((id) => !rubric.criteria.some((c) => c.id === id));
  if (unknown !== undefined) {
    const message = `The rubric has no criterion "${unknown}": open the hand-in again and grade it with the rubric as it is now.`;
    throw new AppError(400, "validation_failed", message, { rubric: message });
  }
  const filled = fillRubric(rubric.criteria, choices);
  if (!filled.ok) throw new AppError(400, "validation_failed", `Pick a level for "${filled.missing}".`, { rubric: `Pick a level for "${filled.missing}".` });
  // The rubric as read: its last change (every change moves it forward: rubrics.ts updateRubric).
  const rubricAsRead = sql`(select ${rubrics.updatedAt} from ${rubrics} where ${rubrics.id} = ${rubric.id}) = ${rubric.updatedAt.getTime()}`;
  return { given: filled.points, rubric: { rubricId: rubric.id, title: rubric.title, criteria: filled.criteria }, rubricAsRead };
}

export const taskLink = (task: Pick<TaskRecord, "groupSlug" | "lectureSlug" | "slug">) =>
  `/course/${encodeURIComponent(task.groupSlug)}/lecture/${encodeURIComponent(task.lectureSlug)}/Add-Task/${encodeURIComponent(task.slug)}`;

/**
 * Tells a task's staff (every admin and the group's instructor) about a student's hand-in, each with a link to the
 * task's grader in their own area, opened on that hand-in (`?submission=`).
 */
export async function notifyTaskStaff(
  ctx: ServiceContext,
  task: Pick<TaskRecord, "groupSlug" | "lectureSlug" | "slug" | "instructorId">,
  n: { kind: string; params: Record<string, string> },
  submissionId: string,
): Promise<void> {
  const team = await ctx.db.select({ id: users.id, role: users.role }).from(users).where(or(eq(users.role, "admin"), task.instructorId ? eq(users.id, task.instructorId) : undefined));
  const grader = (area: string) =>
    `/${area}/group/${encodeURIComponent(task.groupSlug)}/lecture/${encodeURIComponent(task.lectureSlug)}/tasks/${encodeURIComponent(task.slug)}/submissions?submission=${encodeURIComponent(submissionId)}`;
  await Promise.all([
    notifyUsers(ctx, team.filter((u) => u.role !== "admin").map((u) => u.id), { ...n, link: grader("instructor") }),
    notifyUsers(ctx, team.filter((u) => u.role === "admin").map((u) => u.id), { ...n, link: grader("dashboard/admin") }),
  ]);
}

/**
 * POST .../tasks/{taskId}/release-grades (staff): the task's grades stop being held and every graded student is told
 * at once (one notification each, in one batch, and an e-mail). Answers how many were released. Releasing a task that
 * holds nothing is a 409 with a message, so a second click cannot notify twice.
 */
export async function releaseGrades(ctx: ServiceContext, viewer: Viewer, lectureKey: string, taskKey: string): Promise<{ released: number; task: TaskDto }> {
  const task = await requireManagedTask(ctx, viewer, lectureKey, taskKey);
  // The flag flips only if it is still set (of two staff releasing at once, one tells the students) and no grade would
  // go out for an older version than the one handed in (read in the same statement: a hand-in meanwhile wins).
  const changed = ctx.db.select({ id: submissions.id }).from(submissions).where(and(eq(submissions.taskId, task.id), changedSinceGradedSql));
  // The graded hand-ins are read in the same transaction as the flag flips: a grade written at the same moment is
  // either among them or was written after, and then tells its student itself (gradeSubmission).
  const [[flipped], graded] = await ctx.db.batch([
    ctx.db
      .update(tasks)
      .set({ gradesHeld: false })
      .where(and(eq(tasks.id, task.id), eq(tasks.gradesHeld, true), sql`not exists ${changed}`))
      .returning({ id: tasks.id }),
    ctx.db
      .select({
        userId: submissions.userId,
        name: users.name,
        email: users.email,
        locale: users.locale,
        score: submissions.score,
        rawScore: submissions.rawScore,
        feedback: submissions.feedback,
        // Whether they are still in the group: a student who left or was removed keeps the grade but is not written to.
        member: sql<number>`exists (select 1 from ${memberships} where ${memberships.groupId} = ${task.groupId} and ${memberships.userId} = ${submissions.userId} and ${inArray(memberships.status, [...MEMBER_STATUSES])})`,
      })
      .from(submissions)
      .innerJoin(users, eq(users.id, submissions.userId))
      // A grade with a request for a new version goes out too (its student reads both from now on): told like the rest.
      .where(and(eq(submissions.taskId, task.id), isNotNull(submissions.gradedAt), staffGradedSql)),
  ]);
  if (!flipped) {
    const [[held], waiting] = await ctx.db.batch([ctx.db.select({ held: tasks.gradesHeld }).from(tasks).where(eq(tasks.id, task.id)), changed]);
    if (held?.held && waiting.length > 0) {
      const which = waiting.length === 1 ? "One hand-in was" : `${waiting.length} hand-ins were`;
      throw new AppError(409, "changed_since_graded", `${which} handed in again after you graded it: grade again what changed (marked in the grader), then release.`);
    }
    throw new AppError(409, "grades_not_held", "This task's grades are not held: students already see them.");
  }
  const told = graded.filter((g) => Number(g.member) === 1);
  const link = taskLink(task);
  await notifyUsers(ctx, told.map((g) => g.userId), { kind: "grades-released", params: { task: task.title }, link });
  for (const g of told) {
    // The same mail as a grade that was never held: the score, the points before a late penalty, the feedback.
    const mail = { name: g.name, task: task.title, score: g.score, rawScore: g.rawScore, feedback: g.feedback, max: task.maxScore, href: `${ctx.settings.publicOrigin}${link}`, lang: mailLang(g.locale) };
    ctx.waitUntil(sendMail(ctx, { to: g.email, ...gradedMail(mail) }));
  }
  return { released: graded.length, task: toTaskDto({ ...task, gradesHeld: false }) };
}

/** Where hand-in files live in the bucket; they are only ever read through the submission's file route. */
const HAND_IN_PREFIX = "hand-ins/";
/**
 * File hand-ins a student may store in an hour, over all their tasks: every version's file is kept (issue 21), so
 * replacing a 20 MB file in a loop would fill the bucket (ADR 0041). Counted only once a file is judged fit to keep.
 */
export const FILE_HAND_IN_LIMIT = { max: 20, windowMs: 60 * 60_000 };

/**
 * Who may hand a file in to this task, and how large: checked before an upload's body is read (the API route's first
 * step, with the size the request declares), so a stranger's or an oversized 20 MB body is refused without being
 * parsed (ADR 0041), and again by `submitFile` with the file itself.
 */
export async function fileHandInTask(ctx: ServiceContext, viewer: Actor, lectureKey: string, taskKey: string, bytes: number | null): Promise<TaskRecord> {
  const task = await requireReadableTask(ctx, viewer, lectureKey, taskKey);
  if (!isMember(task)) throw forbidden("Only the group's students submit its tasks.");
  requireCourseRunning(viewer, placeFacts(task));
  if (task.fileKinds.length === 0) throw new AppError(409, "conflict", "This task asks for a link to your work, not a file.");
  if (bytes !== null && bytes > task.maxFileMb * 1024 * 1024) throw new AppError(413, "payload_too_large", fileTooLargeMessage(task.maxFileMb));
  return task;
}

/**
 * POST .../submit-task/{taskId}/file: a file hand-in, for a task that asks for one. The same rules as a link (the due
 * time, replacing until graded); the size is the task's limit (413 above it), and the kind is decided by the file's
 * first bytes (a page renamed .pdf is refused). Stored in R2 under a random key; earlier versions keep their files.
 */
export async function submitFile(ctx: ServiceContext, viewer: Viewer, lectureKey: string, taskKey: string, file: File, notes: string | undefined, now = Date.now()) {
  const task = await fileHandInTask(ctx, viewer, lectureKey, taskKey, file.size);
  const late = lateness(task, now);
  const refuse = (message: string) => new AppError(400, "validation_failed", message, { file: message });
  if (file.size === 0) throw refuse(EMPTY_FILE_MESSAGE);
  // The notes follow the link hand-in's rule (at most 2000 characters, control characters dropped), from the page's
  // form as from the API: checked before the file is stored, so a refused hand-in leaves nothing in the bucket.
  const checkedNotes = submitTaskInput.shape.notes.safeParse(notes);
  if (!checkedNotes.success) {
    const message = checkedNotes.error.issues[0]?.message ?? "Check the notes.";
    throw new AppError(400, "validation_failed", message, { notes: message });
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = sniffHandIn(bytes);
  const kind = type ? KIND_OF_TYPE[type] : undefined;
  if (!type || !kind || !task.fileKinds.includes(kind)) throw refuse(`This task takes ${task.fileKinds.join(", ")} files, judged by their content.`);
  const existing = await ownSubmission(ctx, task.id, viewer.userId);
  // Checked before the file is stored as well, so a refused hand-in leaves nothing in the bucket.
  if (existing && !replaceable(task, existing)) throw new AppError(409, "conflict", GRADED_REFUSAL);
  await hitRateLimit(ctx, `hand-in-file:${viewer.userId}`, FILE_HAND_IN_LIMIT, "You handed in many files in the last hour. Please wait a while before handing in another.");
  const key = `${HAND_IN_PREFIX}${newId()}`;
  await ctx.env.IMAGES.put(key, bytes, { httpMetadata: { contentType: type } });
  const name = fileNameAsStored(file.name);
  const values = { link: "", notes: checkedNotes.data || null, fileKey: key, fileName: name, fileType: type, fileSize: file.size, submittedAt: new Date(now), late, score: null, rawScore: null, rubric: null, feedback: null, gradedBy: null, gradedAt: null, resubmitRequestedAt: null, feedbackWithRequest: false };
  const { created, row } = await storeSubmission(ctx, viewer, task, existing, values, GRADED_REFUSAL);
  return { created, submission: toSubmissionDto(asStudentSees(task, row), viewer.name, false, task) };
}

/**
 * GET .../submissions/{submissionId}/file: the file of a hand-in (or of one of its versions), for its student and the
 * group's staff. Answers the object with the type its content was stored as; the route serves it as an attachment,
 * or inline only for images, PDFs and text, always with nosniff and a sandbox policy.
 */
export async function readSubmissionFile(ctx: ServiceContext, viewer: Viewer, lectureKey: string, taskKey: string, submissionId: string, version?: number, groupKey?: string) {
  const task = await requireReadableTask(ctx, viewer, lectureKey, taskKey);
  // The pages' address names the group too: a task under another group's address is not found (as its page).
  if (groupKey !== undefined && !taskInGroup(task, groupKey)) throw notFound("No such file.");
  const [row] = await ctx.db.select().from(submissions).where(and(eq(submissions.id, submissionId), eq(submissions.taskId, task.id)));
  if (!row || (!isStaff(viewer, task) && row.userId !== viewer.userId)) throw notFound("No such file.");
  let file: { key: string | null; name: string | null; type: string | null } = { key: row.fileKey, name: row.fileName, type: row.fileType };
  if (version !== undefined) {
    const versions = await ctx.db.select().from(submissionVersions).where(eq(submissionVersions.submissionId, row.id)).orderBy(asc(submissionVersions.submittedAt), asc(submissionVersions.id));
    const v = versions[version - 1];
    file = { key: v?.fileKey ?? null, name: v?.fileName ?? null, type: v?.fileType ?? null };
  }
  if (!file.key) throw notFound("No such file.");
  const object = await ctx.env.IMAGES.get(file.key);
  if (!object) throw notFound("No such file.");
  // Names stored before the rule on format characters read as they are stored now.
  return { body: object.body, size: object.size, name: fileNameAsStored(file.name ?? ""), type: file.type ?? "application/octet-stream" };
}
