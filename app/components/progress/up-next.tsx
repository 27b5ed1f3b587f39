import { Link } from "@remix-run/react";
import { When } from "~/components/lectures/when";
import { BookIcon, CalendarIcon, CheckIcon, SparkIcon } from "~/components/icons";
import { useT } from "~/lib/i18n";
import type { UpNextItem } from "~/lib/up-next";

const ICON = { lecture: <CalendarIcon />, quiz: <SparkIcon />, task: <BookIcon /> };

/** The next lecture, open quizzes and tasks due soon, each linking to its page (app/lib/up-next.ts). */
export function UpNext({ items }: { items: UpNextItem[] }) {
  const { t } = useT();
  return (
    <section className="card up-next" aria-labelledby="up-next-title">
      <h2 id="up-next-title" className="block-title">
        {t("next.title")}
      </h2>
      {items.length === 0 ? (
        <p className="up-next-empty">
          <CheckIcon />
          {t("next.none")}
        </p>
      ) : (
        <ul role="list" className="up-next-list">
          {items.map((item) => (
            <li key={`${item.kind}:${item.href}`}>
              <Link to={item.href} className="up-next-item row-arrow" data-kind={item.kind} data-overdue={(item.kind === "task" && item.overdue) || undefined} prefetch="intent">
                <span className="up-next-icon" aria-hidden="true">
                  {ICON[item.kind]}
                </span>
                <span className="up-next-main">
                  <span className="up-next-kind">{item.kind === "lecture" ? t("next.lecture") : item.kind === "quiz" ? t("next.quiz") : t("next.task")}</span>
                  <span className="up-next-title user-text">{item.title}</span>
                  <span className="up-next-when">
                    {item.kind === "lecture" ? <When iso={item.at} /> : null}
                    {item.kind === "quiz" ? (
                      <>
                        {item.inProgress ? t("next.resume") : t("next.attemptsLeft", { n: item.attemptsLeft })}
                        {item.at ? (
                          <>
                            {" · "}
                            {t("quiz.closes")} <When iso={item.at} />
                          </>
                        ) : null}
                      </>
                    ) : null}
                    {item.kind === "task" ? (
                      item.overdue ? (
                        t("next.overdue")
                      ) : (
                        <>
                          {t("tasks.due")} <When iso={item.at} />
                        </>
                      )
                    ) : null}
                  </span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
