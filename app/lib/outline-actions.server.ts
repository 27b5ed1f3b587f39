/**
 * The course outline's page actions (add, edit, remove, move a part), shared by the admin's group page and the
 * instructor's Outline tab: the same services as /api/groups/{id}/content, which check that the viewer runs the group.
 */
import type { ServiceContext } from "../../worker/context";
import { notFound } from "../../worker/http/errors";
import { addGroupContent, deleteGroupContent, listGroupContent, reorderGroupContent, updateGroupContent } from "../../worker/services/course-content";
import type { Viewer } from "../../worker/services/sessions";
import { attempt, invalid, rawText, text } from "./group-actions.server";
import { CONTENT_LIMITS, courseContentInput, updateCourseContentInput } from "./schemas";

export const OUTLINE_INTENTS = ["content-add", "content-edit", "content-delete", "content-move"] as const;
export const isOutlineIntent = (intent: string): intent is (typeof OUTLINE_INTENTS)[number] => (OUTLINE_INTENTS as readonly string[]).includes(intent);

/** The outline editor's limits, for its counters. */
export const OUTLINE_LIMITS = { title: CONTENT_LIMITS.title, body: CONTENT_LIMITS.body };

/** The outline with one item moved a place up or down, as the full order the service expects. */
async function moved(svc: ServiceContext, viewer: Viewer, slug: string, id: string, up: boolean) {
  const ids = (await listGroupContent(svc, viewer, slug)).map((c) => c._id);
  const from = ids.indexOf(id);
  if (from < 0) throw notFound("No such item in this group's outline.");
  const to = from + (up ? -1 : 1);
  if (to >= 0 && to < ids.length) [ids[from], ids[to]] = [ids[to]!, ids[from]!];
  return { ids };
}

/** One outline intent on the group `slug`. */
export function outlineAction(svc: ServiceContext, viewer: Viewer, slug: string, intent: (typeof OUTLINE_INTENTS)[number], form: FormData) {
  const id = text(form, "id");
  switch (intent) {
    case "content-add": {
      const parsed = courseContentInput.safeParse({ title: text(form, "title"), body: rawText(form, "body") });
      if (!parsed.success) return invalid(intent, parsed.error);
      return attempt(intent, () => addGroupContent(svc, viewer, slug, parsed.data));
    }
    case "content-edit": {
      const parsed = updateCourseContentInput.safeParse({ title: text(form, "title"), body: rawText(form, "body") });
      if (!parsed.success) return invalid(intent, parsed.error, id);
      return attempt(intent, () => updateGroupContent(svc, viewer, slug, id, parsed.data), id);
    }
    case "content-delete":
      return attempt(intent, () => deleteGroupContent(svc, viewer, slug, id), id);
    case "content-move":
      return attempt(intent, async () => ({ items: await reorderGroupContent(svc, viewer, slug, await moved(svc, viewer, slug, id, form.get("direction") === "up")) }), id);
  }
}
