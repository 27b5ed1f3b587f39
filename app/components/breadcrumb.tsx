import { Link } from "@remix-run/react";
import { ChevronIcon } from "~/components/icons";
import { useT } from "~/lib/i18n";

/** One step of a trail: a link, except the last (the page itself). `userText`: a title someone typed (its own direction). */
export interface Crumb {
  label: string;
  to?: string;
  userText?: boolean;
}

/** A trail of links to the pages above this one; the last item is the page itself (`aria-current`). */
export function Breadcrumb({ items }: { items: Crumb[] }) {
  const { t } = useT();
  const last = items.length - 1;
  return (
    <nav aria-label={t("common.breadcrumb")} className="breadcrumb">
      <ol>
        {items.map((item, i) => {
          const cls = item.userText ? "user-text" : undefined;
          if (i === last) {
            return (
              <li key={i} aria-current="page" className={cls}>
                {item.label}
              </li>
            );
          }
          return (
            <li key={i}>
              {item.to ? (
                <Link to={item.to} className={cls}>
                  {item.label}
                </Link>
              ) : (
                <span className={cls}>{item.label}</span>
              )}
              <ChevronIcon />
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/**
 * The trail of a member's course pages: My Courses, the course, then the pages below it (a lecture, a task, a quiz).
 * Every course page starts from the same place, so a student can always step back to the list of their courses.
 */
export function CourseBreadcrumb({ course, trail }: { course: { title: string; href: string }; trail: Crumb[] }) {
  const { t } = useT();
  return <Breadcrumb items={[{ label: t("nav.myCourses"), to: "/my-courses" }, { label: course.title, to: course.href, userText: true }, ...trail]} />;
}
