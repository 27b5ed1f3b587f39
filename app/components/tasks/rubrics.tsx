import { useFetcher } from "@remix-run/react";
import { useEffect, useId, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from "react";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { BookIcon } from "~/components/icons";
import { toLatinDigits } from "~/lib/digits";
import { failureText, type FailureLike } from "~/lib/group-errors";
import { useT } from "~/lib/i18n";
import { formatList } from "~/lib/intl-cache";
import { criterionMax, RUBRIC_LIMITS, rubricTotal } from "~/lib/rubric-rules";
import type { RubricCriterion } from "~/lib/rubric-schemas";
import { useFocusOnOpen, useListEditor } from "~/lib/use-editor-focus";
import { EmptyState } from "~/components/empty-state";
import { isolate } from "~/lib/bidi";
import { RefusalText } from "~/components/form-field";

export interface StaffRubric {
  _id: string;
  title: string;
  criteria: RubricCriterion[];
  total: number;
  tasks: { _id: string; slug: string; title: string }[];
}

type Result = ({ ok: true; intent: string } | (FailureLike & { ok: false; intent: string })) & { target?: string };

/** A level as the editor holds it: points as typed (Arabic-Indic digits allowed), read as a number on save. */
interface DraftLevel {
  title: string;
  description: string;
  points: string;
}
interface DraftCriterion {
  id: string;
  title: string;
  description: string;
  levels: DraftLevel[];
}

const newKey = () => Math.random().toString(36).slice(2, 10);

function starterCriterion(t: (k: "rubrics.starter.excellent" | "rubrics.starter.good" | "rubrics.starter.missing") => string): DraftCriterion {
  return {
    id: newKey(),
    title: "",
    description: "",
    levels: [
      { title: t("rubrics.starter.excellent"), description: "", points: "10" },
      { title: t("rubrics.starter.good"), description: "", points: "5" },
      { title: t("rubrics.starter.missing"), description: "", points: "0" },
    ],
  };
}

const toDraft = (criteria: RubricCriterion[]): DraftCriterion[] =>
  criteria.map((c) => ({ ...c, levels: c.levels.map((l) => ({ title: l.title, description: l.description, points: String(l.points) })) }));

const pointsOf = (raw: string) => {
  const v = toLatinDigits(raw.trim());
  return /^\d+$/.test(v) ? Number(v) : Number.NaN;
};

/** Points typed that cannot be saved: not a whole number, or above the limit. */
const pointsWrong = (raw: string) => Number.isNaN(pointsOf(raw)) || pointsOf(raw) > RUBRIC_LIMITS.points;

/**
 * The group's rubrics on its Tasks tab: each with its total and the tasks that carry it, an editor for a new one or
 * an edit (criteria, each with levels of title, points and description), and delete behind a confirmation.
 */
export function RubricsSection({ rubrics }: { rubrics: StaffRubric[] }) {
  const { t, lang } = useT();
  const { editing, setEditing, current, deleting, setDeleting, remover, sectionRef } = useListEditor<StaffRubric, Result>(rubrics, "#rubrics-title");

  return (
    <section ref={sectionRef} className="rubrics-section" aria-labelledby="rubrics-title">
      <div className="section-head">
        <div>
          <h2 id="rubrics-title" className="block-title" tabIndex={-1}>
            {t("rubrics.title")}
          </h2>
          <p className="muted">{t("rubrics.lead")}</p>
        </div>
        {editing === null ? (
          <button type="button" className="btn btn-outline" onClick={() => setEditing("new")} data-opens-editor="new">
            {t("rubrics.new")}
          </button>
        ) : null}
      </div>
      {editing !== null ? <RubricEditor key={editing} rubric={current} onDone={() => setEditing(null)} /> : null}
      {rubrics.length === 0 && editing === null ? (
        <EmptyState icon={<BookIcon />} title={t("rubrics.empty.title")} body={t("rubrics.empty.body")} />
      ) : (
        <ul className="rubric-list" role="list">
          {rubrics.map((r) => (
            <li key={r._id} className="card rubric-card">
              <div className="rubric-card-head">
                <h3 className="rubric-card-title user-text">{r.title}</h3>
                <span className="badge">{t("rubrics.points", { n: r.total })}</span>
              </div>
              <p className="muted">{t("rubrics.criteriaCount", { n: r.criteria.length })}</p>
              <p className="muted rubric-used">
                {r.tasks.length === 0 ? t("rubrics.unused") : t("rubrics.usedBy", { tasks: formatList(lang, r.tasks.map((task) => task.title)) })}
              </p>
              <div className="rubric-card-actions">
                <button type="button" className="btn btn-outline btn-sm" onClick={() => setEditing(r._id)} disabled={editing !== null} data-opens-editor={r._id}>
                  {t("rubrics.edit")}
                  <span className="visually-hidden"> {r.title}</span>
                </button>
                <button type="button" className="btn btn-ghost btn-sm btn-destructive-ghost" onClick={() => setDeleting(r)}>
                  {t("rubrics.delete")}
                  <span className="visually-hidden"> {r.title}</span>
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <remover.Form method="post" id="rubric-delete-form">
        <input type="hidden" name="intent" value="rubric-delete" />
        <input type="hidden" name="rubricId" value={deleting?._id ?? ""} />
      </remover.Form>
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t("rubrics.deleteTitle", { title: isolate(deleting?.title ?? "") })}
        confirmLabel={t("rubrics.delete")}
        form="rubric-delete-form"
        busy={remover.state !== "idle"}
        danger
      >
        <p>{t(deleting?.tasks.length ? "rubrics.deleteUsed" : "rubrics.deleteBody", { n: deleting?.tasks.length ?? 0 })}</p>
        {remover.data && !remover.data.ok ? <p className="form-error">{failureText(t, remover.data)}</p> : null}
      </ConfirmDialog>
    </section>
  );
}

/** The editor of one rubric (new when `rubric` is null). Saves through the Tasks tab's action (intent=rubric-save). */
function RubricEditor({ rubric, onDone }: { rubric: StaffRubric | null; onDone: () => void }) {
  const { t } = useT();
  const fetcher = useFetcher<Result>();
  const [title, setTitle] = useState(rubric?.title ?? "");
  const [criteria, setCriteria] = useState<DraftCriterion[]>(() => (rubric ? toDraft(rubric.criteria) : [starterCriterion(t)]));
  const titleRef = useFocusOnOpen<HTMLInputElement>();
  const uid = useId();
  // What was just added takes the focus (its first field), so the keyboard writes it at once instead of staying on
  // the Add button; a selector, found once the list has rendered it.
  const formRef = useRef<HTMLFormElement>(null);
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (!focusNext.current) return;
    formRef.current?.querySelector<HTMLElement>(focusNext.current)?.focus();
    focusNext.current = null;
  }, [criteria]);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) onDone();
  }, [fetcher.state, fetcher.data, onDone]);

  const total = rubricTotal(criteria.map((c) => ({ levels: c.levels.map((l) => ({ points: pointsOf(l.points) || 0 })) })));
  const change = (i: number, patch: Partial<DraftCriterion>) => setCriteria((list) => list.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  const changeLevel = (i: number, k: number, patch: Partial<DraftLevel>) =>
    setCriteria((list) => list.map((c, j) => (j === i ? { ...c, levels: c.levels.map((l, m) => (m === k ? { ...l, ...patch } : l)) } : c)));
  const move = (i: number, by: -1 | 1) =>
    setCriteria((list) => {
      const next = [...list];
      const [item] = next.splice(i, 1);
      next.splice(i + by, 0, item!);
      return next;
    });

  const badPoints = criteria.some((c) => c.levels.some((l) => pointsWrong(l.points)));
  const failure = fetcher.data && !fetcher.data.ok ? fetcher.data : null;
  const busy = fetcher.state !== "idle";
  const payload = JSON.stringify({
    title,
    criteria: criteria.map((c) => ({ id: c.id, title: c.title, description: c.description, levels: c.levels.map((l) => ({ title: l.title, description: l.description, points: pointsOf(l.points) })) })),
  });

  return (
    <fetcher.Form ref={formRef} method="post" className="card form-card rubric-editor" aria-labelledby={`${uid}-title`}>
      <input type="hidden" name="intent" value="rubric-save" />
      <input type="hidden" name="rubricId" value={rubric?._id ?? ""} />
      <input type="hidden" name="rubric" value={payload} />
      <div className="task-form-head">
        <h3 id={`${uid}-title`} className="task-card-title">
          {t(rubric ? "rubrics.editTitle" : "rubrics.newTitle")}
        </h3>
        <p className="muted" aria-live="polite">
          {t("rubrics.total", { n: total })}
        </p>
      </div>
      <div className="field">
        <label htmlFor={`${uid}-name`}>{t("rubrics.field.title")}</label>
        <input ref={titleRef} id={`${uid}-name`} value={title} onChange={(e) => setTitle(e.target.value)} maxLength={RUBRIC_LIMITS.title} required dir="auto" />
      </div>
      <ol className="rubric-editor-criteria" role="list">
        {criteria.map((c, i) => (
          <li key={c.id}>
            <fieldset className="rubric-editor-criterion">
              <legend className="rubric-editor-legend">{t("rubrics.criterionN", { n: i + 1 })}</legend>
              <div className="quiz-editor-tools">
                {/* Each says which criterion it acts on: a list of "Move up" buttons reads the same otherwise. */}
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => move(i, -1)} disabled={i === 0}>
                  {t("rubrics.up")}
                  <span className="visually-hidden"> {t("rubrics.criterionN", { n: i + 1 })}</span>
                </button>
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => move(i, 1)} disabled={i === criteria.length - 1}>
                  {t("rubrics.down")}
                  <span className="visually-hidden"> {t("rubrics.criterionN", { n: i + 1 })}</span>
                </button>
                <button type="button" className="btn btn-ghost btn-sm btn-destructive-ghost" onClick={() => setCriteria((list) => list.filter((_, j) => j !== i))} disabled={criteria.length === 1}>
                  {t("rubrics.removeCriterion")}
                  <span className="visually-hidden"> {i + 1}</span>
                </button>
              </div>
              <div className="field">
                <label htmlFor={`${uid}-c${i}`}>{t("rubrics.field.criterion")}</label>
                <input id={`${uid}-c${i}`} value={c.title} onChange={(e) => change(i, { title: e.target.value })} maxLength={RUBRIC_LIMITS.text} required dir="auto" />
              </div>
              <div className="field">
                <label htmlFor={`${uid}-cd${i}`}>{t("rubrics.field.criterionDescription")}</label>
                <input id={`${uid}-cd${i}`} value={c.description} onChange={(e) => change(i, { description: e.target.value })} maxLength={RUBRIC_LIMITS.description} dir="auto" />
              </div>
              <table className="rubric-editor-levels field-table">
                <caption className="visually-hidden">{t("rubrics.levelsOf", { title: c.title || t("rubrics.criterionN", { n: i + 1 }) })}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t("rubrics.field.level")}</th>
                    <th scope="col">{t("rubrics.field.points")}</th>
                    <th scope="col">{t("rubrics.field.levelDescription")}</th>
                    <th scope="col">
                      <span className="visually-hidden">{t("staffTasks.col.actions")}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {c.levels.map((l, k) => {
                    const wrong = pointsWrong(l.points);
                    return (
                      <tr key={k}>
                        <td data-label={t("rubrics.field.level")}>
                          <input data-level={`${i}-${k}`} aria-label={t("rubrics.levelTitleN", { n: k + 1 })} value={l.title} onChange={(e) => changeLevel(i, k, { title: e.target.value })} maxLength={RUBRIC_LIMITS.text} required dir="auto" />
                        </td>
                        <td data-label={t("rubrics.field.points")}>
                          <input
                            aria-label={t("rubrics.levelPointsN", { n: k + 1 })}
                            className="input-narrow"
                            inputMode="numeric"
                            value={l.points}
                            onChange={(e) => changeLevel(i, k, { points: e.target.value })}
                            aria-invalid={wrong || undefined}
                            aria-describedby={wrong ? `${uid}-pe${i}` : undefined}
                          />
                        </td>
                        <td data-label={t("rubrics.field.levelDescription")}>
                          <input aria-label={t("rubrics.levelDescriptionN", { n: k + 1 })} value={l.description} onChange={(e) => changeLevel(i, k, { description: e.target.value })} maxLength={RUBRIC_LIMITS.description} dir="auto" />
                        </td>
                        <td>
                          <button
                            type="button"
                            className="btn btn-ghost btn-sm"
                            onClick={() => change(i, { levels: c.levels.filter((_, m) => m !== k) })}
                            disabled={c.levels.length <= 2}
                          >
                            {t("rubrics.removeLevel")}
                            <span className="visually-hidden"> {t("rubrics.levelOfCriterion", { level: k + 1, criterion: i + 1 })}</span>
                          </button>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
              {/* Said under the levels it is about; Save says it again beside its disabled button. */}
              {c.levels.some((l) => pointsWrong(l.points)) ? (
                <p id={`${uid}-pe${i}`} className="field-error">
                  {t("rubrics.error.points")}
                </p>
              ) : null}
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                onClick={() => {
                  focusNext.current = `[data-level="${i}-${c.levels.length}"]`;
                  change(i, { levels: [...c.levels, { title: "", description: "", points: "0" }] });
                }}
                disabled={c.levels.length >= RUBRIC_LIMITS.levels}
              >
                {t("rubrics.addLevel")}
              </button>
            </fieldset>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="btn btn-outline btn-sm rubric-add"
        onClick={() => {
          focusNext.current = `#${CSS.escape(`${uid}-c${criteria.length}`)}`;
          setCriteria((list) => [...list, starterCriterion(t)]);
        }}
        disabled={criteria.length >= RUBRIC_LIMITS.criteria}
      >
        {t("rubrics.addCriterion")}
      </button>
      {badPoints ? <p className="field-error">{t("rubrics.error.points")}</p> : null}
      {failure ? (
        <RefusalText className="form-error" attempt={failure}>
          {failure.code === "validation_failed" ? t("rubrics.error.fields") : failureText(t, failure)}
        </RefusalText>
      ) : null}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy || badPoints}>
          {busy ? t("lectures.saving") : t("rubrics.save")}
        </button>
        <button type="button" className="btn btn-ghost" onClick={onDone}>
          {t("rubrics.cancel")}
        </button>
      </div>
    </fetcher.Form>
  );
}

/**
 * A rubric read-only: each criterion with its levels, the given one marked (a filled rubric) or none (the rubric a
 * task will be graded with). A table, so a screen reader reads criterion, level and points together.
 */
export function RubricView({ title, criteria, caption }: { title: string; criteria: (RubricCriterion & { chosen?: number })[]; caption: string }) {
  const { t } = useT();
  const filled = criteria.every((c) => c.chosen !== undefined);
  const got = filled ? criteria.reduce((s, c) => s + (c.levels[c.chosen!]?.points ?? 0), 0) : null;
  return (
    <div className="rubric-view">
      <div className="gtable-wrap" tabIndex={0} data-scroll-stop="" aria-label={caption}>
        <table className="rubric-table">
          <caption>
            <span className="user-text">{title}</span>
            {got !== null ? <span className="rubric-got"> · {t("rubrics.got", { got, total: rubricTotal(criteria) })}</span> : null}
          </caption>
          <thead className="visually-hidden-phone">
            <tr>
              <th scope="col">{t("rubrics.field.criterion")}</th>
              <th scope="col">{t("rubrics.levels")}</th>
              <th scope="col">{t("rubrics.field.points")}</th>
            </tr>
          </thead>
          <tbody>
            {criteria.map((c) => (
              <tr key={c.id}>
                <th scope="row">
                  <span className="user-text">{c.title}</span>
                  {c.description ? <span className="row-sub muted user-text">{c.description}</span> : null}
                </th>
                <td>
                  <ul className="rubric-levels" role="list">
                    {c.levels.map((l, k) => (
                      <li key={k} className="rubric-level" data-chosen={c.chosen === k || undefined}>
                        <span className="rubric-level-title user-text">{l.title}</span>
                        <span className="rubric-level-points">{t("rubrics.points", { n: l.points })}</span>
                        {l.description ? <span className="rubric-level-desc user-text">{l.description}</span> : null}
                        {c.chosen === k ? <span className="visually-hidden">{t("rubrics.given")}</span> : null}
                      </li>
                    ))}
                  </ul>
                </td>
                <td className="rubric-score">{c.chosen !== undefined ? t("rubrics.of", { got: c.levels[c.chosen]?.points ?? 0, max: criterionMax(c) }) : t("rubrics.upTo", { n: criterionMax(c) })}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/**
 * The grader's rubric: one radio group per criterion (arrow keys move between levels, as radios do). Typing a level's
 * number (1 to 8, Arabic-Indic digits too) while a criterion has the focus picks that level and moves on to the next
 * criterion, so a whole rubric is scored with a digit per criterion and saved with Ctrl+Enter.
 */
export function RubricScorer({
  criteria,
  choices,
  onChoose,
  idPrefix,
  after,
}: {
  criteria: RubricCriterion[];
  choices: Record<string, number>;
  onChoose: (criterionId: string, level: number) => void;
  idPrefix: string;
  /** The id of the element the focus goes to after the last criterion's level is typed. */
  after: string;
}) {
  const { t } = useT();
  const groups = useRef<(HTMLFieldSetElement | null)[]>([]);
  const focusCriterion = (i: number) => {
    const group = groups.current[i];
    if (!group) return;
    const target = group.querySelector<HTMLInputElement>("input:checked") ?? group.querySelector<HTMLInputElement>("input");
    target?.focus();
  };
  const onKey = (i: number, c: RubricCriterion) => (e: ReactKeyboardEvent<HTMLFieldSetElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const digit = toLatinDigits(e.key);
    if (!/^[1-9]$/.test(digit)) return;
    const level = Number(digit) - 1;
    if (!c.levels[level]) return;
    e.preventDefault();
    onChoose(c.id, level);
    if (i + 1 < criteria.length) focusCriterion(i + 1);
    else document.getElementById(after)?.focus();
  };
  return (
    <div className="rubric-scorer">
      {criteria.map((c, i) => (
        <fieldset key={c.id} ref={(el) => void (groups.current[i] = el)} className="rubric-criterion" onKeyDown={onKey(i, c)} aria-describedby={`${idPrefix}-keys`}>
          <legend>
            <span className="user-text">{c.title}</span>
            <span className="rubric-criterion-score">{choices[c.id] !== undefined ? t("rubrics.of", { got: c.levels[choices[c.id]!]?.points ?? 0, max: criterionMax(c) }) : t("rubrics.upTo", { n: criterionMax(c) })}</span>
          </legend>
          {c.description ? <p className="muted rubric-criterion-desc user-text">{c.description}</p> : null}
          <div className="rubric-options">
            {c.levels.map((l, k) => (
              <label key={k} className="rubric-option" data-chosen={choices[c.id] === k || undefined}>
                <input type="radio" name={`${idPrefix}-${c.id}`} checked={choices[c.id] === k} onChange={() => onChoose(c.id, k)} />
                <span className="rubric-option-key" aria-hidden="true">
                  {k + 1}
                </span>
                <span className="rubric-option-text">
                  <span className="user-text">{l.title}</span>
                  <span className="rubric-option-points">{t("rubrics.points", { n: l.points })}</span>
                  {l.description ? <span className="rubric-level-desc user-text">{l.description}</span> : null}
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      ))}
      <p id={`${idPrefix}-keys`} className="field-hint field-hint-block">
        {t("rubrics.keys")}
      </p>
    </div>
  );
}
