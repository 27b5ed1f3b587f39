import { useNavigate } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { localeOf } from "~/i18n/config";
import { useT } from "~/lib/i18n";
import { dateTimeFormat } from "~/lib/intl-cache";
import { forget, keep, readKept } from "~/lib/kept-locally";
import { AUTOSAVE_DEBOUNCE_MS } from "~/lib/quiz-rules";
import type { AnswerValue, AnswersMap } from "~/lib/quiz-schemas";
import { CodeField } from "~/components/exercises/code-field";
import { QuizFrame, pointsText } from "./quiz-pages";
import type { PageAttempt, PageQuestion, PageQuiz } from "./types";

/** A failed save is retried this often (and at once when the browser says it is back online). */
const RETRY_MS = 5_000;

type SaveStatus = "saved" | "saving" | "offline" | "session" | "error" | "conflict";
type Phase = "answering" | "submitting" | "retrying";
type Reply = { status: number; body: { serverNow?: string; savedAt?: string; code?: string; message?: string; gradedOnSaved?: boolean; fields?: { savedAt?: string; answers?: string } } };
/** Answers saved from another tab or device since this page's last save (409 answers_changed), and when. */
type Elsewhere = { answers: AnswersMap; savedAt: string };

/** The other save a 409 answers_changed names, or null for another 409 (the attempt handed in, time up). */
function elsewhere(reply: Reply): Elsewhere | null {
  if (reply.status !== 409 || reply.body.code !== "answers_changed") return null;
  try {
    const answers = JSON.parse(reply.body.fields?.answers ?? "") as unknown;
    const savedAt = reply.body.fields?.savedAt;
    if (!savedAt || !answers || typeof answers !== "object" || Array.isArray(answers)) return null;
    return { answers: answers as AnswersMap, savedAt };
  } catch {
    return null;
  }
}

const storageKey = (attemptId: string) => `cohort.quiz.${attemptId}`;
const isEmpty = (v: AnswerValue | undefined) => v === undefined || v === "" || (Array.isArray(v) && v.length === 0);

const placeKey = (attemptId: string) => `cohort.quiz.${attemptId}.place`;
/**
 * This browser's copy of the answers (`pending`: not yet acknowledged by the server), with the save they follow: a
 * copy taken back after a reload is sent as following that save, so answers saved since in another tab or device
 * are not replaced unseen (the server refuses, and the page asks).
 */
type Stored = { answers: AnswersMap; pending: boolean; basedOn?: string | null };
const readStored = (attemptId: string) => readKept<Stored>(storageKey(attemptId));
const writeStored = (attemptId: string, answers: AnswersMap, pending: boolean, basedOn: string | null) => keep(storageKey(attemptId), { answers, pending, basedOn } satisfies Stored);

/** How many of the questions are answered differently in `a` and `b`. */
const differing = (questions: PageQuestion[], a: AnswersMap, b: AnswersMap) => questions.filter((q) => JSON.stringify(a[q._id] ?? null) !== JSON.stringify(b[q._id] ?? null)).length;

