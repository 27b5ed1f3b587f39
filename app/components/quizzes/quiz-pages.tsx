import { Form, Link, useActionData, useNavigation, useRevalidator, useSearchParams } from "@remix-run/react";
import { CourseBreadcrumb } from "~/components/breadcrumb";
import { useEffect, type ReactNode } from "react";
import { CheckIcon } from "~/components/icons";
import { QUIZ_NETWORK_MS } from "~/lib/quiz-rules";
import { When } from "~/components/lectures/when";
import type { MessageKey } from "~/i18n/en";
import { useT } from "~/lib/i18n";
import { ReviewTests, type ReviewTest } from "./review-tests";
import { scoreShare } from "~/lib/progress";
import type { PageQuestion, PageQuiz, ReviewWhen } from "./types";
import { RefusalText } from "~/components/form-field";

/** The frame of every student quiz screen: breadcrumb (group, lecture, quiz), the title and the screen's lead. */
export function QuizFrame({ quiz, base, section, children, className }: { quiz: PageQuiz; base: string; section?: string; children: ReactNode; className?: string }) {
  const { t } = useT();
  const course = `/course/${quiz.group.slug}`;
  return (
    <main id="main" tabIndex={-1} className={`page page-quiz ${className ?? ""}`}>
      <div className="page-band page-band-compact">
        <div className="container">
          <CourseBreadcrumb
            course={{ title: quiz.group.title, href: course }}
            trail={[
              { label: quiz.lecture.title, to: `${course}/lecture/${quiz.lecture.slug}`, userText: true },
              ...(section ? [{ label: quiz.title, to: base, userText: true }, { label: section }] : [{ label: quiz.title, userText: true }]),
            ]}
          />
          <p className="quiz-kicker">
            <span className="badge badge-amber">{t("quiz.label")}</span>
          </p>
          <h1 className="page-title user-text">{section ? `${section} · ${quiz.title}` : quiz.title}</h1>
        </div>
      </div>
      <div className="container quiz-container">{children}</div>
    </main>
  );
}

/** "1 point" / "3 points". */
export const pointsText = (t: ReturnType<typeof useT>["t"], n: number) => (n === 1 ? t("quiz.point") : t("quiz.points", { n }));

/** The quiz's facts: questions and points, time, window, attempts (the student's used, or those `allowed`, for staff). */
export function QuizFacts({ quiz, attemptsUsed, running = false, allowed = false }: { quiz: PageQuiz; attemptsUsed: number; running?: boolean; allowed?: boolean }) {
  const { t } = useT();
  return (
    <dl className="quiz-facts">
      <div>
        <dt>{t("staffQuizzes.col.questions")}</dt>
        <dd>{t("quiz.questions", { n: quiz.questionCount, points: quiz.maxScore })}</dd>
      </div>
      <div>
        <dt>{t("quiz.time")}</dt>
        <dd>
          {quiz.durationMinutes
            ? quiz.extension && quiz.extension.extraMinutes > 0 && quiz.yourMinutes
              ? t("quiz.timedExtra", { n: quiz.yourMinutes, extra: quiz.extension.extraMinutes })
              : quiz.yourMinutes && quiz.yourMinutes !== quiz.durationMinutes
              ? // An accommodation: the student's own time, and what it is a multiple of.
                t("quiz.timedYours", { n: quiz.yourMinutes, times: quiz.yourMinutes / quiz.durationMinutes })
              : t("quiz.timed", { n: quiz.durationMinutes })
            : t(quiz.closesAt ? "quiz.homeworkUntil" : "quiz.homework")}
        </dd>
      </div>
      {quiz.opensAt ? (
        <div>
          <dt>{t("quiz.opens")}</dt>
          <dd>
            <When iso={quiz.opensAt} />
          </dd>
        </div>
      ) : null}
      {quiz.closesAt ? (
        <div>
          <dt>{t("quiz.closes")}</dt>
          <dd>
            <When iso={quiz.closesAt} />
          </dd>
        </div>
      ) : null}
      <div>
        <dt>{t(allowed ? "quizPreview.attempts" : "quiz.result.attempts")}</dt>
        <dd>{allowed ? quiz.maxAttempts : running ? t("quiz.attemptsRunning", { n: attemptsUsed, max: quiz.maxAttempts }) : t("quiz.attempts", { used: attemptsUsed, max: quiz.maxAttempts })}</dd>
      </div>
      {quiz.extension ? (
        <div className="quiz-extended">
          <dt>{t("extensions.title")}</dt>
          <dd>{t("quiz.extended")}</dd>
        </div>
      ) : null}
    </dl>
  );
}

