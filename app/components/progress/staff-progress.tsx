import { Link } from "@remix-run/react";
import { useMemo, useState } from "react";
import { NameSearch, ownName, useNameSearch } from "~/components/name-search";
import { AlertIcon, BookIcon, CalendarIcon, UsersIcon } from "~/components/icons";
import { ArrowDownIcon } from "~/components/realtime-icons";
import type { MessageKey } from "~/i18n/en";
import type { Lang } from "~/i18n/config";
import { formatPercent, useT } from "~/lib/i18n";
import { AT_RISK_AFTER_HELD, AT_RISK_BELOW_PERCENT, type AtRiskReason, type Progress } from "~/lib/progress";
import { AttendanceChart, binCounts, ScoreDistribution } from "./charts";
import { AtRiskReasons } from "./progress-summary";
import { EmptyState } from "~/components/empty-state";
import { compareNames } from "~/lib/names";

export interface StaffProgressReport {
  generatedAt: string;
  heldLectures: number;
  students: { _id: string; name: string; email: string; slug: string; status: string; progress: Progress; atRisk: boolean; atRiskReasons: AtRiskReason[] }[];
  lectures: { _id: string; title: string; held: boolean; open: boolean; present: number; late: number; excused: number; absent: number }[];
  tasks: { _id: string; title: string; due: boolean; maxScore: number; submitted: number; graded: number; averageScore: number | null }[];
  quizzes: { _id: string; title: string; opened: boolean; maxScore: number; taken: number; averageScore: number | null }[];
}

type Student = StaffProgressReport["students"][number];
type SortKey = "name" | "attendance" | "tasks" | "quizzes" | "overall";

/** The three percentages the overall averages, and the overall: the same numbers as the student's own card. */
const COLUMNS: { key: SortKey; label: MessageKey; value: (s: Student) => number | string | null }[] = [
  { key: "name", label: "staffProgress.col.student", value: (s) => s.name },
  { key: "attendance", label: "staffProgress.col.attendance", value: (s) => s.progress.lectures.rate },
  { key: "tasks", label: "staffProgress.col.tasks", value: (s) => s.progress.tasks.rate },
  { key: "quizzes", label: "staffProgress.col.quizzes", value: (s) => s.progress.quizzes.rate },
  { key: "overall", label: "staffProgress.col.overall", value: (s) => s.progress.overall },
];

const EXPORTS = [
  ["progress", "staffProgress.export.progress"],
  ["attendance", "staffProgress.export.attendance"],
  ["grades", "staffProgress.export.grades"],
] as const;

const percent = (n: number | null, lang: Lang) => (n === null ? "—" : formatPercent(n, lang));

/** By a column, ties and names in the staff lists' one order of names (app/lib/names.ts). */
function sortStudents(list: readonly Student[], key: SortKey, descending: boolean): Student[] {
  const column = COLUMNS.find((c) => c.key === key)!;
  return [...list].sort((a, b) => {
    const x = column.value(a);
    const y = column.value(b);
    // Nothing to count sorts last either way.
    if (x === null || y === null) return x === y ? compareNames(a.name, b.name) : x === null ? 1 : -1;
    const order = typeof x === "string" ? compareNames(x, String(y)) : x - (y as number);
    return (descending ? -order : order) || compareNames(a.name, b.name);
  });
}

/**
 * The staff's progress tab (admin and instructor): the group at a glance, downloads, students who need support,
 * every student's numbers in a table sortable by any column, attendance per lecture, score distributions and each
 * task's and quiz's average. All numbers come from the one definition (app/lib/progress.ts).
 */
