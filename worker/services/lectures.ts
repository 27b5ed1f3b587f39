/**
 * Lectures (PRODUCT.md §2 "Lecture"): a group's schedule. Members and staff read them (students only the
 * published ones); the group's staff write them. Every rule goes through `can()`; the API and the pages call these.
 */
import { and, isNull, asc, count, eq, inArray, max, or, sql } from "drizzle-orm";
import { can, type Actor } from "../../app/lib/permissions";
import { inYears, isCalendarDate } from "../../app/lib/dates";
import { LECTURE_LIMITS, type CreateLectureInput, type LectureOrderInput, type LectureSeriesInput, type UpdateLectureInput } from "../../app/lib/lecture-schemas";
import { attendance, extensions, groups, lectures, memberships, quizzes, submissions, tasks, type GroupStatus, MEMBER_STATUSES } from "../../db/schema";
import { memberIds } from "./memberships";
import { asStudentSees, submissionState } from "./tasks";
import { preparedOnce } from "../../db/prepared";
import type { ServiceContext } from "../context";
import { rowFor } from "../http/read-ahead";
import { htmlOf, withHtml } from "./stored-html";
import { groupForUser, notStaffOf, outsider, placeFacts } from "./group-access";
import { AppError, forbidden, notFound } from "../http/errors";
import { newId, slugCandidates, withFreshSlugs } from "./ids";
import { notifyUsers } from "./notifications";
import type { Viewer } from "./sessions";
import { zoneOffset } from "./time-shift";
import { ownTimeSql } from "./own-time";
import { heldSql, joinedAfterSql, openSql, type Value } from "./lecture-time";
import { extensionOf } from "./extension-join";

export interface LectureDto {
  _id: string;
  slug: string;
  title: string;
  startsAt: string | null;
  order: number;
  published: boolean;
  videoUrl: string | null;
  resources: { title: string; url: string }[];
  /** A draft the server publishes at this time (issue 22); null when not scheduled. */
  publishAt: string | null;
}

export interface LectureDetailDto extends LectureDto {
  body: string;
  bodyHtml: string;
  /** `ended`: the group is archived, its course over (nothing more is handed in, taken or checked in). */
  group: { _id: string; slug: string; title: string; instructorId: string | null; ended: boolean };
  /** The caller's own attendance (students), null when none is recorded; `byStaff`: marked by hand, not by a code. */
  attendance: { status: string; markedAt: string; byStaff: boolean } | null;
  /** Attendance is open right now (the check-in box shows). */
  attendanceOpen: boolean;
  /** Held while the caller was a member, and no record of theirs: Progress counts it as not attended. */
  missed: boolean;
  /** The caller joined the group after the lecture took place and has no record of it: it counts nowhere for them. */
  joinedAfter: boolean;
}

/**
 * A lecture held (progress's rule) while the member of the `memberships` row in scope was in the group, of which the
 * `attendance` row in scope (theirs, left-joined) holds nothing: Progress counts it as not attended.
 */
const missedSql = (now: Value<number>) => sql<number>`(${attendance.status} is null and ${memberships.id} is not null and ${heldSql(now)} and not ${joinedAfterSql})`;

/** A lecture with the facts its rules need. */
export interface LectureRecord {
  id: string;
  slug: string;
  title: string;
  body: string;
  bodyHtml: string | null;
  videoUrl: string | null;
  resources: { title: string; url: string }[];
  startsAt: Date | null;
  order: number;
  published: boolean;
  publishAt?: Date | null;
  groupId: string;
  groupSlug: string;
  groupTitle: string;
  /** Draft, published or archived: to someone outside a draft group its lectures are unknown (404). */
  groupStatus: GroupStatus;
  instructorId: string | null;
  membershipStatus: string | null;
}

const lectureColumns = {
  id: lectures.id,
  slug: lectures.slug,
  title: lectures.title,
  body: lectures.body,
  bodyHtml: lectures.bodyHtml,
  videoUrl: lectures.videoUrl,
  resources: lectures.resources,
  startsAt: lectures.startsAt,
  order: lectures.order,
  published: lectures.published,
  publishAt: lectures.publishAt,
  groupId: groups.id,
  groupSlug: groups.slug,
  groupTitle: groups.title,
  groupStatus: groups.status,
  instructorId: groups.instructorId,
};