type StartFailure = { ok: false; code: string; message: string } | undefined;

/**
 * The intro: what the quiz is, its rules, and start, resume or the result. An open attempt whose time is over is
 * not offered to resume: the server is closing it (within seconds of the deadline), and the page reloads its data
 * once that is done, so the returning student sees the graded result.
 */
export function QuizIntro({
  quiz,
  base,
  editPath,
  previewPath = null,
  isStaff,
  open,
  attemptsUsed,
  attemptsLeft,
  bestScore,
  serverNow,
  keysMayWait = false,
}: {
  quiz: PageQuiz;
  base: string;
  editPath: string | null;
  previewPath?: string | null;
  isStaff: boolean;
  open: { deadline: string | null } | null;
  attemptsUsed: number;
  attemptsLeft: number;
  bestScore: number | null;
  serverNow: string;
  /** The quiz draws from a tag another quiz still draws from: the review keeps those keys back for now. */
  keysMayWait?: boolean;
}) {
  const { t } = useT();
  const failure = useActionData<StartFailure>();
  const busy = useNavigation().state !== "idle";
  const revalidator = useRevalidator();
  const overBy = open?.deadline ? Date.parse(serverNow) - Date.parse(open.deadline) : null;
  const timeUp = overBy !== null && overBy >= 0;
  useEffect(() => {
    if (!timeUp || overBy === null) return;
    const wait = window.setTimeout(() => revalidator.revalidate(), Math.max(0, QUIZ_NETWORK_MS - overBy) + 1_000);
    return () => window.clearTimeout(wait);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per loaded state
  }, [timeUp, overBy]);
  const handedIn = attemptsUsed - (open ? 1 : 0) > 0;
  const errorKey = failure ? (`quiz.error.${failure.code}` as MessageKey) : null;
  return (
    <QuizFrame quiz={quiz} base={base}>
      <div className="quiz-intro">
        <article className="card quiz-card">
          {quiz.descriptionHtml ? <div className="prose" dir="auto" dangerouslySetInnerHTML={{ __html: quiz.descriptionHtml }} /> : null}
          <QuizFacts quiz={quiz} attemptsUsed={attemptsUsed} running={!!open && !timeUp} />
          <h2 className="quiz-card-title">{t(open && !timeUp ? "quiz.rulesRunning" : "quiz.rules")}</h2>
          <ul className="quiz-rules">
            <li>{t("quiz.rule.saved")}</li>
            {quiz.durationMinutes ? (
              <>
                <li>{t("quiz.rule.clock")}</li>
                <li>{t("quiz.rule.late")}</li>
              </>
            ) : quiz.closesAt ? (
              <>
                <li>{t("quiz.rule.clockClose")}</li>
                <li>{t("quiz.rule.lateClose")}</li>
              </>
            ) : null}
            <li>{t(`quiz.review.${quiz.showAnswers}` as MessageKey)}</li>
            {keysMayWait ? <li>{t("quiz.review.keptBack")}</li> : null}
          </ul>
        </article>
        <aside className="card quiz-card quiz-action-card" aria-live="polite" data-running={(!isStaff && !!open && !timeUp) || undefined}>
          {isStaff ? (
            <>
              <p>{t("quiz.staffNote")}</p>
              {editPath ? (
                <Link to={editPath} className="btn btn-primary">
                  {t("quiz.edit")}
                </Link>
              ) : null}
              {previewPath ? (
                <Link to={previewPath} className="btn btn-outline">
                  {t("quizPreview.open")}
                </Link>
              ) : null}
            </>
          ) : (
            <>
              {bestScore !== null ? (
                <p className="quiz-best">
                  {t("quiz.result.best")}:{" "}
                  <span dir="ltr">
                    <strong>{bestScore}</strong> / {quiz.maxScore}
                  </span>
                </p>
              ) : null}
              {open && timeUp ? (
                <p className="quiz-state" role="status">
                  {t("quiz.timeUpIntro")}
                </p>
              ) : open ? (
                <>
                  <p className="quiz-state quiz-running">
                    <strong>{t("quiz.runningTitle")}</strong>
                    {open.deadline ? (
                      <span>
                        {t("quiz.runningEnds")}: <When iso={open.deadline} />
                      </span>
                    ) : (
                      <span>{t("quiz.runningSaved")}</span>
                    )}
                  </p>
                  <Form method="post">
                    <button type="submit" name="intent" value="start" className="btn btn-primary btn-block" disabled={busy}>
                      {busy ? t("quiz.starting") : t("quiz.resume")}
                    </button>
                  </Form>
                </>
              ) : quiz.window === "upcoming" ? (
                <p className="quiz-state">
                  {t("quiz.opens")}: {quiz.opensAt ? <When iso={quiz.opensAt} /> : null}
                </p>
              ) : quiz.window === "closed" ? (
                <p className="quiz-state">{t("quiz.window.closed")}</p>
              ) : quiz.group.ended ? (
                <p className="quiz-state">{t("quiz.courseEnded")}</p>
              ) : attemptsLeft > 0 ? (
                <Form method="post">
                  <button type="submit" name="intent" value="start" className="btn btn-primary btn-block" disabled={busy}>
                    {busy ? t("quiz.starting") : attemptsUsed > 0 ? t("quiz.startAgain", { n: attemptsUsed + 1 }) : t("quiz.start")}
                  </button>
                </Form>
              ) : (
                <p className="quiz-state">{t("quiz.noAttemptsLeft")}</p>
              )}
              {failure ? (
                <RefusalText className="form-error" attempt={failure}>
                  {errorKey && t(errorKey) !== errorKey ? t(errorKey) : failure.message}
                </RefusalText>
              ) : null}
              {handedIn ? (
                <Link to={`${base}/result`} className="btn btn-outline btn-block">
                  {t("quiz.seeResult")}
                </Link>
              ) : null}
            </>
          )}
        </aside>
      </div>
    </QuizFrame>
  );
}


