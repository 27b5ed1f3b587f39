/**
 * The staff's CSV exports of a group (GET /api/groups/{id}/export/{attendance,grades,progress}.csv and the same
 * downloads on the staff pages): one row per current member. The numbers come from groupProgress, the one
 * definition (app/lib/progress.ts) that the API and the progress screens show; the per-lecture, per-task and
 * per-quiz cells from at most two more statements (an export is as long as members x items, its statements are not).
 *
 * The format is for programs as much as for people (docs/decisions/0015-progress.md, "CSV for spreadsheets"):
 * - One header row, the same in every language: names in snake_case. Per-item columns are `{kind}:{slug}:{field}`
 *   where kind is `lecture`, `task` or `quiz` and the slug is written as it is (letters, digits and hyphens of any
 *   script: an Arabic title's slug reads as Arabic in a spreadsheet; `:` and `,` never occur inside it; the file is
 *   UTF-8 with its mark). There is no second, translated header row: the human names are the rows' first column.
 * - A number column holds a number or nothing, never a word. A score is a whole number of points out of the cell
 *   beside it (`max_score`); a `*_percent` column is a whole percentage, empty when there is nothing to count
 *   (as the screens' "—").
 * - Each state is a separate `status` column with one value of a fixed, lower-case, English vocabulary (below),
 *   whatever the reader's language.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Actor } from "../../app/lib/permissions";
import { attempts, attendance, extensions, lectures, memberships, MEMBER_STATUSES, quizzes, submissions, tasks } from "../../db/schema";
import type { ServiceContext } from "../context";
import { toCsv, type CsvCell } from "../http/csv";
import { groupProgress } from "./progress";
import { gradeHeld } from "./tasks";
import { ownTime } from "./own-time";
import { studentSeesTask } from "./released";

export const EXPORTS = ["attendance", "grades", "progress"] as const;
export type ExportKind = (typeof EXPORTS)[number];

/**
 * `task:{slug}:status` in grades.csv, one per member and task (the rules of app/lib/progress.ts):
 * - `graded`: handed in and scored; `score` holds the points and the hand-in counts in `task_percent`.
 * - `held`: graded by staff on a task whose grades are held (ADR 0021); `score` holds the points, which the student
 *   does not see yet and which count nowhere until released (as `submitted`).
 * - `submitted`: handed in on time, not graded yet; counts nowhere until graded; `score` is empty.
 * - `late`: handed in after the due time, not graded yet; as `submitted`.
 * - `missing`: past its due time and not handed in; counts as 0 in `task_percent`; `score` is empty.
 * - `not_due`: not handed in and not due yet (or without a due time); counts nowhere; `score` is empty.
 * - `before_joining`: due (by their own time) before the student joined, and not handed in; counts nowhere.
 * So task_percent = the mean of score / max_score over the `graded` and `missing` cells (a missing one as 0).
 */
export const TASK_CELL_STATUSES = ["graded", "held", "submitted", "late", "missing", "not_due", "before_joining"] as const;
/**
 * `quiz:{slug}:status` in grades.csv, one per member and opened quiz:
 * - `taken`: handed in at least once; `score` holds the best attempt's points (best by score / max, as the quiz
 *   percentage counts it) and `max_score` what that attempt was out of.
 * - `not_taken`: closed without a hand-in; counts as 0 in `quiz_percent`; `score` is empty and `max_score` the
 *   quiz's points.
 * - `open`: still open (or without a closing time) and not taken yet; counts nowhere; as `not_taken` otherwise.
 * - `before_joining`: closed (by their own time) before the student joined, and not taken; counts nowhere.
 * So quiz_percent = the mean of score / max_score over the `taken` and `not_taken` cells (a not_taken one as 0).
 */
export const QUIZ_CELL_STATUSES = ["taken", "not_taken", "open", "before_joining"] as const;
/**
 * `lecture:{slug}:status` in attendance.csv, one per member and lecture column (every held lecture, every lecture
 * whose attendance is open now, and any other lecture a member has a record for): the record's `present`, `late`,
 * `excused` or `absent`; no record on a held lecture is `absent`; no record on a lecture whose attendance is still
 * open is `open` (they may still check in; closing attendance decides); no record on a lecture not held (yet) is
 * `not_held`; no record on a lecture held before the member joined is `before_joining`. So attended = present + late
 * and held = every cell but `excused`, `open`, `not_held` and `before_joining`.
 */
export const ATTENDANCE_CELL_STATUSES = ["present", "late", "excused", "absent", "open", "not_held", "before_joining"] as const;

