/**
 * Progress (PRODUCT.md §3 Progress; docs/decisions/0015-progress.md): counted from the records at every request,
 * never stored, and turned into numbers by the one definition in app/lib/progress.ts. Everything here works on a
 * scope of groups (one group, a student's groups, every group an instructor runs) and answers in a fixed number of
 * statements however many students, lectures, tasks and quizzes the scope holds: each statement aggregates in
 * SQL and returns one row per student, per lecture, per task or per quiz.
 */
import { and, asc, eq, inArray, isNull, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { byName } from "../../app/lib/names";
import { can, type Actor } from "../../app/lib/permissions";
import { atRiskReasons, progressFrom, type AtRiskReason, type Progress, type ProgressCounts } from "../../app/lib/progress";
import { attempts, attendance, extensions, groups, lectures, memberships, MEMBER_STATUSES, quizzes, submissions, tasks, users } from "../../db/schema";
import type { Database } from "../../db/client";
import { preparedOnce } from "../../db/prepared";
import type { ServiceContext } from "../context";
import { groupForUser, outsider } from "./group-access";
import { forbidden, notFound } from "../http/errors";
import { settleGroupAttempts } from "./quizzes";
import { QUIZ_NETWORK_MS } from "../../app/lib/quiz-schemas";
import { isMember } from "./memberships";
import { studentSeesTask } from "./released";
import { ownTimeSql } from "./own-time";
import { extensionOf } from "./extension-join";
import { heldSql, lectureTime, openSql, type Value } from "./lecture-time";

const memberStatuses = [...MEMBER_STATUSES];

/** Which groups, and optionally which one student, a computation covers. */
interface Scope {
  /** A subquery of group ids. */
  groups: SQLWrapper;
  userId?: string;
  /** Per-lecture, per-task and per-quiz figures for the staff's charts (one more statement). */
  details?: boolean;
  /** The scope is this one group (`groups` selects it), and this one student if `userId` is given: built once. */
  one?: { groupId: string; userId?: string };
}

type Figures = ReturnType<typeof figuresSql>;
/** What `computeProgress` needs of a Drizzle D1 prepared query. */
interface PreparedFigures {
  all(values?: Record<string, unknown>): Promise<unknown>;
  getQuery(): { sql: string };
}

/** Joins a record's author to a current membership of the record's group: removed students' records never count. */
const asMember = (userCol: SQL | SQLWrapper | typeof attendance.userId, groupCol: typeof lectures.groupId | typeof quizzes.groupId) =>
  and(eq(memberships.groupId, groupCol), eq(memberships.userId, userCol as typeof attendance.userId), inArray(memberships.status, memberStatuses));

const num = (v: unknown) => Number(v ?? 0);
/** A time stored in ms (as a chart's JSON row has it), as an ISO string. */
const iso = (ms: unknown) => (typeof ms === "number" ? new Date(ms).toISOString() : null);

/**
 * A row as one JSON object (`json_object`); the keys are ours, written into the SQL, never parameters. `R` is the row
 * as read back (`chartRows`): the fields must be exactly its keys, so the two cannot drift apart.
 */
const jsonObject = <R>(fields: { [K in keyof R]-?: SQLWrapper | SQL }) =>
  sql<string>`json_object(${sql.join(
    Object.entries<SQLWrapper | SQL>(fields).map(([key, value]) => sql`${sql.raw(`'${key}'`)}, ${value}`),
    sql`, `,
  )})`;

/** A chart's rows, read back from the JSON array its statement answers (an absent or empty list: none). */
function chartRows<T>(json: unknown): T[] {
  if (typeof json !== "string") return [];
  const rows = JSON.parse(json) as unknown;
  return Array.isArray(rows) ? (rows as T[]) : [];
}

/** What a chart's JSON row holds: the lists' columns as stored (times in ms, flags 0 or 1, counts or null). */
interface LectureChartRow {
  _id: string;
  groupId: string;
  slug: string;
  title: string;
  startsAt: number | null;
  held: number;
  open: number;
  present: number | null;
  late: number | null;
  excused: number | null;
  absent: number | null;
  /** When it took place (its start, or its attendance's first opening), ms. */
  at: number | null;
  /** Current members who joined after it and have no record of it: not absent from it. */
  joinedAfter: number;
}
interface TaskChartRow {
  _id: string;
  groupId: string;
  slug: string;
  title: string;
  lectureSlug: string;
  dueAt: number | null;
  maxScore: number;
  due: number;
  submitted: number | null;
  graded: number | null;
  gradedSum: number | null;
}
interface QuizChartRow {
  _id: string;
  groupId: string;
  slug: string;
  title: string;
  lectureSlug: string;
  opensAt: number | null;
  closesAt: number | null;
  opened: number;
  closed: number;
  maxScore: number | null;
  taken: number | null;
  bestSum: number | null;
}

export interface LectureFigure {
  _id: string;
  groupId: string;
  slug: string;
  title: string;
  startsAt: string | null;
  /** When it took place: its start, or when its attendance first opened (ISO; null for neither). */
  at: string | null;
  held: boolean;
  /** Attendance is open right now (the lecture is not held until it closes). */
  open: boolean;
  present: number;
  late: number;
  excused: number;
  /** On a held lecture, members with an absent record or no record at all; otherwise the absent records. */
  absent: number;
}

export interface TaskFigure {
  _id: string;
  groupId: string;
  slug: string;
  title: string;
  lectureSlug: string;
  dueAt: string | null;
  due: boolean;
  maxScore: number;
  submitted: number;
  graded: number;
  averageScore: number | null;
}

export interface QuizFigure {
  _id: string;
  groupId: string;
  slug: string;
  title: string;
  lectureSlug: string;
  opensAt: string | null;
  closesAt: string | null;
  opened: boolean;
  /** Closed: a member who did not take it scores 0 on it. */
  closed: boolean;
  maxScore: number;
  taken: number;
  averageScore: number | null;
}

export interface MemberProgress {
  _id: string;
  groupId: string;
  name: string;
  email: string;
  slug: string;
  status: string;
  /** When they first became a member (ISO; null when not recorded): earlier work they did not do counts nowhere. */
  joinedAt: string | null;
  progress: Progress;
  atRisk: boolean;
  /** Why they need support (empty when they do not). */
  atRiskReasons: AtRiskReason[];
}

export interface ScopeProgress {
  members: MemberProgress[];
  /** Lectures held per group, for the groups with a member in the result (read from their rows). */
  heldByGroup: Map<string, number>;
  lectures: LectureFigure[];
  tasks: TaskFigure[];
  quizzes: QuizFigure[];
}

/**
 * A hand-in's score as progress counts it: none while the task holds staff-given grades (ADR 0021), so a held grade
 * counts as "handed in, not graded yet" for everyone until it is released (one definition for students and staff).
 */
// Held: graded by staff on a task that holds its grades (a link or file hand-in is graded by staff alone, whoever it was
// and whether or not their account is still there; an exercise's own tests' score is never held: a held staff grade
// on one, given by someone or at another time than its hand-in's, counts as its tests' score, what its student sees,
// ADR 0041).
const shownScore = sql`(case when not ${tasks.gradesHeld} then ${submissions.score} when ${submissions.code} is null then null when ${submissions.gradedBy} is not null or ${submissions.gradedAt} <> ${submissions.submittedAt} then ${submissions.testsScore} else ${submissions.score} end)`;
/** A score's share of its maximum (`scoreShare` in app/lib/progress.ts): work worth nothing is all earned once done. */
const ratio = (score: SQLWrapper | SQL, max: SQLWrapper | SQL) =>
  sql`(case when ${score} is null then null when ${max} = 0 then 1.0 else min(1.0, max(0.0, ${score} * 1.0 / ${max})) end)`;

/**
 * The SQL of the figures at `now`: every member's numbers (one row each, `members`) and the staff's charts (per lecture,
 * task and quiz). Built with the client given, for the scope's groups and the one student if any, so that the same
 * definition serves the statements built per request and those built once per isolate.
 */
function figuresSql(db: Database, scope: ({ group: Value<string> } | { groups: SQLWrapper }) & { userId?: Value<string> }, now: Value<number>) {
  // One group is named as itself (`= ?`) rather than as a subquery that selects it: the same rows, and a smaller
  // statement to compile and run (compiled once per database connection and kept, as workerd keeps them: ADR 50).
  const inScope = (col: typeof lectures.groupId | typeof quizzes.groupId | typeof memberships.groupId | typeof groups.id) =>
    "group" in scope ? eq(col, scope.group) : inArray(col, scope.groups);
  const held = heldSql(now);
  const open = openSql(now);
  const onlyUser = <C extends typeof memberships.userId>(col: C) => (scope.userId !== undefined ? eq(col, scope.userId) : undefined);
  const due = sql<number>`(${tasks.dueAt} is not null and ${tasks.dueAt} <= ${now})`;
  const opened = sql<number>`(${quizzes.opensAt} is null or ${quizzes.opensAt} <= ${now})`;
  const closed = sql<number>`(${quizzes.closesAt} is not null and ${quizzes.closesAt} <= ${now})`;
  // A student's own due time and close (extensions, issue 21; own-time.ts: never earlier than the work's own): "due"
  // and "closed" are per student. Used where the extension joined is the row's student's. (A null time is never <=.)
  const ownDue = sql<number>`coalesce(${ownTimeSql(tasks.dueAt, extensions.dueAt)} <= ${now}, 0)`;
  const ownClosed = sql<number>`coalesce(${ownTimeSql(quizzes.closesAt, extensions.closesAt)} <= ${now}, 0)`;
  const liveQuiz = and(eq(quizzes.published, true), eq(lectures.published, true), opened);

  // Best attempt per student and opened quiz: the inner grouping of the quiz figures. `currentOnly` joins each attempt
  // to a current membership of its group; the members' figures leave that to their own join (below).
  const bestAttempts = (currentOnly: boolean) => {
    const from = db.select({
      userId: attempts.userId,
      quizId: attempts.quizId,
      groupId: quizzes.groupId,
      best: sql<number>`max(${ratio(attempts.score, attempts.maxScore)})`.as("best"),
      closed: sql<number>`max(${ownClosed})`.as("closed"),
    })
      .from(attempts)
      .innerJoin(quizzes, eq(quizzes.id, attempts.quizId))
      .innerJoin(lectures, eq(lectures.id, quizzes.lectureId));
    return (currentOnly ? from.innerJoin(memberships, asMember(attempts.userId as never, quizzes.groupId)) : from)
      .leftJoin(extensions, extensionOf("quiz", quizzes.id, attempts.userId))
      .where(and(inScope(quizzes.groupId), liveQuiz, sql`${attempts.submittedAt} is not null`, onlyUser(attempts.userId as never)))
      .groupBy(attempts.userId, attempts.quizId)
      .as("best_attempts");
  };
  const best = bestAttempts(false);

  // Per student: attendance, hand-ins, best quiz attempts and how their extensions move the group's counts of tasks
  // due and quizzes closed (-1 for work the group has due, or closed, that is not yet due for them; +1 the other way
  // round; only for work its students can see: a scheduled task counts for nobody yet, extended or not). Per group:
  // lectures held, tasks due, quizzes opened and closed. Each is one grouped subquery, joined to the
  // scope's current members so that the whole of a student's numbers is one row of one statement. That join (by
  // student and group, from the current memberships) is what keeps a removed student's records out of the members'
  // figures: the per-student subqueries need no membership join of their own (each would be one more join to plan).
  const attendanceBy = db
    .select({
      userId: sql<string>`${attendance.userId}`.as("user_id"),
      groupId: sql<string>`${lectures.groupId}`.as("group_id"),
      attended: sql<number>`sum(case when ${attendance.status} in ('present', 'late') then 1 else 0 end)`.as("attended"),
      excusedHeld: sql<number>`sum(case when ${attendance.status} = 'excused' and ${held} then 1 else 0 end)`.as("excused_held"),
      extraHeld: sql<number>`sum(case when ${attendance.status} <> 'excused' and not ${held} then 1 else 0 end)`.as("extra_held"),
    })
    .from(attendance)
    .innerJoin(lectures, eq(lectures.id, attendance.lectureId))
    .where(and(inScope(lectures.groupId), onlyUser(attendance.userId as never)))
    .groupBy(attendance.userId, lectures.groupId)
    .as("attendance_by");
  const submissionsBy = db
    .select({
      userId: sql<string>`${submissions.userId}`.as("user_id"),
      groupId: sql<string>`${lectures.groupId}`.as("group_id"),
      submitted: sql<number>`count(*)`.as("submitted"),
      submittedNotDue: sql<number>`sum(case when ${ownDue} then 0 else 1 end)`.as("submitted_not_due"),
      graded: sql<number>`count(${shownScore})`.as("graded"),
      gradedSum: sql<number>`coalesce(sum(${ratio(shownScore, tasks.maxScore)}), 0)`.as("graded_sum"),
    })
    .from(submissions)
    .innerJoin(tasks, eq(tasks.id, submissions.taskId))
    .innerJoin(lectures, eq(lectures.id, tasks.lectureId))
    .leftJoin(extensions, extensionOf("task", tasks.id, submissions.userId))
    .where(and(inScope(lectures.groupId), studentSeesTask, onlyUser(submissions.userId as never)))
    .groupBy(submissions.userId, lectures.groupId)
    .as("submissions_by");
  const quizzesBy = db
    .select({
      userId: sql<string>`${best.userId}`.as("user_id"),
      groupId: sql<string>`${best.groupId}`.as("group_id"),
      taken: sql<number>`count(*)`.as("taken"),
      bestSum: sql<number>`coalesce(sum(${best.best}), 0)`.as("best_sum"),
      takenClosed: sql<number>`coalesce(sum(${best.closed}), 0)`.as("taken_closed"),
    })
    .from(best)
    .groupBy(best.userId, best.groupId)
    .as("quizzes_by");
  const extensionsBy = db
    .select({
      userId: sql<string>`${extensions.userId}`.as("user_id"),
      groupId: sql<string>`${lectures.groupId}`.as("group_id"),
      dueDelta: sql<number>`coalesce(sum(case when ${extensions.taskId} is null or ${tasks.publishAt} is not null then 0 when ${due} and not ${ownDue} then -1 when not ${due} and ${ownDue} then 1 else 0 end), 0)`.as("due_delta"),
      closedDelta: sql<number>`coalesce(sum(case when ${extensions.quizId} is null or not (${opened}) or not ${liveQuiz} then 0 when ${closed} and not ${ownClosed} then -1 when not ${closed} and ${ownClosed} then 1 else 0 end), 0)`.as("closed_delta"),
    })
    .from(extensions)
    .leftJoin(tasks, eq(tasks.id, extensions.taskId))
    .leftJoin(quizzes, eq(quizzes.id, extensions.quizId))
    .innerJoin(lectures, eq(lectures.id, sql`coalesce(${tasks.lectureId}, ${quizzes.lectureId})`))
    .where(and(inScope(lectures.groupId), eq(lectures.published, true), onlyUser(extensions.userId as never)))
    .groupBy(extensions.userId, lectures.groupId)
    .as("extensions_by");
  const heldBy = db
    .select({ groupId: sql<string>`${lectures.groupId}`.as("group_id"), n: sql<number>`sum(case when ${held} then 1 else 0 end)`.as("held") })
    .from(lectures)
    .where(inScope(lectures.groupId))
    .groupBy(lectures.groupId)
    .as("held_by");
  const dueBy = db
    .select({ groupId: sql<string>`${lectures.groupId}`.as("group_id"), n: sql<number>`sum(case when ${due} then 1 else 0 end)`.as("due") })
    .from(tasks)
    .innerJoin(lectures, eq(lectures.id, tasks.lectureId))
    .where(and(inScope(lectures.groupId), studentSeesTask))
    .groupBy(lectures.groupId)
    .as("due_by");
  const quizzesOf = db
    .select({
      groupId: sql<string>`${quizzes.groupId}`.as("group_id"),
      opened: sql<number>`sum(case when ${opened} then 1 else 0 end)`.as("opened"),
      closed: sql<number>`sum(case when ${opened} and ${closed} then 1 else 0 end)`.as("closed"),
    })
    .from(quizzes)
    .innerJoin(lectures, eq(lectures.id, quizzes.lectureId))
    .where(and(inScope(quizzes.groupId), eq(quizzes.published, true), eq(lectures.published, true)))
    .groupBy(quizzes.groupId)
    .as("quizzes_of");
  // Drizzle leaves a subquery's computed columns unqualified outside it: name each one with its subquery.
  const of = (sub: { _: { alias: string } }, column: string) => sql<number>`${sql.identifier(sub._.alias)}.${sql.identifier(column)}`;
  // How each subquery's row finds its member's. With one group in scope a group's subquery has at most one row, that
  // group's, and with one student too so has each student's: it is joined as it is (`on 1`). A condition there has
  // SQLite build an index of the subquery's rows at every run ("automatic index"): the course home's figures compiled
  // and ran in about 40% less time without them (ADR 49). Several groups in scope (a student's courses) keep the
  // conditions.
  const whole = sql`1`;
  const sameGroup = (sub: { _: { alias: string } }) => ("group" in scope ? whole : sql`${of(sub, "group_id")} = ${memberships.groupId}`);
  const sameMember = (sub: { _: { alias: string } }) => {
    const sameUser = sql`${of(sub, "user_id")} = ${memberships.userId}`;
    if (!("group" in scope)) return and(sameUser, sameGroup(sub));
    return scope.userId !== undefined ? whole : sameUser;
  };

  // The member's attempts whose time ran out and that nobody has closed yet (their quiz's clock and the daily cron
  // close them too): when any is found the figures are read again once they are graded (computeProgress).
  const expiredOf = db
    .select({ n: sql<number>`count(*)` })
    .from(attempts)
    .innerJoin(quizzes, eq(quizzes.id, attempts.quizId))
    .where(and(eq(attempts.userId, users.id), eq(quizzes.groupId, memberships.groupId), isNull(attempts.submittedAt), sql`${attempts.deadlineAt} < ${now} - ${QUIZ_NETWORK_MS}`));
  // Work from before the student joined (`joined_at`; ADR 15) that they have no record of counts nowhere for them: a
  // lecture held before it with no attendance of theirs, a task due (by their own time) before it that they did not hand
  // in, a quiz closed (by their own time) before it that they did not take. What they did do counts as anyone's does.
  // Correlated with the member's row; a membership without the time (never recorded) excuses nothing.
  const joinedAt = memberships.joinedAt;
  /** A student's own time (due or close) has passed, and came before they joined. */
  const passedBeforeJoining = (own: SQL) => and(sql`${own} <= ${now}`, sql`${own} < ${joinedAt}`);
  const heldBeforeJoining = db
    .select({ n: sql<number>`count(*)` })
    .from(lectures)
    .where(
      and(
        eq(lectures.groupId, memberships.groupId),
        held,
        sql`${lectureTime} < ${joinedAt}`,
        sql`not exists (select 1 from "attendance" a where a."lecture_id" = "lectures"."id" and a."user_id" = ${memberships.userId})`,
      ),
    );
  const dueBeforeJoining = db
    .select({ n: sql<number>`count(*)` })
    .from(tasks)
    .innerJoin(lectures, eq(lectures.id, tasks.lectureId))
    .leftJoin(extensions, extensionOf("task", tasks.id, memberships.userId))
    .where(
      and(
        eq(lectures.groupId, memberships.groupId),
        studentSeesTask,
        passedBeforeJoining(ownTimeSql(tasks.dueAt, extensions.dueAt)),
        sql`not exists (select 1 from "submissions" h where h."task_id" = "tasks"."id" and h."user_id" = ${memberships.userId})`,
      ),
    );
  const closedBeforeJoining = db
    .select({ n: sql<number>`count(*)` })
    .from(quizzes)
    .innerJoin(lectures, eq(lectures.id, quizzes.lectureId))
    .leftJoin(extensions, extensionOf("quiz", quizzes.id, memberships.userId))
    .where(
      and(
        eq(quizzes.groupId, memberships.groupId),
        liveQuiz,
        passedBeforeJoining(ownTimeSql(quizzes.closesAt, extensions.closesAt)),
        sql`not exists (select 1 from "attempts" t where t."quiz_id" = "quizzes"."id" and t."user_id" = ${memberships.userId} and t."submitted_at" is not null)`,
      ),
    );
  const members = db
    .select({
      _id: users.id,
      groupId: memberships.groupId,
      name: users.name,
      email: users.email,
      slug: users.slug,
      status: memberships.status,
      joinedAt: sql<number | null>`${memberships.joinedAt}`,
      groupHeld: of(heldBy, "held"),
      groupDue: of(dueBy, "due"),
      groupOpened: of(quizzesOf, "opened"),
      groupClosed: of(quizzesOf, "closed"),
      attended: of(attendanceBy, "attended"),
      excusedHeld: of(attendanceBy, "excused_held"),
      extraHeld: of(attendanceBy, "extra_held"),
      submitted: of(submissionsBy, "submitted"),
      submittedNotDue: of(submissionsBy, "submitted_not_due"),
      graded: of(submissionsBy, "graded"),
      gradedSum: of(submissionsBy, "graded_sum"),
      taken: of(quizzesBy, "taken"),
      bestSum: of(quizzesBy, "best_sum"),
      takenClosed: of(quizzesBy, "taken_closed"),
      dueDelta: of(extensionsBy, "due_delta"),
      closedDelta: of(extensionsBy, "closed_delta"),
      expired: sql<number>`${expiredOf}`,
      heldBeforeJoining: sql<number>`${heldBeforeJoining}`,
      dueBeforeJoining: sql<number>`${dueBeforeJoining}`,
      closedBeforeJoining: sql<number>`${closedBeforeJoining}`,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(heldBy, sameGroup(heldBy))
    .leftJoin(dueBy, sameGroup(dueBy))
    .leftJoin(quizzesOf, sameGroup(quizzesOf))
    .leftJoin(attendanceBy, sameMember(attendanceBy))
    .leftJoin(submissionsBy, sameMember(submissionsBy))
    .leftJoin(quizzesBy, sameMember(quizzesBy))
    .leftJoin(extensionsBy, sameMember(extensionsBy))
    .where(and(inScope(memberships.groupId), inArray(memberships.status, memberStatuses), onlyUser(memberships.userId)))
    .orderBy(asc(users.name), asc(users.id));
  // The staff's charts: every lecture, task and quiz of the scope with its own figures, each list one statement (its
  // counts are grouped subqueries left-joined to it, as the members' are).
  const attendanceOf = db
    .select({
      lectureId: sql<string>`${attendance.lectureId}`.as("lecture_id"),
      present: sql<number>`sum(case when ${attendance.status} = 'present' then 1 else 0 end)`.as("present"),
      late: sql<number>`sum(case when ${attendance.status} = 'late' then 1 else 0 end)`.as("late"),
      excused: sql<number>`sum(case when ${attendance.status} = 'excused' then 1 else 0 end)`.as("excused"),
      absent: sql<number>`sum(case when ${attendance.status} = 'absent' then 1 else 0 end)`.as("absent"),
    })
    .from(attendance)
    .innerJoin(lectures, eq(lectures.id, attendance.lectureId))
    .innerJoin(memberships, asMember(attendance.userId, lectures.groupId))
    .where(inScope(lectures.groupId))
    .groupBy(attendance.lectureId)
    .as("attendance_of");
  const handInsOf = db
    .select({
      taskId: sql<string>`${submissions.taskId}`.as("task_id"),
      submitted: sql<number>`count(*)`.as("submitted"),
      graded: sql<number>`count(${shownScore})`.as("graded"),
      gradedSum: sql<number>`coalesce(sum(${ratio(shownScore, tasks.maxScore)}), 0)`.as("graded_sum"),
    })
    .from(submissions)
    .innerJoin(tasks, eq(tasks.id, submissions.taskId))
    .innerJoin(lectures, eq(lectures.id, tasks.lectureId))
    .innerJoin(memberships, asMember(submissions.userId as never, lectures.groupId))
    .where(inScope(lectures.groupId))
    .groupBy(submissions.taskId)
    .as("hand_ins_of");
  // The charts count current members only: here each attempt joins its membership itself.
  const bestOfMembers = bestAttempts(true);
  const bestOf = db
    .select({
      quizId: sql<string>`${bestOfMembers.quizId}`.as("quiz_id"),
      taken: sql<number>`count(*)`.as("taken"),
      bestSum: sql<number>`coalesce(sum(${bestOfMembers.best}), 0)`.as("best_sum"),
    })
    .from(bestOfMembers)
    .groupBy(bestOfMembers.quizId)
    .as("best_of");
  // Each list's rows as JSON objects, in the list's order; the three lists are the columns of one statement (below).
  const chartLists = {
    lectures: db
      .select({
        row: jsonObject<LectureChartRow>({
          _id: lectures.id,
          groupId: lectures.groupId,
          slug: lectures.slug,
          title: lectures.title,
          startsAt: lectures.startsAt,
          held,
          open,
          present: of(attendanceOf, "present"),
          late: of(attendanceOf, "late"),
          excused: of(attendanceOf, "excused"),
          absent: of(attendanceOf, "absent"),
          at: lectureTime,
          joinedAfter: sql<number>`(select count(*) from "memberships" m where m."group_id" = "lectures"."group_id" and m."status" in (${sql.join(
            memberStatuses.map((status) => sql`${status}`),
            sql`, `,
          )}) and m."joined_at" > ${lectureTime} and not exists (select 1 from "attendance" a where a."lecture_id" = "lectures"."id" and a."user_id" = m."user_id"))`,
        }).as("row"),
      })
      .from(lectures)
      .leftJoin(attendanceOf, sql`${of(attendanceOf, "lecture_id")} = ${lectures.id}`)
      .where(inScope(lectures.groupId))
      .orderBy(asc(lectures.order), asc(lectures.startsAt)),
    tasks: db
      .select({
        row: jsonObject<TaskChartRow>({
          _id: tasks.id,
          groupId: lectures.groupId,
          slug: tasks.slug,
          title: tasks.title,
          lectureSlug: lectures.slug,
          dueAt: tasks.dueAt,
          maxScore: tasks.maxScore,
          due,
          submitted: of(handInsOf, "submitted"),
          graded: of(handInsOf, "graded"),
          gradedSum: of(handInsOf, "graded_sum"),
        }).as("row"),
      })
      .from(tasks)
      .innerJoin(lectures, eq(lectures.id, tasks.lectureId))
      .leftJoin(handInsOf, sql`${of(handInsOf, "task_id")} = ${tasks.id}`)
      .where(and(inScope(lectures.groupId), studentSeesTask))
      .orderBy(asc(tasks.dueAt), asc(tasks.title)),
    quizzes: db
      .select({
        row: jsonObject<QuizChartRow>({
          _id: quizzes.id,
          groupId: quizzes.groupId,
          slug: quizzes.slug,
          title: quizzes.title,
          lectureSlug: lectures.slug,
          opensAt: quizzes.opensAt,
          closesAt: quizzes.closesAt,
          opened,
          closed,
          // Its own questions' points and those its bank draws add (quizSize in quizzes.ts).
          maxScore: sql<number>`((select coalesce(sum(q."points"), 0) from "questions" q where q."quiz_id" = "quizzes"."id") + coalesce((select sum(json_extract(d.value, '$.count') * json_extract(d.value, '$.points')) from json_each("quizzes"."draws") d), 0))`,
          taken: of(bestOf, "taken"),
          bestSum: of(bestOf, "best_sum"),
        }).as("row"),
      })
      .from(quizzes)
      .innerJoin(lectures, eq(lectures.id, quizzes.lectureId))
      .leftJoin(bestOf, sql`${of(bestOf, "quiz_id")} = ${quizzes.id}`)
      .where(and(inScope(quizzes.groupId), eq(quizzes.published, true), eq(lectures.published, true)))
      .orderBy(asc(quizzes.opensAt), asc(quizzes.title)),
  };
  // One statement for the three lists, each a JSON array of its rows. `json_group_array` reads its ordered subquery in
  // order (SQLite does not flatten an ordered subquery into an aggregate), so each list keeps its ORDER BY.
  const list = (rows: SQLWrapper) => sql<string>`(select json_group_array(json("row")) from (${rows}))`;
  const charts = db
    .select({ lectures: list(chartLists.lectures), tasks: list(chartLists.tasks), quizzes: list(chartLists.quizzes) })
    .from(groups)
    .where(inScope(groups.id))
    .limit(1);
  return { members, charts };
}

/** The numbers for every current member of the scope's groups (or the one student), in constant statements. */
export async function computeProgress(ctx: ServiceContext, scope: Scope, now = Date.now()): Promise<ScopeProgress> {
  // One group (a student's own numbers, the group's staff): every statement is built once per isolate, with the group,
  // the student and the time as its parameters (db/prepared.ts); other scopes build theirs for the request.
  const one = scope.one;
  let built: Figures | null = null;
  const read = <P extends PreparedFigures>(name: string, pick: (f: Figures) => { prepare(): P }): ReturnType<P["all"]> =>
    (one
      ? preparedOnce(ctx, `progress.${one.userId === undefined ? "group" : "member"}.${name}`, (db) =>
          // Drizzle's named parameters (db/prepared.ts): the group, the student and the time of each run.
          pick(figuresSql(db, { group: sql.placeholder("groupId"), userId: one.userId === undefined ? undefined : sql.placeholder("userId") }, sql.placeholder("now"))),
        ).all({ groupId: one.groupId, userId: one.userId, now })
      : pick((built ??= figuresSql(ctx.db, scope, now))).prepare().all()) as ReturnType<P["all"]>;

  const readAll = () => Promise.all([read("members", (f) => f.members), scope.details ? read("charts", (f) => f.charts) : Promise.resolve([])]);
  // A quiz abandoned mid-way counts with what was saved: each member's row says whether they have an attempt whose
  // time ran out and that is still open; when any has, the scope's such attempts are graded and the figures read again.
  const firstRead = await readAll();
  const expired = firstRead[0].some((m) => num(m.expired) > 0) && (await settleGroupAttempts(ctx, scope.groups, now)) > 0;
  const [memberRows, [chartsRow]] = expired ? await readAll() : firstRead;
  const lectureRows = chartRows<LectureChartRow>(chartsRow?.lectures);
  const taskRows = chartRows<TaskChartRow>(chartsRow?.tasks);
  const quizRows = chartRows<QuizChartRow>(chartsRow?.quizzes);

  const heldByGroup = new Map<string, number>();
  const members = byName([...memberRows], (m) => m.name).map((m) => {
    heldByGroup.set(m.groupId, num(m.groupHeld));
    const counts: ProgressCounts = {
      groupHeld: num(m.groupHeld),
      tasksDue: num(m.groupDue) + num(m.dueDelta),
      quizzesOpened: num(m.groupOpened),
      quizzesClosed: num(m.groupClosed) + num(m.closedDelta),
      attended: num(m.attended),
      excusedHeld: num(m.excusedHeld),
      extraHeld: num(m.extraHeld),
      submitted: num(m.submitted),
      submittedNotDue: num(m.submittedNotDue),
      graded: num(m.graded),
      gradedSum: num(m.gradedSum),
      taken: num(m.taken),
      bestSum: num(m.bestSum),
      takenClosed: num(m.takenClosed),
      heldBeforeJoining: num(m.heldBeforeJoining),
      dueBeforeJoining: num(m.dueBeforeJoining),
      closedBeforeJoining: num(m.closedBeforeJoining),
    };
    const progress = progressFrom(counts);
    const reasons = atRiskReasons(progress, counts.groupHeld);
    return { _id: m._id, groupId: m.groupId, name: m.name, email: m.email, slug: m.slug, status: m.status, joinedAt: iso(m.joinedAt), progress, atRisk: reasons.length > 0, atRiskReasons: reasons };
  });

  const membersByGroup = new Map<string, number>();
  for (const m of memberRows) membersByGroup.set(m.groupId, (membersByGroup.get(m.groupId) ?? 0) + 1);
  const pct = (sum: number, n: number) => (n > 0 ? Math.round((sum / n) * 100) : null);

  return {
    members,
    heldByGroup,
    lectures: lectureRows.map((l) => {
      const present = num(l.present);
      const late = num(l.late);
      const excused = num(l.excused);
      const isHeld = num(l.held) > 0;
      return {
        _id: l._id,
        groupId: l.groupId,
        slug: l.slug,
        title: l.title,
        startsAt: iso(l.startsAt),
        at: iso(l.at),
        held: isHeld,
        open: num(l.open) > 0,
        present,
        late,
        excused,
        absent: isHeld ? Math.max(0, (membersByGroup.get(l.groupId) ?? 0) - present - late - excused - num(l.joinedAfter)) : num(l.absent),
      };
    }),
    tasks: taskRows.map((t) => ({
      _id: t._id,
      groupId: t.groupId,
      slug: t.slug,
      title: t.title,
      lectureSlug: t.lectureSlug,
      dueAt: iso(t.dueAt),
      due: num(t.due) > 0,
      maxScore: t.maxScore,
      submitted: num(t.submitted),
      graded: num(t.graded),
      averageScore: pct(num(t.gradedSum), num(t.graded)),
    })),
    quizzes: quizRows.map((q) => ({
      _id: q._id,
      groupId: q.groupId,
      slug: q.slug,
      title: q.title,
      lectureSlug: q.lectureSlug,
      opensAt: iso(q.opensAt),
      closesAt: iso(q.closesAt),
      opened: num(q.opened) > 0,
      closed: num(q.closed) > 0,
      maxScore: num(q.maxScore),
      taken: num(q.taken),
      averageScore: pct(num(q.bestSum), num(q.taken)),
    })),
  };
}

/* ---------------------------------------------------------------------------------------------------------------
 * Who may read what
 * ------------------------------------------------------------------------------------------------------------- */

interface GroupRow {
  id: string;
  slug: string;
  title: string;
  instructorId: string | null;
  membershipStatus: string | null;
}

async function findGroup(ctx: ServiceContext, viewer: Actor, groupKey: string): Promise<GroupRow> {
  const group = await groupForUser(ctx, viewer.userId, groupKey);
  if (!group) throw notFound("No such group.");
  return group;
}

const oneGroup = (ctx: ServiceContext, groupId: string) => ctx.db.select({ id: groups.id }).from(groups).where(eq(groups.id, groupId));
const groupDto = (g: GroupRow) => ({ _id: g.id, slug: g.slug, title: g.title });
const isStaff = (viewer: Actor, g: GroupRow) => can(viewer, "group.manage", { group: { instructorId: g.instructorId } });

export type StudentProgress = Progress & {
  atRisk: boolean;
  atRiskReasons: AtRiskReason[];
  user: { _id: string; name: string; slug: string };
  group: { _id: string; slug: string; title: string };
};

/**
 * GET /api/users/groups/{id}/progress: the caller's own numbers in a group they are a member of; the group's staff
 * may ask for one of its members with `user` (id or slug).
 */
export async function memberProgress(ctx: ServiceContext, viewer: Actor, groupKey: string, userKey?: string, now = Date.now()): Promise<StudentProgress> {
  const group = await findGroup(ctx, viewer, groupKey);
  let userId = viewer.userId;
  // `user` may name the caller themselves, by id or by slug: that is their own progress.
  const [named] =
    userKey !== undefined && userKey !== viewer.userId
      ? await ctx.db
          .select({ id: users.id })
          .from(users)
          .where(or(eq(users.id, userKey), eq(users.slug, userKey)))
          .limit(1)
      : [{ id: viewer.userId }];
  if (named?.id !== viewer.userId) {
    if (!isStaff(viewer, group)) throw outsider(viewer, group, "Only this group's instructor or an admin can see another student's progress.");
    if (!named) throw notFound("No such student in this group.");
    userId = named.id;
  } else if (!isMember(group)) {
    throw outsider(viewer, group, isStaff(viewer, group) ? "Staff have no progress of their own here: add ?user= with one of the group's students." : "Only the group's students have progress in it.");
  }
  const result = await computeProgress(ctx, { groups: oneGroup(ctx, group.id), userId, one: { groupId: group.id, userId } }, now);
  const me = result.members[0];
  if (!me) throw notFound("No such student in this group.");
  return { ...me.progress, atRisk: me.atRisk, atRiskReasons: me.atRiskReasons, user: { _id: me._id, name: me.name, slug: me.slug }, group: groupDto(group) };
}

/** GET /api/groups/{id}/progress (staff): every member's numbers, and per-lecture, per-task and per-quiz figures. */
export async function groupProgress(ctx: ServiceContext, viewer: Actor, groupKey: string, now = Date.now()) {
  const group = await findGroup(ctx, viewer, groupKey);
  if (!isStaff(viewer, group)) throw outsider(viewer, group, "Only this group's instructor or an admin can see its progress.");
  const result = await computeProgress(ctx, { groups: oneGroup(ctx, group.id), details: true, one: { groupId: group.id } }, now);
  const strip = <T extends { groupId: string }>({ groupId: _g, ...rest }: T) => rest;
  return {
    group: groupDto(group),
    generatedAt: new Date(now).toISOString(),
    heldLectures: result.lectures.filter((l) => l.held).length,
    students: result.members.map(strip),
    lectures: result.lectures.map(strip),
    tasks: result.tasks.map(strip),
    quizzes: result.quizzes.map(strip),
  };
}
export type GroupProgress = Awaited<ReturnType<typeof groupProgress>>;

/**
 * A student's numbers in every group of theirs the viewer runs (the staff's student pages): all of an admin's,
 * an instructor's own. One computation over those groups, whatever their number.
 */
export async function progressAcrossGroups(ctx: ServiceContext, viewer: Actor, userId: string, now = Date.now()) {
  if (viewer.role !== "admin" && viewer.role !== "instructor") throw forbidden();
  const theirGroups = ctx.db
    .select({ id: memberships.groupId })
    .from(memberships)
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .where(and(eq(memberships.userId, userId), inArray(memberships.status, memberStatuses), viewer.role === "admin" ? undefined : eq(groups.instructorId, viewer.userId)));
  const [result, groupRows] = await Promise.all([
    computeProgress(ctx, { groups: theirGroups, userId }, now),
    ctx.db.select({ id: groups.id, slug: groups.slug, title: groups.title }).from(groups).where(inArray(groups.id, theirGroups)),
  ]);
  const byId = new Map(groupRows.map((g) => [g.id, g]));
  return result.members.flatMap((m) => {
    const g = byId.get(m.groupId);
    return g ? [{ group: { _id: g.id, slug: g.slug, title: g.title }, progress: m.progress, atRisk: m.atRisk, atRiskReasons: m.atRiskReasons, heldLectures: result.heldByGroup.get(m.groupId) ?? 0 }] : [];
  });
}
