import { Link, useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { failureText, type FailureLike } from "~/lib/group-errors";
import { useT } from "~/lib/i18n";
import type { MessageKey } from "~/i18n/en";
import type { AnswersMap, AnswerValue } from "~/lib/quiz-schemas";
import { QuizFacts } from "./quiz-pages";
import { QuestionField } from "./quiz-runner";
import { AnswerBesideKey, EarnedBadge } from "./staff-attempt";
import type { ReviewTest } from "./review-tests";
import type { PageQuestion, PageQuiz } from "./types";

export interface QuizPreview {
  quiz: PageQuiz & { published: boolean };
  draw: string;
  paper: { drawsFromBank: boolean; shuffleQuestions: boolean; shuffleOptions: boolean } | null;
  missing: number;
  questions: PageQuestion[];
}

interface CheckedQuestion extends PageQuestion {
  answer: unknown;
  correct: (number | string)[];
  right: boolean;
  earned: number;
  tests: ReviewTest[] | null;
}

type Checked = { ok: true; intent: string; draw: string; score: number; maxScore: number; questions: CheckedQuestion[] } | (FailureLike & { ok: false; intent: string });

const isEmpty = (v: AnswerValue | undefined) => v === undefined || v === "" || (Array.isArray(v) && v.length === 0);

/**
 * The quiz as one of its students would get it, for its staff: the rules and one paper (each student's own when the
 * quiz draws from the bank or shuffles), answered in the student's own fields and checked by the server's grading,
 * code run as at a hand-in. Nothing is stored: no attempt, score or statistic.
 */
export function QuizPreviewScreen({ preview, nextDraw, editPath }: { preview: QuizPreview; nextDraw: string; editPath: string }) {
  const { t } = useT();
  const { quiz, paper, questions } = preview;
  const checker = useFetcher<Checked>();
  const [answers, setAnswers] = useState<AnswersMap>({});
  // Answering, or the last check's result (until "Answer again").
  const [showResult, setShowResult] = useState(false);
  const busy = checker.state !== "idle";
  const result = checker.data?.ok && checker.data.draw === preview.draw ? checker.data : null;
  const failure = checker.data && !checker.data.ok ? checker.data : null;
  const resultRef = useRef<HTMLHeadingElement>(null);
  const formRef = useRef<HTMLFormElement>(null);

  // A result arriving takes the place of the questions: the keyboard goes on from its heading.
  useEffect(() => {
    if (!busy && result) setShowResult(true);
  }, [busy, result]);
  useEffect(() => {
    if (showResult) resultRef.current?.focus();
  }, [showResult]);
  // Another paper starts afresh.
  useEffect(() => {
    setAnswers({});
    setShowResult(false);
  }, [preview.draw]);

  const change = (questionId: string, value: AnswerValue | undefined) =>
    setAnswers((current) => {
      const next = { ...current };
      if (isEmpty(value)) delete next[questionId];
      else next[questionId] = value!;
      return next;
    });
  const answered = questions.filter((q) => !isEmpty(answers[q._id])).length;
  const paperParts = paper
    ? ([paper.drawsFromBank && "quizPreview.paper.drawn", paper.shuffleQuestions && "quizPreview.paper.order", paper.shuffleOptions && "quizPreview.paper.options"].filter(Boolean) as MessageKey[])
    : [];

  return (
    <section className="quiz-preview" aria-labelledby="preview-title">
      <div className="section-head">
        <div>
          <h2 id="preview-title" className="block-title">
            {t("quizPreview.open")}
          </h2>
          <p className="muted">{t("quizPreview.lead")}</p>
        </div>
        <Link to={editPath} className="btn btn-outline">
          {t("quiz.edit")}
        </Link>
      </div>

      {!quiz.published ? <p className="quiz-preview-note">{t("quizPreview.draft")}</p> : null}
      {preview.missing > 0 ? (
        <p className="form-error" role="alert">
          {t("quizPreview.missing", { n: preview.missing })}
        </p>
      ) : null}

      <article className="card quiz-card">
        {quiz.descriptionHtml ? <div className="prose" dir="auto" dangerouslySetInnerHTML={{ __html: quiz.descriptionHtml }} /> : null}
        <QuizFacts quiz={quiz} attemptsUsed={0} allowed />
        <p className="muted">{t(`quiz.review.${quiz.showAnswers}` as MessageKey)}</p>
        {paper ? (
          <p className="quiz-preview-paper">
            {t("quizPreview.paper.lead")} {paperParts.map((key) => t(key)).join(t("list.separator"))}. {t("quizPreview.paper.one")}{" "}
            <Link to={`?draw=${encodeURIComponent(nextDraw)}`} preventScrollReset>
              {t("quizPreview.another")}
            </Link>
          </p>
        ) : null}
      </article>

      {questions.length === 0 ? (
        <div className="empty-state">
          <p className="empty-title">{t("quizPreview.empty.title")}</p>
          <p className="muted">{t("quizPreview.empty.body")}</p>
        </div>
      ) : showResult && result ? (
        <div className="quiz-preview-result">
          <div className="card quiz-card quiz-preview-score">
            <h3 ref={resultRef} tabIndex={-1} className="quiz-card-title">
              {t("quizPreview.score")}{" "}
              <span dir="ltr">
                <strong>{result.score}</strong> / {result.maxScore}
              </span>
            </h3>
            <p className="muted">{t("quizPreview.notSaved")}</p>
            <div className="form-actions">
              <button type="button" className="btn btn-primary" onClick={() => setShowResult(false)}>
                {t("quizPreview.again")}
              </button>
              {paper ? (
                <Link to={`?draw=${encodeURIComponent(nextDraw)}`} className="btn btn-outline" preventScrollReset>
                  {t("quizPreview.another")}
                </Link>
              ) : null}
            </div>
          </div>
          <ol className="staff-attempt-list" role="list">
            {result.questions.map((q, i) => (
              <li key={q._id}>
                <CheckedAnswer q={q} n={i + 1} total={result.questions.length} />
              </li>
            ))}
          </ol>
        </div>
      ) : (
        <checker.Form
          ref={formRef}
          method="post"
          className="quiz-questions quiz-preview-questions"
          aria-busy={busy}
          onSubmit={(e) => {
            e.preventDefault();
            checker.submit({ intent: "check", draw: preview.draw, answers: JSON.stringify(answers) }, { method: "post" });
          }}
        >
          {questions.map((q, i) => (
            <QuestionField key={q._id} q={q} n={i + 1} total={questions.length} value={answers[q._id] as AnswerValue | undefined} onChange={(v) => change(q._id, v)} disabled={busy} />
          ))}
          {failure ? (
            <p className="form-error" role="alert">
              {failureText(t, failure)}
            </p>
          ) : null}
          <div className="quiz-preview-check">
            <p className="muted" role="status">
              {t("quiz.answeredCount", { n: answered, total: questions.length })}
            </p>
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? t("quizPreview.checking") : t("quizPreview.check")}
            </button>
          </div>
        </checker.Form>
      )}
    </section>
  );
}

/** One checked answer beside the key, as the preview's staff member answered it on this paper. */
function CheckedAnswer({ q, n, total }: { q: CheckedQuestion; n: number; total: number }) {
  const { t } = useT();
  return (
    <article className="card quiz-card staff-attempt-q" aria-labelledby={`checked-${q._id}`}>
      <div className="staff-attempt-head">
        <h3 id={`checked-${q._id}`} className="task-card-title">
          {t("quiz.question", { n, total })}
        </h3>
        <EarnedBadge earned={q.earned} points={q.points} />
      </div>
      <div className="prose" dir="auto" dangerouslySetInnerHTML={{ __html: q.textHtml }} />
      <AnswerBesideKey q={q} whose="yours" />
    </article>
  );
}
