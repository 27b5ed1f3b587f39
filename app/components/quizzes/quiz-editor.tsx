import { Form, Link, useActionData, useFetcher, useNavigate, useNavigation } from "@remix-run/react";
import { arrivalState } from "~/components/arrival-notice";
import { useEffect, useId, useRef, useState, type InputHTMLAttributes } from "react";
import { useFocusFirstProblem } from "~/lib/use-editor-focus";
import { PlusIcon } from "~/components/icons";
import { ConfirmedIntentButton } from "~/components/confirm-dialog";
import { fromLocalInput, toLocalInput } from "~/components/lectures/when";
import type { MessageKey } from "~/i18n/en";
import { useT } from "~/lib/i18n";
import { formatList } from "~/lib/intl-cache";
import { EDITOR_CODES, editorProblem, problemControl } from "./quiz-editor-errors";
import { CodeField } from "~/components/exercises/code-field";
import { rowsToTests, TestsEditor, toTestRow, type TestRow } from "~/components/exercises/tests-editor";
import { EXERCISE_LIMITS } from "~/lib/exercise-rules";
import { QUESTION_TYPES, QUIZ_LIMITS, SHOW_ANSWERS, type QuestionType, type ShowAnswers } from "~/lib/quiz-rules";
import type { CodeTest } from "../../../worker/sandbox/types";
import type { QuizDraw } from "~/lib/quiz-paper";
import { isolate } from "~/lib/bidi";
import { toLatinDigits } from "~/lib/digits";
import { UnsavedChanges } from "~/components/unsaved-changes";
import { RefusalText } from "~/components/form-field";

/** A question as the editor holds it: options and correct answers in the shape of its type. */
export interface Draft {
  key: string;
  text: string;
  type: QuestionType;
  options: string[];
  /** Option indexes (choice types). */
  correct: number[];
  /** Accepted answers, one per line (short-text). */
  accepted: string;
  points: number;
  /** A code question: starter code, reference solution, tests and limits. */
  starter: string;
  reference: string;
  tests: TestRow[];
  timeMs: number;
  memoryMb: number;
}

export interface EditorQuiz {
  slug: string;
  title: string;
  description: string;
  durationMinutes: number | null;
  opensAt: string | null;
  closesAt: string | null;
  maxAttempts: number;
  showAnswers: ShowAnswers;
  published: boolean;
  /** Bank draws and shuffles (issue 21). */
  draws?: QuizDraw[];
  shuffleQuestions?: boolean;
  shuffleOptions?: boolean;
  questions: {
    _id: string;
    text: string;
    type: QuestionType;
    options: string[];
    points: number;
    correct?: (number | string)[];
    code?: { starterCode: string; timeMs: number; memoryMb: number } | null;
    codeTests?: CodeTest[] | null;
  }[];
}

type SaveResult = { ok: true; intent: string } | { ok: false; intent: string; code: string; message: string; fields?: Record<string, string> } | undefined;

let counter = 0;
const newKey = () => `q${++counter}`;
const codeDefaults = { starter: "", reference: "", timeMs: EXERCISE_LIMITS.timeMs.default, memoryMb: EXERCISE_LIMITS.memoryMb.default };
export const blank = (): Draft => ({ key: newKey(), text: "", type: "single", options: ["", ""], correct: [0], accepted: "", points: 1, ...codeDefaults, tests: [toTestRow()] });

/** A question nobody has written anything in yet (the one a new quiz starts with). */
function untouched(d: Draft): boolean {
  return d.text.trim() === "" && d.options.every((o) => o.trim() === "") && d.accepted.trim() === "" && d.starter.trim() === "" && d.reference.trim() === "";
}

export function toDraft(q: EditorQuiz["questions"][number]): Draft {
  const correct = q.correct ?? [];
  return {
    key: newKey(),
    text: q.text,
    type: q.type,
    options: q.type === "single" || q.type === "multiple" ? [...q.options] : [],
    correct: q.type === "short-text" || q.type === "code" ? [] : (correct as number[]),
    accepted: q.type === "short-text" ? (correct as string[]).join("\n") : "",
    points: q.points,
    starter: q.code?.starterCode ?? "",
    reference: q.type === "code" ? String(correct[0] ?? "") : "",
    tests: q.codeTests?.length ? q.codeTests.map(toTestRow) : [toTestRow()],
    timeMs: q.code?.timeMs ?? codeDefaults.timeMs,
    memoryMb: q.code?.memoryMb ?? codeDefaults.memoryMb,
  };
}

