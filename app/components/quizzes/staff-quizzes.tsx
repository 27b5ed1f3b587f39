import { ArrivalNotice } from "~/components/arrival-notice";
import { NameSearch, ownName, useNameSearch } from "~/components/name-search";
import { Link } from "@remix-run/react";
import { NewOnLecture, NothingOnLecturesYet } from "~/components/lectures/new-on-lecture";
import { When } from "~/components/lectures/when";
import { formatPercent, useT } from "~/lib/i18n";
import type { QuizWindow, QuestionType } from "~/lib/quiz-schemas";
import { ScheduledBadge } from "~/components/lifecycle/schedule-box";

export interface QuizResults {
  quizzes: {
    _id: string;
    slug: string;
    title: string;
    lectureSlug: string;
    lectureTitle: string;
    opensAt: string | null;
    closesAt: string | null;
    window: QuizWindow;
    published: boolean;
    publishAt?: string | null;
    questionCount: number;
    maxScore: number;
    taken: number;
    averagePercent: number | null;
    questions: { _id: string; number: number; type: QuestionType; text: string; points: number; right: number; answered: number; choices?: { text: string; chosen: number; correct: boolean }[] | null }[];
  }[];
  students: { _id: string; name: string; slug: string; results: { quizId: string; best: number | null; bestAttemptId?: string | null; attempts: number; inProgress: boolean }[] }[];
}

/** A title isolated for the bidi algorithm, so an Arabic title beside Latin words (or the reverse) keeps its order. */
const isolate = (text: string) => `\u2068${text}\u2069`;

/**
 * What tells each quiz apart in the matrix: its title, with its lecture's title when another quiz has the same title,
 * and a number when both repeat. `sub` is the lecture (shown under the title), `text` the whole label in one line
 * (each title isolated, for the phone layout's labels). `plain` when `title` is the quiz's title alone (shown as user
 * text); otherwise it is a sentence of the page's language around the isolated title.
 */
export function quizLabels(quizzes: { title: string; lectureTitle: string }[], t: ReturnType<typeof useT>["t"]): { title: string; plain: boolean; sub: string | null; text: string }[] {
  const count = (key: (q: { title: string; lectureTitle: string }) => string) => {
    const n = new Map<string, number>();
    for (const q of quizzes) n.set(key(q), (n.get(key(q)) ?? 0) + 1);
    return n;
  };
  const byTitle = count((q) => q.title);
  const byBoth = count((q) => `${q.title}\u0000${q.lectureTitle}`);
  const seen = new Map<string, number>();
  return quizzes.map((q) => {
    if ((byTitle.get(q.title) ?? 0) < 2) return { title: q.title, plain: true, sub: null, text: q.title };
    const both = `${q.title}\u0000${q.lectureTitle}`;
    const nth = (seen.get(both) ?? 0) + 1;
    seen.set(both, nth);
    const plain = (byBoth.get(both) ?? 0) < 2;
    const title = plain ? q.title : t("staffQuizzes.matrix.sameTitle", { title: isolate(q.title), n: nth });
    return { title, plain, sub: q.lectureTitle, text: `${plain ? isolate(title) : title} · ${isolate(q.lectureTitle)}` };
  });
}

