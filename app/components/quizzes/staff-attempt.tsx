import { Link, useFetcher } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import { ConfirmDialog, useCloseWhenDone } from "~/components/confirm-dialog";
import { When } from "~/components/lectures/when";
import { toLatinDigits } from "~/lib/digits";
import { failureText, type FailureLike } from "~/lib/group-errors";
import { useT } from "~/lib/i18n";
import { ReviewTests, type ReviewTest } from "./review-tests";
import { RefusalText } from "~/components/form-field";

export interface StaffAttemptQuestion {
  _id: string;
  textHtml: string;
  type: string;
  options: string[];
  optionsHtml: string[];
  points: number;
  answer: unknown;
  correct: (number | string)[];
  right: boolean;
  earned: number;
  override: { points: number; note: string } | null;
  /** Drawn from the bank: shown as drawn; its key is corrected on every paper that drew it (and in the bank). */
  drawn: boolean;
  /** A code answer's tests as judged when it was run (null: not a code question, or not known). */
  tests: ReviewTest[] | null;
}

export interface StaffAttempt {
  quiz: { slug: string; title: string };
  _id: string;
  number: number;
  user: { _id: string; name: string };
  score: number;
  maxScore: number;
  submittedAt: string | null;
  questions: StaffAttemptQuestion[];
}

type Result = ({ ok: true; intent: string; regraded?: number; bank?: "corrected" | "changed" | "gone" } | (FailureLike & { ok: false; intent: string })) & { target?: string };

const chosen = (answer: unknown): number[] => (typeof answer === "number" ? [answer] : Array.isArray(answer) ? answer.filter((x): x is number => typeof x === "number") : []);

/**
 * One student's attempt for the quiz's staff (issue 21): each answer beside the key with the points it earned; staff
 * give an answer other points with a note the student reads, or correct a question's key, which regrades everyone.
 */
export function StaffAttemptScreen({ attempt, backTo }: { attempt: StaffAttempt; backTo: string }) {
  const { t } = useT();
  return (
    <section className="staff-attempt" aria-labelledby="attempt-title">
      <div className="section-head">
        <div>
          <h2 id="attempt-title" className="block-title">
            <span className="user-text">{attempt.user.name}</span> · <span className="user-text">{attempt.quiz.title}</span>
          </h2>
          <p className="muted">
            {t("staffAttempt.lead", { number: attempt.number, score: attempt.score, max: attempt.maxScore })}
            {attempt.submittedAt ? (
              <>
                {" · "}
                <When iso={attempt.submittedAt} />
              </>
            ) : null}
          </p>
        </div>
        <Link to={backTo} className="btn btn-ghost">
          {t("staffAttempt.back")}
        </Link>
      </div>
      <ol className="staff-attempt-list" role="list">
        {attempt.questions.map((q, i) => (
          <li key={q._id}>
            <AttemptQuestion q={q} n={i + 1} open={attempt.submittedAt === null} />
          </li>
        ))}
      </ol>
    </section>
  );
}

