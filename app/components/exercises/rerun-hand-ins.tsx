import { useFetcher } from "@remix-run/react";
import { useEffect, useId, useState } from "react";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { failureText, type FailureLike } from "~/lib/group-errors";
import { useT } from "~/lib/i18n";

type Reply = ({ ok: true; intent: string; ran: number; changed: number } | (FailureLike & { ok: false; intent: string })) & { target?: string };

/**
 * The exercise editor's "run the tests again on every hand-in": after the tests changed, each student's code handed
 * in is graded again by the tests as they are saved (POST intent=exercise-rerun; the server keeps staff grades and
 * tells students whose grade changed). Asked in a dialog, since it changes students' grades; not offered while the
 * editor holds unsaved changes, which the run would not use, nor while the exercise is a draft (its tests may be
 * ones the reference solution fails).
 */
export function RerunHandIns({ count, blocked }: { count: number; blocked: "unsaved" | "unpublished" | null }) {
  const { t } = useT();
  const uid = useId();
  const fetcher = useFetcher<Reply>();
  const [asking, setAsking] = useState(false);
  const busy = fetcher.state !== "idle";
  const reply = fetcher.data;
  const failure = reply && !reply.ok ? reply : null;
  // The run answered: its dialog closes on success, and stays open with the refusal otherwise.
  useEffect(() => {
    if (fetcher.state === "idle" && reply?.ok) setAsking(false);
  }, [fetcher.state, reply]);

  return (
    <section className="exercise-rerun" aria-labelledby={`${uid}-title`}>
      <h3 id={`${uid}-title`} className="exercise-field-title">
        {t("exerciseEditor.rerun.title")}
      </h3>
      <p id={`${uid}-hint`} className="field-hint">
        {t("exerciseEditor.rerun.hint", { n: count })}
      </p>
      <div className="form-actions">
        <button type="button" className="btn btn-outline" onClick={() => setAsking(true)} disabled={busy || blocked !== null} aria-describedby={`${uid}-hint${blocked ? ` ${uid}-blocked` : ""}`}>
          {t("exerciseEditor.rerun.button", { n: count })}
        </button>
      </div>
      {blocked ? (
        <p id={`${uid}-blocked`} className="field-hint">
          {t(blocked === "unsaved" ? "exerciseEditor.rerun.unsaved" : "exerciseEditor.rerun.unpublished")}
        </p>
      ) : null}
      {/* Always in the page, so a screen reader hears the text that arrives in it; gone again once the tests are edited. */}
      <p className="form-success rerun-status" role="status">
        {reply?.ok && !blocked ? t("exerciseEditor.rerun.done", { n: reply.ran, changed: reply.changed }) : null}
      </p>
      <ConfirmDialog
        open={asking}
        onClose={() => setAsking(false)}
        title={t("exerciseEditor.rerun.confirmTitle", { n: count })}
        confirmLabel={t("exerciseEditor.rerun.confirm")}
        busyLabel={t("exerciseEditor.rerun.busy")}
        busy={busy}
        error={failure ? refusalText(t, failure) : null}
        onConfirm={() => fetcher.submit({ intent: "exercise-rerun" }, { method: "post" })}
      >
        <p>{t("exerciseEditor.rerun.confirmBody")}</p>
      </ConfirmDialog>
    </section>
  );
}

/** A refused run in the reader's words: its own three refusals, else the shared ones (rights, an ended course). */
function refusalText(t: ReturnType<typeof useT>["t"], failure: FailureLike): string {
  if (failure.code === "no_tests") return t("exerciseEditor.rerun.noTests");
  if (failure.code === "not_published") return t("exerciseEditor.rerun.unpublished");
  if (failure.code === "rerun_running") return t("exerciseEditor.rerun.running");
  if (failure.code === "too_many_hand_ins") return t("exerciseEditor.rerun.tooMany", { n: Number(failure.fields?.n), max: Number(failure.fields?.max) });
  return failureText(t, failure);
}
