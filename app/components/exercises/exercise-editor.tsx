import { useFetcher } from "@remix-run/react";
import { Fragment, useMemo, useRef, useState } from "react";
import { useT } from "~/lib/i18n";
import { EXERCISE_LIMITS } from "~/lib/exercise-rules";
import type { FailureLike } from "~/lib/group-errors";
import type { CodeTest, RunReport } from "../../../worker/sandbox/types";
import { CodeField } from "./code-field";
import { RerunHandIns } from "./rerun-hand-ins";
import { TestReport } from "./test-report";
import { rowHasProblem, rowsToTests, TestsEditor, toTestRow, type TestRow } from "./tests-editor";
import { RefusalText } from "~/components/form-field";

/** What an expected value may look like (the tests' hint). */
const JSON_EXAMPLES = ["5", '"five"', "[1, 2]", '{"a": 1}'];

/** What staff get of an exercise: everything, hidden tests and the reference included. */
export interface StaffExercise {
  starterCode: string;
  tests: CodeTest[];
  timeMs: number;
  memoryMb: number;
  referenceSolution: string;
  published: boolean;
  verifiedAt: string | null;
  /** Students' code hand-ins the tests graded: what "run the tests again" runs. */
  handIns: number;
}

type Reply = (
  | {
      ok: true;
      intent: string;
      report?: RunReport;
      reference?: RunReport;
      published?: boolean;
    }
  | (FailureLike & { ok: false; intent: string })
) & { target?: string };

/**
 * The staff's exercise editor on a task's edit page: starter code, reference solution, the tests (name, call,
 * expected JSON, points, hidden), limits, and "run against the reference solution". Publishing is offered only once
 * the reference passed every test of exactly these values, and the server checks again whatever the page says.
 */