function clock(ms: number) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}`;
}

/**
 * Taking a quiz. Answers live in three places: this component, the browser's storage (so a reload or a crash while
 * offline loses nothing) and the server (saved about a second after each change). The countdown reads the server's
 * deadline against the server's clock, estimated from every save's reply, so a wrong device clock or a sleeping tab
 * changes nothing; at zero the answers are handed in. A hand-in that fails on the network is retried with the same
 * attempt id, which the server answers with the same graded attempt.
 */
export function QuizRunner({ quiz, questions, attempt, base, saveUrl, serverNow }: { quiz: PageQuiz; questions: PageQuestion[]; attempt: PageAttempt; base: string; saveUrl: string; serverNow: string }) {
  const { t, lang } = useT();
  // The time of the other save, in the reader's language and zone (the panel that says it is drawn in the browser).
  const timeOf = (iso: string) => dateTimeFormat(localeOf(lang), { hour: "2-digit", minute: "2-digit", second: "2-digit" }).format(new Date(iso));
  const navigate = useNavigate();
  const [answers, setAnswers] = useState<AnswersMap>(attempt.answers);
  const [status, setStatus] = useState<SaveStatus>("saved");
  const [problem, setProblem] = useState("");
  const [phase, setPhase] = useState<Phase>("answering");
  const [index, setIndex] = useState(0);
  // The sticky bar's height, for the page's scroll padding: a control the keyboard reaches is never under it.
  const barRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const bar = barRef.current;
    if (!bar || typeof ResizeObserver === "undefined") return;
    const root = document.documentElement;
    const set = () => root.style.setProperty("--quiz-bar-h", `${bar.offsetHeight}px`);
    set();
    const watch = new ResizeObserver(set);
    watch.observe(bar);
    // The browser scrolls a focused control into view only when it is off screen, so one reached under the bar (a
    // question's number, with Shift+Tab) is moved down clear of it.
    const clear = (e: FocusEvent) => {
      const target = e.target;
      if (!(target instanceof Element) || bar.contains(target) || target.closest(".site-header")) return;
      // The keyboard's focus only: a click's press focuses the control, and a scroll before its release loses the click.
      if (!target.matches(":focus-visible")) return;
      const below = bar.getBoundingClientRect().bottom + 8;
      const top = target.getBoundingClientRect().top;
      if (top < below) window.scrollBy({ top: top - below, behavior: "instant" });
    };
    document.addEventListener("focusin", clear);
    return () => {
      watch.disconnect();
      document.removeEventListener("focusin", clear);
      root.style.removeProperty("--quiz-bar-h");
    };
  }, []);
  // Next and Previous show another question: the focus goes to it (its number is read), not left on the button.
  const stepped = useRef(false);
  useEffect(() => {
    if (!stepped.current) {
      stepped.current = true;
      return;
    }
    const question = document.getElementById(`q-${questions[index]?._id}`);
    if (question && question.contains(document.activeElement) === false) question.focus({ preventScroll: false });
  }, [index]); // eslint-disable-line react-hooks/exhaustive-deps
  const [showAll, setShowAll] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [left, setLeft] = useState<number | null>(null);
  const [announce, setAnnounce] = useState("");

  const latest = useRef<AnswersMap>(attempt.answers);
  // The save this page's answers follow (the server's `savedAt`): sent with each save and hand-in, so answers saved
  // meanwhile from another tab or device are not replaced unseen (the server answers 409 answers_changed).
  const basedOn = useRef<string | null>(attempt.savedAt);
  const [conflict, setConflict] = useState<Elsewhere | null>(null);
  const conflictRef = useRef<Elsewhere | null>(null);
  const showConflict = useCallback((other: Elsewhere | null) => {
    conflictRef.current = other;
    setConflict(other);
    if (other) setStatus("conflict");
  }, []);
  const acknowledged = useRef(JSON.stringify(attempt.answers));
  const offset = useRef(0);
  const phaseRef = useRef<Phase>("answering");
  const timer = useRef<number | undefined>(undefined);
  const inFlight = useRef(false);
  const warned = useRef(false);
  const placeRead = useRef(false);
  const deadline = attempt.deadline ? Date.parse(attempt.deadline) : null;

  // The clock handed the answers in (not the student): the result page says so.
  const byClock = useRef(false);
  // When this page's answers were last changed, by the page's clock (null: not changed here since it opened).
  const editedAt = useRef<number | null>(null);
  const post = useCallback(
    async (intent: "save" | "submit", snapshot: AnswersMap): Promise<Reply | null> => {
      const body = new URLSearchParams({ intent, answers: JSON.stringify(snapshot), attemptId: attempt._id, basedOn: basedOn.current ?? "" });
      const sent = Date.now();
      try {
        const res = await fetch(saveUrl, { method: "POST", body, headers: { accept: "application/json" }, credentials: "same-origin" });
        const json = (await res.json().catch(() => ({}))) as Reply["body"];
        if (json.serverNow) offset.current = Date.parse(json.serverNow) - (sent + Date.now()) / 2;
        return { status: res.status, body: json };
      } catch {
        return null;
      }
    },
    [attempt._id, saveUrl],
  );

  const toResult = useCallback(
    (onSaved: boolean) => {
      forget(storageKey(attempt._id));
      forget(placeKey(attempt._id));
      navigate(`${base}/result${onSaved ? "?onSaved=1" : byClock.current ? "?timeUp=1" : ""}`, { replace: true });
    },
    [attempt._id, base, navigate],
  );

  const save = useCallback(async () => {
    // Waiting for the student to choose between this page's answers and those saved elsewhere: nothing is sent.
    if (phaseRef.current !== "answering" || conflictRef.current) return;
    if (inFlight.current) {
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => void save(), 300);
      return;
    }
    const snapshot = latest.current;
    const json = JSON.stringify(snapshot);
    inFlight.current = true;
    const reply = await post("save", snapshot);
    inFlight.current = false;
    if (!reply || reply.status >= 500) {
      setStatus("offline");
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => void save(), RETRY_MS);
      return;
    }
    if (reply.status === 200) {
      acknowledged.current = json;
      if (reply.body.savedAt) basedOn.current = reply.body.savedAt;
      if (JSON.stringify(latest.current) === json) {
        setStatus("saved");
        writeStored(attempt._id, snapshot, false, basedOn.current);
      } else {
        // Changed again meanwhile: the copy still waiting now follows this save.
        writeStored(attempt._id, latest.current, true, basedOn.current);
      }
      return;
    }
    const other = elsewhere(reply);
    if (other) return showConflict(other);
    if (reply.status === 409) return toResult(reply.body.code === "time_up");
    // Signed out elsewhere: said in the reader's words, and saved again once they are back (the effect below).
    if (reply.status === 401) return setStatus("session");
    setStatus("error");
    setProblem(reply.body.message ?? "");
  }, [attempt._id, post, toResult, showConflict]);

  // While the session is gone, each time the tab is looked at again (the student comes back from the tab where they
  // signed in) the answers are sent again; "Saved" once they are taken.
  useEffect(() => {
    if (status !== "session") return;
    const again = () => {
      if (document.visibilityState !== "hidden") void save();
    };
    window.addEventListener("focus", again);
    document.addEventListener("visibilitychange", again);
    return () => {
      window.removeEventListener("focus", again);
      document.removeEventListener("visibilitychange", again);
    };
  }, [status, save]);

  const schedule = useCallback(
    (delay: number) => {
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => void save(), delay);
    },
    [save],
  );

  const handIn = useCallback(async () => {
    if (phaseRef.current !== "answering") return;
    phaseRef.current = "submitting";
    setPhase("submitting");
    window.clearTimeout(timer.current);
    let snapshot = latest.current;
    writeStored(attempt._id, snapshot, true, basedOn.current);
    for (let tries = 0, overtaken = 0; ; tries++) {
      const reply = await post("submit", snapshot);
      // A 429 is "not yet" (this hand-in's code still running elsewhere, code-lease.ts): tried again like no answer.
      if (reply && reply.status < 500 && reply.status !== 429) {
        const other = elsewhere(reply);
        if (other && byClock.current && overtaken < 3) {
          // Time is up and nobody is there to choose: the answers worked on last are handed in. A tab left open
          // and untouched never replaces what was answered in another; this page's own later changes do.
          overtaken += 1;
          const mineLater = editedAt.current !== null && editedAt.current + offset.current > Date.parse(other.savedAt);
          basedOn.current = other.savedAt;
          if (!mineLater) {
            snapshot = other.answers;
            latest.current = other.answers;
            setAnswers(other.answers);
          }
          continue;
        }
        if (other) {
          // Not handed in: the student first chooses which answers count, then hands in again.
          phaseRef.current = "answering";
          setPhase("answering");
          return showConflict(other);
        }
        if (reply.status === 200 || reply.status === 201 || reply.status === 409) return toResult(!!reply.body.gradedOnSaved || reply.body.code === "time_up");
        phaseRef.current = "answering";
        setPhase("answering");
        if (reply.status === 401) return setStatus("session");
        setStatus("error");
        setProblem(reply.body.message ?? "");
        return;
      }
      phaseRef.current = "retrying";
      setPhase("retrying");
      await new Promise<void>((resolve) => {
        const done = () => {
          window.removeEventListener("online", done);
          window.clearTimeout(wait);
          resolve();
        };
        const wait = window.setTimeout(done, Math.min(10_000, 1_000 * 2 ** tries));
        window.addEventListener("online", done);
      });
    }
  }, [attempt._id, post, toResult, showConflict]);

  // On arrival: take back answers this browser kept but the server never acknowledged (a reload while offline) and
  // the place the student was at (the question shown, or all of them), and save once at once, which also measures
  // the server's clock.
  useEffect(() => {
    offset.current = Date.parse(serverNow) - Date.now();
    const stored = readStored(attempt._id);
    if (stored?.pending) {
      latest.current = stored.answers;
      setAnswers(stored.answers);
      // A copy kept before this page knew of the save it follows (older copies name none: the server's is taken).
      if (stored.basedOn === null || typeof stored.basedOn === "string") basedOn.current = stored.basedOn;
    }
    const place = readKept<{ index: number; showAll: boolean }>(placeKey(attempt._id));
    if (place) {
      if (Number.isInteger(place.index)) setIndex(Math.min(Math.max(0, place.index), questions.length - 1));
      setShowAll(place.showAll === true);
    }
    placeRead.current = true;
    schedule(0);
    const online = () => {
      if (phaseRef.current === "answering") schedule(0);
    };
    window.addEventListener("online", online);
    return () => {
      window.removeEventListener("online", online);
      window.clearTimeout(timer.current);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- questions are fixed for an attempt
  }, [attempt._id, schedule, serverNow]);

  // Where the student is, kept for a reload (after the place above was read back, so it is not overwritten first).
  useEffect(() => {
    if (placeRead.current) keep(placeKey(attempt._id), { index, showAll });
  }, [attempt._id, index, showAll]);

  // The countdown, recomputed from the clock each second (and when the tab wakes), never counted down by hand.
  useEffect(() => {
    if (deadline === null) return;
    const tick = () => {
      const ms = deadline - (Date.now() + offset.current);
      setLeft(ms);
      if (ms <= 60_000 && ms > 0 && !warned.current) {
        warned.current = true;
        setAnnounce(t("quiz.oneMinute"));
      }
      if (ms <= 0 && phaseRef.current === "answering") {
        setAnnounce(t("quiz.timeUp"));
        byClock.current = true;
        void handIn();
      }
    };
    tick();
    const id = window.setInterval(tick, 1_000);
    document.addEventListener("visibilitychange", tick);
    return () => {
      window.clearInterval(id);
      document.removeEventListener("visibilitychange", tick);
    };
  }, [deadline, handIn, t]);

  const change = (questionId: string, value: AnswerValue | undefined) => {
    const next = { ...latest.current };
    if (isEmpty(value)) delete next[questionId];
    else next[questionId] = value!;
    latest.current = next;
    editedAt.current = Date.now();
    setAnswers(next);
    writeStored(attempt._id, next, JSON.stringify(next) !== acknowledged.current, basedOn.current);
    if (conflictRef.current) return;
    setStatus("saving");
    schedule(AUTOSAVE_DEBOUNCE_MS);
  };

  // The student's choice between this page's answers and those saved elsewhere: theirs replace the page's (saved
  // already, nothing to send); the page's are sent again over them, knowingly.
  const useSavedElsewhere = () => {
    const other = conflictRef.current;
    if (!other) return;
    latest.current = other.answers;
    acknowledged.current = JSON.stringify(other.answers);
    basedOn.current = other.savedAt;
    setAnswers(other.answers);
    writeStored(attempt._id, other.answers, false, basedOn.current);
    showConflict(null);
    setStatus("saved");
  };
  const keepThisPage = () => {
    const other = conflictRef.current;
    if (!other) return;
    basedOn.current = other.savedAt;
    showConflict(null);
    setStatus("saving");
    schedule(0);
  };

  const answeredCount = questions.filter((q) => !isEmpty(answers[q._id])).length;
  const busy = phase !== "answering";
  const shown = showAll ? questions : questions.slice(index, index + 1);
  const statusText =
    status === "saved"
      ? t("quiz.save.saved")
      : status === "saving"
        ? t("quiz.save.saving")
        : status === "offline"
          ? t("quiz.save.offline")
          : status === "session"
            ? t("quiz.save.session")
            : status === "conflict"
              ? t("quiz.save.conflict")
              : t("quiz.save.error", { message: problem });

  return (
    <QuizFrame quiz={quiz} base={base} className="page-quiz-run">
      <div className="quiz-bar" ref={barRef} role="region" aria-label={t("quiz.barLabel")}>
        <div className="quiz-bar-clock">
          {deadline !== null ? (
            <>
              <span className="quiz-bar-label">{t("quiz.timeLeft")}</span>
              <span role="timer" aria-live="off" className={`quiz-timer ${left !== null && left <= 60_000 ? "quiz-timer-low" : ""}`} dir="ltr">
                {left === null ? "--:--" : clock(left)}
              </span>
            </>
          ) : (
            <span className="quiz-bar-label">{t("quiz.noLimit")}</span>
          )}
        </div>
        <p className="quiz-save" data-status={status} role="status" aria-live="polite">
          <span className="quiz-save-dot" aria-hidden="true" />
          {phase === "retrying" ? t("quiz.handInRetry") : statusText}
        </p>
        <p className="quiz-bar-count">{t("quiz.answeredCount", { n: answeredCount, total: questions.length })}</p>
        <button type="button" className="btn btn-primary" onClick={() => setConfirming(true)} disabled={busy}>
          {busy ? t("quiz.handingIn") : t("quiz.handIn")}
        </button>
      </div>
      {deadline !== null ? <p className="quiz-late-note">{t("quiz.lateNote")}</p> : null}
      {conflict ? (
        <section className="notice notice-warn quiz-conflict" role="alert" aria-labelledby="quiz-conflict-title">
          <h2 id="quiz-conflict-title" className="quiz-conflict-title">
            {t("quiz.conflict.title")}
          </h2>
          <p>
            {t("quiz.conflict.body", { time: timeOf(conflict.savedAt) })}{" "}
            {t("quiz.conflict.differ", { n: differing(questions, answers, conflict.answers) })}
          </p>
          <div className="quiz-conflict-actions">
            <button type="button" className="btn btn-primary btn-sm" onClick={useSavedElsewhere}>
              {t("quiz.conflict.useTheirs")}
            </button>
            <button type="button" className="btn btn-outline btn-sm" onClick={keepThisPage}>
              {t("quiz.conflict.keepMine")}
            </button>
          </div>
        </section>
      ) : null}
      <p className="visually-hidden" aria-live="assertive">
        {announce}
      </p>
      <div className="quiz-run">
        <nav className="quiz-nav" aria-label={t("quiz.navigator")}>
          <ol className="quiz-nav-list" role="list">
            {questions.map((q, i) => {
              const done = !isEmpty(answers[q._id]);
              return (
                <li key={q._id}>
                  <button
                    type="button"
                    className="quiz-nav-item"
                    data-answered={done}
                    aria-current={!showAll && i === index ? "step" : undefined}
                    aria-label={`${t("quiz.question", { n: i + 1, total: questions.length })}${t("list.separator")}${t(done ? "quiz.answered" : "quiz.unanswered")}`}
                    onClick={() => {
                      if (showAll) document.getElementById(`q-${q._id}`)?.scrollIntoView({ block: "start" });
                      else setIndex(i);
                    }}
                  >
                    {i + 1}
                  </button>
                </li>
              );
            })}
          </ol>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setShowAll((v) => !v)}>
            {showAll ? t("quiz.showOne") : t("quiz.showAll")}
          </button>
        </nav>
        <form className="quiz-questions" onSubmit={(e) => e.preventDefault()} aria-busy={busy}>
          {shown.map((q) => {
            const n = questions.indexOf(q) + 1;
            return <QuestionField key={q._id} q={q} n={n} total={questions.length} value={answers[q._id]} onChange={(v) => change(q._id, v)} disabled={busy} />;
          })}
          {!showAll ? (
            <div className="quiz-step">
              <button type="button" className="btn btn-outline" onClick={() => setIndex((i) => Math.max(0, i - 1))} disabled={index === 0}>
                {t("quiz.prev")}
              </button>
              {index < questions.length - 1 ? (
                <button type="button" className="btn btn-primary" onClick={() => setIndex((i) => Math.min(questions.length - 1, i + 1))}>
                  {t("quiz.next")}
                </button>
              ) : (
                <button type="button" className="btn btn-primary" onClick={() => setConfirming(true)} disabled={busy}>
                  {t("quiz.handIn")}
                </button>
              )}
            </div>
          ) : null}
        </form>
      </div>
      <form
        id="quiz-hand-in"
        onSubmit={(e) => {
          e.preventDefault();
          setConfirming(false);
          void handIn();
        }}
      />
      <ConfirmDialog open={confirming} onClose={() => setConfirming(false)} title={t("quiz.confirm.title")} confirmLabel={t("quiz.confirm.ok")} form="quiz-hand-in" busy={busy}>
        <p>{answeredCount < questions.length ? t("quiz.confirm.unanswered", { n: questions.length - answeredCount, total: questions.length }) : t("quiz.confirm.all")}</p>
      </ConfirmDialog>
    </QuizFrame>
  );
}

/** One question with the input its type needs; the question text is the group's label. */
export function QuestionField({ q, n, total, value, onChange, disabled }: { q: PageQuestion; n: number; total: number; value: AnswerValue | undefined; onChange: (v: AnswerValue | undefined) => void; disabled: boolean }) {
  const { t } = useT();
  const head = (
    <div className="quiz-q-head">
      <span id={`q-${q._id}-n`} className="quiz-q-number">
        {t("quiz.question", { n, total })}
      </span>
      <span className="muted">{pointsText(t, q.points)}</span>
    </div>
  );
  const textId = `q-${q._id}-text`;
  if (q.type === "code") {
    return (
      <section id={`q-${q._id}`} tabIndex={-1} className="card quiz-card quiz-question" aria-labelledby={`q-${q._id}-n`}>
        {head}
        <div id={textId} className="prose quiz-q-text" dir="auto" dangerouslySetInnerHTML={{ __html: q.textHtml }} />
        <p id={`a-${q._id}-label`} className="quiz-hint">
          {t("quiz.writeCode", { n: q.code?.tests ?? 0 })}
        </p>
        <p id={`a-${q._id}-keys`} className="field-hint">
          {t("quiz.codeKeys")}
        </p>
        <CodeField
          id={`a-${q._id}`}
          value={typeof value === "string" ? value : (q.code?.starterCode ?? "")}
          onChange={(v) => onChange(v)}
          labelledBy={`a-${q._id}-label`}
          describedBy={`${textId} a-${q._id}-keys`}
          readOnly={disabled}
          rows={10}
        />
      </section>
    );
  }
  if (q.type === "short-text") {
    return (
      <section id={`q-${q._id}`} tabIndex={-1} className="card quiz-card quiz-question" aria-labelledby={`q-${q._id}-n`}>
        {head}
        <div id={textId} className="prose quiz-q-text" dir="auto" dangerouslySetInnerHTML={{ __html: q.textHtml }} />
        <label htmlFor={`a-${q._id}`} className="quiz-hint">
          {t("quiz.writeAnswer")}
        </label>
        <input
          id={`a-${q._id}`}
          className="quiz-text-answer"
          dir="auto"
          maxLength={500}
          autoComplete="off"
          spellCheck={false}
          aria-describedby={textId}
          value={typeof value === "string" ? value : ""}
          onChange={(e) => onChange(e.target.value)}
          disabled={disabled}
        />
      </section>
    );
  }
  const multiple = q.type === "multiple";
  const chosen = new Set(Array.isArray(value) ? value : typeof value === "number" ? [value] : []);
  const labels = q.type === "true-false" ? [t("quiz.true"), t("quiz.false")] : null;
  return (
    <fieldset id={`q-${q._id}`} tabIndex={-1} className="card quiz-card quiz-question" aria-describedby={textId}>
      {/* The legend names the question once (number and points); the same words drawn above are not read again. */}
      <legend className="visually-hidden">
        {t("quiz.question", { n, total })}
        {t("list.separator")}
        {pointsText(t, q.points)}
      </legend>
      <div aria-hidden="true">{head}</div>
      <div id={textId} className="prose quiz-q-text" dir="auto" dangerouslySetInnerHTML={{ __html: q.textHtml }} />
      <p className="quiz-hint">{t(multiple ? "quiz.chooseMany" : "quiz.chooseOne")}</p>
      <ul className="quiz-options" role="list">
        {q.options.map((_, i) => (
          <li key={i}>
            <label className="quiz-option" data-chosen={chosen.has(i)}>
              <input
                type={multiple ? "checkbox" : "radio"}
                name={`a-${q._id}`}
                value={i}
                checked={chosen.has(i)}
                disabled={disabled}
                onChange={(e) => {
                  if (!multiple) return onChange(i);
                  const next = new Set(chosen);
                  if (e.target.checked) next.add(i);
                  else next.delete(i);
                  onChange([...next].sort((a, b) => a - b));
                }}
              />
              {labels ? <span>{labels[i]}</span> : <span dir="auto" dangerouslySetInnerHTML={{ __html: q.optionsHtml[i] ?? "" }} />}
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
