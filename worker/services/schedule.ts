/**
 * Scheduled publishing (issue 22, ADR 0023): staff set a time at which the server publishes a draft lecture or quiz,
 * or shows a task to students, and tells the members, whether or not anyone is online. The group's Publisher
 * (a Durable Object, worker/realtime/publisher.ts) rings at the earliest time set; the cron every five minutes
 * (worker/index.ts `scheduled`) is the safety net. Publishing claims rows with a conditional UPDATE ... RETURNING,
 * so two runs never announce the same item twice.
 */
import { and, eq, inArray, isNotNull, lte, min, ne, notExists, or, sql } from "drizzle-orm";
import type { ScheduleKind } from "../../app/lib/lifecycle-schemas";
import type { Actor } from "../../app/lib/permissions";
import { bankQuestions, groups, lectures, quizzes, submissions, tasks } from "../../db/schema";
import type { ServiceContext } from "../context";
import { AppError, notFound } from "../http/errors";
import { announceLecture, requireManagedLecture } from "./lectures";
import { memberIds } from "./memberships";
import { notifyUsers } from "./notifications";
import { armPublisher, SCHEDULE_SLACK_MS } from "./publisher-client";
import { checkDraws, requireManagedQuiz } from "./quizzes";
import { chunked } from "./chunks";
import { drawsUnfit, refuseIfBankChanged } from "./question-bank";
import { refuseShownAfterDue, requireManagedTask } from "./tasks";

/** The row's group is not archived (a correlated condition on its group id column). */
const notArchived = (column: typeof lectures.groupId | typeof quizzes.groupId) =>
  sql`not exists (select 1 from ${groups} where ${groups.id} = ${column} and ${groups.status} = 'archived')`;

export interface ScheduleResult {
  kind: ScheduleKind;
  _id: string;
  slug: string;
  publishAt: string | null;
  published: boolean;
}


/**
 * PUT /api/schedule/{kind}/{id}: `publishAt` in the future schedules the item; null takes a lecture's or quiz's
 * schedule off (it stays a draft) and shows a scheduled task now. A published lecture or quiz cannot be scheduled
 * (unpublish it first); nor can a task students already handed in.
 */