export function toPayload(d: Draft) {
  // Quiz tests are never shown to students, so they are all "hidden".
  if (d.type === "code")
    return { text: d.text, type: d.type, correct: d.reference, code: { starterCode: d.starter, tests: rowsToTests(d.tests).map((test) => ({ ...test, hidden: true })), timeMs: d.timeMs, memoryMb: d.memoryMb }, points: d.points };
  if (d.type === "short-text") return { text: d.text, type: d.type, correct: d.accepted.split("\n").map((s) => s.trim()).filter(Boolean), points: d.points };
  if (d.type === "true-false") return { text: d.text, type: d.type, correct: d.correct.slice(0, 1), points: d.points };
  return { text: d.text, type: d.type, options: d.options, correct: d.correct, points: d.points };
}

/**
 * A whole number typed in a box, in Latin or Arabic-Indic digits, as a number; anything else as the text itself, so
 * the server refuses it at its field (an empty box is not "no value": a timed quiz's duration must not read as none).
 */
function wholeNumber(typed: string): number | string {
  const digits = toLatinDigits(typed).trim();
  return /^\d{1,6}$/.test(digits) ? Number(digits) : digits;
}

/**
 * A box for a whole number that reads Latin and Arabic-Indic digits alike (Chromium's number input drops ٣), keeping
 * what is typed as typed and giving the number, or NaN for anything else (sent as null: the server says what is wrong).
 */
function NumberBox({ value, onValue, ...rest }: { value: number; onValue: (n: number) => void } & Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange" | "type">) {
  const [text, setText] = useState(Number.isFinite(value) ? String(value) : "");
  // A value changed from outside (a reset, a drawn tag's limit) shows; what is being typed is left alone.
  useEffect(() => {
    setText((typed) => (Number.isFinite(value) && wholeNumber(typed) !== value ? String(value) : typed));
  }, [value]);
  return (
    <input
      {...rest}
      type="text"
      inputMode="numeric"
      dir="ltr"
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        const n = wholeNumber(e.target.value);
        onValue(typeof n === "number" ? n : Number.NaN);
      }}
    />
  );
}

/**
 * A settings field for a whole number kept as typed (Latin or Arabic-Indic digits), sent through `wholeNumber`, with
 * its refusal said under it.
 */
