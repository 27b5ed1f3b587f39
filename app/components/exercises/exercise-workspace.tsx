import { useRevalidator } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { useHydrated } from "~/hooks/use-hydrated";
import { useT } from "~/lib/i18n";
import type { RunReport } from "../../../worker/sandbox/types";
import { CodeField } from "./code-field";
import { runInBrowser, stopRunner } from "./run-in-browser";
import { TestReport } from "./test-report";
import type { StudentExercise } from "./types";
import { useDraft } from "./use-draft";

type RunState = { phase: "idle" } | { phase: "running" } | { phase: "done"; report: RunReport } | { phase: "stopped" } | { phase: "failed" };
type HandIn = { phase: "idle" } | { phase: "sending" } | { phase: "done"; report: RunReport; score: number; max: number } | { phase: "error"; message: string };

const ERROR_KEYS = {
  rate_limited: "exercises.error.rate",
  code_busy: "exercises.error.busy",
  conflict: "exercises.error.conflict",
} as const;

/**
 * A student's code exercise: the visible tests, the editor with its draft saved as they type, a run of the visible
 * tests in the browser (a Web Worker, so a loop never freezes the page), and the hand-in, graded on the server by
 * every test. Without JavaScript the editor is a textarea and "Hand in" posts the form to the page.
 */