export function toLectureDto(r: Pick<LectureRecord, "id" | "slug" | "title" | "startsAt" | "order" | "published" | "videoUrl" | "resources" | "publishAt">): LectureDto {
  return {
    _id: r.id,
    slug: r.slug,
    title: r.title,
    startsAt: r.startsAt ? r.startsAt.toISOString() : null,
    order: r.order,
    published: r.published,
    videoUrl: r.videoUrl,
    resources: r.resources,
    publishAt: r.publishAt ? r.publishAt.toISOString() : null,
  };
}

/** A lecture (by id or slug) with its group and the viewer's membership in it; null when there is none. */
export function findLecture(ctx: ServiceContext, viewer: Actor, idOrSlug: string): Promise<LectureRecord | null> {
  // Read once per request (a GET's memo): a page checks the lecture, then its services ask for it again. A signed-in
  // page starts from the row this isolate saw last and checks it before sending (ADR 0033).
  return rowFor(ctx, "lecture", viewer.userId, idOrSlug, async () => {
    // Every lecture page runs it: built once per isolate (db/prepared.ts).
    const [row] = await preparedOnce(ctx, "lectures.find", (db) =>
      db
        .select({ ...lectureColumns, membershipStatus: memberships.status })
        .from(lectures)
        .innerJoin(groups, eq(groups.id, lectures.groupId))
        .leftJoin(memberships, and(eq(memberships.groupId, groups.id), eq(memberships.userId, sql.placeholder("userId"))))
        .where(or(eq(lectures.id, sql.placeholder("idOrSlug")), eq(lectures.slug, sql.placeholder("idOrSlug"))))
        .limit(1),
    ).all({ userId: viewer.userId, idOrSlug });
    return row;
  });
}

const groupFacts = (r: { instructorId: string | null; membershipStatus: string | null }) => ({ instructorId: r.instructorId, membershipStatus: r.membershipStatus });

/**
 * A lecture the viewer may read: 404 for an unknown lecture, or an unpublished one to anyone but the group's staff
 * (students, and people outside the group, cannot learn that it exists); 403 for someone outside the group.
 */
export async function requireReadableLecture(ctx: ServiceContext, viewer: Actor, idOrSlug: string): Promise<LectureRecord> {
  const lecture = await findLecture(ctx, viewer, idOrSlug);
  if (!lecture) throw notFound("No such lecture.");
  const group = placeFacts(lecture);
  // Unpublished first: to anyone but its staff it does not exist, whether or not they are in the group.
  if (!lecture.published && !can(viewer, "group.manage", { group })) throw notFound("No such lecture.");
  if (!can(viewer, "group.viewInside", { group })) throw outsider(viewer, group, "Only the group's members and staff can see its lectures.", "No such lecture.");
  return lecture;
}

/** A lecture the viewer runs (its group's instructor, or an admin): 404 unknown, 403 otherwise. */
export async function requireManagedLecture(ctx: ServiceContext, viewer: Actor, idOrSlug: string): Promise<LectureRecord> {
  const lecture = await findLecture(ctx, viewer, idOrSlug);
  if (!lecture) throw notFound("No such lecture.");
  const group = placeFacts(lecture);
  if (!can(viewer, "group.manage", { group })) throw notStaffOf(viewer, group, !lecture.published, "No such lecture.");
  return lecture;
}

/** The group (by id or slug) with the viewer's membership: 404 unknown, 403 for anyone who may not see inside. */
async function requireGroupInside(ctx: ServiceContext, viewer: Actor, idOrSlug: string, manage: boolean) {
  const row = await groupForUser(ctx, viewer.userId, idOrSlug);
  if (!row) throw notFound("No such group.");
  const group = groupFacts(row);
  if (manage ? !can(viewer, "group.manage", { group }) : !can(viewer, "group.viewInside", { group })) {
    throw outsider(viewer, row, manage ? "Only this group's instructor or an admin can do that." : "Only the group's members and staff can see its lectures.");
  }
  return { ...row, isStaff: can(viewer, "group.manage", { group }) };
}