export async function setSchedule(ctx: ServiceContext, viewer: Actor, kind: ScheduleKind, key: string, publishAt: number | null, now = Date.now()): Promise<ScheduleResult> {
  if (publishAt !== null && publishAt < now - SCHEDULE_SLACK_MS) {
    throw new AppError(400, "validation_failed", "Choose a time in the future.", { publishAt: "Choose a time in the future." });
  }
  const at = publishAt === null ? null : new Date(Math.max(publishAt, now));
  let groupId: string;
  let result: ScheduleResult;
  if (kind === "lecture") {
    const lecture = await requireManagedLecture(ctx, viewer, key);
    refuseIfArchived(lecture.groupStatus, at);
    const alreadyPublished = () => new AppError(409, "already_published", "This lecture is already published. Make it a draft first to schedule it.");
    if (lecture.published) throw alreadyPublished();
    // Published by hand meanwhile (another tab): a schedule set now would announce it a second time when due.
    const [set] = await ctx.db.update(lectures).set({ publishAt: at }).where(and(eq(lectures.id, lecture.id), eq(lectures.published, false))).returning({ id: lectures.id });
    if (!set) throw alreadyPublished();
    groupId = lecture.groupId;
    result = { kind, _id: lecture.id, slug: lecture.slug, publishAt: at?.toISOString() ?? null, published: false };
  } else if (kind === "quiz") {
    const quiz = await requireManagedQuiz(ctx, viewer, key);
    refuseIfArchived(quiz.groupStatus, at);
    const alreadyPublished = () => new AppError(409, "already_published", "This quiz is already published. Make it a draft first to schedule it.");
    if (quiz.published) throw alreadyPublished();
    // As when it is published by hand: its draws must find their questions in the bank (checked again when it is due).
    // The schedule lands only on the bank that was judged (one changed meanwhile: 409 bank_changed, nothing scheduled).
    const bankAsJudged = at ? await checkDraws(ctx, quiz.groupId, quiz.draws) : undefined;
    const [set] = await ctx.db.update(quizzes).set({ publishAt: at }).where(and(eq(quizzes.id, quiz.id), eq(quizzes.published, false), bankAsJudged)).returning({ id: quizzes.id });
    if (!set && bankAsJudged) await refuseIfBankChanged(ctx, quiz.groupId, bankAsJudged);
    if (!set) throw alreadyPublished();
    groupId = quiz.groupId;
    result = { kind, _id: quiz.id, slug: quiz.slug, publishAt: at?.toISOString() ?? null, published: false };
  } else {
    // Tasks are addressed by their own id or slug (unique site-wide).
    const task = await requireManagedTask(ctx, viewer, null, key);
    refuseIfArchived(task.groupStatus, at);
    if (at && task.dueAt) refuseShownAfterDue(at.getTime(), task.dueAt.getTime());
    if (at) {
      // Hidden only while students cannot see it (scheduled, on a lecture they cannot see, or in a draft group) and nobody has handed it
      // in: a task shown on a published lecture was announced, and hidden and shown again it would be announced twice,
      // its link leading nowhere in between (as for a published lecture or quiz). The write itself carries both
      // conditions, so a task shown (another tab, its own time coming) or handed in meanwhile stays shown.
      // A draft group is seen by no student (it has no members), so its tasks are hidden whatever their lecture: the
      // next cohort's copy has its lectures published first and its homework scheduled after.
      const stillHidden = or(
        isNotNull(tasks.publishAt),
        notExists(
          ctx.db
            .select({ one: sql`1` })
            .from(lectures)
            .innerJoin(groups, eq(groups.id, lectures.groupId))
            .where(and(eq(lectures.id, tasks.lectureId), eq(lectures.published, true), ne(groups.status, "draft"))),
        ),
      );
      const notHandedIn = notExists(ctx.db.select({ one: sql`1` }).from(submissions).where(eq(submissions.taskId, tasks.id)));
      const [set] = await ctx.db.update(tasks).set({ publishAt: at }).where(and(eq(tasks.id, task.id), stillHidden, notHandedIn)).returning({ id: tasks.id });
      if (!set) {
        const [handedIn] = await ctx.db.select({ id: submissions.id }).from(submissions).where(eq(submissions.taskId, task.id)).limit(1);
        if (handedIn) throw new AppError(409, "already_handed_in", "Students already handed this task in, so it cannot be hidden until later.");
        const [still] = await ctx.db.select({ id: tasks.id }).from(tasks).where(eq(tasks.id, task.id)).limit(1);
        throw still ? new AppError(409, "already_shown", "Students already see this task, so it cannot be hidden until later.") : notFound("No such task.");
      }
    } else if (task.publishAt) {
      // Shown now: claimed like a due one, so it is announced once.
      const [claimed] = await ctx.db.update(tasks).set({ publishAt: null }).where(and(eq(tasks.id, task.id), isNotNull(tasks.publishAt))).returning({ id: tasks.id });
      if (claimed && task.lecturePublished) await announceTask(ctx, { slug: task.slug, title: task.title, lectureSlug: task.lectureSlug, groupId: task.groupId, groupSlug: task.groupSlug, groupTitle: task.groupTitle });
    }
    groupId = task.groupId;
    result = { kind, _id: task.id, slug: task.slug, publishAt: at?.toISOString() ?? null, published: at === null && task.lecturePublished };
  }
  if (at) await armPublisher(ctx, groupId, at.getTime());
  return result;
}

/** A time set in an archived group would never come (publishDue passes archived groups by): refused, 409. */
function refuseIfArchived(status: string, at: Date | null) {
  if (at && status === "archived") throw new AppError(409, "group_archived", "This group is archived: nothing in it is published on a schedule.");
}

async function announceTask(ctx: ServiceContext, t: { slug: string; title: string; lectureSlug: string; groupId: string; groupSlug: string; groupTitle: string }, members?: string[]) {
  await notifyUsers(ctx, members ?? (await memberIds(ctx, t.groupId)), {
    kind: "task-created",
    params: { task: t.title, group: t.groupTitle },
    link: `/course/${t.groupSlug}/lecture/${t.lectureSlug}/Add-Task/${t.slug}`,
  });
}

