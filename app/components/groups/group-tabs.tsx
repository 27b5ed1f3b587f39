import { Link, useLocation } from "@remix-run/react";
import type { MessageKey } from "~/i18n/en";
import { useT } from "~/lib/i18n";
import { useRevealCurrent } from "~/lib/use-reveal-current";

export interface GroupTab {
  /** Relative to the group's base path ("" for the overview). */
  to: string;
  key: MessageKey;
}

export type GroupSection = "overview" | "students" | "lectures" | "tasks" | "quizzes" | "progress" | "messages" | "cohort" | "update";

/**
 * Which section a page below a group's base path belongs to, for both areas (instructor: `quizzes`, admin: `quiz`).
 * Pages of one lecture's task or quiz belong to Tasks or Quizzes, not to Lectures, whatever their path starts with:
 * `lectures/{l}/newTask`, `lecture/{l}/tasks/...` (the grader, the task form) are Tasks; `lectures/{l}/newQuiz`,
 * `lecture/{l}/quiz/...` are Quizzes; the rest of `lectures/...` (the list, a lecture's form, attendance) is Lectures.
 */
export function groupSection(rest: string): GroupSection | null {
  const parts = rest.split("/").filter(Boolean);
  const [first] = parts;
  if (first === undefined) return "overview";
  if (first === "lectures" || first === "lecture") {
    const page = parts[2];
    if ((first === "lectures" && page === "newTask") || (first === "lecture" && page === "tasks")) return "tasks";
    if ((first === "lectures" && page === "newQuiz") || (first === "lecture" && page === "quiz")) return "quizzes";
    return first === "lectures" ? "lectures" : null;
  }
  if (first === "quiz" || first === "quizzes" || first === "quiz-attempt") return "quizzes";
  if (first === "students" || first === "tasks" || first === "progress" || first === "messages" || first === "cohort" || first === "update") return first;
  return null;
}

/**
 * The sections of one group's staff pages as a row of links (each is its own page, so links with
 * aria-current rather than ARIA tabs). Only sections whose pages exist are listed. The current one is decided by
 * `groupSection`, not by the start of the address.
 */
export function GroupTabs({ base, tabs }: { base: string; tabs: GroupTab[] }) {
  const { t } = useT();
  const row = useRevealCurrent<HTMLUListElement>();
  // The address may be percent-encoded (Arabic slugs); the base is built from the raw slug.
  const path = decodeURIComponentSafe(useLocation().pathname);
  const here = path === base || path.startsWith(`${base}/`) ? groupSection(path.slice(base.length)) : null;
  return (
    <nav className="group-tabs" aria-label={t("groups.tabs.label")}>
      <ul role="list" ref={row}>
        {tabs.map((tab) => {
          const current = here !== null && groupSection(tab.to) === here;
          return (
            <li key={tab.to}>
              <Link
                to={tab.to ? `${base}/${tab.to}` : base}
                prefetch="intent"
                className="group-tab"
                aria-current={current ? "page" : undefined}
              >
                {t(tab.key)}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
