/**
 * The stylesheets by area (docs/decisions/0011-styles-by-area.md). The root links `base`; each route links the
 * sheets of what it shows, through `links`, so a page loads only its own area's rules. Remix renders the links of
 * every matched route in order (root, layouts, page), which keeps the cascade of the original single sheet.
 */
import type { LinkDescriptor } from "@remix-run/cloudflare";
import accounts from "./accounts.css?url";
import base from "./base.css?url";
import certificate from "./certificate.css?url";
import chat from "./chat.css?url";
import contact from "./contact.css?url";
import coursePages from "./course-pages.css?url";
import dev from "./dev.css?url";
import exercises from "./exercises.css?url";
import feedbackForm from "./feedback-form.css?url";
import groups from "./groups.css?url";
import landing from "./landing.css?url";
import lectures from "./lectures.css?url";
import lifecycle from "./lifecycle.css?url";
import progress from "./progress.css?url";
import quizzes from "./quizzes.css?url";
import staff from "./staff.css?url";
import tasks from "./tasks.css?url";

const SHEETS = { accounts, base, certificate, chat, contact, coursePages, dev, exercises, feedbackForm, groups, landing, lectures, lifecycle, progress, quizzes, staff, tasks };
export type Sheet = keyof typeof SHEETS;

/** `links` entries for these sheets, in the order given. */
export function sheets(...names: Sheet[]): LinkDescriptor[] {
  return names.map((name) => ({ rel: "stylesheet", href: SHEETS[name] }));
}