export interface LectureListItem extends LectureDto {
  /** The caller's own attendance status for this lecture (students; null when none). */
  myAttendance: string | null;
  /**
   * The lecture was held (progress's rule) while the caller was a member, and they have no record of it: Progress
   * counts it as not attended (students; always false for staff).
   */
  missed: boolean;
}

/**
 * The schedule's order, the same for the staff's list and the students': by date (undated lectures after
 * the dated ones, then in the order they were added) until the staff reorder; a staff reorder numbers every lecture
 * of the group 1..n and wins. `order` is 0 for a lecture that follows the date.
 */
export const LECTURE_ORDER = [asc(lectures.order), sql`${lectures.startsAt} is null`, asc(lectures.startsAt), asc(lectures.createdAt), asc(lectures.id)];

/** The `order` a new lecture gets: 0 (by date) while the staff have not reordered the group, else after the last one. */
async function nextOrders(ctx: ServiceContext, groupId: string): Promise<(i: number) => number> {
  const [last] = await ctx.db.select({ n: max(lectures.order) }).from(lectures).where(eq(lectures.groupId, groupId));
  const top = last?.n ?? 0;
  return (i) => (top > 0 ? top + i + 1 : 0);
}

/** GET /api/lectures/group/{id}: the group's lectures in order; students see the published ones, with their attendance. */
export async function listLectures(ctx: ServiceContext, viewer: Actor, groupIdOrSlug: string): Promise<LectureListItem[]> {
  const group = await requireGroupInside(ctx, viewer, groupIdOrSlug, false);
  // The course home and the lecture pages run it: built once per isolate for staff and for members (db/prepared.ts).
  const query = preparedOnce(ctx, group.isStaff ? "lectures.list.staff" : "lectures.list.member", (db) =>
    db
      .select({
        id: lectures.id,
        slug: lectures.slug,
        title: lectures.title,
        startsAt: lectures.startsAt,
        order: lectures.order,
        published: lectures.published,
        videoUrl: lectures.videoUrl,
        resources: lectures.resources,
        publishAt: lectures.publishAt,
        myAttendance: attendance.status,
        missed: group.isStaff ? sql<number>`0` : missedSql(sql.placeholder("now")),
      })
      .from(lectures)
      .leftJoin(attendance, and(eq(attendance.lectureId, lectures.id), eq(attendance.userId, sql.placeholder("userId"))))
      .leftJoin(memberships, and(eq(memberships.groupId, lectures.groupId), eq(memberships.userId, sql.placeholder("userId"))))
      .where(and(eq(lectures.groupId, sql.placeholder("groupId")), group.isStaff ? undefined : eq(lectures.published, true)))
      .orderBy(...LECTURE_ORDER),
  );
  const rows = await query.all({ userId: viewer.userId, groupId: group.id, now: Date.now() });
  return rows.map((r) => ({ ...toLectureDto(r), myAttendance: r.myAttendance ?? null, missed: !!r.missed }));
}

/** GET /api/lectures/{id}: one lecture with its rendered body and the caller's attendance. */
export async function getLecture(ctx: ServiceContext, viewer: Actor, idOrSlug: string, now = Date.now()): Promise<LectureDetailDto> {
  const lecture = await requireReadableLecture(ctx, viewer, idOrSlug);
  // The caller's own record, whether attendance is open, and what their lecture counts as: one statement.
  const [mine] = await ctx.db
    .select({
      status: attendance.status,
      markedAt: attendance.markedAt,
      method: attendance.method,
      open: openSql(now),
      missed: missedSql(now),
      joinedAfter: sql<number>`(${attendance.status} is null and ${joinedAfterSql})`,
    })
    .from(lectures)
    .leftJoin(attendance, and(eq(attendance.lectureId, lectures.id), eq(attendance.userId, viewer.userId)))
    .leftJoin(memberships, and(eq(memberships.groupId, lectures.groupId), eq(memberships.userId, viewer.userId), inArray(memberships.status, [...MEMBER_STATUSES])))
    .where(eq(lectures.id, lecture.id));
  return {
    ...toLectureDto(lecture),
    body: lecture.body,
    bodyHtml: htmlOf(ctx, "lectures", { id: lecture.id, source: lecture.body, html: lecture.bodyHtml }),
    group: { _id: lecture.groupId, slug: lecture.groupSlug, title: lecture.groupTitle, instructorId: lecture.instructorId, ended: lecture.groupStatus === "archived" },
    attendance: mine?.status && mine.markedAt ? { status: mine.status, markedAt: mine.markedAt.toISOString(), byStaff: mine.method === "manual" } : null,
    attendanceOpen: !!mine?.open,
    missed: !!mine?.missed,
    joinedAfter: !!mine?.joinedAfter,
  };
}

