import { Link } from "@remix-run/react";
import { PlusIcon } from "~/components/icons";
import { ScheduledBadge } from "~/components/lifecycle/schedule-box";
import { When } from "~/components/lectures/when";
import { useT } from "~/lib/i18n";
import type { MessageKey } from "~/i18n/en";

export interface LectureItem {
  slug: string;
  title: string;
  endsAt: string | null;
  published: boolean;
  publishAt: string | null;
}

/**
 * "On this lecture" beside a lecture's editor: its tasks and quizzes, each opening its own editor, and the way to set
 * a new one on this lecture (the Tasks and Quizzes tabs ask which lecture first). `groupBase` is the group's staff
 * address (/instructor/group/{slug} or /dashboard/admin/group/{slug}).
 */
export function LectureItems({ groupBase, lectureSlug, tasks, quizzes }: { groupBase: string; lectureSlug: string; tasks: LectureItem[]; quizzes: LectureItem[] }) {
  const { t } = useT();
  return (
    <section className="card form-card lecture-items" aria-labelledby="lecture-items-title">
      <h2 id="lecture-items-title" className="block-title">
        {t("lectureItems.title")}
      </h2>
      <ItemList
        id="lecture-items-tasks"
        heading={t("lectureItems.tasks")}
        empty={t("lectureItems.noTasks")}
        endsLabel="lectures.due"
        items={tasks}
        href={(slug) => `${groupBase}/lecture/${lectureSlug}/tasks/updateTask/${slug}`}
        add={{ to: `${groupBase}/lectures/${lectureSlug}/newTask`, label: t("staffTasks.new") }}
      />
      <ItemList
        id="lecture-items-quizzes"
        heading={t("lectureItems.quizzes")}
        empty={t("lectureItems.noQuizzes")}
        endsLabel="quiz.closes"
        items={quizzes}
        href={(slug) => `${groupBase}/lecture/${lectureSlug}/quiz/updateQuiz/${slug}`}
        add={{ to: `${groupBase}/lectures/${lectureSlug}/newQuiz`, label: t("staffQuizzes.new") }}
      />
    </section>
  );
}

function ItemList({ id, heading, empty, endsLabel, items, href, add }: { id: string; heading: string; empty: string; endsLabel: MessageKey; items: LectureItem[]; href: (slug: string) => string; add: { to: string; label: string } }) {
  const { t } = useT();
  return (
    <div className="lecture-items-part">
      <div className="lecture-items-head">
        <h3 id={id} className="lecture-items-heading">
          {heading}
        </h3>
        <Link to={add.to} className="btn btn-outline btn-sm" aria-describedby={id}>
          <PlusIcon />
          {add.label}
        </Link>
      </div>
      {items.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="lecture-items-list" aria-labelledby={id}>
          {items.map((item) => (
            <li key={item.slug}>
              <Link to={href(item.slug)} className="user-text" dir="auto">
                {item.title}
              </Link>
              <span className="lecture-items-when">
                {item.endsAt ? (
                  <>
                    {t(endsLabel)} <When iso={item.endsAt} />
                  </>
                ) : null}
              </span>
              {item.publishAt ? <ScheduledBadge iso={item.publishAt} /> : item.published ? null : <span className="badge badge-amber">{t("lectures.draft")}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
