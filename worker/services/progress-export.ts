/**
 * The staff's CSV exports of a group (GET /api/groups/{id}/export/{attendance,grades,progress}.csv and the same
 * downloads on the staff pages): one row per current member, name and e-mail first, headers in the reader's
 * language. The numbers come from groupProgress, the one definition; the per-lecture and per-task cells from three
 * more statements (an export is as long as members x items, the page's queries are not).
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Lang } from "../../app/i18n/config";
import { dictionary } from "../../app/i18n/index.server";
import type { MessageKey } from "../../app/i18n/en";
import { format, type Params } from "../../app/i18n/translate";
import type { Actor } from "../../app/lib/permissions";
import { attempts, attendance, lectures, memberships, MEMBER_STATUSES, quizzes, submissions, tasks } from "../../db/schema";
import type { ServiceContext } from "../context";
import { toCsv, type CsvCell } from "../http/csv";
import { groupProgress } from "./progress";

export const EXPORTS = ["attendance", "grades", "progress"] as const;
export type ExportKind = (typeof EXPORTS)[number];

const day = (isoDate: string | null) => (isoDate ? isoDate.slice(0, 10) : "");

export async function exportGroupCsv(ctx: ServiceContext, viewer: Actor, groupKey: string, kind: ExportKind, lang: Lang, now = Date.now()): Promise<{ filename: string; body: string }> {
  const report = await groupProgress(ctx, viewer, groupKey, now);
  const messages = dictionary(lang);
  const t = (k: MessageKey, params?: Params) => format(messages, k, params);
  const groupId = report.group._id;
  const member = (userCol: typeof attendance.userId | typeof submissions.userId | typeof attempts.userId, groupCol: typeof lectures.groupId | typeof quizzes.groupId) =>
    and(eq(memberships.userId, userCol), eq(memberships.groupId, groupCol), inArray(memberships.status, [...MEMBER_STATUSES]));
  const who = (s: (typeof report.students)[number]): CsvCell[] => [s.name, s.email];
  const head = [t("progress.csv.name"), t("progress.csv.email")];
  let rows: CsvCell[][];

  if (kind === "progress") {
    rows = [
      [
        ...head,
        t("progress.csv.attended"),
        t("progress.csv.held"),
        t("progress.csv.attendanceRate"),
        t("progress.csv.submitted"),
        t("progress.csv.given"),
        t("progress.csv.graded"),
        t("progress.csv.taskAverage"),
        t("progress.csv.taken"),
        t("progress.csv.published"),
        t("progress.csv.quizAverage"),
        t("progress.csv.overall"),
        t("progress.csv.atRisk"),
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
          p.tasks.averageScore,
          p.quizzes.taken,
          p.quizzes.published,
          p.quizzes.averageScore,
          p.overall,
          s.atRisk ? t("progress.csv.yes") : t("progress.csv.no"),
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
    // Held lectures, and any other lecture a student already has a record for (it is held for them).
    const columns = report.lectures.filter((l) => l.held || withRecords.has(l._id));
    rows = [
      [...head, ...columns.map((l) => t("progress.csv.lecture", { title: l.title, date: day(l.startsAt) })), t("progress.csv.attended"), t("progress.csv.held"), t("progress.csv.attendanceRate")],
      ...report.students.map((s) => [
        ...who(s),
        ...columns.map((l) => {
          const st = status.get(`${l._id}:${s._id}`);
          return st ? t(`progress.csv.status.${st}`) : l.held ? t("progress.csv.status.absent") : "";
        }),
        s.progress.lectures.attended,
        s.progress.lectures.held,
        s.progress.lectures.rate,
      ]),
    ];
  } else {
    const [handIns, bests] = await Promise.all([
      ctx.db
        .select({ taskId: submissions.taskId, userId: submissions.userId, score: submissions.score })
        .from(submissions)
        .innerJoin(tasks, eq(tasks.id, submissions.taskId))
        .innerJoin(lectures, eq(lectures.id, tasks.lectureId))
        .innerJoin(memberships, member(submissions.userId, lectures.groupId))
        .where(and(eq(lectures.groupId, groupId), eq(lectures.published, true))),
      ctx.db
        .select({ quizId: attempts.quizId, userId: attempts.userId, best: sql<number>`max(${attempts.score})` })
        .from(attempts)
        .innerJoin(quizzes, eq(quizzes.id, attempts.quizId))
        .innerJoin(memberships, member(attempts.userId, quizzes.groupId))
        .where(and(eq(quizzes.groupId, groupId), sql`${attempts.submittedAt} is not null`))
        .groupBy(attempts.quizId, attempts.userId),
    ]);
    const handIn = new Map(handIns.map((h) => [`${h.taskId}:${h.userId}`, h]));
    const best = new Map(bests.map((b) => [`${b.quizId}:${b.userId}`, b.best]));
    const opened = report.quizzes.filter((q) => q.opened);
    rows = [
      [
        ...head,
        ...report.tasks.map((task) => t("progress.csv.outOf", { title: task.title, max: task.maxScore })),
        ...opened.map((q) => t("progress.csv.outOf", { title: q.title, max: q.maxScore })),
        t("progress.csv.taskAverage"),
        t("progress.csv.quizAverage"),
      ],
      ...report.students.map((s) => [
        ...who(s),
        ...report.tasks.map((task) => {
          const h = handIn.get(`${task._id}:${s._id}`);
          if (h) return h.score ?? t("progress.csv.ungraded");
          return task.due ? t("progress.csv.missing") : "";
        }),
        ...opened.map((q) => best.get(`${q._id}:${s._id}`) ?? ""),
        s.progress.tasks.averageScore,
        s.progress.quizzes.averageScore,
      ]),
    ];
  }
  return { filename: `${report.group.slug}-${kind}.csv`, body: toCsv(rows) };
}
