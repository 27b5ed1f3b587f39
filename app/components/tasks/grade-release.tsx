import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { ConfirmDialog, useCloseWhenDone } from "~/components/confirm-dialog";
import type { MessageKey } from "~/i18n/en";
import { useT } from "~/lib/i18n";
import { failureText } from "~/lib/group-errors";

type ReleaseResult = { ok: true; intent: string; released: number } | { ok: false; intent: string; code: string; message: string };

/** A refused release in the reader's language (the service's English only for a failure nobody foresaw). */
const REFUSALS: Record<string, MessageKey> = { grades_not_held: "grader.release.notHeld" };

/**
 * Above the grader of a task whose grades are held (ADR 0021): says that students see "handed in" until release, and
 * releases every grade at once (the students are notified then). After a release it says how many went out. Rendered
 * nothing for a task that holds nothing and has released nothing in this visit. While a hand-in that changed since it
 * was graded waits (`changed`), it says so and the release waits too: no grade goes out for an older version.
 */
export function GradeRelease({ held, graded, changed = 0 }: { held: boolean; graded: number; changed?: number }) {
  const { t } = useT();
  const fetcher = useFetcher<ReleaseResult>();
  const done = fetcher.data?.ok === true && fetcher.data.intent === "release" ? fetcher.data.released : null;
  const failure = fetcher.data?.ok === false && fetcher.data.intent === "release" ? fetcher.data : null;
  // A hand-in changed since it was graded: the loader's count (reloaded after the refusal) says it above.
  const failed = failure && failure.code !== "changed_since_graded" ? (REFUSALS[failure.code] ? t(REFUSALS[failure.code]!) : failureText(t, failure)) : null;
  const said = useRef<HTMLParagraphElement>(null);
  const [asking, setAsking] = useState(false);
  const busy = fetcher.state !== "idle";
  // The answer came (released, or refused and said above): the question is over.
  useCloseWhenDone(busy, () => setAsking(false));
  // Once the page's data says nothing is held any more (the release's reload), the sentence that replaced the button
  // takes the focus the button had.
  useEffect(() => {
    if (done !== null && !held) said.current?.focus();
  }, [done, held]);

  if (done !== null && !held) {
    return (
      <p className="grade-release grade-release-done" role="status" tabIndex={-1} ref={said}>
        {t("grader.release.done", { n: done })}
      </p>
    );
  }
  if (!held) return null;
  const release = () => fetcher.submit({ intent: "release" }, { method: "post" });
  return (
    <section className="grade-release" aria-labelledby="grade-release-title">
      <div>
        <h2 id="grade-release-title" className="grade-release-title">
          {t("grader.release.title")}
        </h2>
        {changed > 0 ? (
          <p id="grade-release-why" className="grade-release-text grade-release-changed">
            {t("grader.release.changed", { n: changed })}
          </p>
        ) : (
          <p className="grade-release-text">{t("grader.release.text", { n: graded })}</p>
        )}
        {failed ? (
          <p className="field-error" role="alert">
            {failed}
          </p>
        ) : null}
      </div>
      {/* Releasing tells every graded student at once and cannot be taken back: it is asked for first. */}
      <button
        type="button"
        className="btn btn-primary"
        disabled={busy || graded === 0 || changed > 0}
        aria-describedby={changed > 0 ? "grade-release-title grade-release-why" : "grade-release-title"}
        onClick={() => setAsking(true)}
      >
        {busy ? t("grader.release.busy") : t("grader.release.button", { n: graded })}
      </button>
      <ConfirmDialog
        open={asking}
        title={t("grader.release.confirmTitle", { n: graded })}
        confirmLabel={t("grader.release.button", { n: graded })}
        busyLabel={t("grader.release.busy")}
        busy={busy}
        onConfirm={release}
        onClose={() => setAsking(false)}
      >
        <p>{t("grader.release.confirmBody", { n: graded })}</p>
      </ConfirmDialog>
    </section>
  );
}
