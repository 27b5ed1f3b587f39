import type { ReactNode } from "react";
import { useT } from "~/lib/i18n";
import type { Progress } from "~/lib/progress";

/** A 0-100 bar with its number; "—" when there is nothing to count. */
function Meter({ label, value, detail }: { label: string; value: number | null; detail: ReactNode }) {
  const { t } = useT();
  return (
    <div className="progress-meter" data-empty={value === null || undefined}>
      <div className="progress-meter-head">
        <span className="progress-meter-label">{label}</span>
        <span className="progress-meter-value" dir="ltr">
          {value === null ? "—" : `${value}%`}
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

/**
 * One student's numbers in one group (app/lib/progress.ts): the overall, then attendance, tasks and quizzes, each
 * with its "x of y", and how they are counted. `heading` is the level of the card's title.
 */
export function ProgressSummary({ progress, title, heading = "h2", atRisk = false, id = "progress-title" }: { progress: Progress; title: string; heading?: "h2" | "h3"; atRisk?: boolean; id?: string }) {
  const { t } = useT();
  const H = heading;
  const { lectures, tasks, quizzes, overall } = progress;
  return (
    <section className="card progress-card" aria-labelledby={id}>
      <div className="progress-card-head">
        <H id={id} className="block-title">
          {title}
        </H>
        {atRisk ? <span className="badge badge-amber">{t("progress.atRisk")}</span> : null}
      </div>
      <div className="progress-overall" data-empty={overall === null || undefined}>
        <span className="progress-overall-value" dir="ltr">
          {overall === null ? "—" : `${overall}%`}
        </span>
        <span className="progress-overall-label">{overall === null ? t("progress.overallNone") : t("progress.overall")}</span>
      </div>
      {overall === null ? <p className="muted progress-empty">{t("progress.overallNoneBody")}</p> : null}
      <div className="progress-meters">
        <Meter label={t("progress.attendance")} value={lectures.rate} detail={t("progress.lecturesOf", { attended: lectures.attended, held: lectures.held })} />
        <Meter
          label={t("progress.tasks")}
          value={tasks.averageScore}
          detail={
            <>
              {t("progress.submittedOf", { submitted: tasks.submitted, given: tasks.given })}
              {" · "}
              {tasks.averageScore === null ? t("progress.noneGraded") : t("progress.averageOfGraded", { score: tasks.averageScore, graded: tasks.graded })}
            </>
          }
        />
        <Meter
          label={t("progress.quizzes")}
          value={quizzes.averageScore}
          detail={
            <>
              {t("progress.takenOf", { taken: quizzes.taken, published: quizzes.published })}
              {quizzes.averageScore === null ? null : ` · ${t("progress.average", { score: quizzes.averageScore })}`}
            </>
          }
        />
      </div>
      <details className="progress-explain">
        <summary>{t("progress.explain.title")}</summary>
        <ul>
          <li>{t("progress.explain.lectures")}</li>
          <li>{t("progress.explain.tasks")}</li>
          <li>{t("progress.explain.quizzes")}</li>
          <li>{t("progress.explain.overall")}</li>
        </ul>
      </details>
    </section>
  );
}
