import { Link, useFetcher } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { CheckIcon } from "~/components/icons";
import type { MessageKey } from "~/i18n/en";
import { When } from "~/components/lectures/when";
import { toLatinDigits } from "~/lib/digits";
import { afterPenalty } from "~/lib/late-penalty";
import { foldForSearch } from "~/lib/search-fold";
import { useT } from "~/lib/i18n";
import { usePropState } from "~/lib/use-prop-state";
import { failureText, type FailureLike } from "~/lib/group-errors";
import type { SubmissionState } from "~/lib/task-rules";
import type { RunReport } from "../../../worker/sandbox/types";
import { CodeHandIn } from "~/components/exercises/code-hand-in";
import { fillRubric, type RubricAssessment } from "~/lib/rubric-rules";
import type { RubricCriterion } from "~/lib/rubric-schemas";
import { RubricScorer } from "./rubrics";
import { FeedbackField, type Snippet } from "./feedback-field";
import { SubmissionThread, type ThreadComment, type ThreadVersion } from "./submission-thread";
import { STATE_KEYS } from "./state";
import { WorkLink } from "./work-link";
import { UnsavedChanges } from "~/components/unsaved-changes";
import { HandInFile, type HandInFileInfo } from "./hand-in-file";
import { keep, readKept } from "~/lib/kept-locally";
import { focusRefused } from "~/lib/focus";

export interface GraderSubmission {
  _id: string;
  user: { _id: string; name: string };
  link: string;
  notes: string | null;
  /** A file hand-in (issue 21). */
  file?: HandInFileInfo | null;
  code: string | null;
  report: RunReport | null;
  submittedAt: string;
  /** When its grade was given (null: none yet), sent back with the next grade so one given meanwhile is not replaced blind. */
  gradedAt?: string | null;
  late: boolean;
  score: number | null;
  /** The score given before the late penalty (null when none applied). */
  rawScore?: number | null;
  /** This hand-in's late penalty (started days late, percent off). */
  latePenalty?: { days: number; percent: number };
  feedback: string | null;
  /** The filled rubric of a grade given with one. */
  rubric?: RubricAssessment | null;
  state: SubmissionState;
  /** Handed in again after it was graded (a held grade): graded again before the release. */
  changedSinceGraded?: boolean;
  /** Every version handed in, and the private conversation about this hand-in. */
  versions?: ThreadVersion[];
  comments?: ThreadComment[];
}

type Result = ({ ok: true; intent: string; submission: GraderSubmission } | (FailureLike & { ok: false; intent: string })) & { target?: string };
type Filter = "ungraded" | "late" | "all";
/** Why a score cannot be saved: none given, above the task's maximum, or not a whole number from 0. */
type ScoreProblem = "empty" | "max" | "invalid" | null;

/** The grader's fields for one student. */
interface Draft {
  score: string;
  feedback: string;
  choices: Record<string, number>;
}

/** What the fields hold for a student before anyone types: the grade given (its raw score, before a late penalty). */
function savedValues(s: GraderSubmission | null, rubric: { _id: string } | null): Draft {
  const given = s?.rawScore ?? s?.score;
  return {
    score: given !== null && given !== undefined ? String(given) : "",
    feedback: s?.feedback ?? "",
    // The levels given last time, when the grade was given with this rubric.
    choices: s?.rubric && rubric && s.rubric.rubricId === rubric._id ? Object.fromEntries(s.rubric.criteria.map((c) => [c.id, c.chosen])) : {},
  };
}

function sameDraft(a: Draft, b: Draft): boolean {
  const keys = new Set([...Object.keys(a.choices), ...Object.keys(b.choices)]);
  return a.score === b.score && a.feedback === b.feedback && [...keys].every((k) => a.choices[k] === b.choices[k]);
}

function scoreProblem(score: string, maxScore: number): ScoreProblem {
  const value = score.trim();
  if (value === "") return "empty";
  // Digits only: "4.5", "-3", "1e2" or "0x10" are not scores a person means to give.
  if (!/^\d+$/.test(value)) return "invalid";
  return Number(value) > maxScore ? "max" : null;
}