/** `ended`: the course has ended; the code can still be run in the browser, and is kept there, not on the server. */
export function ExerciseWorkspace({ taskId, exercise, saveUrl, maxScore, canSubmit, ended = false }: { taskId: string; exercise: StudentExercise; saveUrl: string; maxScore: number; canSubmit: boolean; ended?: boolean }) {
  const { t } = useT();
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const initial = exercise.draft?.code ?? exercise.submission?.code ?? exercise.starterCode;
  const draft = useDraft(taskId, ended ? null : saveUrl, initial);
  const [run, setRun] = useState<RunState>({ phase: "idle" });
  const [handIn, setHandIn] = useState<HandIn>({ phase: "idle" });
  const [resetting, setResetting] = useState(false);
  const [confirmUnchanged, setConfirmUnchanged] = useState(false);
  const sending = useRef(false);
  const calls = useMemo(() => Object.fromEntries(exercise.visibleTests.map((v) => [v.name, v.call])), [exercise.visibleTests]);
  const hiddenPoints = exercise.hiddenTests.reduce((sum, h) => sum + h.points, 0);

  useEffect(() => stopRunner, []);

  const runVisible = async () => {
    setRun({ phase: "running" });
    const tests = exercise.visibleTests.map((v) => ({ ...v, hidden: false }));
    const result = await runInBrowser(draft.code, tests, {
      timeMs: exercise.timeMs,
      memoryMb: exercise.memoryMb,
    });
    setRun(result.ok ? { phase: "done", report: result.report } : { phase: result.reason });
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (handIn.phase === "sending") return;
    // The starter code as it came, handed in by a click meant for "Run": ask first (a hand-in is graded and counts).
    if (unchanged(draft.code, exercise.starterCode)) setConfirmUnchanged(true);
    else void send(draft.code);
  };

  const send = async (code: string) => {
    // One hand-in at a time, however it was asked for (the form, the dialog's button pressed twice).
    if (sending.current) return;
    sending.current = true;
    setHandIn({ phase: "sending" });
    try {
      const res = await fetch(saveUrl, {
        method: "POST",
        body: new URLSearchParams({ intent: "submit", code }),
        headers: { accept: "application/json" },
        credentials: "same-origin",
      });
      const body = (await res.json().catch(() => ({}))) as {
        code?: string;
        message?: string;
        report?: RunReport;
        score?: number;
        maxScore?: number;
      };
      if (res.ok && body.report) {
        setHandIn({
          phase: "done",
          report: body.report,
          score: body.score ?? 0,
          max: body.maxScore ?? maxScore,
        });
        draft.markSaved(code);
        revalidator.revalidate();
        return;
      }
      const key = body.code && body.code in ERROR_KEYS ? ERROR_KEYS[body.code as keyof typeof ERROR_KEYS] : null;
      setHandIn({
        phase: "error",
        message: key ? t(key) : (body.message ?? t("exercises.error.generic")),
      });
    } catch {
      setHandIn({ phase: "error", message: t("exercises.error.offline") });
    } finally {
      sending.current = false;
    }
  };

  const saveText =
    draft.status === "unchanged"
      ? ""
      : draft.status === "saved"
      ? t("exercises.save.saved")
      : draft.status === "saving"
      ? t("exercises.save.saving")
      : draft.status === "offline"
      ? t("exercises.save.offline")
      : `${t("exercises.save.error")} ${draft.problem === "too-long" ? t("exercises.save.tooLong") : draft.problem === "signed-out" ? t("exercises.save.signedOut") : draft.problem}`;
  const last = handIn.phase === "done" ? null : exercise.submission?.report;

  return (
    <section className="exercise" aria-labelledby="exercise-code-label">
      <div className="card exercise-tests">
        <h2 className="task-card-title">{t("exercises.tests.title")}</h2>
        <p className="muted">{t(ended ? "exercises.tests.introEnded" : "exercises.tests.intro")}</p>
        <ol className="visible-tests" role="list">
          {exercise.visibleTests.map((v) => (
            <li key={v.name}>
              <span className="user-text" dir="auto">
                {v.name}
              </span>
              <code dir="ltr">
                {v.call} → {v.expected}
              </code>
              <span className="test-points">{t("exercises.points", { n: v.points })}</span>
            </li>
          ))}
        </ol>
        {exercise.hiddenTests.length > 0 ? (
          <p className="hidden-tests-note">
            {t("exercises.tests.hidden", {
              n: exercise.hiddenTests.length,
              points: hiddenPoints,
            })}
          </p>
        ) : null}
        <p className="muted exercise-limits">
          {t("exercises.limits", {
            ms: exercise.timeMs,
            mb: exercise.memoryMb,
          })}
        </p>
      </div>

      <form method="post" className="card exercise-workspace" onSubmit={submit}>
        <input type="hidden" name="intent" value="submit-code" />
        <div className="exercise-toolbar">
          <h2 id="exercise-code-label" className="task-card-title">
            {t("exercises.editor.label")}
          </h2>
          {hydrated ? (
            <p className="exercise-save" data-status={draft.status} role="status" aria-live="polite">
              {saveText}
            </p>
          ) : null}
        </div>
        <p id="exercise-code-hint" className="field-hint">
          {t(ended ? "exercises.editor.hintEnded" : "exercises.editor.hint")}
        </p>
        <CodeField id="exercise-code" name="code" value={draft.code} onChange={draft.change} labelledBy="exercise-code-label" describedBy="exercise-code-hint" rows={14} />
        <div className="exercise-actions">
          {hydrated ? (
            <button type="button" className="btn btn-outline" onClick={() => void runVisible()} disabled={run.phase === "running"} aria-describedby="exercise-run-status">
              {run.phase === "running" ? t("exercises.running") : t("exercises.run")}
            </button>
          ) : null}
          {canSubmit ? (
            // Not `disabled` while sending: focus stays on it (a dialog that asked first gives focus back to it).
            <button type="submit" className="btn btn-primary" aria-disabled={handIn.phase === "sending" || undefined}>
              {handIn.phase === "sending" ? t("exercises.submitting") : t(exercise.submission ? "exercises.submitAgain" : "exercises.submit")}
            </button>
          ) : null}
          {hydrated && draft.code !== exercise.starterCode ? (
            <button type="button" className="btn btn-ghost exercise-reset" onClick={() => setResetting(true)}>
              {t("exercises.reset")}
            </button>
          ) : null}
        </div>
        <div id="exercise-run-status" className="exercise-run" aria-live="polite">
          {run.phase === "done" ? <TestReport report={run.report} calls={calls} label={t("exercises.run.title")} /> : null}
          {run.phase === "stopped" ? <p className="form-error">{t("exercises.run.stopped")}</p> : null}
          {run.phase === "failed" ? <p className="form-error">{t("exercises.run.failed")}</p> : null}
        </div>
        <div className="exercise-handin" aria-live="polite">
          {handIn.phase === "done" ? (
            <>
              <p className="form-success">
                {t("exercises.submit.done", {
                  score: handIn.score,
                  max: handIn.max,
                })}
              </p>
              <TestReport report={handIn.report} calls={calls} label={t("exercises.report.title")} />
            </>
          ) : null}
          {handIn.phase === "error" ? (
            <p className="form-error" role="alert">
              {handIn.message}
            </p>
          ) : null}
        </div>
      </form>

      {last ? (
        <div className="card exercise-last">
          <h2 className="task-card-title">{t("exercises.report.title")}</h2>
          <TestReport report={last} calls={calls} label={t("exercises.report.title")} />
        </div>
      ) : null}

      <form
        id="exercise-reset"
        hidden
        onSubmit={(e) => {
          e.preventDefault();
          setResetting(false);
          draft.change(exercise.starterCode);
        }}
      />
      <form
        id="exercise-unchanged"
        hidden
        onSubmit={(e) => {
          e.preventDefault();
          if (!confirmUnchanged) return;
          setConfirmUnchanged(false);
          void send(draft.code);
        }}
      />
      <ConfirmDialog open={confirmUnchanged} onClose={() => setConfirmUnchanged(false)} title={t("exercises.unchanged.title")} confirmLabel={t("exercises.unchanged.confirm")} form="exercise-unchanged">
        <p>{t("exercises.unchanged.body")}</p>
      </ConfirmDialog>
      <ConfirmDialog open={resetting} onClose={() => setResetting(false)} title={t("exercises.reset")} confirmLabel={t("exercises.reset.confirm")} form="exercise-reset">
        <p>{t("exercises.reset.body")}</p>
      </ConfirmDialog>
    </section>
  );
}

/** The code is the starter code still: the same but for spaces at the ends of lines and of the whole. */
function unchanged(code: string, starter: string): boolean {
  const tidy = (text: string) => text.replace(/[ \t]+$/gm, "").trim();
  return tidy(code) === tidy(starter);
}
