/**
 * The staff's two charts, in plain SVG (no chart library: two bar charts do not need one, and this module is
 * part of the progress tab's route chunk only). Each is a <figure> whose picture is described by its caption and
 * a table of the same numbers, so a screen reader reads the numbers, not the shapes. Bars run with the page's
 * direction: from the right in Arabic.
 */
import { useT } from "~/lib/i18n";

const SEGMENTS = ["present", "late", "excused", "absent"] as const;
type Segment = (typeof SEGMENTS)[number];
const SEGMENT_LABEL = {
  present: "attendance.status.present",
  late: "attendance.status.late",
  excused: "attendance.status.excused",
  absent: "staffProgress.chart.absent",
} as const;

export interface LectureBar {
  _id: string;
  title: string;
  present: number;
  late: number;
  excused: number;
  absent: number;
}

function Legend() {
  const { t } = useT();
  return (
    <ul role="list" className="chart-legend" aria-hidden="true">
      {SEGMENTS.map((s) => (
        <li key={s}>
          <span className="chart-swatch" data-segment={s} />
          {t(SEGMENT_LABEL[s])}
        </li>
      ))}
    </ul>
  );
}

/** One stacked bar per held lecture: present, late, excused, absent, out of the group's members. */
export function AttendanceChart({ lectures }: { lectures: LectureBar[] }) {
  const { t, dir } = useT();
  return (
    <figure className="card chart" aria-labelledby="attendance-chart-title">
      <figcaption>
        <h3 id="attendance-chart-title" className="chart-title">
          {t("staffProgress.chart.attendance")}
        </h3>
        <p className="chart-desc">{t("staffProgress.chart.attendanceDesc")}</p>
      </figcaption>
      {lectures.length === 0 ? (
        <p className="empty-inline">{t("staffProgress.chart.attendanceNone")}</p>
      ) : (
        <>
          <Legend />
          <ol role="list" className="attendance-bars">
            {lectures.map((l) => {
              const total = Math.max(1, SEGMENTS.reduce((sum, s) => sum + l[s], 0));
              let x = 0;
              return (
                <li key={l._id}>
                  <span className="visually-hidden">{t("staffProgress.chart.attendanceSummary", { title: l.title, present: l.present, late: l.late, excused: l.excused, absent: l.absent })}</span>
                  <span className="attendance-bar-label user-text" aria-hidden="true">
                    {l.title}
                  </span>
                  <svg className="attendance-bar" viewBox={`0 0 ${total} 1`} preserveAspectRatio="none" aria-hidden="true" focusable="false">
                    <g transform={dir === "rtl" ? `translate(${total} 0) scale(-1 1)` : undefined}>
                      {SEGMENTS.map((s) => {
                        const rect = <rect key={s} x={x} y={0} width={l[s]} height={1} data-segment={s} />;
                        x += l[s];
                        return rect;
                      })}
                    </g>
                  </svg>
                  <span className="attendance-bar-count" dir="ltr" aria-hidden="true">
                    {l.present + l.late}/{total}
                  </span>
                </li>
              );
            })}
          </ol>
          <details className="chart-data">
            <summary>{t("staffProgress.chart.table")}</summary>
            <div className="progress-table-wrap">
              <table className="data-table">
                <thead>
                  <tr>
                    <th scope="col">{t("staffProgress.chart.lecture")}</th>
                    {SEGMENTS.map((s) => (
                      <th key={s} scope="col">
                        {t(SEGMENT_LABEL[s])}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {lectures.map((l) => (
                    <tr key={l._id}>
                      <th scope="row" className="user-text">
                        {l.title}
                      </th>
                      {SEGMENTS.map((s: Segment) => (
                        <td key={s}>{l[s]}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </figure>
  );
}

/** Score ranges of the histogram: 70 % is the at-risk line, so it is a boundary. */
export const SCORE_BINS: [number, number][] = [
  [0, 59],
  [60, 69],
  [70, 79],
  [80, 89],
  [90, 100],
];

export function binCounts(values: (number | null)[]): number[] {
  const counts = SCORE_BINS.map(() => 0);
  for (const v of values) {
    if (v === null) continue;
    const i = SCORE_BINS.findIndex(([from, to]) => v >= from && v <= to);
    if (i >= 0) counts[i]! += 1;
  }
  return counts;
}

/** How many students have a task average and a quiz average in each range: two bars per range. */
export function ScoreDistribution({ tasks, quizzes }: { tasks: number[]; quizzes: number[] }) {
  const { t, dir } = useT();
  const max = Math.max(1, ...tasks, ...quizzes);
  const empty = tasks.every((n) => n === 0) && quizzes.every((n) => n === 0);
  const W = 320;
  const H = 150;
  const base = 126;
  const slot = W / SCORE_BINS.length;
  const bar = slot * 0.3;
  const height = (n: number) => (n / max) * (base - 16);
  const slotX = (i: number) => (dir === "rtl" ? W - (i + 1) * slot : i * slot);
  const range = (i: number) => t("staffProgress.chart.range", { from: SCORE_BINS[i]![0], to: SCORE_BINS[i]![1] });
  return (
    <figure className="card chart" aria-labelledby="scores-chart-title">
      <figcaption>
        <h3 id="scores-chart-title" className="chart-title">
          {t("staffProgress.chart.scores")}
        </h3>
        <p className="chart-desc">{t("staffProgress.chart.scoresDesc")}</p>
      </figcaption>
      {empty ? (
        <p className="empty-inline">{t("staffProgress.chart.scoresNone")}</p>
      ) : (
        <>
          <ul role="list" className="chart-legend" aria-hidden="true">
            <li>
              <span className="chart-swatch" data-series="tasks" />
              {t("progress.tasks")}
            </li>
            <li>
              <span className="chart-swatch" data-series="quizzes" />
              {t("progress.quizzes")}
            </li>
          </ul>
          <ul role="list" className="visually-hidden">
            {SCORE_BINS.map((_, i) => (
              <li key={i}>{t("staffProgress.chart.rangeSummary", { range: range(i), tasks: tasks[i]!, quizzes: quizzes[i]! })}</li>
            ))}
          </ul>
          <svg className="score-chart" viewBox={`0 0 ${W} ${H}`} aria-hidden="true" focusable="false">
            <line x1={0} x2={W} y1={base} y2={base} className="chart-axis" />
            {SCORE_BINS.map((_, i) => {
              const x = slotX(i);
              const first = dir === "rtl" ? quizzes : tasks;
              const second = dir === "rtl" ? tasks : quizzes;
              const mid = x + slot / 2;
              return (
                <g key={i}>
                  <rect x={mid - bar - 1} y={base - height(first[i]!)} width={bar} height={height(first[i]!)} data-series={dir === "rtl" ? "quizzes" : "tasks"} />
                  <rect x={mid + 1} y={base - height(second[i]!)} width={bar} height={height(second[i]!)} data-series={dir === "rtl" ? "tasks" : "quizzes"} />
                  {first[i] ? (
                    <text x={mid - bar / 2 - 1} y={base - height(first[i]!) - 4} className="chart-value">
                      {first[i]}
                    </text>
                  ) : null}
                  {second[i] ? (
                    <text x={mid + bar / 2 + 1} y={base - height(second[i]!) - 4} className="chart-value">
                      {second[i]}
                    </text>
                  ) : null}
                  <text x={mid} y={H - 6} className="chart-label" direction="ltr">
                    {SCORE_BINS[i]![0]}–{SCORE_BINS[i]![1]}
                  </text>
                </g>
              );
            })}
          </svg>
          <details className="chart-data">
            <summary>{t("staffProgress.chart.table")}</summary>
            <div className="progress-table-wrap">
              <table className="data-table">
                <thead>
                  <tr>
                    <th scope="col">{t("staffProgress.chart.students")}</th>
                    <th scope="col">{t("progress.tasks")}</th>
                    <th scope="col">{t("progress.quizzes")}</th>
                  </tr>
                </thead>
                <tbody>
                  {SCORE_BINS.map((_, i) => (
                    <tr key={i}>
                      <th scope="row">{range(i)}</th>
                      <td>{tasks[i]}</td>
                      <td>{quizzes[i]}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </figure>
  );
}
