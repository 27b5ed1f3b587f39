/**
 * Reusing a course (issue 22, ADR 0023): a new group from an existing one, or one lecture into another group.
 *
 * Everything is copied with INSERT ... SELECT inside one D1 batch: old ids are mapped to new ones in `copy_map`
 * (emptied by the same batch), dates move by whole days at the same wall-clock time in the group's time zone
 * (worker/services/time-shift.ts), and slugs take a suffix of the copy. So a copy is a fixed number of statements
 * whatever the group's size, and either all of it lands or none of it does. No student data is copied: no
 * memberships, submissions, attempts, attendance, chat, grades, extensions or certificates.
 */
import { eq, max, sql, type SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { can } from "../../app/lib/permissions";
import type { CopyGroupInput, CopyLectureInput } from "../../app/lib/lifecycle-schemas";
import { groups, lectures, users } from "../../db/schema";
import type { ServiceContext } from "../context";
import { AppError, forbidden, notFound } from "../http/errors";
import { findGroup, outsider, requireManagedGroup } from "./group-access";
import { getManagedGroup, freeGroupSlug } from "./groups-admin";
import { isUniqueViolation, newId } from "./ids";
import { armPublisher } from "./publisher-client";
import { nextPublishAt } from "./schedule";
import { requireManagedLecture } from "./lectures";
import type { Viewer } from "./sessions";
import { daysBetween, shiftSql, zonedDay } from "./time-shift";

export interface CopyCounts {
  lectures: number;
  tasks: number;
  quizzes: number;
  questions: number;
}

/** A short suffix for the copies' slugs (lecture, task and quiz slugs are unique site-wide). */
function slugSuffix(): string {
  return newId().slice(0, 5).toLowerCase().replace(/[^a-z0-9]/g, "x");
}

const NEW_ID = sql.raw("lower(hex(randomblob(16)))");

const dialect = new SQLiteAsyncDialect();

/** One statement for D1's own batch (drizzle's batch takes only its query builders, not raw SQL). */
function raw(ctx: ServiceContext, query: SQL | { toSQL(): { sql: string; params: unknown[] } }): D1PreparedStatement {
  const { sql: text, params } = "toSQL" in query ? query.toSQL() : dialect.sqlToQuery(query);
  return ctx.env.DB.prepare(text).bind(...params);
}

/** The last moment a copied date may fall on (ISO dates have four-digit years), and the first. */
const LAST_MOMENT = Date.UTC(9999, 11, 30);
const FIRST_MOMENT = Date.UTC(1970, 0, 2);
const DAY_MS = 86_400_000;

/** Refuses a move that would put any of the source's dates outside the calendar every client reads (a 400 on `field`). */
function checkShift(span: { from: number | null; to: number | null }, days: number, field: "startDate" | "startsAt") {
  if (span.to !== null && span.to + days * DAY_MS > LAST_MOMENT) {
    const message = "The copy's dates would run past the year 9999: choose an earlier start.";
    throw new AppError(400, "validation_failed", message, { [field]: message });
  }
  if (span.from !== null && span.from + days * DAY_MS < FIRST_MOMENT) {
    const message = "The copy's dates would fall before 1970: choose a later start.";
    throw new AppError(400, "validation_failed", message, { [field]: message });
  }
}

/** What a copy needs to move dates: the number of days, the zone, and the span of the source's dates. */
interface Shift {
  days: number;
  fromZone: string;
  toZone: string;
  from: number;
  to: number;
}

function shifted(column: string, shift: Shift): SQL {
  return shiftSql(sql.raw(column), shift.days, shift.fromZone, shift.toZone, shift.from, shift.to);
}

/** A pending schedule moves with the rest, and is kept only if it still lies ahead (the copy starts unpublished). */
function schedule(column: string, shift: Shift, now: number): SQL {
  return sql`(CASE WHEN ${shifted(column, shift)} > ${now} THEN ${shifted(column, shift)} END)`;
}

/** The statements that copy the lectures chosen by `lectureWhere` (on `l`) and everything under them. */
function lectureStatements(ctx: ServiceContext, o: { batch: string; target: string; lectureWhere: SQL; suffix: string; shift: Shift; orderBase: SQL; now: number; rubricsFrom: SQL; keepRubrics?: boolean }) {
  const { batch, target, lectureWhere, suffix, shift, now } = o;
    return [
    // Ids: the lectures, their tasks and quizzes, and the rubrics those tasks use.
    raw(ctx, sql`INSERT INTO copy_map (batch_id, old_id, new_id) SELECT ${batch}, l.id, ${NEW_ID} FROM lectures l WHERE ${lectureWhere}`),
    raw(ctx, sql`INSERT INTO copy_map (batch_id, old_id, new_id) SELECT ${batch}, t.id, ${NEW_ID} FROM tasks t JOIN lectures l ON l.id = t.lecture_id WHERE ${lectureWhere}`),
    raw(ctx, sql`INSERT INTO copy_map (batch_id, old_id, new_id) SELECT ${batch}, q.id, ${NEW_ID} FROM quizzes q JOIN lectures l ON l.id = q.lecture_id WHERE ${lectureWhere}`),
    raw(ctx, sql`INSERT OR IGNORE INTO copy_map (batch_id, old_id, new_id) SELECT ${batch}, r.id, ${NEW_ID} FROM rubrics r WHERE ${o.rubricsFrom}`),
    raw(ctx, sql`INSERT INTO rubrics (id, group_id, title, criteria, created_at, updated_at)
      SELECT m.new_id, ${target}, r.title, r.criteria, ${now}, ${now} FROM rubrics r JOIN copy_map m ON m.batch_id = ${batch} AND m.old_id = r.id WHERE ${o.rubricsFrom}`),
    raw(ctx, sql`INSERT INTO lectures (id, group_id, slug, title, body, video_url, resources, starts_at, "order", published, publish_at, created_at)
      SELECT m.new_id, ${target}, substr(l.slug, 1, 52) || '-' || ${suffix}, l.title, l.body, l.video_url, l.resources, ${shifted("l.starts_at", shift)}, ${o.orderBase} + l."order", 0, ${schedule("l.publish_at", shift, now)}, l.created_at
      FROM lectures l JOIN copy_map m ON m.batch_id = ${batch} AND m.old_id = l.id WHERE ${lectureWhere}`),
    raw(ctx, sql`INSERT INTO tasks (id, lecture_id, slug, title, body, due_at, max_score, allow_late, grades_held, late_penalty_per_day, late_penalty_floor, file_kinds, max_file_mb, rubric_id, publish_at, created_at)
      SELECT mt.new_id, ml.new_id, substr(t.slug, 1, 52) || '-' || ${suffix}, t.title, t.body, ${shifted("t.due_at", shift)}, t.max_score, t.allow_late, t.grades_held, t.late_penalty_per_day, t.late_penalty_floor, t.file_kinds, t.max_file_mb, ${o.keepRubrics ? sql.raw("t.rubric_id") : sql.raw("mr.new_id")}, ${schedule("t.publish_at", shift, now)}, ${now}
      FROM tasks t JOIN lectures l ON l.id = t.lecture_id
      JOIN copy_map mt ON mt.batch_id = ${batch} AND mt.old_id = t.id
      JOIN copy_map ml ON ml.batch_id = ${batch} AND ml.old_id = l.id
      LEFT JOIN copy_map mr ON mr.batch_id = ${batch} AND mr.old_id = t.rubric_id
      WHERE ${lectureWhere}`),
    raw(ctx, sql`INSERT INTO exercises (task_id, language, starter_code, tests, time_ms, memory_mb, reference_solution, published, verified_at, updated_at)
      SELECT mt.new_id, e.language, e.starter_code, e.tests, e.time_ms, e.memory_mb, e.reference_solution, e.published, e.verified_at, ${now}
      FROM exercises e JOIN tasks t ON t.id = e.task_id JOIN lectures l ON l.id = t.lecture_id
      JOIN copy_map mt ON mt.batch_id = ${batch} AND mt.old_id = t.id WHERE ${lectureWhere}`),
    raw(ctx, sql`INSERT INTO quizzes (id, lecture_id, group_id, slug, title, description, duration_minutes, opens_at, closes_at, max_attempts, show_answers, published, draws, shuffle_questions, shuffle_options, publish_at, created_at)
      SELECT mq.new_id, ml.new_id, ${target}, substr(q.slug, 1, 52) || '-' || ${suffix}, q.title, q.description, q.duration_minutes, ${shifted("q.opens_at", shift)}, ${shifted("q.closes_at", shift)}, q.max_attempts, q.show_answers, 0, q.draws, q.shuffle_questions, q.shuffle_options, ${schedule("q.publish_at", shift, now)}, ${now}
      FROM quizzes q JOIN lectures l ON l.id = q.lecture_id
      JOIN copy_map mq ON mq.batch_id = ${batch} AND mq.old_id = q.id
      JOIN copy_map ml ON ml.batch_id = ${batch} AND ml.old_id = l.id WHERE ${lectureWhere}`),
    raw(ctx, sql`INSERT INTO questions (id, quiz_id, text, type, options, correct, code, points, "order")
      SELECT ${NEW_ID}, mq.new_id, x.text, x.type, x.options, x.correct, x.code, x.points, x."order"
      FROM questions x JOIN quizzes q ON q.id = x.quiz_id JOIN lectures l ON l.id = q.lecture_id
      JOIN copy_map mq ON mq.batch_id = ${batch} AND mq.old_id = q.id WHERE ${lectureWhere}`),
  ];
}

/**
 * The earliest and latest date among a set of lectures and their tasks and quizzes (schedules included), and the first
 * lecture's start: one statement of scalar subqueries (D1 allows few terms in a compound SELECT, so no UNION).
 */
async function dateSpan(ctx: ServiceContext, lectureWhere: SQL): Promise<{ first: number | null; from: number | null; to: number | null }> {
  const sources = [
    sql`SELECT l.starts_at AS at FROM lectures l WHERE ${lectureWhere}`,
    sql`SELECT l.publish_at AS at FROM lectures l WHERE ${lectureWhere}`,
    sql`SELECT t.due_at AS at FROM tasks t JOIN lectures l ON l.id = t.lecture_id WHERE ${lectureWhere}`,
    sql`SELECT t.publish_at AS at FROM tasks t JOIN lectures l ON l.id = t.lecture_id WHERE ${lectureWhere}`,
    sql`SELECT q.opens_at AS at FROM quizzes q JOIN lectures l ON l.id = q.lecture_id WHERE ${lectureWhere}`,
    sql`SELECT q.closes_at AS at FROM quizzes q JOIN lectures l ON l.id = q.lecture_id WHERE ${lectureWhere}`,
    sql`SELECT q.publish_at AS at FROM quizzes q JOIN lectures l ON l.id = q.lecture_id WHERE ${lectureWhere}`,
  ];
  const columns = sources.flatMap((source, i) => [sql`(SELECT min(at) FROM (${source})) AS ${sql.raw(`lo${i}`)}`, sql`(SELECT max(at) FROM (${source})) AS ${sql.raw(`hi${i}`)}`]);
  const [row] = await ctx.db.all<Record<string, number | null>>(sql`SELECT (SELECT min(l.starts_at) FROM lectures l WHERE ${lectureWhere}) AS first, ${sql.join(columns, sql`, `)}`);
  const values = (prefix: string) => sources.map((_, i) => row?.[`${prefix}${i}`]).filter((v): v is number => v !== null && v !== undefined).map(Number);
  const los = values("lo");
  const his = values("hi");
  return { first: row?.first ?? null, from: los.length ? Math.min(...los) : null, to: his.length ? Math.max(...his) : null };
}

/** How many of each kind landed in the target (read in the copy's batch, after the inserts). */
function countStatement(ctx: ServiceContext, batch: string) {
  return raw(ctx, sql`SELECT
    (SELECT count(*) FROM copy_map m JOIN lectures x ON x.id = m.new_id WHERE m.batch_id = ${batch}) AS lectures,
    (SELECT count(*) FROM copy_map m JOIN tasks x ON x.id = m.new_id WHERE m.batch_id = ${batch}) AS tasks,
    (SELECT count(*) FROM copy_map m JOIN quizzes x ON x.id = m.new_id WHERE m.batch_id = ${batch}) AS quizzes,
    (SELECT count(*) FROM questions x JOIN copy_map m ON m.new_id = x.quiz_id WHERE m.batch_id = ${batch}) AS questions`);
}

/**
 * POST /api/groups/{id}/copy: a new draft group with the source's description, picture, seats, time zone, completion
 * rule, outline, rubrics, question bank, lectures (with resources), tasks (with exercises), quizzes (with questions),
 * every date moved so the first lecture falls on `startDate` at its hour. Admins may name its instructor; an
 * instructor's copy is theirs.
 */
export async function copyGroup(ctx: ServiceContext, viewer: Viewer, sourceIdOrSlug: string, input: CopyGroupInput) {
  const source = await findGroup(ctx, sourceIdOrSlug);
  if (!source) throw notFound("No such group.");
  if (!can(viewer, "group.copy", { group: source })) throw outsider(viewer, source, "Only this group's instructor or an admin can copy it.");
  const admin = can(viewer, "site.admin");
  let instructorId: string | null = admin ? (input.instructorId === undefined ? source.instructorId : input.instructorId) : viewer.userId;
  if (admin && input.instructorId) {
    const [row] = await ctx.db.select({ role: users.role }).from(users).where(eq(users.id, input.instructorId)).limit(1);
    if (row?.role !== "instructor") throw new AppError(400, "validation_failed", "Choose one of the instructors.", { instructorId: "Choose one of the instructors." });
  } else if (!admin && input.instructorId && input.instructorId !== viewer.userId) {
    throw forbidden("Only an admin can give the copy to another instructor.");
  }
  if (instructorId === undefined) instructorId = null;

  const [[full], span] = await Promise.all([
    ctx.db.select({ description: groups.description, imageCourse: groups.imageCourse, startDate: groups.startDate, capacity: groups.capacity, timeZone: groups.timeZone, completionOverall: groups.completionOverall, completionAttendance: groups.completionAttendance }).from(groups).where(eq(groups.id, source.id)),
    dateSpan(ctx, sql`l.group_id = ${source.id}`),
  ]);
  const timeZone = input.timeZone ?? full!.timeZone;
  // A next cohort starts from today on, in its own time zone: a past date would copy every task and quiz as overdue.
  if (input.startDate < zonedDay(Date.now(), timeZone)) {
    throw new AppError(400, "validation_failed", "Choose today or a later date for the first lecture.", { startDate: "Choose today or a later date for the first lecture." });
  }
  // The first lecture's day in the zone the group met in; without dated lectures, the group's own start date.
  const firstDay = span.first !== null ? zonedDay(span.first, full!.timeZone) : full!.startDate?.slice(0, 10) ?? null;
  const days = firstDay ? daysBetween(firstDay, input.startDate) : 0;
  checkShift(span, days, "startDate");
  const shift: Shift = { days, fromZone: full!.timeZone, toZone: timeZone, from: span.from ?? 0, to: span.to ?? 0 };
  const now = Date.now();

  for (let attempt = 0; attempt < 3; attempt++) {
    const id = newId();
    const batch = newId();
    const slug = await freeGroupSlug(ctx, input.title, attempt);
    const lectureWhere = sql`l.group_id = ${source.id}`;
    try {
      const results = await ctx.env.DB.batch([
        raw(ctx, ctx.db.insert(groups).values({
          id,
          slug,
          title: input.title,
          description: full!.description,
          imageCourse: full!.imageCourse,
          startDate: input.startDate,
          instructorId,
          status: "draft",
          capacity: full!.capacity,
          timeZone,
          completionOverall: full!.completionOverall,
          completionAttendance: full!.completionAttendance,
          createdAt: new Date(now),
        })),
        raw(ctx, sql`INSERT INTO course_contents (id, group_id, title, body, body_html, "order") SELECT ${NEW_ID}, ${id}, title, body, body_html, "order" FROM course_contents WHERE group_id = ${source.id}`),
        raw(ctx, sql`INSERT INTO bank_questions (id, group_id, text, type, options, correct, points, tags, created_at, updated_at)
          SELECT ${NEW_ID}, ${id}, text, type, options, correct, points, tags, ${now}, ${now} FROM bank_questions WHERE group_id = ${source.id}`),
        ...lectureStatements(ctx, { batch, target: id, lectureWhere, suffix: slugSuffix(), shift, orderBase: sql.raw("0"), now, rubricsFrom: sql`r.group_id = ${source.id}` }),
        countStatement(ctx, batch),
        raw(ctx, sql`DELETE FROM copy_map WHERE batch_id = ${batch}`),
      ]);
      const counts = results[results.length - 2]!.results[0] as CopyCounts;
      await armCopiedSchedules(ctx, id);
      return { group: await getManagedGroup(ctx, viewer, id), copied: counts, shiftedDays: days };
    } catch (e) {
      // Another copy took the same slug (of the group, or of a lecture, task or quiz): try again with new ones.
      if (!isUniqueViolation(e)) throw e;
    }
  }
  throw new AppError(409, "conflict", "Could not find free addresses for the copy; please try again.");
}

/**
 * POST /api/lectures/{id}/copy: one lecture with its tasks (exercises, rubrics) and quizzes (questions, and the bank
 * questions they draw from) into another group the viewer runs, unpublished, after that group's lectures. With `startsAt`, the copy starts then and its
 * work moves by as much; without it, the dates are copied as they are.
 */
export async function copyLecture(ctx: ServiceContext, viewer: Viewer, lectureIdOrSlug: string, input: CopyLectureInput) {
  const lecture = await requireManagedLecture(ctx, viewer, lectureIdOrSlug);
  const target = await requireManagedGroup(ctx, viewer, input.groupId);
  const [[tz], [sourceTz], [order], [startsAt]] = await ctx.db.batch([
    ctx.db.select({ timeZone: groups.timeZone }).from(groups).where(eq(groups.id, target.id)),
    ctx.db.select({ timeZone: groups.timeZone }).from(groups).where(eq(groups.id, lecture.groupId)),
    ctx.db.select({ n: max(lectures.order) }).from(lectures).where(eq(lectures.groupId, target.id)),
    ctx.db.select({ at: lectures.startsAt }).from(lectures).where(eq(lectures.id, lecture.id)),
  ]);
  const timeZone = tz!.timeZone;
  const lectureWhere = sql`l.id = ${lecture.id}`;
  let days = 0;
  const from = startsAt?.at?.getTime() ?? null;
  if (input.startsAt != null && from !== null) days = daysBetween(zonedDay(from, sourceTz!.timeZone), zonedDay(input.startsAt, timeZone));
  const span = await dateSpan(ctx, lectureWhere);
  checkShift(span, days, "startsAt");
  const shift: Shift = { days, fromZone: sourceTz!.timeZone, toZone: timeZone, from: span.from ?? 0, to: span.to ?? 0 };
  const now = Date.now();
  for (let attempt = 0; attempt < 3; attempt++) {
    const batch = newId();
    try {
      const stmts = lectureStatements(ctx, {
        batch,
        target: target.id,
        lectureWhere,
        suffix: slugSuffix(),
        shift,
        orderBase: sql`${(order?.n ?? -1) + 1} - l."order"`,
        now,
        // Into its own group the copy keeps the rubrics it had; into another group they are copied along.
        keepRubrics: target.id === lecture.groupId,
        rubricsFrom: target.id === lecture.groupId ? sql`0` : sql`r.id IN (SELECT t.rubric_id FROM tasks t JOIN lectures l ON l.id = t.lecture_id WHERE ${lectureWhere})`,
      });
      // Into another group, the bank questions its quizzes draw from come along (those of a drawn tag), unless that group's
      // bank already holds the same question: without them the copied quizzes would draw from an empty bank.
      const bank =
        target.id === lecture.groupId
          ? []
          : [
              raw(ctx, sql`INSERT INTO bank_questions (id, group_id, text, type, options, correct, points, tags, created_at, updated_at)
                SELECT ${NEW_ID}, ${target.id}, b.text, b.type, b.options, b.correct, b.points, b.tags, ${now}, ${now} FROM bank_questions b
                WHERE b.group_id = ${lecture.groupId}
                  AND EXISTS (SELECT 1 FROM json_each(b.tags) bt, quizzes q, json_each(q.draws) d WHERE q.lecture_id = ${lecture.id} AND json_extract(d.value, '$.tag') = bt.value)
                  AND NOT EXISTS (SELECT 1 FROM bank_questions t WHERE t.group_id = ${target.id} AND t.text = b.text AND t.type = b.type AND t.options = b.options AND t.correct = b.correct AND t.tags = b.tags)`),
            ];
      // A chosen start replaces the shifted one exactly (the hour the staff typed, not the old one moved).
      const exact = input.startsAt != null ? [raw(ctx, sql`UPDATE lectures SET starts_at = ${input.startsAt} WHERE id = (SELECT new_id FROM copy_map WHERE batch_id = ${batch} AND old_id = ${lecture.id})`)] : [];
      const results = await ctx.env.DB.batch([
        stmts[0]!,
        ...stmts.slice(1),
        ...bank,
        ...exact,
        raw(ctx, sql`SELECT l.id, l.slug FROM lectures l JOIN copy_map m ON m.new_id = l.id WHERE m.batch_id = ${batch}`),
        countStatement(ctx, batch),
        raw(ctx, sql`DELETE FROM copy_map WHERE batch_id = ${batch}`),
      ]);
      const [copy] = results[results.length - 3]!.results as { id: string; slug: string }[];
      const counts = results[results.length - 2]!.results[0] as CopyCounts;
      await armCopiedSchedules(ctx, target.id);
      return { lecture: { _id: copy!.id, slug: copy!.slug }, group: { _id: target.id, slug: target.slug, title: target.title }, copied: counts };
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
    }
  }
  throw new AppError(409, "conflict", "Could not find free addresses for the copy; please try again.");
}

/** A copy that carried schedules sets its group's Publisher for the first of them. */
async function armCopiedSchedules(ctx: ServiceContext, groupId: string) {
  const next = await nextPublishAt(ctx, groupId);
  if (next !== null) await armPublisher(ctx, groupId, next);
}

/** The groups a staff member could copy a lecture into (the ones they run), for the copy form. */
export async function copyTargets(ctx: ServiceContext, viewer: Viewer) {
  return ctx.db
    .select({ _id: groups.id, slug: groups.slug, title: groups.title })
    .from(groups)
    .where(can(viewer, "site.admin") ? undefined : eq(groups.instructorId, viewer.userId))
    .orderBy(groups.title);
}

