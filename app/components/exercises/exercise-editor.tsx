import { useFetcher } from "@remix-run/react";
import { useMemo, useRef, useState } from "react";
import { useT } from "~/lib/i18n";
import { EXERCISE_LIMITS } from "~/lib/exercise-schemas";
import type { FailureLike } from "~/lib/group-errors";
import type { CodeTest, RunReport } from "../../../worker/sandbox/types";
import { CodeField } from "./code-field";
import { TestReport } from "./test-report";

/** What staff get of an exercise: everything, hidden tests and the reference included. */
export interface StaffExercise {
  starterCode: string;
  tests: CodeTest[];
  timeMs: number;
  memoryMb: number;
  referenceSolution: string;
  published: boolean;
  verifiedAt: string | null;
}

interface Row {
  key: number;
  name: string;
  call: string;
  expected: string;
  points: string;
  hidden: boolean;
}

type Reply = ({ ok: true; intent: string; report?: RunReport; reference?: RunReport; published?: boolean } | (FailureLike & { ok: false; intent: string })) & { target?: string };

const isJson = (v: string) => {
  try {
    JSON.parse(v);
    return true;
  } catch {
    return false;
  }
};

let rowKey = 0;
const toRow = (t: CodeTest): Row => ({ key: ++rowKey, name: t.name, call: t.call, expected: t.expected, points: String(t.points), hidden: t.hidden });