function AttemptQuestion({ q, n, open }: { q: StaffAttemptQuestion; n: number; open: boolean }) {
  const { t } = useT();
  const uid = useId();
  const points = useFetcher<Result>();
  const key = useFetcher<Result>();
  const [given, setGiven] = useState(q.override ? String(q.override.points) : "");
  const [note, setNote] = useState(q.override?.note ?? "");
  const [newKey, setNewKey] = useState<number[]>(q.type === "short-text" ? [] : (q.correct as number[]));
  const [accepted, setAccepted] = useState(q.type === "short-text" ? (q.correct as string[]).join("\n") : "");
  useEffect(() => {
    setGiven(q.override ? String(q.override.points) : "");
    setNote(q.override?.note ?? "");
  }, [q.override]);
  const choice = q.type === "single" || q.type === "multiple" || q.type === "true-false";
  const pointsFailure = points.data && !points.data.ok ? points.data : null;
  const keyFailure = key.data && !key.data.ok ? key.data : null;
  // Changing the key regrades every attempt: asked in a dialog first, then the form is sent as it was.
  const keyForm = useRef<HTMLFormElement>(null);
  const [confirmingKey, setConfirmingKey] = useState(false);
  const keyBusy = key.state !== "idle";
  useCloseWhenDone(keyBusy, () => setConfirmingKey(false));

  return (
    <article className="card quiz-card staff-attempt-q" aria-labelledby={`${uid}-h`}>
      <div className="staff-attempt-head">
        <h3 id={`${uid}-h`} className="task-card-title">
          {t("staffAttempt.question", { n })}
        </h3>
        <EarnedBadge earned={q.earned} points={q.points} />
      </div>
      <div className="prose" dir="auto" dangerouslySetInnerHTML={{ __html: q.textHtml }} />
      <AnswerBesideKey q={q} whose="theirs" />
      {q.override?.note ? (
        <p className="staff-attempt-note">
          <strong>{t("staffAttempt.noteShown")}</strong> <span dir="auto">{q.override.note}</span>
        </p>
      ) : null}

      {open ? null : (
        <details className="staff-attempt-tools">
          <summary>{t(q.type === "code" ? "staffAttempt.changePoints" : "staffAttempt.change")}</summary>
          <points.Form method="post" className="staff-attempt-form">
            <input type="hidden" name="questionId" value={q._id} />
            <div className="field-row">
              <div className="field">
                <label htmlFor={`${uid}-p`}>{t("staffAttempt.points", { max: q.points })}</label>
                <input id={`${uid}-p`} name="points" inputMode="numeric" className="input-narrow" value={given} onChange={(e) => setGiven(toLatinDigits(e.target.value))} aria-invalid={!!pointsFailure?.fields?.points || undefined} />
              </div>
              <div className="field staff-attempt-note-field">
                <label htmlFor={`${uid}-n`}>{t("staffAttempt.note")}</label>
                <input id={`${uid}-n`} name="note" value={note} onChange={(e) => setNote(e.target.value)} maxLength={500} dir="auto" />
              </div>
            </div>
            <p className="field-hint field-hint-block">{t("staffAttempt.pointsHint")}</p>
            {pointsFailure ? (
              <RefusalText className="form-error" attempt={pointsFailure}>
                {pointsFailure.fields?.points ? t("staffAttempt.error.points", { max: q.points }) : failureText(t, pointsFailure)}
              </RefusalText>
            ) : null}
            <div className="form-actions">
              <button type="submit" name="intent" value="points" className="btn btn-primary btn-sm" disabled={points.state !== "idle"}>
                {t("staffAttempt.savePoints")}
              </button>
              {q.override ? (
                <button type="submit" name="intent" value="points-clear" className="btn btn-ghost btn-sm" disabled={points.state !== "idle"}>
                  {t("staffAttempt.useKey")}
                </button>
              ) : null}
            </div>
          </points.Form>

          {q.type !== "code" ? (
            <key.Form
              ref={keyForm}
              method="post"
              className="staff-attempt-form"
              onSubmit={(e) => {
                e.preventDefault();
                setConfirmingKey(true);
              }}
            >
              <input type="hidden" name="intent" value="key" />
              <input type="hidden" name="questionId" value={q._id} />
              <input type="hidden" name="correct" value={JSON.stringify(q.type === "short-text" ? accepted.split("\n").map((a) => a.trim()).filter(Boolean) : q.type === "multiple" ? newKey : (newKey[0] ?? null))} />
              <fieldset className="staff-attempt-key">
                <legend>{t("staffAttempt.keyTitle")}</legend>
                {choice ? (
                  q.options.map((_, i) => (
                    <label key={i} className="check-field">
                      <input
                        type={q.type === "multiple" ? "checkbox" : "radio"}
                        name={`${uid}-key`}
                        checked={newKey.includes(i)}
                        onChange={() => setNewKey((list) => (q.type === "multiple" ? (list.includes(i) ? list.filter((x) => x !== i) : [...list, i].sort()) : [i]))}
                      />
                      {q.type === "true-false" ? <span>{t(i === 0 ? "quiz.true" : "quiz.false")}</span> : <span dir="auto" dangerouslySetInnerHTML={{ __html: q.optionsHtml[i] ?? "" }} />}
                    </label>
                  ))
                ) : (
                  <div className="field">
                    <label htmlFor={`${uid}-acc`}>{t("staffAttempt.acceptedField")}</label>
                    <textarea id={`${uid}-acc`} rows={3} value={accepted} onChange={(e) => setAccepted(e.target.value)} dir="auto" />
                  </div>
                )}
              </fieldset>
              <p className="field-hint field-hint-block">{t("staffAttempt.keyHint")}</p>
              {q.drawn ? <p className="field-hint field-hint-block">{t("staffAttempt.drawnHint")}</p> : null}
              {keyFailure ? (
                <RefusalText className="form-error" attempt={keyFailure}>
                  {keyFailure.code === "validation_failed" ? t("staffAttempt.error.key") : failureText(t, keyFailure)}
                </RefusalText>
              ) : null}
              {key.data?.ok && key.state === "idle" ? (
                <p className="form-success" role="status">
                  {t("staffAttempt.regraded", { n: key.data.regraded ?? 0 })}
                  {key.data.bank ? <> {t(`staffAttempt.bank.${key.data.bank}`)}</> : null}
                </p>
              ) : null}
              <div className="form-actions">
                <button type="submit" className="btn btn-outline btn-sm" disabled={keyBusy}>
                  {t("staffAttempt.saveKey")}
                </button>
              </div>
              <ConfirmDialog
                open={confirmingKey}
                title={t("staffAttempt.keyConfirm")}
                confirmLabel={t("staffAttempt.saveKey")}
                busyLabel={t("staffAttempt.regrading")}
                busy={keyBusy}
                onConfirm={() => keyForm.current && key.submit(keyForm.current)}
                onClose={() => setConfirmingKey(false)}
              >
                <p>{t("staffAttempt.keyHint")}</p>
                {q.drawn ? <p>{t("staffAttempt.drawnHint")}</p> : null}
              </ConfirmDialog>
            </key.Form>
          ) : null}
        </details>
      )}
    </article>
  );
}

