/**
 * Loader and action bodies of the student's task page (/course/{slug}/lecture/{slugLecture}/Add-Task/{slugTask}),
 * calling the same services as the API.
 */
import type { ServiceContext } from "../../worker/context";
import { getTask, listSubmissions, submitTask } from "../../worker/services/tasks";
import type { Viewer } from "../../worker/services/sessions";
import { attempt, invalid, orHttpError, text, unknownIntent } from "./group-actions.server";
import { renderMarkdown } from "./markdown.server";
import { notFoundResponse } from "./not-found.server";
import { submitTaskInput } from "./task-schemas";

export async function loadTaskPage(svc: ServiceContext, viewer: Viewer, params: { slug?: string; slugLecture?: string; slugTask?: string }) {
  if (!params.slug || !params.slugLecture || !params.slugTask) throw notFoundResponse();
  const task = await orHttpError(getTask(svc, viewer, params.slugLecture, params.slugTask));
  if (task.group.slug !== params.slug && task.group._id !== params.slug) throw notFoundResponse();
  const { submissions } = await orHttpError(listSubmissions(svc, viewer, params.slugLecture, params.slugTask));
  const mine = viewer.role === "user" ? (submissions[0] ?? null) : null;
  return {
    task,
    submission: mine ? { ...mine, feedbackHtml: mine.feedback ? renderMarkdown(mine.feedback) : null } : null,
    isStaff: viewer.role !== "user",
    serverNow: new Date().toISOString(),
  };
}

export async function taskPageAction(svc: ServiceContext, viewer: Viewer, params: { slugLecture?: string; slugTask?: string }, form: FormData) {
  const intent = text(form, "intent");
  if (intent !== "submit") return unknownIntent(intent);
  const parsed = submitTaskInput.safeParse({ link: text(form, "link"), notes: text(form, "notes") || undefined });
  if (!parsed.success) return invalid(intent, parsed.error);
  return attempt(intent, () => submitTask(svc, viewer, params.slugLecture ?? "", params.slugTask ?? "", parsed.data));
}