/** Problems the browser can see before asking the server, per row and field. */
function rowProblems(r: Row) {
  const points = Number(r.points);
  return {
    name: r.name.trim() === "",
    call: r.call.trim() === "",
    expected: r.expected.trim() === "" || !isJson(r.expected),
    points: !Number.isInteger(points) || points < 1 || points > EXERCISE_LIMITS.points,
  };
}

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
  const [rows, setRows] = useState<Row[]>(() => (exercise.tests.length ? exercise.tests.map(toRow) : [toRow({ name: "", call: "", expected: "", points: 1, hidden: false })]));
  const [timeMs, setTimeMs] = useState(String(exercise.timeMs));
  const [memoryMb, setMemoryMb] = useState(String(exercise.memoryMb));
  const [checked, setChecked] = useState(false);
  const [passedFor, setPassedFor] = useState<string | null>(exercise.verifiedAt ? "saved" : null);
  const list = useRef<HTMLOListElement>(null);

  const values = useMemo(
    () => ({
      language: "javascript",
      starterCode: starter,
      referenceSolution: reference,
      timeMs: Number(timeMs),
      memoryMb: Number(memoryMb),
      tests: rows.map((r) => ({ name: r.name.trim(), call: r.call.trim(), expected: r.expected.trim(), points: Number(r.points), hidden: r.hidden })),
    }),
    [starter, reference, timeMs, memoryMb, rows],
  );
  const signature = JSON.stringify(values);
  // "saved": the stored exercise passed when it was last saved, and nothing has been edited since.
  const [savedSignature] = useState(signature);
  const passed = passedFor === signature || (passedFor === "saved" && signature === savedSignature);

  const reply = fetcher.data;
  const busy = fetcher.state !== "idle";
  const problems = rows.map(rowProblems);
  const hasProblems = problems.some((p) => p.name || p.call || p.expected || p.points) || reference.trim() === "";
  const report = reply?.ok ? (reply.report ?? reply.reference) : undefined;
  const published = reply?.ok && reply.intent === "exercise-save" && reply.published !== undefined ? reply.published : exercise.published;

  // A report for these exact values that passed every test unlocks publishing.
  const [seen, setSeen] = useState<Reply | undefined>(undefined);
  if (reply !== seen) {
    setSeen(reply);
    if (reply?.ok && report && report.results.length > 0 && report.results.every((r) => r.passed)) setPassedFor(signature);
  }

  const send = (intent: "exercise-check" | "exercise-save", publish: boolean) => {
    setChecked(true);
    if (hasProblems) return;
    fetcher.submit({ intent, exercise: JSON.stringify({ ...values, published: publish }) }, { method: "post" });
  };

  const update = (key: number, patch: Partial<Row>) => setRows((all) => all.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const move = (index: number, by: number) =>
    setRows((all) => {
      const next = [...all];
      const [row] = next.splice(index, 1);
      next.splice(index + by, 0, row!);
      return next;
    });
  const add = () => {
    setRows((all) => [...all, toRow({ name: "", call: "", expected: "", points: 1, hidden: false })]);
    window.requestAnimationFrame(() => list.current?.querySelector<HTMLInputElement>("li:last-child input")?.focus());
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
      <p className="field-hint">{t("exerciseEditor.testsHint")}</p>
      <ol className="test-editor" role="list" ref={list}>
        {rows.map((r, i) => {
          const p = checked ? problems[i]! : { name: false, call: false, expected: false, points: false };
          const n = i + 1;
          return (
            <li key={r.key} className="test-editor-row">
              <fieldset>
                <legend>{t("exerciseEditor.testN", { n })}</legend>
                <div className="field">
                  <label htmlFor={`t-name-${r.key}`}>{t("exerciseEditor.test.name")}</label>
                  <input id={`t-name-${r.key}`} value={r.name} onChange={(e) => update(r.key, { name: e.target.value })} maxLength={EXERCISE_LIMITS.testName} dir="auto" aria-invalid={p.name || undefined} />
                  {p.name ? <p className="field-error">{t("exerciseEditor.error.name")}</p> : null}
                </div>
                <div className="field-row">
                  <div className="field">
                    <label htmlFor={`t-call-${r.key}`}>{t("exerciseEditor.test.call")}</label>
                    <input id={`t-call-${r.key}`} className="test-code-input" value={r.call} onChange={(e) => update(r.key, { call: e.target.value })} dir="ltr" spellCheck={false} autoCapitalize="off" placeholder="sum(2, 3)" maxLength={EXERCISE_LIMITS.call} aria-invalid={p.call || undefined} />
                    {p.call ? <p className="field-error">{t("exerciseEditor.error.call")}</p> : null}
                  </div>
                  <div className="field">
                    <label htmlFor={`t-expected-${r.key}`}>{t("exerciseEditor.test.expected")}</label>
                    <input id={`t-expected-${r.key}`} className="test-code-input" value={r.expected} onChange={(e) => update(r.key, { expected: e.target.value })} dir="ltr" spellCheck={false} autoCapitalize="off" placeholder="5" maxLength={EXERCISE_LIMITS.expected} aria-invalid={p.expected || undefined} />
                    {p.expected ? <p className="field-error">{t("exerciseEditor.error.expected")}</p> : null}
                  </div>
                </div>
                <div className="test-editor-foot">
                  <div className="field test-points-field">
                    <label htmlFor={`t-points-${r.key}`}>{t("exerciseEditor.test.points")}</label>
                    <input id={`t-points-${r.key}`} type="number" min={1} max={EXERCISE_LIMITS.points} className="input-narrow" value={r.points} onChange={(e) => update(r.key, { points: e.target.value })} aria-invalid={p.points || undefined} />
                  </div>
                  <label className="check-field">
                    <input type="checkbox" checked={r.hidden} onChange={(e) => update(r.key, { hidden: e.target.checked })} />
                    <span>{t("exerciseEditor.test.hidden")}</span>
                  </label>
                  <div className="test-editor-tools">
                    <button type="button" className="btn btn-ghost btn-sm" onClick={() => move(i, -1)} disabled={i === 0} aria-label={t("exerciseEditor.moveUp", { n })}>
                      ↑
                    </button>
                    <button type="button" className="btn btn-ghost btn-sm" onClick={() => move(i, 1)} disabled={i === rows.length - 1} aria-label={t("exerciseEditor.moveDown", { n })}>
                      ↓
                    </button>
                    <button type="button" className="btn btn-ghost btn-sm btn-destructive-ghost" onClick={() => setRows((all) => all.filter((x) => x.key !== r.key))} disabled={rows.length === 1} aria-label={t("exerciseEditor.remove", { n })}>
                      {t("exerciseEditor.removeShort")}
                    </button>
                  </div>
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <button type="button" className="btn btn-outline" onClick={add} disabled={rows.length >= EXERCISE_LIMITS.tests}>
        {t("exerciseEditor.addTest")}
      </button>

      <div className="field-row">
        <div className="field">
          <label htmlFor="ex-time">{t("exerciseEditor.timeMs")}</label>
          <input id="ex-time" type="number" min={EXERCISE_LIMITS.timeMs.min} max={EXERCISE_LIMITS.timeMs.max} step={100} className="input-narrow" value={timeMs} onChange={(e) => setTimeMs(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="ex-memory">{t("exerciseEditor.memoryMb")}</label>
          <input id="ex-memory" type="number" min={EXERCISE_LIMITS.memoryMb.min} max={EXERCISE_LIMITS.memoryMb.max} className="input-narrow" value={memoryMb} onChange={(e) => setMemoryMb(e.target.value)} />
        </div>
      </div>

      <div className="exercise-editor-result" aria-live="polite">
        {checked && hasProblems ? <p className="form-error">{t("exerciseEditor.error.fields")}</p> : null}
        {serverProblem ? (
          <p className="form-error" role="alert">
            {serverProblem}
          </p>
        ) : null}
        {reply?.ok && reply.intent === "exercise-save" ? <p className="form-success">{t(published ? "exerciseEditor.savedPublished" : "exerciseEditor.saved")}</p> : null}
        {report ? <TestReport report={report} calls={calls} label={t("exerciseEditor.referenceReport")} /> : null}
      </div>

      <div className="form-actions">
        <button type="button" className="btn btn-outline" onClick={() => send("exercise-check", false)} disabled={busy}>
          {busy && fetcher.formData?.get("intent") === "exercise-check" ? t("exerciseEditor.checking") : t("exerciseEditor.check")}
        </button>
        {published ? (
          <>
            <button type="button" className="btn btn-primary" onClick={() => send("exercise-save", true)} disabled={busy || !passed} aria-describedby="ex-publish-hint">
              {t("exerciseEditor.saveChanges")}
            </button>
            <button type="button" className="btn btn-ghost" onClick={() => send("exercise-save", false)} disabled={busy}>
              {t("exerciseEditor.unpublish")}
            </button>
          </>
        ) : (
          <>
            <button type="button" className="btn btn-ghost" onClick={() => send("exercise-save", false)} disabled={busy}>
              {t("exerciseEditor.saveDraft")}
            </button>
            <button type="button" className="btn btn-primary" onClick={() => send("exercise-save", true)} disabled={busy || !passed} aria-describedby="ex-publish-hint">
              {t("exerciseEditor.publish")}
            </button>
          </>
        )}
      </div>
      <p id="ex-publish-hint" className="field-hint">
        {t(passed ? "exerciseEditor.publishReady" : "exerciseEditor.publishHint")}
      </p>
    </section>
  );
}
