import { Link } from "@remix-run/react";
import { CheckIcon } from "~/components/icons";
import { When } from "~/components/lectures/when";
import { useT } from "~/lib/i18n";
import type { SubmissionState } from "~/lib/task-schemas";
import { STATE_KEYS } from "./state";

export interface CourseTask {
  _id: string;
  slug: string;
  title: string;
  dueAt: string | null;
  maxScore: number;
  lectureSlug: string;
  /** The reader's own work (students); null for staff, who grade from the group's task pages. */
  submission: { state: SubmissionState; score: number | null; feedbackHtml: string | null } | null;
}

/**
 * The group's tasks on its home page, by due time: each with the student's one clear state, and once graded the
 * grade and the instructor's feedback (Markdown, rendered on the server), so a student sees where they stand at a glance.
 */
export function CourseTasks({ groupSlug, tasks }: { groupSlug: string; tasks: CourseTask[] }) {
  const { t } = useT();
  return (
    <section className="course-home-tasks" aria-labelledby="home-tasks-title">
      <h2 id="home-tasks-title" className="block-title">
        {t("tasks.course.title")}
      </h2>
      {tasks.length === 0 ? (
        <p className="empty-inline">{t("tasks.course.none")}</p>
      ) : (
        <ol className="course-task-list" role="list">
          {tasks.map((task) => {
            const sub = task.submission;
            return (
              <li key={task._id} className="course-task" data-state={sub?.state ?? "staff"}>
                <div className="course-task-row row-arrow">
                  <Link to={`/course/${groupSlug}/lecture/${task.lectureSlug}/Add-Task/${task.slug}`} className="course-task-link" prefetch="intent">
                    <span className="course-task-title user-text">
                      {task.title}
                    </span>
                    <span className="course-task-due">
                      {task.dueAt ? (
                        <>
                          {t("tasks.due")} <When iso={task.dueAt} />
                        </>
                      ) : (
                        t("tasks.noDue")
                      )}
                    </span>
                  </Link>
                  {sub ? (
                    <span className="course-task-status">
                      <span className="badge task-state" data-state={sub.state}>
                        {t(STATE_KEYS[sub.state])}
                      </span>
                      {sub.score !== null ? (
                        // Nothing earned is not a success: a 0 reads plainly, without the check mark or the green.
                        <span className="course-task-grade" data-nothing={sub.score === 0 || undefined}>
                          {sub.score === 0 ? null : <CheckIcon />}
                          {t("tasks.grade", { score: sub.score, max: task.maxScore })}
                        </span>
                      ) : null}
                    </span>
                  ) : null}
                </div>
                {sub?.feedbackHtml ? (
                  <details className="course-task-feedback">
                    <summary>{t("tasks.feedback")}</summary>
                    <div className="prose" dir="auto" dangerouslySetInnerHTML={{ __html: sub.feedbackHtml }} />
                  </details>
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
