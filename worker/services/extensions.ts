/**
 * Extensions (issue 21): the group's staff give one student, or several, more time. On a task, a later due time; on
 * a quiz, a later close, extra minutes per attempt and/or extra attempts. The rules read them where they read the
 * times (findTask and findQuiz give a student their own times; progress counts "due" per student), so this module
 * only writes and lists them. Each student given one is told, in their language, through a notification.
 */
import { and, asc, eq, getTableColumns, inArray } from "drizzle-orm";
import { byName } from "../../app/lib/names";
import type { BatchItem } from "drizzle-orm/batch";
import type { QuizExtensionInput, TaskExtensionInput } from "../../app/lib/extension-schemas";
import { attempts, extensions, memberships, users, MEMBER_STATUSES } from "../../db/schema";
import type { ServiceContext } from "../context";
import { AppError, notFound } from "../http/errors";
import { newId } from "./ids";
import { notifyUsers } from "./notifications";
import { keysShownNow, requireManagedQuiz } from "./quizzes";
import type { Viewer } from "./sessions";
import { reapplyLateness, requireManagedTask, taskLink } from "./tasks";
import { chunked, D1_MAX_PARAMS, slices } from "./chunks";
import { extensionOf } from "./extension-join";

export interface ExtensionDto {
  user: { _id: string; name: string };
  /** A task's due time for this student. */
  dueAt: string | null;
  /** A quiz's closing time for this student (null: the quiz's own). */
  closesAt: string | null;
  extraMinutes: number;
  extraAttempts: number;
  createdAt: string;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const invalidTime = (field: "dueAt" | "closesAt", message: string) => new AppError(400, "validation_failed", message, { [field]: message });

/** Every id must be a current student of the group; otherwise a 400 naming the field, and nothing is written. */
async function requireStudents(ctx: ServiceContext, groupId: string, userIds: string[]): Promise<string[]> {
  const wanted = [...new Set(userIds)];
  const found = await chunked(wanted, (ids) =>
    ctx.db
      .select({ id: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.groupId, groupId), inArray(memberships.userId, ids), inArray(memberships.status, [...MEMBER_STATUSES]))),
  );
  if (found.length !== wanted.length) {
    const message = "Choose students of the group.";
    throw new AppError(400, "validation_failed", message, { userIds: message });
  }
  return wanted;
}

/**
 * Every student's extension row in one batch (one transaction: all land or none), as many rows per statement as D1's
 * bound values allow: each row binds every column of the table, and the upsert's SET its values once more.
 */
async function upsertAll<R, Q extends BatchItem<"sqlite">>(ctx: ServiceContext, set: object, rows: R[], statement: (part: R[]) => Q): Promise<void> {
  const perStatement = Math.floor((D1_MAX_PARAMS - Object.keys(set).length) / Object.keys(getTableColumns(extensions)).length);
  const [first, ...rest] = slices(rows, perStatement).map(statement);
  if (first) await ctx.db.batch([first, ...rest]);
}

async function listWhere(ctx: ServiceContext, where: ReturnType<typeof eq>): Promise<ExtensionDto[]> {
  const rows = await ctx.db
    .select({ extension: extensions, name: users.name })
    .from(extensions)
    .innerJoin(users, eq(users.id, extensions.userId))
    .where(where)
    .orderBy(asc(users.name), asc(users.id));
  return byName(rows, (r) => r.name).map(({ extension: e, name }) => ({
    user: { _id: e.userId, name },
    dueAt: iso(e.dueAt),
    closesAt: iso(e.closesAt),
    extraMinutes: e.extraMinutes,
    extraAttempts: e.extraAttempts,
    createdAt: e.createdAt.toISOString(),
  }));
}

/* ---- Tasks -------------------------------------------------------------------------------------------------- */