/** The parts of a question and its answer that `AnswerBesideKey` shows. */
export interface AnswerShown {
  _id: string;
  type: string;
  optionsHtml: string[];
  answer: unknown;
  correct: (number | string)[];
  right: boolean;
  tests: ReviewTest[] | null;
}

/**
 * An answer beside the key: the options with the choice and the key marked, or the written answer (code or text)
 * with the accepted answers, and a code answer's tests as judged. A student's attempt for staff (`theirs`) and staff's
 * own try in a quiz's preview (`yours`).
 */
export function AnswerBesideKey({ q, whose }: { q: AnswerShown; whose: "theirs" | "yours" }) {
  const { t } = useT();
  const picked = chosen(q.answer);
  if (q.type === "single" || q.type === "multiple" || q.type === "true-false") {
    return (
      <ul className="staff-attempt-options" role="list">
        {q.optionsHtml.map((html, i) => (
          <li key={i} data-chosen={picked.includes(i) || undefined} data-key={q.correct.includes(i) || undefined}>
            {/* True or false reads in the page's language, as the student saw it (quiz-runner.tsx). */}
            {q.type === "true-false" ? <span>{t(i === 0 ? "quiz.true" : "quiz.false")}</span> : <span dir="auto" dangerouslySetInnerHTML={{ __html: html }} />}
            {picked.includes(i) ? <span className="badge">{t(whose === "theirs" ? "staffAttempt.theirChoice" : "quizPreview.yourChoice")}</span> : null}
            {q.correct.includes(i) ? <span className="badge badge-green">{t("staffAttempt.key")}</span> : null}
          </li>
        ))}
      </ul>
    );
  }
  const answered = typeof q.answer === "string" && q.answer.trim() !== "";
  return (
    <div className="staff-attempt-answer">
      <p className="field-label">{t(whose === "theirs" ? "staffAttempt.theirAnswer" : "quizPreview.yourAnswer")}</p>
      {typeof q.answer === "string" && q.answer !== "" ? (
        q.type === "code" ? (
          <pre className="code-block" dir="ltr">
            <code>{q.answer}</code>
          </pre>
        ) : (
          <p dir="auto" className="user-text">
            {q.answer}
          </p>
        )
      ) : (
        <p className="muted">{t("staffAttempt.noAnswer")}</p>
      )}
      {q.type === "short-text" ? <p className="muted">{t("staffAttempt.accepted", { answers: (q.correct as string[]).join(" · ") })}</p> : null}
      {/* Why a code answer earned what it did: each test as judged when this code was run. */}
      {q.type === "code" ? <ReviewTests id={`tests-${q._id}`} tests={q.tests} right={q.right} answered={answered} /> : null}
    </div>
  );
}

/** "2 of 3": the points an answer earned, coloured as full, partial or none. */
export function EarnedBadge({ earned, points }: { earned: number; points: number }) {
  const { t } = useT();
  return (
    <span className="badge task-state" data-state={earned === points ? "graded" : earned > 0 ? "late" : "not-submitted"}>
      {t("staffAttempt.earned", { earned, points })}
    </span>
  );
}
