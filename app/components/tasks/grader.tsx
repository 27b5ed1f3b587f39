import { useFetcher } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { When } from "~/components/lectures/when";
import { useT } from "~/lib/i18n";
import { usePropState } from "~/lib/use-prop-state";
import type { FailureLike } from "~/lib/group-errors";
import { type SubmissionState } from "~/lib/task-schemas";
import type { RunReport } from "../../../worker/sandbox/types";
import { CodeHandIn } from "~/components/exercises/code-hand-in";
import { STATE_KEYS } from "./state";
import { WorkLink } from "./work-link";

export interface GraderSubmission {
  _id: string;
  user: { _id: string; name: string };
  link: string;
  notes: string | null;
  code: string | null;
  report: RunReport | null;
  submittedAt: string;
  late: boolean;
  score: number | null;
  feedback: string | null;
  state: SubmissionState;
}

type Result = ({ ok: true; intent: string; submission: GraderSubmission } | (FailureLike & { ok: false; intent: string })) & { target?: string };
type Filter = "ungraded" | "late" | "all";

const isUngraded = (s: GraderSubmission) => s.state !== "graded";

/**
 * The grader, made for going through a whole group: the students down the side (filter ungraded / late / all, a
 * "graded x of y" counter), the current submission with its link, notes and time, and a score and feedback that save
 * in the background. J or ↓ moves to the next student, K or ↑ to the previous (outside the text fields); "Save and
 * next ungraded" (Ctrl+Enter) grades and moves on.
 */