function WholeNumberField({ id, label, value, onChange, error }: { id: string; label: string; value: string; onChange: (typed: string) => void; error: string | null }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="text" inputMode="numeric" dir="ltr" className="input-narrow" value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={!!error || undefined} aria-describedby={error ? `${id}-error` : undefined} />
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The quiz editor: settings (time, window, attempts, review policy, published) and the questions (add, reorder,
 * type, options with their correct marks, accepted short answers, points, a Markdown preview rendered by the
 * server exactly as students will see it). The whole quiz is sent as one JSON payload and validated by the server.
 */
export function QuizEditor({
  quiz,
  started,
  listPath,
  lectureTitle,
  studentPath,
  previewPath = null,
  bankTags = {},
  otherDraws = [],
}: {
  quiz: EditorQuiz | null;
  started: boolean;
  listPath: string;
  lectureTitle: string;
  studentPath: string | null;
  /** The staff's preview of the saved quiz as a student gets it (an existing quiz only). */
  previewPath?: string | null;
  /** The group's question bank: each tag with how many questions it has (draws choose from these). */
  bankTags?: Record<string, number>;
  /** The group's other quizzes that still draw from the bank, with their tags: a shared tag keeps keys back. */
  otherDraws?: { title: string; tags: string[] }[];
}) {
  const { t, lang } = useT();
  const result = useActionData<SaveResult>();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const [title, setTitle] = useState(quiz?.title ?? "");
  const [description, setDescription] = useState(quiz?.description ?? "");
  const [timed, setTimed] = useState(quiz ? quiz.durationMinutes !== null : true);
  const [duration, setDuration] = useState(String(quiz?.durationMinutes ?? 15));
  const [opensAt, setOpensAt] = useState(() => toLocalInput(quiz?.opensAt ?? null));
  const [closesAt, setClosesAt] = useState(() => toLocalInput(quiz?.closesAt ?? null));
  const [maxAttempts, setMaxAttempts] = useState(String(quiz?.maxAttempts ?? 1));
  // New quizzes show the answers after closing: answers shown at hand-in can be relayed to classmates still answering.
  // A new quiz's review policy follows its closing time until staff choose one (the server's own default): after it
  // closes when it has a closing time, otherwise never. So a blank form asks for nothing before anything is typed.
  const [showAnswers, setShowAnswers] = useState<ShowAnswers>(quiz?.showAnswers ?? "never");
  const [showChosen, setShowChosen] = useState(!!quiz);
  const [published, setPublished] = useState(quiz?.published ?? false);
  const [drafts, setDrafts] = useState<Draft[]>(() => (quiz ? quiz.questions.map(toDraft) : [blank()]));
  // A question just added opens below, often out of view: the keyboard goes on from its first field.
  // (Found by its place in the list: a draft's key is the browser's own, never written into the page.)
  const addedKey = useRef<string | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const key = addedKey.current;
    if (!key) return;
    addedKey.current = null;
    const at = drafts.findIndex((d) => d.key === key);
    const first = listRef.current?.children[at]?.querySelector<HTMLElement>("select");
    first?.focus({ preventScroll: true });
    first?.scrollIntoView({ block: "center" });
  }, [drafts]);
  const [draws, setDraws] = useState<QuizDraw[]>(() => quiz?.draws ?? []);
  // The other quizzes drawing from a tag this one draws: while they may still give a question, its key is kept back.
  const drawnTags = new Set(draws.map((d) => d.tag));
  // Named once each (two quizzes may share a title).
  const sharing = [...new Set(otherDraws.filter((o) => o.tags.some((tag) => drawnTags.has(tag))).map((o) => o.title))];
  const sharingNames = formatList(lang, sharing.map((q) => (lang === "ar" ? `«${q}»` : `“${q}”`)));
  const [shuffleQuestions, setShuffleQuestions] = useState(quiz?.shuffleQuestions ?? false);
  const [shuffleOptions, setShuffleOptions] = useState(quiz?.shuffleOptions ?? false);
  const busy = navigation.state !== "idle";

  useEffect(() => {
    if (result?.ok && (result.intent === "delete" || !quiz)) navigate(listPath, arrivalState({ kind: "quiz", done: result.intent === "delete" ? "deleted" : "created", title: quiz?.title ?? title }));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the title as saved, read once per result
  }, [result, quiz, navigate, listPath]);

  const update = (i: number, change: Partial<Draft>) => setDrafts((list) => list.map((d, j) => (j === i ? { ...d, ...change } : d)));
  const move = (i: number, by: number) =>
    setDrafts((list) => {
      const next = [...list];
      const [item] = next.splice(i, 1);
      next.splice(i + by, 0, item!);
      return next;
    });
  const totals = drafts.reduce((sum, d) => sum + (Number.isFinite(d.points) ? d.points : 0), 0) + draws.reduce((sum, d) => sum + d.count * d.points, 0);
  const questionTotal = drafts.length + draws.reduce((sum, d) => sum + d.count, 0);
  const tagNames = Object.keys(bankTags).sort((a, b) => a.localeCompare(b));
  const addDraw = () => {
    // A quiz drawn from the bank does not keep the empty question a new quiz starts with.
    setDrafts((list) => (list.length === 1 && untouched(list[0]!) ? [] : list));
    setDraws((list) => [...list, { tag: tagNames.find((n) => !list.some((x) => x.tag === n)) ?? tagNames[0]!, count: 1, points: 1 }]);
  };

  const payload = {
    title,
    description,
    // A timed quiz always sends its duration as typed when it is not a number: an empty or unreadable box is refused
    // at its field, never saved as "untimed" (null).
    durationMinutes: timed ? wholeNumber(duration) : null,
    opensAt: fromLocalInput(opensAt),
    closesAt: fromLocalInput(closesAt),
    maxAttempts: wholeNumber(maxAttempts),
    showAnswers,
    published,
    ...(started ? {} : { questions: drafts.map(toPayload), draws, shuffleQuestions, shuffleOptions }),
  };
  const failure = result && !result.ok ? result : null;
  const fieldError = (name: string) => failure?.fields?.[name];
  /** The server's word on the closing time, in the reader's language (quiz-schemas.ts checkWindow and dateTime). */
  const windowError = (message: string) =>
    message.startsWith("The quiz must close after") ? t("quizEditor.error.closesBeforeOpens") : message.startsWith("Answers shown after") ? t("quizEditor.error.needsClosing") : t("quizEditor.error.dateTime");
  const questionError = (i: number) => Object.entries(failure?.fields ?? {}).find(([k]) => k.startsWith(`questions.${i}.`) || k === `questions.${i}`)?.[1];
  const formError = failure && !Object.keys(failure.fields ?? {}).some((k) => k.startsWith("questions.") || ["title", "durationMinutes", "opensAt", "closesAt", "maxAttempts", "draws"].includes(k)) ? failure.message : null;

  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstProblem(formRef, failure, !busy);

  return (
    <Form ref={formRef} method="post" className="quiz-editor" aria-labelledby="quiz-editor-title">
      <UnsavedChanges form={formRef} saved={result?.ok ? result : null} />
      <input type="hidden" name="payload" value={JSON.stringify(payload)} />
      <div className="card form-card">
        <div className="task-form-head">
          <h2 id="quiz-editor-title" className="task-card-title">
            {t(quiz ? "quizEditor.edit" : "quizEditor.new")}
          </h2>
          <p className="muted user-text">{lectureTitle}</p>
          {studentPath ? (
            <Link to={studentPath} className="quiz-editor-link">
              {t("quizEditor.studentView")}
            </Link>
          ) : null}
          {previewPath ? (
            <Link to={previewPath} className="quiz-editor-link">
              {t("quizPreview.open")}
            </Link>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor="quiz-title">{t("quizEditor.field.title")}</label>
          <input id="quiz-title" required maxLength={QUIZ_LIMITS.title} dir="auto" value={title} onChange={(e) => setTitle(e.target.value)} aria-invalid={!!fieldError("title") || undefined} aria-describedby={fieldError("title") ? "quiz-title-error" : undefined} />
          {fieldError("title") ? (
            <p id="quiz-title-error" className="field-error">
              {t("lectures.error.title")}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor="quiz-description">{t("quizEditor.field.description")}</label>
          <textarea id="quiz-description" rows={3} dir="auto" maxLength={QUIZ_LIMITS.description} value={description} onChange={(e) => setDescription(e.target.value)} />
        </div>
        <label className="check-field">
          <input type="checkbox" checked={timed} onChange={(e) => setTimed(e.target.checked)} />
          <span>{t("quizEditor.field.timed")}</span>
        </label>
        <div className="field-row">
          {timed ? (
            <WholeNumberField
              id="quiz-duration"
              label={t("quizEditor.field.duration")}
              value={duration}
              onChange={setDuration}
              error={fieldError("durationMinutes") ? t("quizEditor.error.duration", { max: QUIZ_LIMITS.durationMinutes }) : null}
            />
          ) : null}
          <WholeNumberField
            id="quiz-attempts"
            label={t("quizEditor.field.maxAttempts")}
            value={maxAttempts}
            onChange={setMaxAttempts}
            error={fieldError("maxAttempts") ? t("quizEditor.error.attempts", { max: QUIZ_LIMITS.maxAttempts }) : null}
          />
        </div>
        <div className="field-row">
          <div className="field">
            <label htmlFor="quiz-opens">{t("quizEditor.field.opensAt")}</label>
            <input id="quiz-opens" type="datetime-local" value={opensAt} onChange={(e) => setOpensAt(e.target.value)} aria-describedby="quiz-window-hint" aria-invalid={!!fieldError("opensAt") || undefined} />
          </div>
          <div className="field">
            <label htmlFor="quiz-closes">{t("quizEditor.field.closesAt")}</label>
            <input
              id="quiz-closes"
              type="datetime-local"
              value={closesAt}
              onChange={(e) => {
                setClosesAt(e.target.value);
                if (!showChosen) setShowAnswers(e.target.value ? "after-close" : "never");
              }}
              aria-describedby="quiz-window-hint"
              aria-invalid={!!fieldError("closesAt") || undefined}
            />
          </div>
        </div>
        <p id="quiz-window-hint" className="field-hint">
          {t("quizEditor.field.windowHint")}
        </p>
        {fieldError("opensAt") ? <p className="field-error">{t("quizEditor.error.dateTime")}</p> : null}
        {fieldError("closesAt") ? (
          <p className="field-error">{windowError(fieldError("closesAt")!)}</p>
        ) : showAnswers === "after-close" && closesAt === "" ? (
          // Said before saving, not only after: the default review policy needs a closing time.
          <p className="field-hint" data-warn="">
            {t("quizEditor.window.needsClosing")}
          </p>
        ) : null}
        <div className="field">
          <label htmlFor="quiz-show">{t("quizEditor.field.showAnswers")}</label>
          <select
            id="quiz-show"
            value={showAnswers}
            onChange={(e) => {
              setShowAnswers(e.target.value as ShowAnswers);
              setShowChosen(true);
            }}
            aria-describedby="quiz-show-hint"
          >
            {SHOW_ANSWERS.map((s) => (
              <option key={s} value={s}>
                {t(`quizEditor.showAnswers.${s}` as MessageKey)}
              </option>
            ))}
          </select>
          <p id="quiz-show-hint" className="field-hint" data-warn={showAnswers === "after-submit" || undefined}>
            {t(`quizEditor.showAnswers.hint.${showAnswers}` as MessageKey)}
          </p>
        </div>
        <label className="check-field">
          <input type="checkbox" checked={published} onChange={(e) => setPublished(e.target.checked)} />
          <span>{t("quizEditor.field.published")}</span>
        </label>
      </div>

      <section className="quiz-editor-questions" aria-labelledby="quiz-questions-title">
        <div className="section-head">
          <h2 id="quiz-questions-title" className="block-title">
            {t("quizEditor.questions")}
          </h2>
          <p className="muted">{t("quizEditor.totals", { n: questionTotal, points: totals })}</p>
        </div>
        {started ? (
          <p className="notice" role="note">
            {t("quizEditor.locked")}
          </p>
        ) : null}
        <ol ref={listRef} className="quiz-editor-list" role="list">
          {drafts.map((d, i) => (
            <li key={d.key}>
              <QuestionEditor
                draft={d}
                n={i + 1}
                // With bank draws the quiz may keep no question of its own.
                total={drafts.length + (draws.length > 0 ? 1 : 0)}
                locked={started}
                error={questionError(i)}
                onChange={(change) => update(i, change)}
                onMove={(by) => move(i, by)}
                onRemove={() => setDrafts((list) => list.filter((_, j) => j !== i))}
              />
            </li>
          ))}
        </ol>
        {!started ? (
          <button
            type="button"
            className="btn btn-outline"
            onClick={() => {
              const added = blank();
              addedKey.current = added.key;
              setDrafts((list) => [...list, added]);
            }}
            disabled={drafts.length >= QUIZ_LIMITS.questions}
          >
            <PlusIcon />
            {t("quizEditor.add")}
          </button>
        ) : null}
      </section>

      <section className="card form-card quiz-editor-bank" aria-labelledby="quiz-bank-title">
        <h2 id="quiz-bank-title" className="task-card-title">
          {t("quizEditor.bank.title")}
        </h2>
        <p className="field-hint field-hint-block">{t(tagNames.length ? "quizEditor.bank.lead" : "quizEditor.bank.none")}</p>
        <fieldset className="quiz-editor-draws" disabled={started}>
          <legend className="visually-hidden">{t("quizEditor.bank.title")}</legend>
          {draws.map((d, i) => (
            <div key={i} className="field-row quiz-editor-draw">
              <div className="field">
                <label htmlFor={`draw-tag-${i}`}>{t("quizEditor.bank.tag")}</label>
                <select id={`draw-tag-${i}`} value={d.tag} onChange={(e) => setDraws((list) => list.map((x, j) => (j === i ? { ...x, tag: e.target.value } : x)))}>
                  {[...new Set([d.tag, ...tagNames])].map((name) => (
                    <option key={name} value={name}>
                      {t("quizEditor.bank.tagOption", { tag: name, n: bankTags[name] ?? 0 })}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label htmlFor={`draw-count-${i}`}>{t("quizEditor.bank.count")}</label>
                <NumberBox id={`draw-count-${i}`} className="input-narrow" value={d.count} onValue={(count) => setDraws((list) => list.map((x, j) => (j === i ? { ...x, count } : x)))} />
              </div>
              <div className="field">
                <label htmlFor={`draw-points-${i}`}>{t("quizEditor.bank.points")}</label>
                <NumberBox id={`draw-points-${i}`} className="input-narrow" value={d.points} onValue={(points) => setDraws((list) => list.map((x, j) => (j === i ? { ...x, points } : x)))} />
              </div>
              <button type="button" className="btn btn-ghost btn-sm btn-destructive-ghost quiz-editor-draw-remove" onClick={() => setDraws((list) => list.filter((_, j) => j !== i))}>
                {t("quizEditor.bank.remove")}
              </button>
            </div>
          ))}
          {tagNames.length ? (
            <button type="button" className="btn btn-outline btn-sm" onClick={addDraw} disabled={draws.length >= 10}>
              {t("quizEditor.bank.add")}
            </button>
          ) : null}
          {fieldError("draws") ? <p className="field-error">{t("quizEditor.bank.error")}</p> : null}
          {sharing.length > 0 ? (
            <p className="field-hint field-hint-block quiz-editor-shared">
              {/* The quizzes are named once: in the sentence on keys when answers are ever shown, else in the one on scores. */}
              {showAnswers !== "never"
                ? `${t("quizEditor.bank.shared", { quizzes: sharingNames })} ${t("quizEditor.bank.sharedScoresToo")}`
                : t("quizEditor.bank.sharedScores", { quizzes: sharingNames })}
            </p>
          ) : null}
          <label className="check-field">
            <input type="checkbox" checked={shuffleQuestions} onChange={(e) => setShuffleQuestions(e.target.checked)} />
            <span>{t("quizEditor.bank.shuffleQuestions")}</span>
          </label>
          <label className="check-field">
            <input type="checkbox" checked={shuffleOptions} onChange={(e) => setShuffleOptions(e.target.checked)} />
            <span>{t("quizEditor.bank.shuffleOptions")}</span>
          </label>
        </fieldset>
      </section>

      {formError ? (
        <RefusalText className="form-error" attempt={failure}>
          {failure && EDITOR_CODES[failure.code] ? t(EDITOR_CODES[failure.code]!) : t("quizEditor.error.form", { message: editorProblem(t, lang, formError) })}
        </RefusalText>
      ) : null}
      {failure && Object.keys(failure.fields ?? {}).some((k) => k.startsWith("questions.")) ? (
        <RefusalText className="form-error" attempt={failure}>
          {t("quizEditor.error.questions")}
        </RefusalText>
      ) : null}
      {result?.ok && quiz && result.intent === "save" ? (
        <p className="form-success" role="status">
          {t("quizEditor.saved")}
        </p>
      ) : null}
      <div className="form-actions quiz-editor-actions">
        <button type="submit" name="intent" value="save" className="btn btn-primary" disabled={busy}>
          {busy ? t("quizEditor.saving") : t(quiz ? "quizEditor.save" : "quizEditor.create")}
        </button>
        <Link to={listPath} className="btn btn-ghost">
          {t("quizEditor.back")}
        </Link>
        {quiz ? (
          <ConfirmedIntentButton
            intent="delete"
            label={t("quizEditor.delete")}
            title={t("quizEditor.deleteTitle", { title: isolate(quiz.title) })}
            body={t("quizEditor.deleteBody")}
            confirmLabel={t("quizEditor.delete")}
            busyLabel={t("lectures.deleting")}
          />
        ) : null}
      </div>
    </Form>
  );
}

export function QuestionEditor({
  draft,
  n,
  total,
  locked,
  error,
  onChange,
  onMove,
  onRemove,
  types = QUESTION_TYPES,
}: {
  /** The types on offer (the question bank keeps no code questions). */
  types?: readonly QuestionType[];
  draft: Draft;
  n: number;
  /** How many questions the list has; 1 reads "Question", with no move or remove (the question bank's editor). */
  total: number;
  locked: boolean;
  error?: string;
  onChange: (change: Partial<Draft>) => void;
  onMove: (by: number) => void;
  onRemove: () => void;
}) {
  const { t, lang } = useT();
  const id = useId();
  const problem = problemControl(error);
  const preview = useFetcher<{ ok: boolean; html?: string }>();
  const [previewing, setPreviewing] = useState(false);
  const choice = draft.type === "single" || draft.type === "multiple";
  const setType = (type: QuestionType) => {
    if (type === "true-false") onChange({ type, correct: [0] });
    else if (type === "short-text" || type === "code") onChange({ type, correct: [] });
    else onChange({ type, options: draft.options.length >= 2 ? draft.options : ["", ""], correct: type === "single" ? draft.correct.slice(0, 1).concat(draft.correct.length ? [] : [0]) : draft.correct });
  };
  return (
    <fieldset className="card quiz-card quiz-editor-q" disabled={locked} aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="quiz-editor-legend">{total === 1 ? t("quizEditor.questionAlone") : t("quizEditor.question", { n })}</legend>
      {/* Moving or removing the only question does nothing: its buttons are not shown. */}
      {total > 1 ? (
        <div className="quiz-editor-tools">
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => onMove(-1)} disabled={n === 1} aria-label={t("quizEditor.moveUp", { n })}>
            ↑
          </button>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => onMove(1)} disabled={n === total} aria-label={t("quizEditor.moveDown", { n })}>
            ↓
          </button>
          <button type="button" className="btn btn-ghost btn-sm btn-destructive-ghost" onClick={onRemove} aria-label={t("quizEditor.remove", { n })}>
            ✕
          </button>
        </div>
      ) : null}
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${id}-type`}>{t("quizEditor.field.type")}</label>
          <select id={`${id}-type`} value={draft.type} onChange={(e) => setType(e.target.value as QuestionType)}>
            {types.map((type) => (
              <option key={type} value={type}>
                {t(`quizEditor.type.${type}` as MessageKey)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-points`}>{t("quizEditor.field.points")}</label>
          <NumberBox id={`${id}-points`} className="input-narrow" value={draft.points} onValue={(points) => onChange({ points })} />
        </div>
      </div>
      <div className="field">
        <div className="quiz-editor-texthead">
          <label htmlFor={`${id}-text`}>{t("quizEditor.field.text")}</label>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            aria-pressed={previewing}
            onClick={() => {
              if (!previewing) preview.submit({ intent: "preview", text: draft.text }, { method: "post" });
              setPreviewing((v) => !v);
            }}
          >
            {previewing ? t("quizEditor.write") : t("quizEditor.preview")}
          </button>
        </div>
        {previewing ? (
          <div className="prose quiz-editor-preview" dir="auto" aria-live="polite" aria-busy={preview.state !== "idle"} dangerouslySetInnerHTML={{ __html: preview.data?.html || `<p class="muted">${t("quizEditor.previewEmpty")}</p>` }} />
        ) : (
          <textarea
            id={`${id}-text`}
            rows={4}
            dir="auto"
            className="quiz-editor-text"
            maxLength={QUIZ_LIMITS.questionText}
            value={draft.text}
            aria-invalid={problem === "text" || undefined}
            aria-describedby={problem === "text" ? `${id}-error` : undefined}
            onChange={(e) => onChange({ text: e.target.value })}
          />
        )}
      </div>
      {choice ? (
        <div className="field">
          <p className="field-label" id={`${id}-options`}>
            {t("quizEditor.options")}
          </p>
          <ul className="quiz-editor-options" role="list" aria-labelledby={`${id}-options`}>
            {draft.options.map((option, j) => (
              <li key={j}>
                <input
                  type={draft.type === "multiple" ? "checkbox" : "radio"}
                  name={`${id}-correct`}
                  checked={draft.correct.includes(j)}
                  aria-label={t("quizEditor.correctOption", { n: j + 1 })}
                  onChange={(e) => onChange({ correct: draft.type === "multiple" ? (e.target.checked ? [...draft.correct, j].sort((a, b) => a - b) : draft.correct.filter((c) => c !== j)) : [j] })}
                />
                <input
                  aria-label={t("quizEditor.option", { n: j + 1 })}
                  aria-invalid={(problem === "emptyOption" && option.trim() === "") || undefined}
                  dir="auto"
                  maxLength={QUIZ_LIMITS.option}
                  value={option}
                  onChange={(e) => onChange({ options: draft.options.map((o, k) => (k === j ? e.target.value : o)) })}
                />
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  aria-label={t("quizEditor.removeOption", { n: j + 1 })}
                  disabled={draft.options.length <= 2}
                  onClick={() => onChange({ options: draft.options.filter((_, k) => k !== j), correct: draft.correct.filter((c) => c !== j).map((c) => (c > j ? c - 1 : c)) })}
                >
                  ✕
                </button>
              </li>
            ))}
          </ul>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => onChange({ options: [...draft.options, ""] })} disabled={draft.options.length >= QUIZ_LIMITS.options}>
            <PlusIcon />
            {t("quizEditor.addOption")}
          </button>
        </div>
      ) : draft.type === "true-false" ? (
        <div className="field" role="radiogroup" aria-labelledby={`${id}-tf`}>
          <p className="field-label" id={`${id}-tf`}>
            {t("quizEditor.correctIs")}
          </p>
          <label className="check-field">
            <input type="radio" name={`${id}-tf`} checked={draft.correct[0] === 0} onChange={() => onChange({ correct: [0] })} />
            <span>{t("quiz.true")}</span>
          </label>
          <label className="check-field">
            <input type="radio" name={`${id}-tf`} checked={draft.correct[0] === 1} onChange={() => onChange({ correct: [1] })} />
            <span>{t("quiz.false")}</span>
          </label>
        </div>
      ) : draft.type === "code" ? (
        <div className="quiz-editor-code">
          <div className="field">
            <p className="field-label" id={`${id}-starter`}>
              {t("exerciseEditor.starter")}
            </p>
            <CodeField id={`${id}-starter-code`} value={draft.starter} onChange={(starter) => onChange({ starter })} labelledBy={`${id}-starter`} rows={5} readOnly={locked} />
          </div>
          <div className="field">
            <p className="field-label" id={`${id}-reference`}>
              {t("exerciseEditor.reference")}
            </p>
            <p className="field-hint" id={`${id}-reference-hint`}>
              {t("quizEditor.referenceHint")}
            </p>
            <CodeField id={`${id}-reference-code`} value={draft.reference} onChange={(reference) => onChange({ reference })} labelledBy={`${id}-reference`} describedBy={`${id}-reference-hint`} rows={6} readOnly={locked} />
          </div>
          <p className="field-label">{t("exerciseEditor.tests")}</p>
          <p className="field-hint">{t("exerciseEditor.testsHint")}</p>
          <TestsEditor rows={draft.tests} setRows={(next) => onChange({ tests: typeof next === "function" ? next(draft.tests) : next })} checked={false} hiddenOption={false} />
          <div className="field-row">
            <div className="field">
              <label htmlFor={`${id}-time`}>{t("exerciseEditor.timeMs")}</label>
              <NumberBox id={`${id}-time`} className="input-narrow" value={draft.timeMs} onValue={(timeMs) => onChange({ timeMs })} />
            </div>
            <div className="field">
              <label htmlFor={`${id}-memory`}>{t("exerciseEditor.memoryMb")}</label>
              <NumberBox id={`${id}-memory`} className="input-narrow" value={draft.memoryMb} onValue={(memoryMb) => onChange({ memoryMb })} />
            </div>
          </div>
        </div>
      ) : (
        <div className="field">
          <label htmlFor={`${id}-accepted`}>{t("quizEditor.accepted")}</label>
          <textarea id={`${id}-accepted`} rows={2} dir="auto" value={draft.accepted} onChange={(e) => onChange({ accepted: e.target.value })} />
        </div>
      )}
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {total === 1 ? t("quizEditor.errorAlone", { message: editorProblem(t, lang, error) }) : t("quizEditor.error", { n, message: editorProblem(t, lang, error) })}
        </p>
      ) : null}
    </fieldset>
  );
}
