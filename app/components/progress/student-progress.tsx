import { Link } from "@remix-run/react";
import { useT } from "~/lib/i18n";
import type { AtRiskReason, Progress } from "~/lib/progress";
import { ProgressSummary } from "./progress-summary";

export interface GroupProgressItem {
  group: { _id: string; slug: string; title: string };
  progress: Progress;
  atRisk: boolean;
  atRiskReasons: AtRiskReason[];
}

/** A student's numbers in each group of theirs the viewer runs (the staff's student pages). */
export function StudentProgressList({ items, groupHref }: { items: GroupProgressItem[]; groupHref: (slug: string) => string }) {
  const { t } = useT();
  return (
    <section aria-labelledby="student-progress-title" className="group-section student-progress">
      <h2 id="student-progress-title" className="block-title">
        {t("studentProgress.title")}
      </h2>
      {items.length === 0 ? (
        <p className="empty-inline">{t("studentProgress.none")}</p>
      ) : (
        <ul role="list" className="student-progress-list">
          {items.map((item) => (
            <li key={item.group._id}>
              <ProgressSummary progress={item.progress} title={item.group.title} heading="h3" reasons={item.atRiskReasons} id={`progress-${item.group._id}`} forStaff />
              <Link to={groupHref(item.group.slug)} className="student-progress-link">
                {t("studentProgress.open")}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