/**
 * The tasks set on a lecture, in due order (the lecture page lists them, with its quizzes from the quiz lists'
 * service); with `studentId`, each task carries that student's submission state.
 */
export async function lectureWork(ctx: ServiceContext, lectureId: string, studentId: string | null = null) {
  const taskRows = await ctx.db
    .select({
      slug: tasks.slug,
      title: tasks.title,
      late: submissions.late,
      score: submissions.score,
      gradedAt: submissions.gradedAt,
      gradedBy: submissions.gradedBy,
      hasCode: sql<boolean>`${submissions.code} is not null`.mapWith(Boolean),
      gradesHeld: tasks.gradesHeld,
      resubmitRequestedAt: submissions.resubmitRequestedAt,
      submissionId: submissions.id,
      submittedAt: submissions.submittedAt,
      testsScore: submissions.testsScore,
      testsRawScore: submissions.testsRawScore,
      // The student's own due time (an extension's, issue 21). An expression, not a second `due_at` column: a D1
      // batch keys its rows by column name (docs/decisions/0013).
      ownDueAt: ownTimeSql(tasks.dueAt, extensions.dueAt),
    })
    .from(tasks)
    .leftJoin(submissions, and(eq(submissions.taskId, tasks.id), eq(submissions.userId, studentId ?? "")))
    .leftJoin(extensions, extensionOf("task", tasks.id, studentId ?? ""))
    // A student does not see a task scheduled for later (issue 22).
    .where(and(eq(tasks.lectureId, lectureId), studentId === null ? undefined : isNull(tasks.publishAt)))
    .orderBy(asc(tasks.dueAt), asc(tasks.title));
  return {
    tasks: taskRows.map((t) => ({
      slug: t.slug,
      title: t.title,
      dueAt: t.ownDueAt !== null ? new Date(Number(t.ownDueAt)).toISOString() : null,
      // A held grade reads as handed in (asStudentSees, ADR 0021).
      state: studentId
        ? submissionState(
            t.submissionId
              ? asStudentSees(t, { late: t.late ?? false, score: t.score, feedback: null, gradedAt: t.gradedAt, gradedBy: t.gradedBy, hasCode: !!t.hasCode, resubmitRequestedAt: t.resubmitRequestedAt, submittedAt: t.submittedAt!, testsScore: t.testsScore, testsRawScore: t.testsRawScore })
              : null,
          )
        : null,
    })),
  };
}

/** One item set on a lecture, as its staff see it beside the lecture's editor. */
export interface LectureItemDto {
  slug: string;
  title: string;
  /** A task's due time, a quiz's closing time. */
  endsAt: string | null;
  published: boolean;
  /** Shown to students by the server at this time (issue 22). */
  publishAt: string | null;
}

/**
 * The tasks and quizzes set on a lecture, for its staff (the lecture's editor lists them with links to add
 * more): one batch of two statements, whatever their number. The caller has checked that the viewer runs the lecture.
 */
export async function lectureItemsForStaff(ctx: ServiceContext, lectureId: string): Promise<{ tasks: LectureItemDto[]; quizzes: LectureItemDto[] }> {
  const [taskRows, quizRows] = await ctx.db.batch([
    ctx.db
      .select({ slug: tasks.slug, title: tasks.title, endsAt: tasks.dueAt, publishAt: tasks.publishAt })
      .from(tasks)
      .where(eq(tasks.lectureId, lectureId))
      .orderBy(asc(tasks.dueAt), asc(tasks.title)),
    ctx.db
      .select({ slug: quizzes.slug, title: quizzes.title, endsAt: quizzes.closesAt, published: quizzes.published, publishAt: quizzes.publishAt })
      .from(quizzes)
      .where(eq(quizzes.lectureId, lectureId))
      .orderBy(asc(quizzes.opensAt), asc(quizzes.title)),
  ]);
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    // A task has no draft state of its own: it is shown with its lecture, unless scheduled for later.
    tasks: taskRows.map((t) => ({ slug: t.slug, title: t.title, endsAt: iso(t.endsAt), published: t.publishAt === null, publishAt: iso(t.publishAt) })),
    quizzes: quizRows.map((q) => ({ slug: q.slug, title: q.title, endsAt: iso(q.endsAt), published: q.published, publishAt: iso(q.publishAt) })),
  };
}

