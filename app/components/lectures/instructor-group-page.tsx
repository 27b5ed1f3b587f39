import type { ReactNode } from "react";
import { GroupTabs, type GroupTab } from "~/components/groups/group-tabs";
import { useT } from "~/lib/i18n";
import { Breadcrumb } from "~/components/breadcrumb";

/** The sections of one of the instructor's groups (students, lectures, chat), shown on each of their pages. */
export const INSTRUCTOR_GROUP_TABS: GroupTab[] = [
  { to: "students", key: "groups.tabs.students" },
  { to: "lectures", key: "lectures.title" },
  { to: "tasks", key: "staffTasks.title" },
  { to: "quizzes", key: "staffQuizzes.title" },
  { to: "progress", key: "staffProgress.title" },
  { to: "messages", key: "teach.group.messages" },
  { to: "outline", key: "groups.tabs.outline" },
  { to: "cohort", key: "cohort.tab" },
];

/**
 * The frame of one group's instructor pages that have no layout route of their own: the breadcrumb (Teaching, the
 * group, an optional parent section), the page title and the group's sections.
 */
export function InstructorGroupPage({
  group,
  section,
  parent,
  children,
}: {
  group: { slug: string; title: string };
  section: string;
  parent?: { label: string; to: string };
  children: ReactNode;
}) {
  const { t } = useT();
  return (
    <main id="main" tabIndex={-1} className="area-page group-page">
      <header className="group-page-header">
        <Breadcrumb
          items={[
            { label: t("teach.overview.title"), to: "/instructor" },
            { label: group.title, to: `/instructor/group/${group.slug}/students`, userText: true },
            ...(parent ? [{ label: parent.label, to: parent.to }] : []),
            { label: section, userText: true },
          ]}
        />
        <div className="area-page-header">
          <div>
            <h1 className="area-page-title user-text">{section}</h1>
            <p className="area-page-lead user-text">{group.title}</p>
          </div>
        </div>
      </header>
      <GroupTabs base={`/instructor/group/${group.slug}`} tabs={INSTRUCTOR_GROUP_TABS} />
      {children}
    </main>
  );
}