export interface Published {
  lectures: number;
  tasks: number;
  quizzes: number;
}

/** The due quizzes (of one group, or all) that draw from their group's bank and that it cannot fill: their ids. */
async function unfitDue(ctx: ServiceContext, due: Date, groupId: string | null): Promise<string[]> {
  const drawing = await ctx.db
    .select({ id: quizzes.id, groupId: quizzes.groupId, draws: quizzes.draws })
    .from(quizzes)
    .where(and(lte(quizzes.publishAt, due), groupId ? eq(quizzes.groupId, groupId) : undefined, sql`json_array_length(${quizzes.draws}) > 0`));
  if (drawing.length === 0) return [];
  const bank = await chunked([...new Set(drawing.map((q) => q.groupId))], (ids) =>
    ctx.db.select({ id: bankQuestions.id, groupId: bankQuestions.groupId, tags: bankQuestions.tags }).from(bankQuestions).where(inArray(bankQuestions.groupId, ids)),
  );
  const byGroup = new Map<string, typeof bank>();
  for (const b of bank) {
    const list = byGroup.get(b.groupId);
    if (list) list.push(b);
    else byGroup.set(b.groupId, [b]);
  }
  return drawing.filter((q) => drawsUnfit(byGroup.get(q.groupId) ?? [], q.draws) !== null).map((q) => q.id);
}

/**
 * Publishes everything due by `now` (in one group, or in all), then tells the members: a lecture as when staff
 * publish it, a quiz or task once its lecture is published too. Returns what was published.
 */
