import type { ReactNode } from "react";
import { formatPercent, useT } from "~/lib/i18n";
import type { AtRiskReason, Progress } from "~/lib/progress";

/** A 0-100 bar with its number; "—" when there is nothing to count. */
function Meter({ label, value, detail }: { label: string; value: number | null; detail: ReactNode }) {
  const { t, lang } = useT();
  return (
    <div className="progress-meter" data-empty={value === null || undefined}>
      <div className="progress-meter-head">
        <span className="progress-meter-label">{label}</span>
        <span className="progress-meter-value" dir="ltr">
          {value === null ? "—" : formatPercent(value, lang)}
        </span>
      </div>
      {value === null ? (
        <div className="progress-track" aria-hidden="true" />
      ) : (
        <div
          className="progress-track"
          role="meter"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={value}
          aria-label={t("progress.meter", { label, value })}
        >
          <span className="progress-fill" style={{ inlineSize: `${value}%` }} />
        </div>
      )}
      <p className="progress-meter-detail">{detail}</p>
    </div>
  );
}

/** Why a student needs support, one short item per reason ("Attendance 50%"), for staff. */
export function AtRiskReasons({ reasons }: { reasons: AtRiskReason[] }) {
  const { t } = useT();
  if (reasons.length === 0) return null;
  return (
    <ul role="list" className="risk-reasons">
      {reasons.map((r) => (
        <li key={r.kind} data-reason={r.kind}>
          {t(r.kind === "overall" ? "progress.reason.overall" : "progress.reason.attendance", { percent: r.percent })}
        </li>
      ))}
    </ul>
  );
}

/**
 * One student's numbers in one group (app/lib/progress.ts): the overall, the one sentence that says how it is
 * counted, then attendance, tasks and quizzes, each with its percentage (the three the overall averages) and its
 * "x of y". `heading` is the level of the card's title; staff pass `reasons` to show why a student needs support.
 */
export function ProgressSummary({
  progress,
  title,
  heading = "h2",
  reasons = [],
  id = "progress-title",
  forStaff = false,
  ended = false,
}: {
  progress: Progress;
  title: string;
  heading?: "h2" | "h3";
  reasons?: AtRiskReason[];
  id?: string;
  /** Shown to staff: a hand-in not counted yet may be graded and held (ADR 0021), which its student cannot know. */
  forStaff?: boolean;
  /** The course has ended (archived): a quiz that had not closed is open no more, and counts nowhere. */
  ended?: boolean;
}) {
  const { t, lang } = useT();
  const H = heading;
  const { lectures, tasks, quizzes, overall } = progress;
  const waiting = tasks.submitted - tasks.graded;
  const stillOpen = quizzes.published - quizzes.counted;
  return (
    <section className="card progress-card" aria-labelledby={id}>
      <div className="progress-card-head">
        <H id={id} className="block-title">
          {title}
        </H>
        {reasons.length > 0 ? (
          <div className="progress-card-risk">
            <span className="badge badge-amber">{t("progress.atRisk")}</span>
            <AtRiskReasons reasons={reasons} />
          </div>
        ) : null}
      </div>
      <div className="progress-overall" data-empty={overall === null || undefined}>
        <span className="progress-overall-value" dir="ltr">
          {overall === null ? "—" : formatPercent(overall, lang)}
        </span>
        <span className="progress-overall-label">{overall === null ? t("progress.overallNone") : t("progress.overall")}</span>
      </div>
      {overall === null ? <p className="muted progress-empty">{t("progress.overallNoneBody")}</p> : null}
      <div className="progress-meters">
        <Meter label={t("progress.attendance")} value={lectures.rate} detail={t("progress.lecturesOf", { attended: lectures.attended, held: lectures.held })} />
        <Meter
          label={t("progress.tasks")}
          value={tasks.rate}
          detail={
            <>
              {t("progress.submittedOf", { submitted: tasks.submitted, given: tasks.given })}
              {waiting > 0 ? (
                <>
                  {" · "}
                  {t(forStaff ? "progress.awaitingGradeOrRelease" : "progress.awaitingGrade", { count: waiting })}
                </>
              ) : null}
            </>
          }
        />
        <Meter
          label={t("progress.quizzes")}
          value={quizzes.rate}
          detail={
            <>
              {t("progress.takenOf", { taken: quizzes.taken, published: quizzes.published })}
              {stillOpen > 0 ? (
                <>
                  {" · "}
                  {t(ended ? "progress.closedByEnd" : "progress.stillOpen", { count: stillOpen })}
                </>
              ) : null}
            </>
          }
        />
      </div>
      <p className="progress-rule-text">{t("progress.rule")}</p>
    </section>
  );
}