/**
 * J and K are matched by the physical key (`KeyboardEvent.code`), so they work whatever the keyboard layout: on an
 * Arabic layout the same keys type "ت" and "ن". The typed letter counts too, for events that carry no code.
 */
function graderMove(e: Pick<KeyboardEvent, "key" | "code">): 1 | -1 | 0 {
  if (e.code === "KeyJ" || e.key === "ArrowDown" || (!e.code && e.key === "j")) return 1;
  if (e.code === "KeyK" || e.key === "ArrowUp" || (!e.code && e.key === "k")) return -1;
  return 0;
}

const isUngraded = (s: GraderSubmission) => s.state !== "graded";
/** Who one of the grader's lists holds. */
const inList = (filter: Filter) => (s: GraderSubmission) => (filter === "all" ? true : filter === "late" ? s.late : isUngraded(s));
const FILTER_KEYS = { ungraded: "grader.filter.ungraded", late: "grader.filter.late", all: "grader.filter.all" } as const satisfies Record<Filter, MessageKey>;

/** Where the grader remembers whether J and K are on (this device's own choice). */
const LETTER_KEYS = "cohort.grader.letterKeys";

/**
 * The grader, made for going through a whole group: the students down the side (filter ungraded / late / all, a
 * "graded x of y" counter), the current submission with its link, notes and time, and a score and feedback that save
 * in the background. J or ↓ moves to the next student, K or ↑ to the previous (outside the text fields, by physical
 * key); "Save and next ungraded" (Ctrl+Enter) grades and moves on. A score that cannot be saved says why under the
 * field (tied to it with aria-describedby); trying to save it moves the focus there.
 */