export function Grader({ taskId, maxScore, initial, missing }: { taskId: string; maxScore: number; initial: GraderSubmission[]; missing: { _id: string; name: string }[] }) {
  const { t } = useT();
  const fetcher = useFetcher<Result>();
  const [items, setItems] = usePropState(initial);
  const [filter, setFilter] = useState<Filter>("ungraded");
  const [currentId, setCurrentId] = useState<string | null>(() => (initial.find(isUngraded) ?? initial[0])?._id ?? null);
  const [score, setScore] = useState("");
  const [feedback, setFeedback] = useState("");
  const [announce, setAnnounce] = useState("");
  const scoreRef = useRef<HTMLInputElement>(null);
  const handled = useRef<unknown>(null);

  const shown = useMemo(() => items.filter((s) => (filter === "all" ? true : filter === "late" ? s.late : isUngraded(s))), [items, filter]);
  const current = items.find((s) => s._id === currentId) ?? null;
  const gradedCount = items.filter((s) => s.state === "graded").length;

  // The form follows the student on screen.
  useEffect(() => {
    setScore(current?.score !== null && current?.score !== undefined ? String(current.score) : "");
    setFeedback(current?.feedback ?? "");
  }, [current?._id, current?.score, current?.feedback]);

  useEffect(() => {
    const result = fetcher.data;
    if (!result || handled.current === result || fetcher.state !== "idle") return;
    handled.current = result;
    if (result.ok) {
      setItems((list) => list.map((s) => (s._id === result.submission._id ? result.submission : s)));
      setAnnounce(t(result.intent === "return" ? "grader.returned" : "grader.saved", { name: result.submission.user.name }));
    } else {
      setAnnounce(result.fields?.score ? t("grader.error.score", { max: maxScore }) : result.message);
    }
  }, [fetcher.data, fetcher.state, maxScore, t]);

  const move = useCallback(
    (by: 1 | -1) => {
      if (shown.length === 0) return;
      const i = shown.findIndex((s) => s._id === currentId);
      const next = shown[Math.min(shown.length - 1, Math.max(0, (i === -1 ? -1 : i) + by))];
      if (next) setCurrentId(next._id);
    },
    [shown, currentId],
  );

  // Saves go out one at a time: a fetcher that submits again aborts its request in flight, which would drop the
  // grade before it (a fast "save and next" twice). The rest wait here until the fetcher is idle.
  const queue = useRef<Record<string, string>[]>([]);
  const sending = useRef(false);
  const send = (payload: Record<string, string>) => {
    sending.current = true;
    void fetcher.submit(payload, { method: "post" });
  };
  useEffect(() => {
    if (!sending.current || fetcher.state !== "idle") return;
    if (fetcher.data && handled.current !== fetcher.data) return; // the answer is read first (the effect above)
    sending.current = false;
    const next = queue.current.shift();
    if (next) send(next);
  });

  const save = (intent: "grade" | "return", thenNext: boolean) => {
    if (!current) return;
    const payload = { intent, submissionId: current._id, score, feedback };
    if (sending.current) queue.current.push(payload);
    else send(payload);
    if (intent === "grade") setItems((list) => list.map((s) => (s._id === current._id ? { ...s, score: Number(score), feedback, state: "graded" } : s)));
    if (thenNext) {
      const order = items.filter((s) => s._id !== current._id && isUngraded(s));
      const after = order.find((s) => items.indexOf(s) > items.indexOf(current)) ?? order[0];
      if (after) setCurrentId(after._id);
      scoreRef.current?.focus();
    }
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const inField = e.target instanceof HTMLElement && (e.target.matches("input, textarea, select") || e.target.isContentEditable);
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        document.getElementById("grader-save-next")?.click();
        return;
      }
      if (inField || e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === "j" || e.key === "ArrowDown") {
        e.preventDefault();
        move(1);
      } else if (e.key === "k" || e.key === "ArrowUp") {
        e.preventDefault();
        move(-1);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [move]);

  const scoreValid = score !== "" && Number.isInteger(Number(score)) && Number(score) >= 0 && Number(score) <= maxScore;

  return (
    <div className="grader">
      <p className="visually-hidden" role="status" aria-live="polite">
        {announce}
      </p>
      <div className="grader-side">
        <div className="grader-tools">
          <label htmlFor="grader-filter" className="visually-hidden">
            {t("grader.filter")}
          </label>
          <select id="grader-filter" value={filter} onChange={(e) => setFilter(e.target.value as Filter)}>
            <option value="ungraded">{t("grader.filter.ungraded")}</option>
            <option value="late">{t("grader.filter.late")}</option>
            <option value="all">{t("grader.filter.all")}</option>
          </select>
          <p className="grader-count" data-testid="graded-count">
            {t("grader.count", { graded: gradedCount, total: items.length })}
          </p>
        </div>
        {shown.length === 0 ? (
          <p className="empty-inline">{t(items.length === 0 ? "grader.none" : "grader.allDone")}</p>
        ) : (
          <ul className="grader-list" role="listbox" aria-label={t("grader.students")}>
            {shown.map((s) => (
              <li key={s._id} role="option" aria-selected={s._id === currentId}>
                <button type="button" className="grader-student" data-current={s._id === currentId || undefined} onClick={() => setCurrentId(s._id)}>
                  <span className="user-text" dir="auto">
                    {s.user.name}
                  </span>
                  <span className="badge task-state" data-state={s.state}>
                    {s.state === "graded" && s.score !== null ? `${s.score}/${maxScore}` : t(STATE_KEYS[s.state])}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
        {missing.length > 0 ? (
          <details className="grader-missing">
            <summary>{t("grader.missing", { count: missing.length })}</summary>
            <ul role="list">
              {missing.map((m) => (
                <li key={m._id} dir="auto">
                  {m.name}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
        <p className="muted grader-keys">{t("grader.keys")}</p>
      </div>

      {current ? (
        <section className="card grader-main" aria-labelledby="grader-name">
          <h2 id="grader-name" className="block-title user-text">
            {current.user.name}
          </h2>
          {current.code !== null ? (
            <CodeHandIn key={current._id} code={current.code} report={current.report} wholeReportUrl={`/staff/submission/${taskId}/${current._id}`} />
          ) : (
            <WorkLink link={current.link} />
          )}
          <p className="muted">
            {t("tasks.submittedAt")} <When iso={current.submittedAt} />
            {current.late ? <span className="badge task-state" data-state="late">{t("tasks.state.late")}</span> : null}
          </p>
          {current.notes ? (
            <p className="work-notes" dir="auto">
              {current.notes}
            </p>
          ) : null}
          <div className="field">
            <label htmlFor="grader-score">{t("grader.score", { max: maxScore })}</label>
            <input
              ref={scoreRef}
              id="grader-score"
              type="number"
              inputMode="numeric"
              min={0}
              max={maxScore}
              step={1}
              value={score}
              onChange={(e) => setScore(e.target.value)}
              className="input-narrow"
              aria-invalid={(score !== "" && !scoreValid) || undefined}
            />
          </div>
          <div className="field">
            <label htmlFor="grader-feedback">{t("grader.feedback")}</label>
            <textarea id="grader-feedback" rows={6} value={feedback} onChange={(e) => setFeedback(e.target.value)} dir="auto" aria-describedby="grader-feedback-hint" />
            <p id="grader-feedback-hint" className="field-hint">
              {t("grader.feedbackHint")}
            </p>
          </div>
          <div className="form-actions">
            <button id="grader-save-next" type="button" className="btn btn-primary" disabled={!scoreValid} onClick={() => save("grade", true)}>
              {t("grader.saveNext")}
            </button>
            <button type="button" className="btn btn-outline" disabled={!scoreValid} onClick={() => save("grade", false)}>
              {t("grader.save")}
            </button>
            <button type="button" className="btn btn-ghost" onClick={() => save("return", false)}>
              {t("grader.return")}
            </button>
          </div>
        </section>
      ) : null}
    </div>
  );
}