/** A slug that no lecture has yet: the title's, or with a short random suffix. */
async function freeSlug(ctx: ServiceContext, title: string, taken = new Set<string>()): Promise<string> {
  for (const candidate of slugCandidates(title)) {
    if (taken.has(candidate)) continue;
    const [row] = await ctx.db.select({ id: lectures.id }).from(lectures).where(eq(lectures.slug, candidate)).limit(1);
    if (!row) return candidate;
  }
  throw new AppError(409, "conflict", "Please try again.");
}

/** Members hear of a lecture when it is published (once: on creation, when a draft is published, or when attendance is opened on a draft). */
export async function announceLecture(ctx: ServiceContext, group: { id: string; slug: string; title: string }, lecture: { slug: string; title: string }, members?: string[]) {
  await notifyUsers(ctx, members ?? (await memberIds(ctx, group.id)), {
    kind: "lecture-published",
    params: { lecture: lecture.title, group: group.title },
    link: `/course/${group.slug}/lecture/${lecture.slug}`,
  });
}

function lectureValues(input: CreateLectureInput | UpdateLectureInput) {
  return {
    ...(input.title !== undefined ? { title: input.title } : {}),
    // The HTML is rendered here, once, and stored beside the Markdown (stored-html.ts).
    ...(input.body !== undefined ? { body: input.body, bodyHtml: withHtml(input.body) } : {}),
    ...(input.videoUrl !== undefined ? { videoUrl: input.videoUrl || null } : {}),
    ...(input.resources !== undefined ? { resources: input.resources } : {}),
    ...(input.startsAt !== undefined ? { startsAt: input.startsAt === null ? null : new Date(input.startsAt) } : {}),
    // Published by hand: a schedule it had is done with.
    ...(input.published !== undefined ? { published: input.published, ...(input.published ? { publishAt: null } : {}) } : {}),
  };
}

/** POST /api/lectures/group/{id}: a new lecture, in date order (or at the end of the staff's own order). */
export async function createLecture(ctx: ServiceContext, viewer: Viewer, groupIdOrSlug: string, input: CreateLectureInput): Promise<LectureDto> {
  const group = await requireGroupInside(ctx, viewer, groupIdOrSlug, true);
  const orderOf = await nextOrders(ctx, group.id);
  return withFreshSlugs(() => insertLecture(ctx, group, input, orderOf(0)));
}

async function insertLecture(ctx: ServiceContext, group: { id: string; slug: string; title: string }, input: CreateLectureInput, order: number): Promise<LectureDto> {
  const row = {
    id: newId(),
    groupId: group.id,
    slug: await freeSlug(ctx, input.title),
    title: input.title,
    body: input.body ?? "",
    bodyHtml: withHtml(input.body ?? ""),
    videoUrl: input.videoUrl || null,
    resources: input.resources ?? [],
    startsAt: input.startsAt ? new Date(input.startsAt) : null,
    order,
    published: input.published ?? false,
    createdAt: new Date(),
  };
  await ctx.db.insert(lectures).values(row);
  if (row.published) await announceLecture(ctx, group, row);
  return toLectureDto(row);
}