/** A group's quizzes for its staff, the results matrix (students x quizzes) and question-by-question statistics. */
export function StaffQuizzesScreen({ results, lectures, base }: { results: QuizResults; lectures: { slug: string; title: string }[]; base: string }) {
  const { t, lang } = useT();
  const quizzes = results.quizzes;
  const members = results.students.length;
  return (
    <>
      <section className="quizzes-screen" aria-labelledby="quizzes-title">
        <ArrivalNotice />
        <div className="section-head">
          <h2 id="quizzes-title" className="block-title">
            {t("staffQuizzes.title")}
          </h2>
          <NewOnLecture lectures={lectures} base={base} page="newQuiz" label={t("staffQuizzes.new")} pickerLabel={t("staffQuizzes.onLecture")} id="new-quiz-lecture" />
        </div>
        {quizzes.length === 0 ? (
          <NothingOnLecturesYet
            title={t("staffQuizzes.empty.title")}
            body={t("staffQuizzes.empty.body")}
            noLectures={t("staffQuizzes.empty.noLectures")}
            hasLectures={lectures.length > 0}
            base={base}
          />
        ) : (
          <div className="gtable-wrap" tabIndex={0} data-scroll-stop="" aria-labelledby="quizzes-title">
            <table className="gtable">
              <thead>
                <tr>
                  <th scope="col">{t("staffQuizzes.col.quiz")}</th>
                  <th scope="col">{t("staffQuizzes.col.window")}</th>
                  <th scope="col">{t("staffQuizzes.col.questions")}</th>
                  <th scope="col">{t("staffQuizzes.col.taken")}</th>
                  <th scope="col">{t("staffQuizzes.col.average")}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t("staffQuizzes.col.actions")}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {quizzes.map((quiz) => {
                  return (
                    <tr key={quiz._id}>
                      <th scope="row">
                        <Link to={`${base}/lecture/${quiz.lectureSlug}/quiz/updateQuiz/${quiz.slug}`} className="user-text">
                          {quiz.title}
                        </Link>
                        <span className="row-sub muted">
                          <span className="user-text">{quiz.lectureTitle}</span> {quiz.publishAt ? <ScheduledBadge iso={quiz.publishAt} /> : <span className={`badge ${quiz.published ? "badge-green" : ""}`}>{t(quiz.published ? "staffQuizzes.published" : "staffQuizzes.draft")}</span>}
                        </span>
                      </th>
                      <td data-label={t("staffQuizzes.col.window")}>
                        <span className="row-lines">
                          {!quiz.opensAt && !quiz.closesAt ? t("staffQuizzes.always") : null}
                          {quiz.opensAt ? (
                            <span className="row-line">
                              {t("quiz.opens")}: <When iso={quiz.opensAt} />
                            </span>
                          ) : null}
                          {quiz.closesAt ? (
                            <span className="row-line">
                              {t("quiz.closes")}: <When iso={quiz.closesAt} />
                            </span>
                          ) : null}
                        </span>
                      </td>
                      <td data-label={t("staffQuizzes.col.questions")}>{t("staffQuizzes.questionsPoints", { n: quiz.questionCount, points: quiz.maxScore })}</td>
                      <td data-label={t("staffQuizzes.col.taken")}>{t("staffQuizzes.takenOf", { n: quiz.taken, members })}</td>
                      <td data-label={t("staffQuizzes.col.average")}>{quiz.averagePercent !== null ? formatPercent(quiz.averagePercent, lang) : "—"}</td>
                      <td className="row-actions">
                        <div className="row-actions-inner">
                          <Link to={`${base}/lecture/${quiz.lectureSlug}/quiz/updateQuiz/${quiz.slug}`} className="btn btn-outline btn-sm">
                            {t("staffQuizzes.edit")}
                            <span className="visually-hidden"> {quiz.title}</span>
                          </Link>
                          <Link to={`${base}/quiz-preview/${quiz.slug}`} className="btn btn-ghost btn-sm">
                            {t("staffQuizzes.preview")}
                            <span className="visually-hidden"> {quiz.title}</span>
                          </Link>
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {quizzes.length > 0 ? <ResultsMatrix results={results} base={base} /> : null}
    </>
  );
}

function ResultsMatrix({ results, base }: { results: QuizResults; base: string }) {
  const { t } = useT();
  const labels = quizLabels(results.quizzes, t);
  const search = useNameSearch(results.students, ownName);
  return (
    <section className="quizzes-results" aria-labelledby="results-title">
      <h2 id="results-title" className="block-title">
        {t("staffQuizzes.matrix.title")}
      </h2>
      <p id="results-caption" className="muted">
        {t("staffQuizzes.matrix.caption")}
      </p>
      {results.students.length === 0 ? (
        <p className="muted">{t("staffQuizzes.matrix.noStudents")}</p>
      ) : (
        <NameSearch id="results-search" controls="results-table" search={search} />
      )}
      {search.shown.length === 0 ? null : (
        <div id="results-table" className="gtable-wrap quiz-matrix-wrap" tabIndex={0} data-scroll-stop="" aria-labelledby="results-title" aria-describedby="results-caption">
          <table className="gtable quiz-matrix">
            <thead>
              <tr>
                <th scope="col">{t("staffQuizzes.matrix.student")}</th>
                {results.quizzes.map((q, i) => (
                  <th scope="col" key={q._id}>
                    <span className={labels[i]!.plain ? "user-text" : undefined}>{labels[i]!.title}</span>
                    {labels[i]!.sub ? <span className="row-sub muted user-text">{labels[i]!.sub}</span> : null}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {search.shown.map((s) => (
                <tr key={s._id}>
                  <th scope="row" className="user-text">
                    {s.name}
                  </th>
                  {s.results.map((r, i) => {
                    const quiz = results.quizzes[i]!;
                    const running = r.inProgress ? <span className="badge badge-amber">{t("staffQuizzes.matrix.inProgress")}</span> : null;
                    return (
                      <td key={r.quizId} data-label={labels[i]!.text}>
                        {r.best === null ? (
                          (running ?? <span className="muted">{t("staffQuizzes.matrix.none")}</span>)
                        ) : (
                          <>
                            {r.bestAttemptId ? (
                              // The attempt that counts, answer by answer: points for one answer, a corrected key.
                              <Link to={`${base}/quiz-attempt/${quiz.slug}/${r.bestAttemptId}`} className="quiz-matrix-score">
                                <strong>
                                  <span dir="ltr">{r.best} / {quiz.maxScore}</span>
                                </strong>
                                <span className="visually-hidden"> {t("staffAttempt.open", { name: s.name })}</span>
                              </Link>
                            ) : (
                              <strong>
                                <span dir="ltr">{r.best} / {quiz.maxScore}</span>
                              </strong>
                            )}
                            <span className="row-sub muted">{r.attempts === 1 ? t("staffQuizzes.matrix.oneAttempt") : t("staffQuizzes.matrix.attempts", { n: r.attempts })}</span>
                            {running ? <span className="row-sub">{running}</span> : null}
                          </>
                        )}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3 className="block-subtitle">{t("staffQuizzes.stats.title")}</h3>
      {results.quizzes.map((quiz, i) => (
        <details key={quiz._id} className="card quiz-stats">
          <summary>
            <span className={labels[i]!.plain ? "user-text" : undefined}>{labels[i]!.title}</span>
            {labels[i]!.sub ? (
              <>
                <span className="muted"> · </span>
                <span className="muted user-text">{labels[i]!.sub}</span>
              </>
            ) : null}
            <span className="muted"> · {t("staffQuizzes.takenOf", { n: quiz.taken, members: results.students.length })}</span>
          </summary>
          {quiz.taken === 0 ? (
            <p className="muted">{t("staffQuizzes.stats.noneYet")}</p>
          ) : (
            <ol className="quiz-stats-list" role="list">
              {quiz.questions.map((q) => {
                const percent = q.answered ? Math.round((q.right / q.answered) * 100) : 0;
                return (
                  <li key={q._id}>
                    <span className="quiz-stats-q">
                      <span className="quiz-q-number">{q.number}.</span> <span dir="auto">{q.text}</span>
                    </span>
                    <span className="quiz-meter quiz-meter-sm" aria-hidden="true">
                      <span style={{ inlineSize: `${percent}%` }} />
                    </span>
                    <span className="quiz-stats-n">{t("staffQuizzes.stats.right", { right: q.right, answered: q.answered })}</span>
                    {q.choices ? (
                      // Item statistics: how often each option was chosen; a distractor chosen more than the key shows itself.
                      <ul className="quiz-stats-choices" role="list" aria-label={t("staffQuizzes.stats.choices", { n: q.number })}>
                        {q.choices.map((c, ci) => (
                          <li key={ci} data-correct={c.correct || undefined}>
                            <span dir="auto">{q.type === "true-false" ? t(ci === 0 ? "quiz.true" : "quiz.false") : c.text}</span>
                            {c.correct ? <span className="badge quiz-key-pill">{t("staffQuizzes.stats.key")}</span> : null}
                            <span className="quiz-stats-chosen">{t("staffQuizzes.stats.chosen", { n: c.chosen })}</span>
                          </li>
                        ))}
                      </ul>
                    ) : null}
                  </li>
                );
              })}
            </ol>
          )}
        </details>
      ))}
    </section>
  );
}