export type TaskCellStatus = (typeof TASK_CELL_STATUSES)[number];
export type QuizCellStatus = (typeof QUIZ_CELL_STATUSES)[number];
export type AttendanceCellStatus = (typeof ATTENDANCE_CELL_STATUSES)[number];

/** A per-item column's name: `task:{slug}:score` (a slug holds letters, marks, digits and hyphens only: ids.ts). */
export const itemColumn = (kind: "lecture" | "task" | "quiz", slug: string, field: string) => `${kind}:${slug}:${field}`;

const bool = (b: boolean) => (b ? "true" : "false");

export async function exportGroupCsv(ctx: ServiceContext, viewer: Actor, groupKey: string, kind: ExportKind, now = Date.now()): Promise<{ filename: string; body: string }> {
  const report = await groupProgress(ctx, viewer, groupKey, now);
  const groupId = report.group._id;
  const member = (userCol: typeof attendance.userId | typeof submissions.userId | typeof attempts.userId, groupCol: typeof lectures.groupId | typeof quizzes.groupId) =>
    and(eq(memberships.userId, userCol), eq(memberships.groupId, groupCol), inArray(memberships.status, [...MEMBER_STATUSES]));
  const who = (s: (typeof report.students)[number]): CsvCell[] => [s.name, s.email];
  /** Work of this time came before the student joined (ADR 15): what they did not do of it counts nowhere. */
  const before = (at: string | Date | null, s: (typeof report.students)[number]) => at !== null && s.joinedAt !== null && new Date(at).getTime() < new Date(s.joinedAt).getTime();
  const head = ["student_name", "email"];
  let rows: CsvCell[][];

  if (kind === "progress") {
    // Every number of the one definition, as the API's GET /api/groups/{id}/progress gives it.
    rows = [
      [
        ...head,
        "lectures_attended",
        "lectures_held",
        "attendance_percent",
        "tasks_submitted",
        "tasks_given",
        "tasks_graded",
        "tasks_counted",
        "task_percent",
        "quizzes_taken",
        "quizzes_published",
        "quizzes_counted",
        "quiz_percent",
        "overall_percent",
        "at_risk",
        "at_risk_reasons",
      ],
      ...report.students.map((s) => {
        const p = s.progress;
        return [
          ...who(s),
          p.lectures.attended,
          p.lectures.held,
          p.lectures.rate,
          p.tasks.submitted,
          p.tasks.given,
          p.tasks.graded,
          p.tasks.counted,
          p.tasks.rate,
          p.quizzes.taken,
          p.quizzes.published,
          p.quizzes.counted,
          p.quizzes.rate,
          p.overall,
          bool(s.atRisk),
          // Fixed words, space-separated (`overall`, `attendance`); empty when not at risk. The values are the
          // overall_percent and attendance_percent cells.
          s.atRiskReasons.map((r) => r.kind).join(" "),
        ];
      }),
    ];
  } else if (kind === "attendance") {
    const records = await ctx.db
      .select({ lectureId: attendance.lectureId, userId: attendance.userId, status: attendance.status })
      .from(attendance)
      .innerJoin(lectures, eq(lectures.id, attendance.lectureId))
      .innerJoin(memberships, member(attendance.userId, lectures.groupId))
      .where(eq(lectures.groupId, groupId));
    const status = new Map(records.map((r) => [`${r.lectureId}:${r.userId}`, r.status]));
    const withRecords = new Set(records.map((r) => r.lectureId));
    // Held lectures, lectures whose attendance is open now, and any other lecture a student already has a record
    // for (it is held for them).
    const columns = report.lectures.filter((l) => l.held || l.open || withRecords.has(l._id));
    rows = [
      [...head, ...columns.map((l) => itemColumn("lecture", l.slug, "status")), "lectures_attended", "lectures_held", "attendance_percent"],
      ...report.students.map((s) => [
        ...who(s),
        ...columns.map((l): AttendanceCellStatus => status.get(`${l._id}:${s._id}`) ?? (l.held ? (before(l.at, s) ? "before_joining" : "absent") : l.open ? "open" : "not_held")),
        s.progress.lectures.attended,
        s.progress.lectures.held,
        s.progress.lectures.rate,
      ]),
    ];
  } else {
    const opened = report.quizzes.filter((q) => q.opened);
    const [handIns, bests, extended] = await Promise.all([
      ctx.db
        .select({ taskId: submissions.taskId, userId: submissions.userId, score: submissions.score, late: submissions.late, gradedAt: submissions.gradedAt, gradedBy: submissions.gradedBy, submittedAt: submissions.submittedAt, hasCode: sql<boolean>`${submissions.code} is not null`.mapWith(Boolean), gradesHeld: tasks.gradesHeld })
        .from(submissions)
        .innerJoin(tasks, eq(tasks.id, submissions.taskId))
        .innerJoin(lectures, eq(lectures.id, tasks.lectureId))
        .innerJoin(memberships, member(submissions.userId, lectures.groupId))
        .where(and(eq(lectures.groupId, groupId), studentSeesTask)),
      // The best attempt as the quiz average picks it: the highest score / max (clamped to 0-1) of the handed-in
      // attempts. SQLite takes the bare columns (score, max_score) from the row that holds the max().
      ctx.db
        .select({
          quizId: attempts.quizId,
          userId: attempts.userId,
          score: attempts.score,
          maxScore: attempts.maxScore,
          best: sql<number | null>`max(min(1.0, max(0.0, ${attempts.score} * 1.0 / nullif(${attempts.maxScore}, 0))))`,
        })
        .from(attempts)
        .innerJoin(quizzes, eq(quizzes.id, attempts.quizId))
        .innerJoin(memberships, member(attempts.userId, quizzes.groupId))
        .where(and(eq(quizzes.groupId, groupId), sql`${attempts.submittedAt} is not null`))
        .groupBy(attempts.quizId, attempts.userId),
      // Students' own due times and closes (extensions): "missing" and "not taken" are per student, as in progress.
      ctx.db
        .select({ taskId: extensions.taskId, quizId: extensions.quizId, userId: extensions.userId, dueAt: extensions.dueAt, closesAt: extensions.closesAt })
        .from(extensions)
        .leftJoin(tasks, eq(tasks.id, extensions.taskId))
        .leftJoin(quizzes, eq(quizzes.id, extensions.quizId))
        .innerJoin(lectures, eq(lectures.id, sql`coalesce(${tasks.lectureId}, ${quizzes.lectureId})`))
        .where(eq(lectures.groupId, groupId)),
    ]);
    const own = new Map(extended.map((e) => [`${e.taskId ?? e.quizId}:${e.userId}`, e]));
    const past = (at: Date | null) => at !== null && at.getTime() <= now;
    const ownDueOf = (task: (typeof report.tasks)[number], userId: string) => {
      const e = own.get(`${task._id}:${userId}`);
      return e ? ownTime(task.dueAt ? new Date(task.dueAt) : null, e.dueAt) : task.dueAt ? new Date(task.dueAt) : null;
    };
    const ownCloseOf = (quiz: (typeof opened)[number], userId: string) => {
      const e = own.get(`${quiz._id}:${userId}`);
      return e ? ownTime(quiz.closesAt ? new Date(quiz.closesAt) : null, e.closesAt) : quiz.closesAt ? new Date(quiz.closesAt) : null;
    };
    const dueFor = (task: (typeof report.tasks)[number], userId: string) => (own.has(`${task._id}:${userId}`) ? past(ownDueOf(task, userId)) : task.due);
    const closedFor = (quiz: (typeof opened)[number], userId: string) => (own.has(`${quiz._id}:${userId}`) ? past(ownCloseOf(quiz, userId)) : quiz.closed);
    const handIn = new Map(handIns.map((h) => [`${h.taskId}:${h.userId}`, h]));
    const best = new Map(bests.map((b) => [`${b.quizId}:${b.userId}`, b]));
    rows = [
      [
        ...head,
        ...report.tasks.flatMap((task) => ["score", "max_score", "status"].map((f) => itemColumn("task", task.slug, f))),
        ...opened.flatMap((q) => ["score", "max_score", "status"].map((f) => itemColumn("quiz", q.slug, f))),
        "task_percent",
        "quiz_percent",
      ],
      ...report.students.map((s) => [
        ...who(s),
        ...report.tasks.flatMap((task): CsvCell[] => {
          const h = handIn.get(`${task._id}:${s._id}`);
          const status: TaskCellStatus = h ? (h.score !== null ? (gradeHeld(h, h) ? "held" : "graded") : h.late ? "late" : "submitted") : dueFor(task, s._id) ? (before(ownDueOf(task, s._id), s) ? "before_joining" : "missing") : "not_due";
          return [h?.score ?? null, task.maxScore, status];
        }),
        ...opened.flatMap((q): CsvCell[] => {
          const b = best.get(`${q._id}:${s._id}`);
          const status: QuizCellStatus = b ? "taken" : closedFor(q, s._id) ? (before(ownCloseOf(q, s._id), s) ? "before_joining" : "not_taken") : "open";
          return [b?.score ?? null, b?.maxScore ?? q.maxScore, status];
        }),
        s.progress.tasks.rate,
        s.progress.quizzes.rate,
      ]),
    ];
  }
  return { filename: `${report.group.slug}-${kind}.csv`, body: toCsv(rows) };
}
