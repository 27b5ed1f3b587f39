import { Link, useFetcher, useSearchParams } from "@remix-run/react";
import { useEffect, useId, useState } from "react";
import { NameSearch, ownName, useNameSearch } from "~/components/name-search";
import { focusIfLost } from "~/lib/focus";
import { When, fromLocalInput, toLocalInput } from "~/components/lectures/when";
import { toLatinDigits } from "~/lib/digits";
import { failureText, type FailureLike } from "~/lib/group-errors";
import { formatList } from "~/lib/intl-cache";
import { useT } from "~/lib/i18n";
import { RefusalText } from "~/components/form-field";

export interface PanelExtension {
  user: { _id: string; name: string };
  dueAt: string | null;
  closesAt: string | null;
  extraMinutes: number;
  extraAttempts: number;
}

type Result = ({ ok: true; intent: string } | (FailureLike & { ok: false; intent: string })) & { target?: string };

/**
 * Where a task's new due time starts: a day after its own, or, when that has already passed, the same time of day on
 * the first day at least a day from now (a default in the past would give nobody any time).
 */
function suggestedDue(iso: string | null, now: number): string | null {
  if (!iso) return null;
  const DAY = 86_400_000;
  const due = Date.parse(iso);
  return new Date(due + Math.max(1, Math.ceil((now + DAY - due) / DAY)) * DAY).toISOString();
}

/**
 * Extensions on a task or a quiz, on its staff edit page (issue 21): who has their own times, each with a button to
 * take it back, and a form to give one or several students a later due time (task) or a later close, extra minutes
 * and extra attempts (quiz). Saves through the page's action (intent=extension-save / extension-remove).
 */