/** GET .../tasks/{taskId}/extensions (staff): the students with their own due time, by name. */
export async function listTaskExtensions(ctx: ServiceContext, viewer: Viewer, lectureKey: string, taskKey: string): Promise<ExtensionDto[]> {
  const task = await requireManagedTask(ctx, viewer, lectureKey, taskKey);
  return listWhere(ctx, eq(extensions.taskId, task.id));
}

/**
 * PUT .../tasks/{taskId}/extensions (staff): these students' due time, replacing any extension they had, in one
 * statement. A hand-in already made keeps its "late" mark as the server recorded it; the late penalty of an
 * ungraded or regraded hand-in follows the new time.
 */
export async function setTaskExtensions(ctx: ServiceContext, viewer: Viewer, lectureKey: string, taskKey: string, input: TaskExtensionInput): Promise<ExtensionDto[]> {
  const task = await requireManagedTask(ctx, viewer, lectureKey, taskKey);
  const dueAt = new Date(input.dueAt);
  // More time, never less (own-time.ts): a due time at or before the task's own would make this student's work due early.
  if (task.dueAt === null) throw invalidTime("dueAt", "This task has no due time, so there is nothing to extend. Give the task a due time first.");
  if (dueAt <= task.dueAt) throw invalidTime("dueAt", "The new due time must come after the task's own.");
  const ids = await requireStudents(ctx, task.groupId, input.userIds);
  const now = new Date();
  const set = { dueAt, grantedBy: viewer.userId, createdAt: now };
  await upsertAll(ctx, set, ids.map((userId) => ({ id: newId(), userId, taskId: task.id, ...set })), (part) =>
    ctx.db.insert(extensions).values(part).onConflictDoUpdate({ target: [extensions.taskId, extensions.userId], set }),
  );
  // Work they already handed in is judged by their own due time now: late or not, and its penalty.
  await reapplyLateness(ctx, task, ids);
  // Told only about work they can see: a task scheduled for later, or in a draft lecture, is not named to them before
  // it is published (its page then shows their own due time).
  if (task.lecturePublished && task.publishAt === null) await notifyUsers(ctx, ids, { kind: "extension-granted", params: { work: task.title }, link: taskLink(task) });
  return listTaskExtensions(ctx, viewer, lectureKey, taskKey);
}

/** DELETE .../tasks/{taskId}/extensions/{userId} (staff): the student's due time is the task's again. */
export async function removeTaskExtension(ctx: ServiceContext, viewer: Viewer, lectureKey: string, taskKey: string, userId: string): Promise<{ message: string }> {
  const task = await requireManagedTask(ctx, viewer, lectureKey, taskKey);
  const gone = await ctx.db.delete(extensions).where(extensionOf("task", task.id, userId)).returning({ id: extensions.id });
  if (gone.length === 0) throw notFound("That student has no extension on this task.");
  await reapplyLateness(ctx, task, [userId]);
  return { message: "The extension was removed." };
}

/* ---- Quizzes ------------------------------------------------------------------------------------------------ */

/** GET /api/quizzes/{id}/extensions (staff). */
export async function listQuizExtensions(ctx: ServiceContext, viewer: Viewer, quizKey: string): Promise<ExtensionDto[]> {
  const quiz = await requireManagedQuiz(ctx, viewer, quizKey);
  return listWhere(ctx, eq(extensions.quizId, quiz.id));
}

/**
 * PUT /api/quizzes/{id}/extensions (staff): a later close, extra minutes per attempt and/or extra attempts for these
 * students, replacing any they had. The close must come after the quiz's own; an attempt already running keeps the
 * deadline it started with.
 */
