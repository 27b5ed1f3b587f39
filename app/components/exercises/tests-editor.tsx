import { useRef, type Dispatch, type SetStateAction } from "react";
import { useT } from "~/lib/i18n";
import { EXERCISE_LIMITS, isJson } from "~/lib/exercise-rules";
import type { CodeTest } from "../../../worker/sandbox/types";

export interface TestRow {
  key: number;
  name: string;
  call: string;
  expected: string;
  points: string;
  hidden: boolean;
}

let rowKey = 0;
export const toTestRow = (t: CodeTest = { name: "", call: "", expected: "", points: 1, hidden: false }): TestRow => ({
  key: ++rowKey,
  name: t.name,
  call: t.call,
  expected: t.expected,
  points: String(t.points),
  hidden: t.hidden,
});

/** Problems the browser can see before asking the server, per row and field. */
function rowProblems(r: TestRow) {
  const points = Number(r.points);
  return {
    name: r.name.trim() === "",
    call: r.call.trim() === "",
    expected: r.expected.trim() === "" || !isJson(r.expected),
    points: !Number.isInteger(points) || points < 1 || points > EXERCISE_LIMITS.points,
  };
}

export const rowHasProblem = (r: TestRow) => Object.values(rowProblems(r)).some(Boolean);

/** The rows as the server takes them. */
export const rowsToTests = (rows: TestRow[]): CodeTest[] =>
  rows.map((r) => ({
    name: r.name.trim(),
    call: r.call.trim(),
    expected: r.expected.trim(),
    points: Number(r.points),
    hidden: r.hidden,
  }));

/**
 * The tests of a code exercise or a code quiz question: one fieldset per test (name, call, expected JSON, points,
 * hidden), reordered and removed with labelled buttons; problems show once `checked` (after a save was tried).
 */
export function TestsEditor({ rows, setRows, checked, hiddenOption = true }: { rows: TestRow[]; setRows: Dispatch<SetStateAction<TestRow[]>>; checked: boolean; hiddenOption?: boolean }) {
  const { t } = useT();
  const list = useRef<HTMLOListElement>(null);
  const update = (key: number, patch: Partial<TestRow>) => setRows((all) => all.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const move = (index: number, by: number) =>
    setRows((all) => {
      const next = [...all];
      const [row] = next.splice(index, 1);
      next.splice(index + by, 0, row!);
      return next;
    });
  const add = () => {
    setRows((all) => [...all, toTestRow()]);
    window.requestAnimationFrame(() => list.current?.querySelector<HTMLInputElement>("li:last-child input")?.focus());
  };
  const problems = rows.map(rowProblems);
  return (
    <>
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
                  <input
                    id={`t-name-${r.key}`}
                    value={r.name}
                    onChange={(e) => update(r.key, { name: e.target.value })}
                    maxLength={EXERCISE_LIMITS.testName}
                    dir="auto"
                    aria-invalid={p.name || undefined}
                  />
                  {p.name ? <p className="field-error">{t("exerciseEditor.error.name")}</p> : null}
                </div>
                <div className="field-row">
                  <div className="field">
                    <label htmlFor={`t-call-${r.key}`}>{t("exerciseEditor.test.call")}</label>
                    <input
                      id={`t-call-${r.key}`}
                      className="test-code-input"
                      value={r.call}
                      onChange={(e) => update(r.key, { call: e.target.value })}
                      dir="ltr"
                      spellCheck={false}
                      autoCapitalize="off"
                      placeholder="sum(2, 3)"
                      maxLength={EXERCISE_LIMITS.call}
                      aria-invalid={p.call || undefined}
                    />
                    {p.call ? <p className="field-error">{t("exerciseEditor.error.call")}</p> : null}
                  </div>
                  <div className="field">
                    <label htmlFor={`t-expected-${r.key}`}>{t("exerciseEditor.test.expected")}</label>
                    <input
                      id={`t-expected-${r.key}`}
                      className="test-code-input"
                      value={r.expected}
                      onChange={(e) => update(r.key, { expected: e.target.value })}
                      dir="ltr"
                      spellCheck={false}
                      autoCapitalize="off"
                      placeholder="5"
                      maxLength={EXERCISE_LIMITS.expected}
                      aria-invalid={p.expected || undefined}
                    />
                    {p.expected ? <p className="field-error">{t("exerciseEditor.error.expected")}</p> : null}
                  </div>
                </div>
                <div className="test-editor-foot">
                  <div className="field test-points-field">
                    <label htmlFor={`t-points-${r.key}`}>{t("exerciseEditor.test.points")}</label>
                    <input
                      id={`t-points-${r.key}`}
                      type="number"
                      min={1}
                      max={EXERCISE_LIMITS.points}
                      className="input-narrow"
                      value={r.points}
                      onChange={(e) => update(r.key, { points: e.target.value })}
                      aria-invalid={p.points || undefined}
                    />
                  </div>
                  {hiddenOption ? (
                    <label className="check-field">
                      <input type="checkbox" checked={r.hidden} onChange={(e) => update(r.key, { hidden: e.target.checked })} />
                      <span>{t("exerciseEditor.test.hidden")}</span>
                    </label>
                  ) : null}
                  <div className="test-editor-tools">
                    <button type="button" className="btn btn-ghost btn-sm" onClick={() => move(i, -1)} disabled={i === 0} aria-label={t("exerciseEditor.moveUp", { n })}>
                      ↑
                    </button>
                    <button type="button" className="btn btn-ghost btn-sm" onClick={() => move(i, 1)} disabled={i === rows.length - 1} aria-label={t("exerciseEditor.moveDown", { n })}>
                      ↓
                    </button>
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm btn-destructive-ghost"
                      onClick={() => setRows((all) => all.filter((x) => x.key !== r.key))}
                      disabled={rows.length === 1}
                      aria-label={t("exerciseEditor.remove", { n })}
                    >
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
    </>
  );
}
