import { Link } from "@remix-run/react";
import { useT } from "~/lib/i18n";

/**
 * A group's public outline as a numbered list of links to its parts (`/content/{slug}/course/{id}`), or the sentence
 * for an empty one: the course page and the member's course home show the same list.
 */
export function CourseOutlineList({ groupSlug, outline }: { groupSlug: string; outline: readonly { _id: string; title: string }[] }) {
  const { t } = useT();
  if (outline.length === 0) return <p className="empty-inline">{t("course.outlineEmpty")}</p>;
  return (
    <ol className="outline" role="list">
      {outline.map((item, i) => (
        <li key={item._id}>
          <Link to={`/content/${groupSlug}/course/${item._id}`} className="outline-link row-arrow" prefetch="intent">
            <span className="outline-number" aria-hidden="true">
              {String(i + 1).padStart(2, "0")}
            </span>
            <span className="outline-title">
              <span className="visually-hidden">{t("course.part", { n: i + 1, total: outline.length })}: </span>
              {item.title}
            </span>
          </Link>
        </li>
      ))}
    </ol>
  );
}