export async function setQuizExtensions(ctx: ServiceContext, viewer: Viewer, quizKey: string, input: QuizExtensionInput): Promise<ExtensionDto[]> {
  const quiz = await requireManagedQuiz(ctx, viewer, quizKey);
  const closesAt = input.closesAt != null ? new Date(input.closesAt) : null;
  // A later close, never an earlier one (own-time.ts): an earlier close would end the quiz early for these students
  // and open their review while the rest of the group can still answer.
  if (closesAt && quiz.closesAt === null) throw invalidTime("closesAt", "This quiz never closes: give extra minutes or extra attempts instead.");
  if (closesAt && quiz.closesAt && closesAt <= quiz.closesAt) throw invalidTime("closesAt", "The new close must come after the quiz's own close.");
  const ids = await requireStudents(ctx, quiz.groupId, input.userIds);
  // More attempts, or a later close, for a student the review already shows the answers to would let them answer
  // with the key in front of them: refused, naming them (they keep what they have).
  const taken = await chunked(ids, (part) =>
    ctx.db
      .select({ attempt: attempts, name: users.name })
      .from(attempts)
      .innerJoin(users, eq(users.id, attempts.userId))
      .where(and(eq(attempts.quizId, quiz.id), inArray(attempts.userId, part))),
  );
  // Shown a key now (a review that keeps every key back shows none), or shown once (a policy switched to "never"
  // since hides nothing from who read them).
  const showing = await keysShownNow(ctx, quiz, taken.map((t) => t.attempt), Date.now(), false);
  const seen = [...new Set(taken.map((t) => t.attempt.userId))].filter(
    (userId) => showing.has(userId) || (quiz.answersShownAt !== null && taken.some((t) => t.attempt.userId === userId && t.attempt.submittedAt)),
  );
  if (seen.length > 0 && ((input.extraAttempts ?? 0) > 0 || input.closesAt != null)) {
    const names = taken.filter((t) => seen.includes(t.attempt.userId)).map((t) => t.name);
    // `seenBy` names them by id too, so a page can say it in its reader's language.
    throw new AppError(409, "answers_seen", `${[...new Set(names)].join(", ")} can already see the answers, so more attempts or a later close would let them answer with the key. Give extra minutes only, or leave them out.`, { seenBy: seen.join(",") });
  }
  // Once the review has shown the key to anyone, a later close for someone else would let them answer after
  // classmates saw it, and would hide it again from those who read it (answers once shown stay shown, ADR 40).
  if (closesAt && quiz.answersShownAt !== null) {
    throw new AppError(409, "answers_seen", "Students have already seen this quiz's answers, so a later close would let others answer after seeing the key. Give extra minutes only, or make a new quiz for a make-up.");
  }
  const now = new Date();
  const values = { closesAt, extraMinutes: input.extraMinutes ?? 0, extraAttempts: input.extraAttempts ?? 0, grantedBy: viewer.userId, createdAt: now };
  await upsertAll(ctx, values, ids.map((userId) => ({ id: newId(), userId, quizId: quiz.id, ...values })), (part) =>
    ctx.db.insert(extensions).values(part).onConflictDoUpdate({ target: [extensions.quizId, extensions.userId], set: values }),
  );
  const link = `/course/${encodeURIComponent(quiz.groupSlug)}/lecture/${encodeURIComponent(quiz.lectureSlug)}/quiz/${encodeURIComponent(quiz.slug)}`;
  // As for tasks: a draft or scheduled quiz, or one in a draft lecture, is not named to them before it is published.
  if (quiz.published && quiz.lecturePublished) await notifyUsers(ctx, ids, { kind: "extension-granted", params: { work: quiz.title }, link });
  return listQuizExtensions(ctx, viewer, quizKey);
}

/** DELETE /api/quizzes/{id}/extensions/{userId} (staff). */
export async function removeQuizExtension(ctx: ServiceContext, viewer: Viewer, quizKey: string, userId: string): Promise<{ message: string }> {
  const quiz = await requireManagedQuiz(ctx, viewer, quizKey);
  const gone = await ctx.db.delete(extensions).where(extensionOf("quiz", quiz.id, userId)).returning({ id: extensions.id });
  if (gone.length === 0) throw notFound("That student has no extension on this quiz.");
  return { message: "The extension was removed." };
}
