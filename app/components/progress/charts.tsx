/**
 * The staff's two charts, in plain SVG (no chart library: two bar charts do not need one, and this module is
 * part of the progress tab's route chunk only). Each is a <figure> whose picture is described by its caption and
 * a table of the same numbers, so a screen reader reads the numbers, not the shapes. Bars run with the page's
 * direction: from the right in Arabic.
 */
import type { ReactNode } from "react";
import { useT } from "~/lib/i18n";

const SEGMENTS = ["present", "late", "excused", "absent"] as const;
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

/** The frame both charts share: a figure named by its caption, or a line saying there is nothing to draw yet. */
function ChartFigure({ id, title, desc, empty, children }: { id: string; title: string; desc: string; empty: string | null; children: ReactNode }) {
  return (
    <figure className="card chart" aria-labelledby={id}>
      <figcaption>
        <h3 id={id} className="chart-title">
          {title}
        </h3>
        <p className="chart-desc">{desc}</p>
      </figcaption>
      {empty === null ? children : <p className="empty-inline">{empty}</p>}
    </figure>
  );
}

/** The colour key (decoration: the numbers are also in the text alternative). */
function Legend({ items }: { items: { key: string; attr: "data-segment" | "data-series"; label: string }[] }) {
  return (
    <ul role="list" className="chart-legend" aria-hidden="true">
      {items.map((item) => (
        <li key={item.key}>
          <span className="chart-swatch" {...{ [item.attr]: item.key }} />
          {item.label}
        </li>
      ))}
    </ul>
  );
}

/** The chart's numbers as a table, behind "Show the numbers". */
function ChartData({ columns, rows }: { columns: string[]; rows: { key: string; label: string; cells: number[] }[] }) {
  const { t } = useT();
  return (
    <details className="chart-data">
      <summary>{t("staffProgress.chart.table")}</summary>
      <div className="progress-table-wrap">
        <table className="data-table">
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key}>
                <th scope="row" className="user-text">
                  {r.label}
                </th>
                {r.cells.map((n, i) => (
                  <td key={i}>{n}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

/** One stacked bar per held lecture: present, late, excused, absent, out of the group's members. */
export function AttendanceChart({ lectures, live = 0 }: { lectures: LectureBar[]; live?: number }) {
  const { t, dir } = useT();
  const labels = SEGMENTS.map((s) => t(SEGMENT_LABEL[s]));
  return (
    <ChartFigure
      id="attendance-chart-title"
      title={t("staffProgress.chart.attendance")}
      desc={t("staffProgress.chart.attendanceDesc")}
      empty={lectures.length === 0 ? (live > 0 ? t("staffProgress.chart.attendanceLive", { n: live }) : t("staffProgress.chart.attendanceNone")) : null}
    >
      <Legend items={SEGMENTS.map((s, i) => ({ key: s, attr: "data-segment", label: labels[i]! }))} />
      <ol role="list" className="attendance-bars">
        {lectures.map((l) => {
          const total = Math.max(1, SEGMENTS.reduce((sum, s) => sum + l[s], 0));
          const starts = SEGMENTS.map((_, i) => SEGMENTS.slice(0, i).reduce((sum, s) => sum + l[s], 0));
          return (
            <li key={l._id}>
              <span className="visually-hidden">{t("staffProgress.chart.attendanceSummary", { title: l.title, present: l.present, late: l.late, excused: l.excused, absent: l.absent })}</span>
              <span className="attendance-bar-label user-text" aria-hidden="true">
                {l.title}
              </span>
              <svg className="attendance-bar" viewBox={`0 0 ${total} 1`} preserveAspectRatio="none" aria-hidden="true" focusable="false">
                <g transform={dir === "rtl" ? `translate(${total} 0) scale(-1 1)` : undefined}>
                  {SEGMENTS.map((s, i) => (
                    <rect key={s} x={starts[i]} y={0} width={l[s]} height={1} data-segment={s} />
                  ))}
                </g>
              </svg>
              <span className="attendance-bar-count" dir="ltr" aria-hidden="true">
                {l.present + l.late}/{total}
              </span>
            </li>
          );
        })}
      </ol>
      <ChartData columns={[t("staffProgress.chart.lecture"), ...labels]} rows={lectures.map((l) => ({ key: l._id, label: l.title, cells: SEGMENTS.map((s) => l[s]) }))} />
    </ChartFigure>
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
  const W = 320;
  const H = 150;
  const base = 126;
  const slot = W / SCORE_BINS.length;
  const bar = slot * 0.3;
  const height = (n: number) => (n / max) * (base - 16);
  const range = (i: number) => t("staffProgress.chart.range", { from: SCORE_BINS[i]![0], to: SCORE_BINS[i]![1] });
  const series = [
    { key: "tasks", label: t("progress.tasks"), values: tasks },
    { key: "quizzes", label: t("progress.quizzes"), values: quizzes },
  ];
  // Ranges and the two bars in each run with the page: from the right in Arabic.
  const drawn = dir === "rtl" ? [...series].reverse() : series;
  const slotMid = (i: number) => (dir === "rtl" ? W - (i + 0.5) * slot : (i + 0.5) * slot);
  return (
    <ChartFigure
      id="scores-chart-title"
      title={t("staffProgress.chart.scores")}
      desc={t("staffProgress.chart.scoresDesc")}
      empty={[...tasks, ...quizzes].every((n) => n === 0) ? t("staffProgress.chart.scoresNone") : null}
    >
      <Legend items={series.map((s) => ({ key: s.key, attr: "data-series", label: s.label }))} />
      <ul role="list" className="visually-hidden">
        {SCORE_BINS.map((_, i) => (
          <li key={i}>{t("staffProgress.chart.rangeSummary", { range: range(i), tasks: tasks[i]!, quizzes: quizzes[i]! })}</li>
        ))}
      </ul>
      <svg className="score-chart" viewBox={`0 0 ${W} ${H}`} aria-hidden="true" focusable="false">
        <line x1={0} x2={W} y1={base} y2={base} className="chart-axis" />
        {SCORE_BINS.map(([from, to], i) => {
          const mid = slotMid(i);
          return (
            <g key={i}>
              {drawn.map((s, side) => {
                const n = s.values[i]!;
                const x = side === 0 ? mid - bar - 1 : mid + 1;
                return (
                  <g key={s.key}>
                    <rect x={x} y={base - height(n)} width={bar} height={height(n)} data-series={s.key} />
                    {n ? (
                      <text x={x + bar / 2} y={base - height(n) - 4} className="chart-value">
                        {n}
                      </text>
                    ) : null}
                  </g>
                );
              })}
              <text x={mid} y={H - 6} className="chart-label" direction="ltr">
                {from}–{to}
              </text>
            </g>
          );
        })}
      </svg>
      <ChartData columns={[t("staffProgress.chart.percent"), ...series.map((s) => s.label)]} rows={SCORE_BINS.map((_, i) => ({ key: String(i), label: range(i), cells: series.map((s) => s.values[i]!) }))} />
    </ChartFigure>
  );
}
