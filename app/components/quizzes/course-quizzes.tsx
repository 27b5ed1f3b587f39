import { Link } from "@remix-run/react";
import { CheckIcon } from "~/components/icons";
import { When } from "~/components/lectures/when";
import { useT } from "~/lib/i18n";
import type { QuizWindow } from "~/lib/quiz-schemas";

export interface CourseQuiz {
  _id: string;
  slug: string;
  title: string;
  lectureSlug: string;
  opensAt: string | null;
  closesAt: string | null;
  maxScore: number;
  maxAttempts: number;
  window: QuizWindow;
  /** The student's own attempts; null for staff. */
  mine: { attempts: number; inProgress: boolean; bestScore: number | null } | null;
}

/** The group's quizzes on its home page: when each is open, and the student's best score and attempts. */
export function CourseQuizzes({ groupSlug, quizzes, ended = false }: { groupSlug: string; quizzes: CourseQuiz[]; ended?: boolean }) {
  const { t } = useT();
  return (
    <section className="course-home-quizzes" aria-labelledby="home-quizzes-title">
      <h2 id="home-quizzes-title" className="block-title">
        {t("staffQuizzes.title")}
      </h2>
      {quizzes.length === 0 ? (
        <p className="empty-inline">{t("quiz.course.none")}</p>
      ) : (
        <ol className="course-task-list" role="list">
          {quizzes.map((quiz) => (
            <li key={quiz._id} className="course-task course-quiz" data-window={quiz.window}>
              <div className="course-task-row row-arrow">
                <Link to={`/course/${groupSlug}/lecture/${quiz.lectureSlug}/quiz/${quiz.slug}`} className="course-task-link" prefetch="intent">
                  <span className="course-task-title user-text">
                    {quiz.title}
                  </span>
                  <span className="course-task-due">
                    <QuizWhen quiz={quiz} ended={ended} />
                  </span>
                </Link>
                <QuizStanding quiz={quiz} ended={ended} />
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/**
 * When a quiz opens, closes or closed, as every list of quizzes says it. In an ended course (archived) no attempt
 * starts, whatever the quiz's own times say.
 */
export function QuizWhen({ quiz, ended = false }: { quiz: Pick<CourseQuiz, "window" | "opensAt" | "closesAt">; ended?: boolean }) {
  const { t } = useT();
  if (ended && quiz.window !== "closed") return <>{t("quiz.course.ended")}</>;
  if (quiz.window === "upcoming" && quiz.opensAt) {
    return (
      <>
        {t("quiz.opens")} <When iso={quiz.opensAt} />
      </>
    );
  }
  if (quiz.window === "closed") return <>{t("quiz.window.closed")}</>;
  if (quiz.closesAt) {
    return (
      <>
        {t("quiz.closes")} <When iso={quiz.closesAt} />
      </>
    );
  }
  return <>{t("quiz.course.open")}</>;
}

/**
 * A student's standing on a quiz: an attempt running, their best score, or not taken (yet, while it is open or
 * to come; "Missed" once it has closed, where progress counts it as 0). Nothing for staff.
 */
export function QuizStanding({ quiz, ended = false }: { quiz: Pick<CourseQuiz, "mine" | "maxScore" | "window" | "maxAttempts">; ended?: boolean }) {
  const { t } = useT();
  if (!quiz.mine) return null;
  // Still open for others, but not for this student any more.
  const usedUp = !ended && quiz.window === "open" && !quiz.mine.inProgress && quiz.mine.attempts >= quiz.maxAttempts;
  return (
    <span className="course-task-status">
      {quiz.mine.inProgress ? <span className="badge badge-amber">{t("quiz.course.inProgress")}</span> : null}
      {usedUp ? <span className="badge">{t("quiz.course.usedUp")}</span> : null}
      {quiz.mine.bestScore !== null ? (
        <span className="course-task-grade" data-nothing={quiz.mine.bestScore === 0 || undefined}>
          {quiz.mine.bestScore === 0 ? null : <CheckIcon />}
          {t("tasks.grade", { score: quiz.mine.bestScore, max: quiz.maxScore })}
        </span>
      ) : quiz.mine.inProgress ? null : quiz.window === "closed" ? (
        <span className="badge quiz-missed">{t("quiz.course.missed")}</span>
      ) : (
        <span className="badge">{t(ended ? "quiz.course.notTakenEnded" : "quiz.course.notTaken")}</span>
      )}
    </span>
  );
}