/** PUT /api/lectures/{id}: edits; publishing a draft tells the members. */
export async function updateLecture(ctx: ServiceContext, viewer: Viewer, idOrSlug: string, input: UpdateLectureInput): Promise<LectureDto> {
  const lecture = await requireManagedLecture(ctx, viewer, idOrSlug);
  const values = lectureValues(input);
  const update = ctx.db.update(lectures).set(values).where(eq(lectures.id, lecture.id)).returning();
  // Publishing is decided by the write, not by the read above: the first statement turns a draft into a published
  // lecture and says whether it did, so of requests sent at once only one announces it.
  const flip = ctx.db.update(lectures).set({ published: true }).where(and(eq(lectures.id, lecture.id), eq(lectures.published, false))).returning({ id: lectures.id });
  const [flipped, [row]] =
    values.published === true
      ? await ctx.db.batch([flip, update])
      : [[], Object.keys(values).length ? await update : await ctx.db.select().from(lectures).where(eq(lectures.id, lecture.id))];
  if (!row) throw notFound("No such lecture.");
  if (flipped.length > 0) await announceLecture(ctx, { id: lecture.groupId, slug: lecture.groupSlug, title: lecture.groupTitle }, row);
  return toLectureDto(row);
}

/** DELETE /api/lectures/{id}: the lecture and its attendance (tasks and quizzes of it go too, by cascade). */
export async function deleteLecture(ctx: ServiceContext, viewer: Viewer, idOrSlug: string): Promise<{ message: string }> {
  const lecture = await requireManagedLecture(ctx, viewer, idOrSlug);
  await ctx.db.delete(lectures).where(eq(lectures.id, lecture.id));
  return { message: "The lecture was deleted." };
}

/** PUT /api/lectures/group/{id}/order: every lecture of the group in its new order (ids or slugs). */
export async function reorderLectures(ctx: ServiceContext, viewer: Viewer, groupIdOrSlug: string, input: LectureOrderInput): Promise<LectureDto[]> {
  const group = await requireGroupInside(ctx, viewer, groupIdOrSlug, true);
  const rows = await ctx.db.select({ id: lectures.id, slug: lectures.slug }).from(lectures).where(eq(lectures.groupId, group.id));
  const byKey = new Map(rows.flatMap((r) => [[r.id, r.id] as const, [r.slug, r.id] as const]));
  const ids = input.ids.map((k) => byKey.get(k));
  if (ids.some((id) => !id) || new Set(ids).size !== rows.length || ids.length !== rows.length) {
    throw new AppError(400, "validation_failed", "Give every lecture of the group exactly once.", { ids: "Give every lecture of the group exactly once." });
  }
  await ctx.db.batch(ids.map((id, i) => ctx.db.update(lectures).set({ order: i + 1 }).where(eq(lectures.id, id!))) as [never, ...never[]]);
  const sorted = await ctx.db.select().from(lectures).where(eq(lectures.groupId, group.id)).orderBy(...LECTURE_ORDER);
  return sorted.map(toLectureDto);
}

/** The staff's "Sort by date": forget their order; the schedule follows the dates again (undated lectures last). */
export async function sortLecturesByDate(ctx: ServiceContext, viewer: Viewer, groupIdOrSlug: string): Promise<LectureDto[]> {
  const group = await requireGroupInside(ctx, viewer, groupIdOrSlug, true);
  const [, sorted] = await ctx.db.batch([
    ctx.db.update(lectures).set({ order: 0 }).where(eq(lectures.groupId, group.id)),
    ctx.db.select().from(lectures).where(eq(lectures.groupId, group.id)).orderBy(...LECTURE_ORDER),
  ]);
  return sorted.map(toLectureDto);
}

/** Milliseconds since the epoch of a wall-clock time (YYYY-MM-DD, HH:MM) in an IANA time zone. */
export function zonedTime(day: string, time: string, timeZone: string): number {
  const guess = Date.parse(`${day}T${time}:00Z`);
  // The zone's offset at that moment, applied twice for days when it changes.
  const first = guess - zoneOffset(guess, timeZone);
  return guess - zoneOffset(first, timeZone);
}

/**
 * The days of a weekly series: on `days` (0 = Sunday) from `from`, `count` of them or up to `until`. The schema
 * already refuses days that do not exist (app/lib/dates.ts); this checks again, so no caller can reach
 * `toISOString` with an invalid date (a 500). A series is never cut short without a word: a period holding more
 * sessions than a series makes, or a count that does not fit before the end of year 9999 (where YYYY-MM-DD ends),
 * is a 400 at its field.
 */