export function Grader({
  taskId,
  maxScore,
  initial,
  missing,
  rubric = null,
  snippets = [],
  fileBase = null,
  extendHref = null,
  open = null,
}: {
  taskId: string;
  maxScore: number;
  initial: GraderSubmission[];
  missing: { _id: string; name: string }[];
  /** The task's rubric: scored a level per criterion, the total being the score. */
  rubric?: { _id: string; title: string; criteria: RubricCriterion[] } | null;
  /** The grader's comment bank (Alt+1 to Alt+9 in the feedback). */
  snippets?: Snippet[];
  /** Where this task's hand-in files are read: `${fileBase}/${submissionId}`. */
  fileBase?: string | null;
  /** The task's edit page, where a student who has not handed in is given more time (its extensions). */
  extendHref?: string | null;
  /** A hand-in to open first (a notification's link, `?submission=`), shown whatever its state. */
  open?: string | null;
}) {
  const { t } = useT();
  const fetcher = useFetcher<Result>();
  const [items, setItems] = usePropState(initial);
  const asked = open ? initial.find((s) => s._id === open) : undefined;
  // J and K on or off, remembered on this device (on by default; read after hydration, so the server's page agrees).
  const [letterKeys, setLetterKeysState] = useState(true);
  useEffect(() => {
    if (readKept<boolean>(LETTER_KEYS) === false) setLetterKeysState(false);
  }, []);
  const setLetterKeys = (on: boolean) => {
    setLetterKeysState(on);
    keep(LETTER_KEYS, on);
  };
  const [filter, setFilter] = useState<Filter>(asked && !isUngraded(asked) ? "all" : "ungraded");
  const [currentId, setCurrentId] = useState<string | null>(() => (asked ?? initial.find(isUngraded) ?? initial[0])?._id ?? null);
  const [score, setScore] = useState("");
  const [feedback, setFeedback] = useState("");
  const [choices, setChoices] = useState<Record<string, number>>({});
  const [announce, setAnnounce] = useState("");
  // The last answer of Save, shown beside the buttons while that student is on screen and unchanged since.
  const [done, setDone] = useState<{ id: string; intent: string } | null>(null);
  // An empty score is only a problem once someone tries to save it; a wrong one is said at once.
  const [triedEmpty, setTriedEmpty] = useState(false);
  const scoreRef = useRef<HTMLInputElement>(null);
  const handled = useRef<unknown>(null);
  // A save in flight, per student: the hand-in as it was and what was typed, put back if the save is refused.
  const inFlightSave = useRef(new Map<string, { before: GraderSubmission; draft: Draft }>());
  // The grade time each save answered with: the next save of that student says it replaces that one.
  const lastGraded = useRef(new Map<string, string | null>());
  // A refused save, said visibly in that student's panel (it used to be said to screen readers only).
  const [refused, setRefused] = useState<{ id: string; text: string } | null>(null);
  // What was typed for a student and not saved, kept while the grader looks at others (J/K, the list, the filter) and
  // shown again on coming back; leaving the page with any asks first. Recorded by the fields' own handlers, for the
  // student on screen when they typed.
  const drafts = useRef(new Map<string, Draft>());
  const [unsaved, setUnsaved] = useState<ReadonlySet<string>>(() => new Set());
  const noteDraft = (id: string, draft: Draft | null) => {
    if (draft) drafts.current.set(id, draft);
    else drafts.current.delete(id);
    setUnsaved(new Set(drafts.current.keys()));
  };

  // A name typed in the search box narrows the list, its letters folded as the server's searches fold them.
  const [query, setQuery] = useState("");
  const folded = foldForSearch(query);
  const listed = useCallback((f: Filter, q: string) => (s: GraderSubmission) => inList(f)(s) && (q === "" || foldForSearch(s.user.name).includes(q)), []);
  const shown = useMemo(() => items.filter(listed(filter, folded)), [items, filter, folded, listed]);
  const current = items.find((s) => s._id === currentId) ?? null;
  // The student on screen stays while the list changes under them (graded just now, so out of "Ungraded"); the panel
  // then says they are not in the list. Choosing another list, or a name, opens the first student it holds instead.
  const outside = current !== null && !shown.some((s) => s._id === current._id);
  const showOnly = (next: Filter, q = folded) => {
    const first = items.find(listed(next, q));
    if (current && !listed(next, q)(current) && first) setCurrentId(first._id);
  };
  const showAll = () => {
    setFilter("all");
    setQuery("");
  };
  const gradedCount = items.filter((s) => s.state === "graded").length;

  // The form follows the student on screen (their unsaved draft if there is one, else what was saved), in the same
  // render that shows their name: never a frame of one student's name over another's fields.
  const [loaded, setLoaded] = useState<{ s: GraderSubmission | null; r: typeof rubric } | null>(null);
  if (!loaded || loaded.s !== current || loaded.r !== rubric) {
    const draft = current ? drafts.current.get(current._id) : undefined;
    const saved = savedValues(current, rubric);
    setLoaded({ s: current, r: rubric });
    setScore(draft?.score ?? saved.score);
    setFeedback(draft?.feedback ?? saved.feedback);
    setChoices(draft?.choices ?? saved.choices);
    setTriedEmpty(false);
  }

  /** A field changed by the grader: the new value, and the student's draft (none once it matches what was saved). */
  const edit = (patch: Partial<Draft>) => {
    if (!current) return;
    const next: Draft = { score, feedback, choices, ...patch };
    if (patch.score !== undefined) setScore(patch.score);
    if (patch.feedback !== undefined) setFeedback(patch.feedback);
    if (patch.choices !== undefined) setChoices(patch.choices);
    noteDraft(current._id, sameDraft(next, savedValues(current, rubric)) ? null : next);
  };

  useEffect(() => {
    const result = fetcher.data;
    if (!result || handled.current === result || fetcher.state !== "idle") return;
    handled.current = result;
    if (result.ok) {
      inFlightSave.current.delete(result.submission._id);
      lastGraded.current.set(result.submission._id, result.submission.gradedAt ?? null);
      // The answer is the hand-in as graded; its versions and conversation (read with the page) stay as they were.
      setItems((list) => list.map((s) => (s._id === result.submission._id ? { ...result.submission, versions: result.submission.versions ?? s.versions, comments: result.submission.comments ?? s.comments } : s)));
      setDone({ id: result.submission._id, intent: result.intent });
      setAnnounce(t(result.intent === "return" ? "grader.returned" : "grader.saved", { name: result.submission.user.name }));
    } else {
      const text =
        result.code === "graded_elsewhere"
          ? t(result.fields?.score ? "grader.error.gradedElsewhereScore" : "grader.error.gradedElsewhere", { score: result.fields?.score ?? "", max: maxScore })
          : result.fields?.score
            ? t("grader.error.score", { max: maxScore })
            : failureText(t, result);
      setAnnounce(text);
      // Not saved: the hand-in is shown as it was (the list had marked it graded at once), with what was typed kept as
      // that student's draft. Graded meanwhile elsewhere: the next save says it replaces that grade, knowingly.
      const id = result.target;
      const kept = id ? inFlightSave.current.get(id) : undefined;
      if (id && kept) {
        inFlightSave.current.delete(id);
        if (result.code === "graded_elsewhere") lastGraded.current.set(id, result.fields?.graded || null);
        noteDraft(id, kept.draft);
        setItems((list) => list.map((s) => (s._id === id ? { ...kept.before } : s)));
        setRefused({ id, text });
      }
    }
  }, [fetcher.data, fetcher.state, maxScore, t]);

  // Set by an arrow key in the list of students: the student it opens takes the focus once shown (below).
  const focusCurrent = useRef(false);
  useEffect(() => {
    if (!focusCurrent.current) return;
    focusCurrent.current = false;
    document.querySelector<HTMLElement>('.grader-list [aria-current="true"]')?.focus();
  }, [currentId]);
  const move = useCallback(
    (by: 1 | -1, say: boolean) => {
      if (shown.length === 0) return;
      const i = shown.findIndex((s) => s._id === currentId);
      const at = Math.min(shown.length - 1, Math.max(0, (i === -1 ? -1 : i) + by));
      const next = shown[at];
      if (!next) return;
      setCurrentId(next._id);
      // J and K leave the focus where it was, so nothing else tells a screen reader whose work is now on screen.
      if (say) setAnnounce(t("grader.nowShowing", { name: next.user.name, n: at + 1, total: shown.length }));
    },
    [shown, currentId, t],
  );

  // Saves go out one at a time: a fetcher that submits again aborts its request in flight, which would drop the
  // grade before it (a fast "save and next" twice). The rest wait here until the fetcher is idle.
  const queue = useRef<Record<string, string>[]>([]);
  const sending = useRef(false);
  const send = (payload: Record<string, string>) => {
    sending.current = true;
    // A save that waited behind another of the same student replaces the grade that one gave, not the page's.
    const id = payload.submissionId!;
    const graded = lastGraded.current.has(id) ? (lastGraded.current.get(id) ?? "") : payload.graded!;
    void fetcher.submit({ ...payload, graded }, { method: "post" });
  };
  useEffect(() => {
    if (!sending.current || fetcher.state !== "idle") return;
    if (fetcher.data && handled.current !== fetcher.data) return; // the answer is read first (the effect above)
    sending.current = false;
    const next = queue.current.shift();
    if (next) send(next);
  });

  const filled = rubric ? fillRubric(rubric.criteria, choices) : null;
  // With a rubric, the score is the levels' points; a criterion without a level is the problem.
  const problem: ScoreProblem | "rubric" = filled ? (filled.ok ? null : "rubric") : scoreProblem(score, maxScore);
  const rubricScore = filled?.ok ? String(filled.points) : "";
  // An empty score or an unfinished rubric is a problem only once someone tries to save it.
  const shownProblem = (problem === "empty" || problem === "rubric") && !triedEmpty ? null : problem;

  const save = (intent: "grade" | "return", thenNext: boolean) => {
    if (!current) return;
    if (intent === "grade" && problem) {
      setTriedEmpty(true);
      if (problem === "rubric") focusRefused(document.querySelector<HTMLInputElement>(".rubric-criterion:not(:has(input:checked)) input"));
      else focusRefused(scoreRef.current);
      return;
    }
    const given = rubric ? rubricScore : score;
    inFlightSave.current.set(current._id, { before: current, draft: { score, feedback, choices } });
    if (refused?.id === current._id) setRefused(null);
    noteDraft(current._id, null);
    // The version the grader is looking at: a newer one handed in meanwhile is refused, not graded blind; so is a grade
    // given meanwhile elsewhere (the one this replaces is named).
    const seen = { intent, submissionId: current._id, version: current.submittedAt, graded: current.gradedAt ?? "" };
    const payload: Record<string, string> = rubric ? { ...seen, rubric: JSON.stringify(choices), feedback } : { ...seen, score, feedback };
    if (sending.current) queue.current.push(payload);
    else send(payload);
    if (intent === "grade") setItems((list) => list.map((s) => (s._id === current._id ? { ...s, score: Number(given), feedback, state: "graded", changedSinceGraded: false } : s)));
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
        // In the conversation's box the shortcut sends the message, as it does in a chat: it never grades.
        const conversation = e.target instanceof Element ? e.target.closest<HTMLFormElement>(".submission-comment-form") : null;
        if (conversation) conversation.requestSubmit();
        else document.getElementById("grader-save-next")?.click();
        return;
      }
      if (inField || e.altKey || e.ctrlKey || e.metaKey) return;
      // J and K wherever the focus is not in a field; the arrows only in the list of students, so that elsewhere
      // (a hand-in's link, the page itself) they scroll the page as everywhere else.
      const arrow = e.key === "ArrowDown" || e.key === "ArrowUp";
      if (arrow && !(e.target instanceof Element && e.target.closest(".grader-list"))) return;
      if (!arrow && !letterKeys) return;
      const by = graderMove(e);
      if (by !== 0) {
        e.preventDefault();
        // An arrow in the list moves the focus with the student (a focus left on the one before would open it again on
        // Enter); J and K leave the focus where it is.
        focusCurrent.current = arrow;
        move(by, !arrow);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [move, letterKeys]);

  const problemText =
    shownProblem === "rubric"
      ? t("rubrics.error.pick")
      : shownProblem === "max"
      ? t("grader.error.scoreMax", { score: score.trim(), max: maxScore })
      : shownProblem === "empty"
        ? t("grader.error.scoreEmpty", { max: maxScore })
        : shownProblem === "invalid"
          ? t("grader.error.score", { max: maxScore })
          : null;

  // Said once to screen readers when it appears (the status line below); the field keeps it as its description.
  useEffect(() => {
    if (problemText) setAnnounce(problemText);
  }, [problemText]);

  return (
    <div className="grader">
      <UnsavedChanges dirty={() => drafts.current.size > 0} />
      <p className="visually-hidden" role="status" aria-live="polite">
        {announce}
      </p>
      <div className="grader-side">
        <div className="grader-tools">
          <label htmlFor="grader-filter" className="visually-hidden">
            {t("grader.filter")}
          </label>
          <select
            id="grader-filter"
            value={filter}
            onChange={(e) => {
              setFilter(e.target.value as Filter);
              showOnly(e.target.value as Filter);
            }}
          >
            <option value="ungraded">{t("grader.filter.ungraded")}</option>
            <option value="late">{t("grader.filter.late")}</option>
            <option value="all">{t("grader.filter.all")}</option>
          </select>
          <p className="grader-count" data-testid="graded-count">
            {t("grader.count", { graded: gradedCount, total: items.length })}
          </p>
        </div>
        {items.length > 0 ? (
          <div className="grader-search">
            <label htmlFor="grader-search" className="visually-hidden">
              {t("grader.search")}
            </label>
            <input
              id="grader-search"
              type="search"
              value={query}
              placeholder={t("grader.search")}
              autoComplete="off"
              dir="auto"
              onChange={(e) => {
                setQuery(e.target.value);
                showOnly(filter, foldForSearch(e.target.value));
              }}
            />
          </div>
        ) : null}
        {shown.length === 0 ? (
          <p className="empty-inline" role={folded ? "status" : undefined}>
            {folded ? t("grader.noMatch", { name: query.trim() }) : t(items.length === 0 ? "grader.none" : "grader.allDone")}
          </p>
        ) : (
          // A list of buttons (not a listbox of options holding buttons: no control inside another); the one on screen
          // is aria-current.
          <ul className="grader-list" role="list" aria-label={t("grader.students")}>
            {shown.map((s) => (
              <li key={s._id}>
                <button
                  type="button"
                  className="grader-student"
                  data-current={s._id === currentId || undefined}
                  aria-current={s._id === currentId ? "true" : undefined}
                  onClick={() => {
                    setCurrentId(s._id);
                    // Below a long list on a phone (one column): the chosen student's work is brought into view, once
                    // drawn, if it is out of view (beside the list, on a wide screen, it already is).
                    requestAnimationFrame(() => {
                      const heading = document.getElementById("grader-name");
                      const box = heading?.getBoundingClientRect();
                      if (heading && box && (box.top < 0 || box.bottom > window.innerHeight)) heading.scrollIntoView({ block: "start" });
                    });
                  }}
                >
                  <span className="user-text" dir="auto">
                    {s.user.name}
                  </span>
                  {unsaved.has(s._id) ? (
                    <span className="badge task-state" data-state="draft">
                      {t("grader.unsaved")}
                    </span>
                  ) : null}
                  {s.changedSinceGraded ? (
                    <span className="badge task-state" data-state="changed">
                      {t("grader.changed")}
                    </span>
                  ) : (
                    <span className="badge task-state" data-state={s.state}>
                      {s.state === "graded" && s.score !== null ? `${s.score}/${maxScore}` : t(STATE_KEYS[s.state])}
                    </span>
                  )}
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
                <li key={m._id} className="grader-missing-row">
                  <span className="user-text" dir="auto">
                    {m.name}
                  </span>
                  {extendHref ? (
                    <Link to={`${extendHref}?extend=${encodeURIComponent(m._id)}#extensions`} className="grader-extend">
                      {t("grader.extend")}
                      <span className="visually-hidden"> {m.name}</span>
                    </Link>
                  ) : null}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
        <p className="muted grader-keys">{t("grader.keys")}</p>
        {/* Single-key shortcuts can be turned off (WCAG 2.1.4): speech input or a stray key would move on otherwise. */}
        <label className="check-field grader-keys-switch">
          <input type="checkbox" checked={letterKeys} onChange={(e) => setLetterKeys(e.target.checked)} />
          <span>{t("grader.letterKeys")}</span>
        </label>
      </div>

      {current ? (
        <section className="card grader-main" aria-labelledby="grader-name">
          <h2 id="grader-name" className="block-title user-text">
            {current.user.name}
          </h2>
          {outside ? (
            <p className="grader-outside" role="note">
              {folded ? t("grader.outsideSearch") : t("grader.outside", { list: t(FILTER_KEYS[filter]) })}{" "}
              <button type="button" className="btn btn-ghost btn-sm" onClick={showAll}>
                {t("grader.showAll")}
              </button>
            </p>
          ) : null}
          {current.code !== null ? (
            <CodeHandIn key={current._id} code={current.code} report={current.report} wholeReportUrl={`/staff/submission/${taskId}/${current._id}`} />
          ) : current.file && fileBase ? (
            <HandInFile key={current._id} file={current.file} url={`${fileBase}/${current._id}`} preview />
          ) : (
            <WorkLink link={current.link} />
          )}
          <p className="muted">
            {t("tasks.submittedAt")} <When iso={current.submittedAt} />
            {current.late ? <span className="badge task-state" data-state="late">{t("tasks.state.late")}</span> : null}
          </p>
          {current.changedSinceGraded ? <p className="grader-changed">{t("grader.changed.note")}</p> : null}
          {current.notes ? (
            <p className="work-notes" dir="auto">
              {current.notes}
            </p>
          ) : null}
          {rubric && filled ? (
            <div className="grader-rubric">
              <RubricScorer criteria={rubric.criteria} choices={choices} onChoose={(id, level) => edit({ choices: { ...choices, [id]: level } })} idPrefix="grader-rubric" after="grader-feedback" />
              <p id="grader-rubric-total" className="rubric-total" aria-live="polite">
                {/* A total is a score only once every criterion has its level: before, "—" and how many are left. */}
                {filled.ok
                  ? t("rubrics.scoreTotal", { got: filled.points, max: maxScore })
                  : t("rubrics.scorePending", { max: maxScore, n: rubric.criteria.filter((c) => !c.levels[choices[c.id] ?? -1]).length })}
              </p>
              {problemText ? (
                <p id="grader-score-error" className="field-error">
                  {problemText}
                </p>
              ) : null}
              {current.latePenalty && current.latePenalty.percent > 0 ? (
                <p className="field-hint field-hint-block grader-penalty">
                  {filled.ok
                    ? t("grader.penalty.counts", { days: current.latePenalty.days, percent: current.latePenalty.percent, score: filled.points, final: afterPenalty(filled.points, current.latePenalty.percent) })
                    : t("grader.penalty", { days: current.latePenalty.days, percent: current.latePenalty.percent })}
                </p>
              ) : null}
            </div>
          ) : (
          <div className="field">
            <label htmlFor="grader-score">{t("grader.score", { max: maxScore })}</label>
            <input
              ref={scoreRef}
              id="grader-score"
              type="text"
              inputMode="numeric"
              autoComplete="off"
              value={score}
              // Text, not type=number: a score typed on an Arabic keyboard (٧) is read as 7 instead of being dropped.
              onChange={(e) => {
                edit({ score: toLatinDigits(e.target.value) });
                setTriedEmpty(false);
              }}
              className="input-narrow"
              aria-invalid={problemText ? true : undefined}
              aria-describedby={problemText ? "grader-score-error" : undefined}
            />
            {problemText ? (
              <p id="grader-score-error" className="field-error">
                {problemText}
              </p>
            ) : null}
            {current.latePenalty && current.latePenalty.percent > 0 ? (
              <p id="grader-penalty" className="field-hint field-hint-block grader-penalty" aria-live="polite">
                {problem === null
                  ? t("grader.penalty.counts", { days: current.latePenalty.days, percent: current.latePenalty.percent, score: Number(score), final: afterPenalty(Number(score), current.latePenalty.percent) })
                  : t("grader.penalty", { days: current.latePenalty.days, percent: current.latePenalty.percent })}
              </p>
            ) : null}
          </div>
          )}
          <FeedbackField value={feedback} onChange={(value) => edit({ feedback: value })} snippets={snippets} />
          <div className="form-actions">
            <button id="grader-save-next" type="button" className="btn btn-primary" onClick={() => save("grade", true)}>
              {t("grader.saveNext")}
            </button>
            <button type="button" className="btn btn-outline" onClick={() => save("grade", false)}>
              {t("grader.save")}
            </button>
            <button type="button" className="btn btn-ghost" onClick={() => save("return", false)}>
              {t("grader.return")}
            </button>
            {refused && refused.id === current._id ? (
              <p className="form-error grader-refused" aria-hidden="true">
                {refused.text}
              </p>
            ) : null}
            {/* Seen as well as heard (the status line above is for screen readers): hidden from them here. */}
            {done && done.id === current._id && !drafts.current.has(current._id) && fetcher.state === "idle" ? (
              <p className="grader-done" aria-hidden="true">
                <CheckIcon />
                {t(done.intent === "return" ? "grader.returnedShort" : "grader.savedShort")}
              </p>
            ) : null}
          </div>
          <SubmissionThread key={`thread-${current._id}`} submissionId={current._id} versions={current.versions ?? []} comments={current.comments ?? []} viewerIsStaff />
        </section>
      ) : null}
    </div>
  );
}