export function ExerciseEditor({ exercise }: { exercise: StaffExercise }) {
  const { t } = useT();
  const fetcher = useFetcher<Reply>();
  const [starter, setStarter] = useState(exercise.starterCode);
  const [reference, setReference] = useState(exercise.referenceSolution);
  const [rows, setRows] = useState<TestRow[]>(() => (exercise.tests.length ? exercise.tests.map(toTestRow) : [toTestRow()]));
  const [timeMs, setTimeMs] = useState(String(exercise.timeMs));
  const [memoryMb, setMemoryMb] = useState(String(exercise.memoryMb));
  const [checked, setChecked] = useState(false);
  /** The values (as JSON) of the last run that passed every test. */
  const [passedFor, setPassedFor] = useState<string | null>(null);

  const values = useMemo(
    () => ({
      language: "javascript",
      starterCode: starter,
      referenceSolution: reference,
      timeMs: Number(timeMs),
      memoryMb: Number(memoryMb),
      tests: rowsToTests(rows),
    }),
    [starter, reference, timeMs, memoryMb, rows]
  );
  const signature = JSON.stringify(values);
  // The stored exercise passed when it was last saved (verifiedAt), and nothing has been edited since.
  const [savedSignature] = useState(signature);
  /** The values as last saved (at first, as loaded): a rerun runs those, so other values on screen must be saved first. */
  const [storedSignature, setStoredSignature] = useState(signature);
  const sentSignature = useRef(signature);
  const passed = passedFor === signature || (exercise.verifiedAt !== null && signature === savedSignature);

  const reply = fetcher.data;
  const busy = fetcher.state !== "idle";
  const hasProblems = rows.some(rowHasProblem) || reference.trim() === "";
  const report = reply?.ok ? reply.report ?? reply.reference : undefined;
  const published = reply?.ok && reply.intent === "exercise-save" && reply.published !== undefined ? reply.published : exercise.published;

  // A report for these exact values that passed every test unlocks publishing.
  const [seen, setSeen] = useState<Reply | undefined>(undefined);
  if (reply !== seen) {
    setSeen(reply);
    if (reply?.ok && report && report.results.length > 0 && report.results.every((r) => r.passed)) setPassedFor(signature);
    if (reply?.ok && reply.intent === "exercise-save") setStoredSignature(sentSignature.current);
  }

  const send = (intent: "exercise-check" | "exercise-save", publish: boolean) => {
    setChecked(true);
    if (hasProblems) return;
    sentSignature.current = signature;
    fetcher.submit({ intent, exercise: JSON.stringify({ ...values, published: publish }) }, { method: "post" });
  };

  const serverProblem = reply && !reply.ok ? (reply.fields?.referenceSolution ? t("exerciseEditor.error.reference") : reply.fields ? t("exerciseEditor.error.fields") : reply.message) : null;
  const calls = Object.fromEntries(values.tests.map((v) => [v.name, v.call]));

  return (
    <section id="exercise" className="card form-card exercise-editor" aria-labelledby="exercise-editor-title">
      <div className="task-form-head">
        <h2 id="exercise-editor-title" className="task-card-title">
          {t("exerciseEditor.title")}
        </h2>
        <span className="badge" data-published={published}>
          {t(published ? "exerciseEditor.published" : "exerciseEditor.draft")}
        </span>
      </div>
      <p className="muted">{t("exerciseEditor.intro")}</p>

      <div className="field">
        <h3 id="ex-starter-label" className="exercise-field-title">
          {t("exerciseEditor.starter")}
        </h3>
        <p id="ex-starter-hint" className="field-hint">
          {t("exerciseEditor.starterHint")}
        </p>
        <CodeField id="ex-starter" value={starter} onChange={setStarter} labelledBy="ex-starter-label" describedBy="ex-starter-hint" rows={6} />
      </div>

      <div className="field">
        <h3 id="ex-reference-label" className="exercise-field-title">
          {t("exerciseEditor.reference")}
        </h3>
        <p id="ex-reference-hint" className="field-hint">
          {t("exerciseEditor.referenceHint")}
        </p>
        <CodeField id="ex-reference" value={reference} onChange={setReference} labelledBy="ex-reference-label" describedBy="ex-reference-hint" rows={8} invalid={checked && reference.trim() === ""} />
        {checked && reference.trim() === "" ? <p className="field-error">{t("exerciseEditor.error.noReference")}</p> : null}
      </div>

      <h3 className="exercise-field-title">{t("exerciseEditor.tests")}</h3>
      <p className="field-hint">
        {t("exerciseEditor.testsHint")}{" "}
        {/* Each example is code, left to right in an isolate of its own, so an Arabic sentence does not reorder it. */}
        {JSON_EXAMPLES.map((example, i) => (
          <Fragment key={example}>
            {i > 0 ? t("exerciseEditor.examplesSeparator") : null}
            <code dir="ltr">{example}</code>
          </Fragment>
        ))}
      </p>
      <TestsEditor rows={rows} setRows={setRows} checked={checked} />

      <div className="field-row">
        <div className="field">
          <label htmlFor="ex-time">{t("exerciseEditor.timeMs")}</label>
          <input
            id="ex-time"
            type="number"
            min={EXERCISE_LIMITS.timeMs.min}
            max={EXERCISE_LIMITS.timeMs.max}
            step={100}
            className="input-narrow"
            value={timeMs}
            onChange={(e) => setTimeMs(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="ex-memory">{t("exerciseEditor.memoryMb")}</label>
          <input
            id="ex-memory"
            type="number"
            min={EXERCISE_LIMITS.memoryMb.min}
            max={EXERCISE_LIMITS.memoryMb.max}
            className="input-narrow"
            value={memoryMb}
            onChange={(e) => setMemoryMb(e.target.value)}
          />
        </div>
      </div>

      <div className="exercise-editor-result" aria-live="polite">
        {checked && hasProblems ? <p className="form-error">{t("exerciseEditor.error.fields")}</p> : null}
        {serverProblem ? (
          <RefusalText className="form-error" attempt={reply}>
            {serverProblem}
          </RefusalText>
        ) : null}
        {reply?.ok && reply.intent === "exercise-save" ? <p className="form-success">{t(published ? "exerciseEditor.savedPublished" : "exerciseEditor.saved")}</p> : null}
        {report ? <TestReport report={report} calls={calls} label={t("exerciseEditor.referenceReport")} /> : null}
      </div>

      <div className="form-actions">
        <button type="button" className="btn btn-outline" onClick={() => send("exercise-check", false)} disabled={busy}>
          {busy && fetcher.formData?.get("intent") === "exercise-check" ? t("exerciseEditor.checking") : t("exerciseEditor.check")}
        </button>
        {/* Publishing (or saving a published exercise) needs a passing run of these values; the other button keeps
            it from students (saves a draft, or unpublishes). */}
        <button type="button" className="btn btn-primary" onClick={() => send("exercise-save", true)} disabled={busy || !passed} aria-describedby="ex-publish-hint">
          {t(published ? "exerciseEditor.saveChanges" : "exerciseEditor.publish")}
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => send("exercise-save", false)} disabled={busy}>
          {t(published ? "exerciseEditor.unpublish" : "exerciseEditor.saveDraft")}
        </button>
      </div>
      <p id="ex-publish-hint" className="field-hint">
        {t(passed ? "exerciseEditor.publishReady" : "exerciseEditor.publishHint")}
      </p>
      {exercise.handIns > 0 ? <RerunHandIns count={exercise.handIns} blocked={signature !== storedSignature ? "unsaved" : !published ? "unpublished" : null} /> : null}
    </section>
  );
}
