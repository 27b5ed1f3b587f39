/**
 * A hand-in's history and its private conversation (issue 21): every version the student handed in, and messages
 * between the student and the group's staff about this one hand-in. Only the hand-in's student and the group's staff
 * read them; each message notifies the other side (the student, or the group's instructor and the admins).
 */
import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import type { SubmissionCommentInput } from "../../app/lib/task-schemas";
import { submissionComments, submissions, submissionVersions, users } from "../../db/schema";
import type { Database } from "../../db/client";
import { preparedOnce } from "../../db/prepared";
import type { ServiceContext } from "../context";
import { notFound } from "../http/errors";
import { newId } from "./ids";
import { notifyUsers } from "./notifications";
import { hitRateLimit, type Limit } from "./rate-limit";
import type { Viewer } from "./sessions";
import { placeFacts, requireCourseRunning } from "./group-access";
import { isStaff, notifyTaskStaff, requireReadableTask, taskIdOf, taskLink, type TaskRecord } from "./tasks";

export interface VersionDto {
  number: number;
  link: string;
  notes: string | null;
  code: string | null;
  submittedAt: string;
  late: boolean;
}

export interface CommentDto {
  _id: string;
  author: { _id: string | null; name: string; staff: boolean };
  body: string;
  createdAt: string;
}

/**
 * The hand-in, if the viewer may read it: its student while still a member of the group, or staff of its group (as
 * the hand-in itself: a 403 for someone outside the group, a student who left included; a 404 for another's hand-in).
 */
async function readable(ctx: ServiceContext, viewer: Viewer, lectureKey: string, taskKey: string, submissionId: string): Promise<{ task: TaskRecord; studentId: string; staff: boolean }> {
  const task = await requireReadableTask(ctx, viewer, lectureKey, taskKey);
  const [row] = await ctx.db.select({ userId: submissions.userId }).from(submissions).where(and(eq(submissions.id, submissionId), eq(submissions.taskId, task.id)));
  const staff = isStaff(viewer, task);
  if (!row || (!staff && row.userId !== viewer.userId)) throw notFound("No such submission.");
  return { task, studentId: row.userId, staff };
}

/** GET .../submissions/{submissionId}/versions: every version, the first first. */
export async function listVersions(ctx: ServiceContext, viewer: Viewer, lectureKey: string, taskKey: string, submissionId: string): Promise<VersionDto[]> {
  await readable(ctx, viewer, lectureKey, taskKey, submissionId);
  const rows = await ctx.db.select().from(submissionVersions).where(eq(submissionVersions.submissionId, submissionId)).orderBy(asc(submissionVersions.submittedAt), asc(submissionVersions.id));
  return rows.map((r, i) => ({ number: i + 1, link: r.link, notes: r.notes, code: r.code, submittedAt: r.submittedAt.toISOString(), late: r.late }));
}

/** GET .../submissions/{submissionId}/comments: the conversation, oldest first. */
export async function listComments(ctx: ServiceContext, viewer: Viewer, lectureKey: string, taskKey: string, submissionId: string): Promise<CommentDto[]> {
  const { studentId } = await readable(ctx, viewer, lectureKey, taskKey, submissionId);
  const rows = await ctx.db
    .select({ comment: submissionComments, name: users.name })
    .from(submissionComments)
    .leftJoin(users, eq(users.id, submissionComments.authorId))
    .where(eq(submissionComments.submissionId, submissionId))
    .orderBy(asc(submissionComments.createdAt), asc(submissionComments.id));
  return rows.map(({ comment: c, name }) => ({
    _id: c.id,
    author: { _id: c.authorId, name: name ?? "", staff: c.authorId !== studentId },
    body: c.body,
    createdAt: c.createdAt.toISOString(),
  }));
}

/**
 * Messages one person may write about hand-ins in ten minutes: a conversation, not a flood (each message rings the
 * other side's bell, every admin's included).
 */