export function seriesDays(input: Pick<LectureSeriesInput, "days" | "from" | "count" | "until">): string[] {
  for (const [field, value] of [["from", input.from], ["until", input.until]] as const) {
    if (value !== undefined && !isCalendarDate(value)) throw new AppError(400, "validation_failed", "That date does not exist.", { [field]: "That date does not exist." });
  }
  const most = LECTURE_LIMITS.series;
  // With an end date, one more than a series makes is looked for: finding it means the period is too long.
  const wantedCount = input.count ?? most + 1;
  const out: string[] = [];
  const wanted = new Set(input.days);
  const day = new Date(`${input.from}T00:00:00Z`);
  let yearsEnded = false;
  for (let i = 0; i < 370 * 2 && out.length < wantedCount; i++) {
    if (day.getUTCFullYear() > 9999) {
      yearsEnded = true;
      break;
    }
    const iso = day.toISOString().slice(0, 10);
    if (input.until && iso > input.until) break;
    if (wanted.has(day.getUTCDay())) out.push(iso);
    day.setUTCDate(day.getUTCDate() + 1);
  }
  if (input.count === undefined && out.length > most) {
    const message = `That period holds more than ${most} sessions, the most one series makes: choose an earlier last day.`;
    throw new AppError(400, "series_too_long", message, { until: message });
  }
  if (input.count !== undefined && yearsEnded && out.length < input.count) {
    const message = `Only ${out.length} of the ${input.count} sessions fall before the end of the year 9999: choose an earlier first day.`;
    throw new AppError(400, "series_past_years", message, { from: message });
  }
  return out;
}

/** POST /api/lectures/group/{id}/schedule: the whole weekly series in one batch, numbered after the existing lectures. */
export async function scheduleLectures(ctx: ServiceContext, viewer: Viewer, groupIdOrSlug: string, input: LectureSeriesInput): Promise<LectureDto[]> {
  const group = await requireGroupInside(ctx, viewer, groupIdOrSlug, true);
  const days = seriesDays(input);
  if (days.length === 0) throw new AppError(400, "validation_failed", "No session falls in that period.", { days: "No session falls in that period." });
  // In UTC the last evening of 9999 west of Greenwich is already the year 10000, which no date can write back.
  const startsAt = days.map((day) => zonedTime(day, input.time, input.timeZone));
  if (!startsAt.every(inYears)) {
    const message = "A session would start after the end of the year 9999: choose an earlier first day.";
    throw new AppError(400, "series_past_years", message, { from: message });
  }
  const [[last], [existing]] = await ctx.db.batch([
    ctx.db.select({ n: max(lectures.order) }).from(lectures).where(eq(lectures.groupId, group.id)),
    ctx.db.select({ n: count() }).from(lectures).where(eq(lectures.groupId, group.id)),
  ]);
  // By date (0) unless the staff ordered the group themselves: then after their last lecture.
  const start = last?.n ?? 0;
  const orderOf = (i: number) => (start > 0 ? start + i + 1 : 0);
  // The whole series in one batch (all or nothing), again with fresh slugs if another request took one meanwhile.
  const rows = await withFreshSlugs(async () => {
    const taken = new Set<string>();
    const series = [];
    for (const [i, day] of days.entries()) {
      const title = `${input.title} ${(existing?.n ?? 0) + i + 1}`;
      const slug = await freeSlug(ctx, `${group.slug}-${title}`, taken);
      taken.add(slug);
      series.push({ id: newId(), groupId: group.id, slug, title, body: "", videoUrl: null, resources: [], startsAt: new Date(startsAt[i]!), order: orderOf(i), published: input.published, createdAt: new Date() });
    }
    const inserts = [];
    for (let i = 0; i < series.length; i += 8) inserts.push(ctx.db.insert(lectures).values(series.slice(i, i + 8)));
    await ctx.db.batch(inserts as [(typeof inserts)[number], ...(typeof inserts)[number][]]);
    return series;
  });
  if (input.published) {
    const ids = await memberIds(ctx, group.id);
    if (ids.length) await notifyUsers(ctx, ids, { kind: "lectures-scheduled", params: { count: rows.length, group: group.title }, link: `/course/${group.slug}` });
  }
  return rows.map(toLectureDto);
}