export async function publishDue(ctx: ServiceContext, groupId: string | null, now = Date.now()): Promise<Published> {
  const due = new Date(now);
  // An archived group publishes nothing on its own: its course has ended, and its members are not told of new work.
  // What was scheduled stays scheduled (and goes out if an admin brings the group back).
  const inGroup = (column: typeof lectures.groupId | typeof quizzes.groupId) => and(groupId ? eq(column, groupId) : undefined, notArchived(column));
  // A quiz whose draws the group's bank can no longer fill stays a draft: published, students would find a quiz they
  // cannot start. Its schedule is taken off (first in the batch, so the publishing below passes it by) and its staff are
  // told. The rule is the one quiz saves and bank edits are checked by (`drawsUnfit`); bank edits already refuse to
  // leave a scheduled quiz short, so this meets only banks changed by other paths.
  const unfit = await unfitDue(ctx, due, groupId);
  const [unscheduled, lectureRows, quizRows, taskRows] = await ctx.db.batch([
    ctx.db
      .update(quizzes)
      .set({ publishAt: null })
      .where(and(lte(quizzes.publishAt, due), sql`${quizzes.id} in (select value from json_each(${JSON.stringify(unfit)}))`))
      .returning({ title: quizzes.title, groupId: quizzes.groupId }),
    ctx.db
      .update(lectures)
      .set({ published: true, publishAt: null })
      .where(and(lte(lectures.publishAt, due), inGroup(lectures.groupId)))
      .returning({ id: lectures.id, slug: lectures.slug, title: lectures.title, groupId: lectures.groupId }),
    ctx.db
      .update(quizzes)
      .set({ published: true, publishAt: null })
      .where(and(lte(quizzes.publishAt, due), inGroup(quizzes.groupId)))
      .returning({ id: quizzes.id, slug: quizzes.slug, title: quizzes.title, groupId: quizzes.groupId, lectureId: quizzes.lectureId }),
    ctx.db
      .update(tasks)
      .set({ publishAt: null })
      .where(and(lte(tasks.publishAt, due), inArray(tasks.lectureId, ctx.db.select({ id: lectures.id }).from(lectures).where(inGroup(lectures.groupId)))))
      .returning({ id: tasks.id, slug: tasks.slug, title: tasks.title, lectureId: tasks.lectureId }),
  ]);
  if (unscheduled.length > 0) {
    // Their groups' instructors and slugs in one read, however many quizzes the bank let down.
    const owners = new Map(
      (await chunked([...new Set(unscheduled.map((q) => q.groupId))], (ids) => ctx.db.select({ id: groups.id, instructorId: groups.instructorId, slug: groups.slug }).from(groups).where(inArray(groups.id, ids)))).map((g) => [g.id, g]),
    );
    for (const q of unscheduled) {
      const g = owners.get(q.groupId);
      if (g?.instructorId) await notifyUsers(ctx, [g.instructorId], { kind: "quiz-not-published", params: { quiz: q.title }, link: `/instructor/group/${g.slug}/quizzes` });
    }
  }
  if (lectureRows.length + quizRows.length + taskRows.length === 0) return { lectures: 0, tasks: 0, quizzes: 0 };

  // Where each item lives (its lecture and group), in one read.
  const lectureIds = [...new Set([...quizRows.map((q) => q.lectureId), ...taskRows.map((t) => t.lectureId)].filter((id): id is string => !!id))];
  const groupIds = [...new Set(lectureRows.map((l) => l.groupId))];
  const [places, groupRows] = await Promise.all([
    chunked(lectureIds, (ids) =>
      ctx.db
        .select({ id: lectures.id, slug: lectures.slug, published: lectures.published, groupId: groups.id, groupSlug: groups.slug, groupTitle: groups.title })
        .from(lectures)
        .innerJoin(groups, eq(groups.id, lectures.groupId))
        .where(inArray(lectures.id, ids)),
    ),
    chunked(groupIds, (ids) => ctx.db.select({ id: groups.id, slug: groups.slug, title: groups.title }).from(groups).where(inArray(groups.id, ids))),
  ]);
  const place = new Map(places.map((p) => [p.id, p]));
  const group = new Map(groupRows.map((g) => [g.id, g]));
  // Each group's members are read once, however many of its items are published now.
  const memberCache = new Map<string, Promise<string[]>>();
  const membersOf = (groupId: string) => {
    let ids = memberCache.get(groupId);
    if (!ids) memberCache.set(groupId, (ids = memberIds(ctx, groupId)));
    return ids;
  };
  for (const l of lectureRows) {
    const g = group.get(l.groupId);
    if (g) await announceLecture(ctx, g, l, await membersOf(g.id));
  }
  for (const q of quizRows) {
    const p = q.lectureId ? place.get(q.lectureId) : undefined;
    if (!p?.published) continue;
    await notifyUsers(ctx, await membersOf(p.groupId), {
      kind: "quiz-published",
      params: { quiz: q.title, group: p.groupTitle },
      link: `/course/${p.groupSlug}/lecture/${p.slug}/quiz/${q.slug}`,
    });
  }
  for (const t of taskRows) {
    const p = place.get(t.lectureId);
    if (!p?.published) continue;
    await announceTask(ctx, { slug: t.slug, title: t.title, lectureSlug: p.slug, groupId: p.groupId, groupSlug: p.groupSlug, groupTitle: p.groupTitle }, await membersOf(p.groupId));
  }
  return { lectures: lectureRows.length, tasks: taskRows.length, quizzes: quizRows.length };
}

/** The earliest time still scheduled in a group (null: nothing), for the Publisher's next ring. */
export async function nextPublishAt(ctx: ServiceContext, groupId: string): Promise<number | null> {
  // Nothing for an archived group (publishDue passes it by): its Publisher would otherwise ring again at once, forever.
  const [[l], [q], [t]] = await ctx.db.batch([
    ctx.db.select({ at: min(lectures.publishAt) }).from(lectures).where(and(eq(lectures.groupId, groupId), isNotNull(lectures.publishAt), notArchived(lectures.groupId))),
    ctx.db.select({ at: min(quizzes.publishAt) }).from(quizzes).where(and(eq(quizzes.groupId, groupId), isNotNull(quizzes.publishAt), notArchived(quizzes.groupId))),
    ctx.db
      .select({ at: sql<number | null>`min(${tasks.publishAt})` })
      .from(tasks)
      .innerJoin(lectures, eq(lectures.id, tasks.lectureId))
      .where(and(eq(lectures.groupId, groupId), isNotNull(tasks.publishAt), notArchived(lectures.groupId))),
  ]);
  const times = [l?.at, q?.at, t?.at].map((x) => (x == null ? null : x instanceof Date ? x.getTime() : Number(x))).filter((x): x is number => x !== null);
  return times.length ? Math.min(...times) : null;
}