export function ExtensionsPanel({
  kind,
  extensions,
  students,
  defaultTime,
  graderHref = null,
}: {
  kind: "task" | "quiz";
  extensions: PanelExtension[];
  students: { _id: string; name: string }[];
  /** Where the new time starts: the task's due time or the quiz's close. */
  defaultTime: string | null;
  /** The task's grader: opened from its "Give more time", the panel offers the way back. */
  graderHref?: string | null;
}) {
  const { t, lang } = useT();
  const uid = useId();
  const saver = useFetcher<Result>();
  const remover = useFetcher<Result>();
  // Opened from the grader's "Give more time" beside a student who has not handed in: that student is chosen.
  const [params] = useSearchParams();
  const [chosen, setChosen] = useState<string[]>(() => {
    const asked = params.get("extend");
    return asked && students.some((s) => s._id === asked) ? [asked] : [];
  });
  // A task's new due time starts a day after its own (the server refuses one that is not later, so the form must
  // not start on a refusal); a quiz's close is optional (extra minutes or attempts alone), so it starts empty
  // rather than sending the quiz's own close back.
  const [when, setWhen] = useState(() => (kind === "task" ? toLocalInput(suggestedDue(defaultTime, Date.now())) : ""));
  // A time already past still counts (a hand-in before it is not late), but gives no time to hand in: said beside it.
  const chosenTime = fromLocalInput(when);
  const alreadyPast = kind === "task" && chosenTime !== null && Date.parse(chosenTime) <= Date.now();
  const [minutes, setMinutes] = useState("");
  const [attempts, setAttempts] = useState("");
  const failure = saver.data && !saver.data.ok ? saver.data : null;
  // What the server refused, at its field: minutes and attempts each say their own rule; the rest (a close that is not
  // later, nothing given at all) is said for the form.
  const minutesWrong = !!failure?.fields?.extraMinutes;
  const attemptsWrong = !!failure?.fields?.extraAttempts;
  const formWrong = failure && !failure.fields?.userIds && !minutesWrong && !attemptsWrong;
  // A refusal in the reader's words: one that names the students who read the answers (`seenBy`: ids) says their
  // names as this page lists them.
  const refusal = (f: FailureLike): string => {
    if (f.code === "validation_failed") return t(kind === "task" ? "extensions.error.task" : "extensions.error.quiz");
    if (f.code !== "answers_seen") return failureText(t, f);
    if (!f.fields?.seenBy) return t("extensions.error.makeUpSeen");
    const names = f.fields.seenBy.split(",").map((id) => students.find((s) => s._id === id)?.name).filter((n): n is string => !!n);
    return t("extensions.error.seenBy", { names: formatList(lang, names) });
  };
  // How many were given the extension, for the sentence that says so (the choice is cleared once it is saved).
  const [savedFor, setSavedFor] = useState(0);
  useEffect(() => {
    if (saver.state === "idle" && saver.data?.ok) {
      setChosen([]);
      // The next extension starts from nothing given: a number left in a field would be given again unseen.
      setMinutes("");
      setAttempts("");
      // With nobody chosen the button is disabled under the focus: the sentence saying it was saved takes it.
      focusIfLost(() => document.getElementById(`${uid}-saved`));
    }
  }, [saver.state, saver.data, uid]);
  const toggle = (id: string) => setChosen((list) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]));
  // A cohort of hundreds: the list narrows by name, and everyone it shows can be chosen at once. A student chosen
  // and then searched out of view stays chosen (the count says how many are).
  const search = useNameSearch(students, ownName);
  const shownIds = search.shown.map((s) => s._id);
  const allShownChosen = shownIds.length > 0 && shownIds.every((id) => chosen.includes(id));
  const chooseShown = () => setChosen((list) => [...list, ...shownIds.filter((id) => !list.includes(id))]);
  // An extension only ever gives more time (worker/services/own-time.ts): one whose time is not after the work's own
  // (staff moved the work's time past it) changes nothing, and says so.
  const superseded = (iso: string | null) => !!iso && (defaultTime === null || Date.parse(iso) <= Date.parse(defaultTime));

  return (
    <section className="card form-card extensions-panel" aria-labelledby={`${uid}-title`} id="extensions">
      <div className="task-form-head">
        <h2 id={`${uid}-title`} className="task-card-title">
          {t("extensions.title")}
        </h2>
        <p className="muted">{t(kind === "task" ? "extensions.leadTask" : "extensions.leadQuiz")}</p>
      </div>
      {extensions.length === 0 ? (
        <p className="empty-inline">{t("extensions.none")}</p>
      ) : (
        <ul className="extension-list" role="list">
          {extensions.map((x) => (
            <li key={x.user._id} className="extension-row">
              <span className="user-text extension-name">{x.user.name}</span>
              <span className="extension-what">
                {kind === "task" && x.dueAt ? (
                  <span>
                    {t("extensions.dueOn")} <When iso={x.dueAt} />
                    {superseded(x.dueAt) ? <span className="muted"> {t("extensions.superseded")}</span> : null}
                  </span>
                ) : (
                  [
                    x.closesAt ? (
                      <span key="c">
                        {t("extensions.closesOn")} <When iso={x.closesAt} />
                        {superseded(x.closesAt) ? <span className="muted"> {t("extensions.superseded")}</span> : null}
                      </span>
                    ) : null,
                    x.extraMinutes > 0 ? <span key="m">{t("extensions.plusMinutes", { n: x.extraMinutes })}</span> : null,
                    x.extraAttempts > 0 ? <span key="a">{t("extensions.plusAttempts", { n: x.extraAttempts })}</span> : null,
                  ]
                )}
              </span>
              <remover.Form method="post">
                <input type="hidden" name="intent" value="extension-remove" />
                <input type="hidden" name="userId" value={x.user._id} />
                <button type="submit" className="btn btn-ghost btn-sm btn-destructive-ghost" disabled={remover.state !== "idle"}>
                  {t("extensions.remove")}
                  <span className="visually-hidden"> {x.user.name}</span>
                </button>
              </remover.Form>
            </li>
          ))}
        </ul>
      )}
      {students.length === 0 ? (
        <p className="muted">{t("extensions.noStudents")}</p>
      ) : kind === "task" && defaultTime === null ? (
        <p className="muted">{t("extensions.noDueTime")}</p>
      ) : (
        <saver.Form method="post" className="extension-form" onSubmit={() => setSavedFor(chosen.length)}>
          <input type="hidden" name="intent" value="extension-save" />
          <input type="hidden" name="userIds" value={JSON.stringify(chosen)} />
          <fieldset className="extension-students" aria-describedby={failure?.fields?.userIds ? `${uid}-who-error` : undefined}>
            <legend>{t("extensions.who")}</legend>
            <NameSearch id={`${uid}-search`} controls={`${uid}-students`} search={search} />
            <div className="extension-choice">
              <button type="button" className="btn btn-ghost btn-sm" onClick={chooseShown} disabled={allShownChosen || shownIds.length === 0}>
                {t(search.term === "" ? "extensions.chooseAll" : "extensions.chooseShown")}
              </button>
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => setChosen([])} disabled={chosen.length === 0}>
                {t("extensions.clearChoice")}
              </button>
              <p className="muted extension-chosen" role="status">
                {chosen.length > 0 ? t("extensions.chosen", { n: chosen.length }) : ""}
              </p>
            </div>
            <div className="extension-student-list" id={`${uid}-students`} hidden={search.shown.length === 0}>
              {search.shown.map((s) => (
                <label key={s._id} className="check-field">
                  <input type="checkbox" checked={chosen.includes(s._id)} onChange={() => toggle(s._id)} />
                  <span className="user-text">{s.name}</span>
                </label>
              ))}
            </div>
            {failure?.fields?.userIds ? (
              <p id={`${uid}-who-error`} className="field-error">
                {t("extensions.error.who")}
              </p>
            ) : null}
          </fieldset>
          <div className="field-row">
            {/* A quiz that never closes has no close to extend: minutes and attempts only. */}
            {defaultTime !== null ? (
              <div className="field">
                <label htmlFor={`${uid}-when`}>{t(kind === "task" ? "extensions.field.due" : "extensions.field.closes")}</label>
                <input
                  id={`${uid}-when`}
                  type="datetime-local"
                  value={when}
                  min={toLocalInput(defaultTime)}
                  onChange={(e) => setWhen(e.target.value)}
                  required={kind === "task"}
                  aria-describedby={alreadyPast ? `${uid}-when-past` : undefined}
                />
                <input type="hidden" name={kind === "task" ? "dueAt" : "closesAt"} value={chosenTime ?? ""} />
                {alreadyPast ? (
                  <p id={`${uid}-when-past`} className="field-hint field-hint-warn">
                    {t("extensions.pastDue")}
                  </p>
                ) : null}
              </div>
            ) : null}
            {kind === "quiz" ? (
              <>
                <CountField id={`${uid}-minutes`} name="extraMinutes" label={t("extensions.field.minutes")} value={minutes} onChange={setMinutes} error={minutesWrong ? t("extensions.error.minutes") : null} />
                <CountField id={`${uid}-attempts`} name="extraAttempts" label={t("extensions.field.attempts")} value={attempts} onChange={setAttempts} error={attemptsWrong ? t("extensions.error.attempts") : null} />
              </>
            ) : null}
          </div>
          {kind === "quiz" ? <p className="field-hint field-hint-block">{t("extensions.quizHint")}</p> : null}
          {formWrong ? (
            <RefusalText className="form-error" attempt={failure}>
              {refusal(failure)}
            </RefusalText>
          ) : null}
          {saver.data?.ok && saver.state === "idle" ? (
            <p className="form-success" role="status" id={`${uid}-saved`} tabIndex={-1}>
              {t("extensions.saved", { n: savedFor })}
            </p>
          ) : null}
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={saver.state !== "idle" || chosen.length === 0} aria-describedby={chosen.length === 0 ? `${uid}-choose` : undefined}>
              {t("extensions.give", { n: chosen.length })}
            </button>
            {graderHref && params.get("extend") !== null ? (
              <Link to={graderHref} className="btn btn-outline">
                {t("extensions.backToGrader")}
              </Link>
            ) : null}
            {/* Why the button waits: said beside it, not only by its grey. */}
            {chosen.length === 0 && !(saver.data?.ok && saver.state === "idle") ? (
              <span id={`${uid}-choose`} className="field-hint">
                {t("extensions.chooseFirst")}
              </span>
            ) : null}
          </div>
        </saver.Form>
      )}
    </section>
  );
}

/** A quiz extension's whole number (extra minutes, extra attempts), typed in any digits, with the server's refusal at it. */
function CountField({ id, name, label, value, onChange, error }: { id: string; name: string; label: string; value: string; onChange: (value: string) => void; error: string | null }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        inputMode="numeric"
        className="input-narrow"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(toLatinDigits(e.target.value))}
      />
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