export function StaffProgressScreen({ report, exportBase, studentHref }: { report: StaffProgressReport; exportBase: string; studentHref: (slug: string) => string }) {
  const { t, lang } = useT();
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: "name", descending: false });
  const search = useNameSearch(report.students, ownName);
  const students = useMemo(() => sortStudents(search.shown, sort.key, sort.descending), [search.shown, sort]);
  const atRisk = report.students.filter((s) => s.atRisk);
  const overalls = report.students.map((s) => s.progress.overall).filter((n): n is number => n !== null);
  const classAverage = overalls.length ? Math.round(overalls.reduce((a, b) => a + b, 0) / overalls.length) : null;
  const held = report.lectures.filter((l) => l.held);
  // A lecture whose attendance is open is not held yet for the group; it is for each student who checked in.
  const live = report.lectures.filter((l) => l.open).length;
  const taskBins = binCounts(report.students.map((s) => s.progress.tasks.rate));
  const quizBins = binCounts(report.students.map((s) => s.progress.quizzes.rate));
  const rule = t("staffProgress.atRiskRule", { threshold: AT_RISK_BELOW_PERCENT });

  const sortBy = (key: SortKey) => setSort((s) => ({ key, descending: s.key === key ? !s.descending : key !== "name" }));

  return (
    <div className="progress-screen">
      <div className="progress-toolbar">
        <ul role="list" className="progress-stats">
          <li className="card progress-stat">
            <UsersIcon />
            <span className="progress-stat-label">{t("staffProgress.students")}</span>
            <span className="progress-stat-value">{report.students.length}</span>
          </li>
          <li className="card progress-stat">
            <CalendarIcon />
            <span className="progress-stat-label">{t("staffProgress.held")}</span>
            <span className="progress-stat-value">{report.heldLectures}</span>
            {live > 0 ? <span className="progress-stat-note">{t("staffProgress.inProgress", { n: live })}</span> : null}
          </li>
          <li className="card progress-stat">
            <BookIcon />
            <span className="progress-stat-label">{t("staffProgress.average")}</span>
            <span className="progress-stat-value" dir="ltr">
              {percent(classAverage, lang)}
            </span>
          </li>
          <li className="card progress-stat" data-tone={atRisk.length > 0 ? "attention" : undefined}>
            <AlertIcon />
            <span className="progress-stat-label">{t("staffProgress.atRisk")}</span>
            <span className="progress-stat-value">{atRisk.length}</span>
          </li>
        </ul>
        <p className="muted progress-rule">
          {report.heldLectures < AT_RISK_AFTER_HELD ? t("staffProgress.atRiskNotYet") : rule}
        </p>
        <div className="progress-exports" role="group" aria-label={t("staffProgress.export")}>
          {EXPORTS.map(([file, label]) => (
            <a key={file} href={`${exportBase}/${file}.csv`} className="btn btn-outline btn-sm" download>
              <ArrowDownIcon />
              {t(label)}
            </a>
          ))}
        </div>
      </div>

      {atRisk.length > 0 ? (
        <section className="card progress-risk" aria-labelledby="risk-title">
          <h2 id="risk-title" className="block-title">
            {t("staffProgress.atRisk")}: {atRisk.length}
          </h2>
          <ul role="list" className="progress-risk-list">
            {atRisk.map((s) => (
              <li key={s._id}>
                <Link to={studentHref(s.slug)} className="user-text">
                  {s.name}
                </Link>
                <AtRiskReasons reasons={s.atRiskReasons} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section className="progress-table-section">
        <h2 id="progress-table-title" className="block-title">
          {t("staffProgress.table.title")}
        </h2>
        <p className="muted progress-rule">{t("progress.rule")}</p>
        {report.students.length === 0 ? (
          <EmptyState icon={<UsersIcon />} title={t("staffProgress.empty.title")} body={t("staffProgress.empty.body")} />
        ) : (
          <NameSearch id="progress-search" controls="progress-table" search={search} />
        )}
        {report.students.length === 0 || students.length === 0 ? null : (
          <div id="progress-table" className="progress-table-wrap progress-cards" tabIndex={0} data-scroll-stop="" role="region" aria-labelledby="progress-table-title">
            <table className="data-table progress-table">
              <caption className="visually-hidden">{t("staffProgress.table.caption")}</caption>
              <thead>
                <tr>
                  {COLUMNS.map((c) => {
                    const active = sort.key === c.key;
                    return (
                      <th key={c.key} scope="col" aria-sort={active ? (sort.descending ? "descending" : "ascending") : undefined}>
                        <button type="button" className="sort-button" onClick={() => sortBy(c.key)} data-active={active || undefined} data-descending={(active && sort.descending) || undefined}>
                          {t(c.label)}
                          <ArrowDownIcon className="sort-icon" />
                          {active ? <span className="visually-hidden"> ({t(sort.descending ? "staffProgress.sorted.descending" : "staffProgress.sorted.ascending")})</span> : null}
                        </button>
                      </th>
                    );
                  })}
                </tr>
              </thead>
              <tbody>
                {students.map((s) => {
                  const p = s.progress;
                  return (
                    <tr key={s._id} data-at-risk={s.atRisk || undefined}>
                      <th scope="row">
                        <Link to={studentHref(s.slug)} className="user-text">
                          {s.name}
                        </Link>
                        {s.atRisk ? <span className="badge badge-amber progress-flag">{t("staffProgress.flag")}</span> : null}
                      </th>
                      <td data-label={t("staffProgress.col.attendance")}>
                        <span className="cell-main" dir="ltr">{percent(p.lectures.rate, lang)}</span>
                        <span className="cell-sub">{t("progress.ofTotal", { part: p.lectures.attended, whole: p.lectures.held })}</span>
                      </td>
                      <td data-label={t("staffProgress.col.tasks")}>
                        <span className="cell-main" dir="ltr">{percent(p.tasks.rate, lang)}</span>
                        <span className="cell-sub">{t("progress.submittedOf", { submitted: p.tasks.submitted, given: p.tasks.given })}</span>
                      </td>
                      <td data-label={t("staffProgress.col.quizzes")}>
                        <span className="cell-main" dir="ltr">{percent(p.quizzes.rate, lang)}</span>
                        <span className="cell-sub">{t("progress.takenOf", { taken: p.quizzes.taken, published: p.quizzes.published })}</span>
                      </td>
                      <td data-label={t("staffProgress.col.overall")}>
                        <strong className="cell-main" dir="ltr">{percent(p.overall, lang)}</strong>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <div className="progress-charts">
        <AttendanceChart lectures={held} live={live} />
        <ScoreDistribution tasks={taskBins} quizzes={quizBins} />
      </div>

      <section className="progress-table-section">
        <h2 id="progress-items-title" className="block-title">
          {t("staffProgress.items.title")}
        </h2>
        {report.tasks.length + report.quizzes.length === 0 ? (
          <p className="empty-inline">{t("staffProgress.items.none")}</p>
        ) : (
          <div className="progress-table-wrap progress-cards" tabIndex={0} data-scroll-stop="" role="region" aria-labelledby="progress-items-title">
            <table className="data-table progress-items-table">
              <thead className="visually-hidden-phone">
                <tr>
                  <th scope="col">{t("staffProgress.items.name")}</th>
                  <th scope="col">{t("staffProgress.items.kind")}</th>
                  <th scope="col">{t("staffProgress.items.handedIn")}</th>
                  <th scope="col">{t("staffProgress.items.average")}</th>
                </tr>
              </thead>
              <tbody>
                {report.tasks.map((task) => (
                  <tr key={task._id}>
                    <th scope="row" className="user-text">
                      {task.title}
                    </th>
                    <td data-label={t("staffProgress.items.kind")}>{t("staffProgress.items.task")}</td>
                    <td data-label={t("staffProgress.items.handedIn")}>
                      {t("staffProgress.items.ofStudents", { n: task.submitted, total: report.students.length })}
                      {task.due ? null : <span className="cell-sub">{t("staffProgress.items.notDue")}</span>}
                    </td>
                    <td data-label={t("staffProgress.items.average")}>
                      <span dir="ltr">{percent(task.averageScore, lang)}</span>
                    </td>
                  </tr>
                ))}
                {report.quizzes.map((quiz) => (
                  <tr key={quiz._id}>
                    <th scope="row" className="user-text">
                      {quiz.title}
                    </th>
                    <td data-label={t("staffProgress.items.kind")}>{t("staffProgress.items.quiz")}</td>
                    <td data-label={t("staffProgress.items.handedIn")}>
                      {t("staffProgress.items.ofStudents", { n: quiz.taken, total: report.students.length })}
                      {quiz.opened ? null : <span className="cell-sub">{t("staffProgress.items.notOpen")}</span>}
                    </td>
                    <td data-label={t("staffProgress.items.average")}>
                      <span dir="ltr">{percent(quiz.averageScore, lang)}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