export const COMMENT_LIMIT: Limit = { max: 20, windowMs: 10 * 60_000 };

/**
 * POST .../submissions/{submissionId}/comments: a message; the other side is notified. Once the course has ended
 * (its group archived) the student writes no more (409 `course_ended`, as for hand-ins); its staff still may, since
 * they may still grade.
 */
export async function addComment(ctx: ServiceContext, viewer: Viewer, lectureKey: string, taskKey: string, submissionId: string, input: SubmissionCommentInput): Promise<CommentDto> {
  const { task, studentId, staff } = await readable(ctx, viewer, lectureKey, taskKey, submissionId);
  if (!staff) requireCourseRunning(viewer, placeFacts(task));
  await hitRateLimit(ctx, `comment:${viewer.userId}`, COMMENT_LIMIT, "You have sent many messages in a short time. Wait a few minutes, then write again.");
  const now = new Date();
  const [row] = await ctx.db.insert(submissionComments).values({ id: newId(), submissionId, authorId: viewer.userId, body: input.body, createdAt: now }).returning();
  const params = { name: viewer.name, task: task.title };
  if (viewer.userId === studentId) {
    // Staff are taken to the grader of the task, in their own area, on this hand-in.
    await notifyTaskStaff(ctx, task, { kind: "submission-comment", params }, submissionId);
  } else {
    await notifyUsers(ctx, [studentId], { kind: "submission-comment", params, link: taskLink(task) });
  }
  return { _id: row!.id, author: { _id: viewer.userId, name: viewer.name, staff: staff && viewer.userId !== studentId }, body: row!.body, createdAt: row!.createdAt.toISOString() };
}

/**
 * The versions and messages of every hand-in to a task, for the grader (staff only; the caller checked): two
 * statements whatever the number of hand-ins, grouped by submission.
 */
export async function historyOfTask(ctx: ServiceContext, task: { lectureKey: string; taskKey: string }): Promise<Map<string, { versions: VersionDto[]; comments: CommentDto[] }>> {
  // The grader runs them: built once per isolate (db/prepared.ts), the task by its lecture's and its own key.
  const ofTask = (db: Database) => inArray(submissions.taskId, taskIdOf(db, sql.placeholder("lectureKey"), sql.placeholder("taskKey")));
  const values = { lectureKey: task.lectureKey, taskKey: task.taskKey };
  const [versions, comments] = await Promise.all([
    preparedOnce(ctx, "history.versions", (db) =>
      db
        .select({ version: submissionVersions })
        .from(submissionVersions)
        .innerJoin(submissions, eq(submissions.id, submissionVersions.submissionId))
        .where(ofTask(db))
        .orderBy(asc(submissionVersions.submittedAt), asc(submissionVersions.id)),
    ).all(values),
    preparedOnce(ctx, "history.comments", (db) =>
      db
        .select({ comment: submissionComments, name: users.name, studentId: submissions.userId })
        .from(submissionComments)
        .innerJoin(submissions, eq(submissions.id, submissionComments.submissionId))
        .leftJoin(users, eq(users.id, submissionComments.authorId))
        .where(ofTask(db))
        .orderBy(asc(submissionComments.createdAt), asc(submissionComments.id)),
    ).all(values),
  ]);
  const out = new Map<string, { versions: VersionDto[]; comments: CommentDto[] }>();
  const entry = (id: string) => out.get(id) ?? (out.set(id, { versions: [], comments: [] }), out.get(id)!);
  for (const { version: v } of versions) {
    const e = entry(v.submissionId);
    e.versions.push({ number: e.versions.length + 1, link: v.link, notes: v.notes, code: v.code, submittedAt: v.submittedAt.toISOString(), late: v.late });
  }
  for (const { comment: c, name, studentId } of comments) {
    entry(c.submissionId).comments.push({ _id: c.id, author: { _id: c.authorId, name: name ?? "", staff: c.authorId !== studentId }, body: c.body, createdAt: c.createdAt.toISOString() });
  }
  return out;
}