export interface PageResult {
  quiz: PageQuiz;
  score: number;
  maxScore: number;
  attempts: { _id: string; number: number; score: number; maxScore: number; startedAt: string; submittedAt: string; seconds: number }[];
  /** The number of the attempt whose score counts (the review shows it). */
  bestAttempt: number;
  attemptsLeft: number;
  inProgress: boolean;
  /** Code answers still being judged in the background (the score counts them wrong until then). */
  grading: boolean;
  reviewWhen: ReviewWhen;
  review: {
    attemptNumber: number;
    /** `withheld`: a bank question another quiz of the group may still give; its key, and whether the answer was right, wait. */
    questions: (PageQuestion & { answer: unknown; correct: (number | string)[]; right: boolean | null; earned: number | null; override?: { points: number; note: string } | null; tests: ReviewTest[] | null; withheld?: boolean })[];
  } | null;
}

function duration(t: ReturnType<typeof useT>["t"], seconds: number) {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return m > 0 ? t("quiz.duration.minutes", { m, s }) : t("quiz.duration.seconds", { s });
}

/** The result: the best score, every attempt with its time, attempts left, and the way to the review. */
export function QuizResult({ result, base }: { result: PageResult; base: string }) {
  const { t } = useT();
  const [params] = useSearchParams();
  const percent = Math.round(scoreShare(result.score, result.maxScore) * 100);
  const { quiz } = result;
  const canRetry = result.attemptsLeft > 0 && quiz.window === "open";
  return (
    <QuizFrame quiz={quiz} base={base} section={t("quiz.result.title")}>
      <div className="quiz-result">
        {params.get("onSaved") ? (
          <p className="notice notice-warn" role="status">
            {t("quiz.result.onSaved")}
          </p>
        ) : params.get("timeUp") ? (
          <p className="notice notice-warn" role="status">
            {t("quiz.result.timeUp")}
          </p>
        ) : null}
        <section className="card quiz-card quiz-score-card" aria-labelledby="score-title">
          <h2 id="score-title" className="quiz-card-title">
            {t("quiz.result.best")}
          </h2>
          {/* Score over maximum reads left to right in both languages, as every other fraction on the site. */}
          <p className="quiz-score">
            <span dir="ltr">
              <strong>{result.score}</strong>
              <span className="quiz-score-max"> / {result.maxScore}</span>
            </span>
          </p>
          {/* The bar draws the percentage the line below says: a screen reader hears it once, from the line. */}
          <div className="quiz-meter" aria-hidden="true">
            <span style={{ inlineSize: `${percent}%` }} />
          </div>
          <p className="muted">{t("quiz.result.percent", { n: percent })}</p>
          {result.maxScore === 0 ? <p className="muted">{t("quiz.result.noPoints")}</p> : null}
          <p>{result.attemptsLeft === 0 ? t("quiz.result.noneLeft") : result.attemptsLeft === 1 ? t("quiz.result.oneLeft") : t("quiz.result.attemptsLeft", { n: result.attemptsLeft })}</p>
          {result.inProgress ? <p className="muted">{t("quiz.result.inProgress")}</p> : null}
          {result.grading ? (
            <p className="notice notice-warn" role="status">
              {t("quiz.result.grading")}
            </p>
          ) : null}
          <div className="quiz-actions">
            {result.review ? (
              <Link to={`${base}/answers`} className="btn btn-primary">
                {t("quiz.result.seeAnswers")}
              </Link>
            ) : null}
            {canRetry || result.inProgress ? (
              <Link to={base} className="btn btn-outline">
                {result.inProgress ? t("quiz.resume") : t("quiz.result.tryAgain")}
              </Link>
            ) : null}
            <Link to={`/course/${quiz.group.slug}/lecture/${quiz.lecture.slug}`} className="btn btn-ghost">
              {t("quiz.result.backToLecture")}
            </Link>
          </div>
          {!result.review ? <p className="muted quiz-review-note">{t(`quiz.review.${quiz.showAnswers}` as MessageKey)}</p> : null}
        </section>
        <section className="card quiz-card" aria-labelledby="attempts-title">
          <h2 id="attempts-title" className="quiz-card-title">
            {t("quiz.result.attempts")}
          </h2>
          <div className="gtable-wrap" tabIndex={0} data-scroll-stop="" aria-labelledby="attempts-title">
            <table className="gtable quiz-attempts">
              <thead>
                <tr>
                  <th scope="col">{t("quiz.result.col.attempt")}</th>
                  <th scope="col">{t("quiz.result.col.score")}</th>
                  <th scope="col">{t("quiz.result.col.time")}</th>
                  <th scope="col">{t("quiz.result.col.handedIn")}</th>
                </tr>
              </thead>
              <tbody>
                {result.attempts.map((a) => (
                  <tr key={a._id} data-counts={a.number === result.bestAttempt || undefined}>
                    <th scope="row">
                      {a.number}
                      {a.number === result.bestAttempt && result.attempts.length > 1 ? <span className="badge badge-green quiz-counts">{t("quiz.result.counts")}</span> : null}
                    </th>
                    <td data-label={t("quiz.result.col.score")}>
                      <span dir="ltr">{a.score} / {a.maxScore}</span>
                    </td>
                    <td data-label={t("quiz.result.col.time")}>{duration(t, a.seconds)}</td>
                    <td data-label={t("quiz.result.col.handedIn")}>
                      <When iso={a.submittedAt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      </div>
    </QuizFrame>
  );
}

function AnswerText({ q, value }: { q: PageQuestion; value: unknown }) {
  const { t } = useT();
  if (value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0)) return <span className="muted">{t("quiz.answers.none")}</span>;
  if (q.type === "short-text") return <span dir="auto">{String(value)}</span>;
  if (q.type === "code")
    return (
      <pre className="code-block quiz-code-answer" dir="ltr" tabIndex={0} data-scroll-stop="">
        <code>{String(value)}</code>
      </pre>
    );
  const indexes = Array.isArray(value) ? (value as number[]) : [value as number];
  if (q.type === "true-false") return <span>{indexes.map((i) => t(i === 0 ? "quiz.true" : "quiz.false")).join(t("list.separator"))}</span>;
  return (
    <ul className="quiz-answer-list">
      {indexes.map((i) => (
        <li key={i} dir="auto" dangerouslySetInnerHTML={{ __html: q.optionsHtml[i] ?? "" }} />
      ))}
    </ul>
  );
}

/** The review: each question with the student's answer beside the correct one (only when the policy allows). */
export function QuizAnswers({ result, base }: { result: PageResult; base: string }) {
  const { t } = useT();
  const { quiz, review } = result;
  return (
    <QuizFrame quiz={quiz} base={base} section={t("quiz.answers.title")}>
      {!review ? (
        <div className="card quiz-card empty-state">
          <p className="empty-title">{t("quiz.answers.notYet")}</p>
          <p>{t(`quiz.review.${quiz.showAnswers}` as MessageKey)}</p>
          <Link to={`${base}/result`} className="btn btn-outline">
            {t("quiz.answers.backToResult")}
          </Link>
        </div>
      ) : (
        <>
          <p className="muted">{t(result.attempts.length > 1 ? "quiz.answers.bestAttempt" : "quiz.answers.attempt", { n: review.attemptNumber })}</p>
          <ol className="quiz-review" role="list">
            {review.questions.map((q, i) => (
              // A withheld question (a bank question another quiz may still give): the answer given, nothing of the key.
              <li key={q._id} className="card quiz-card quiz-review-item" data-right={q.withheld ? undefined : q.right} data-withheld={q.withheld || undefined}>
                <div className="quiz-q-head">
                  {/* A heading: a screen reader moves from question to question, and each one's tests (h3) sit under it. */}
                  <h2 className="quiz-q-number">{t("quiz.question", { n: i + 1, total: review.questions.length })}</h2>
                  {q.withheld ? (
                    <span className="badge">{t("quiz.answers.withheld")}</span>
                  ) : (
                    <>
                      <span className={`badge ${q.right ? "badge-green" : "badge-red"}`}>
                        {q.right ? <CheckIcon /> : null}
                        {t(q.right ? "quiz.answers.right" : "quiz.answers.wrong")}
                      </span>
                      <span className="muted">{t("quiz.answers.earned", { earned: q.earned ?? 0, points: q.points })}</span>
                    </>
                  )}
                </div>
                <div className="prose quiz-q-text" dir="auto" dangerouslySetInnerHTML={{ __html: q.textHtml }} />
                <dl className="quiz-review-pair">
                  <div>
                    <dt>{t("quiz.answers.yours")}</dt>
                    <dd>
                      <AnswerText q={q} value={q.answer} />
                    </dd>
                  </div>
                  {q.withheld ? null : (
                    <div>
                      <dt>{t(q.type === "short-text" ? "quiz.answers.accepted" : q.type === "code" ? "quiz.answers.reference" : "quiz.answers.correct")}</dt>
                      <dd>{q.type === "short-text" ? <span dir="auto">{q.correct.join(" · ")}</span> : q.type === "code" ? <AnswerText q={q} value={q.correct[0]} /> : <AnswerText q={q} value={q.type === "multiple" ? q.correct : q.correct[0]} />}</dd>
                    </div>
                  )}
                </dl>
                {q.withheld ? <p className="muted">{t("quiz.answers.withheldWhy")}</p> : null}
                {q.type === "code" && !q.withheld ? <ReviewTests id={`tests-${q._id}`} tests={q.tests} right={q.right === true} answered={q.answer !== null && q.answer !== ""} /> : null}
                {q.override?.note ? (
                  <p className="quiz-review-note">
                    <strong>{t("quiz.review.staffNote")}</strong> <span dir="auto">{q.override.note}</span>
                  </p>
                ) : null}
              </li>
            ))}
          </ol>
          <p>
            <Link to={`${base}/result`} className="btn btn-outline">
              {t("quiz.answers.backToResult")}
            </Link>
          </p>
        </>
      )}
    </QuizFrame>
  );
}


