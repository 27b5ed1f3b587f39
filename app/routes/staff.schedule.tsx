import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/server-runtime";
import { attempt, invalid, resourceAnswer, text, unknownIntent } from "~/lib/group-actions.server";
import { SCHEDULE_KINDS, scheduleInput, type ScheduleKind } from "~/lib/lifecycle-schemas";
import { requireRole } from "../../worker/auth/viewer";
import { setSchedule } from "../../worker/services/schedule";

/**
 * The "Publish later" box of the lecture, task and quiz forms (issue 22) posts here: the same service as
 * PUT /api/schedule/{kind}/{id}, which checks that the viewer runs the item's group.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireRole(context.svc, request, ["instructor", "admin"]);
  const form = await request.formData();
  const kind = text(form, "kind");
  const intent = text(form, "intent") === "clear" ? "clear" : "schedule";
  if (!(SCHEDULE_KINDS as readonly string[]).includes(kind)) return resourceAnswer(context, unknownIntent(intent));
  const parsed = scheduleInput.safeParse({ publishAt: intent === "clear" ? null : text(form, "publishAt") });
  if (!parsed.success) return resourceAnswer(context, invalid(intent, parsed.error));
  return resourceAnswer(context, await attempt(intent, async () => ({ schedule: await setSchedule(context.svc, viewer, kind as ScheduleKind, text(form, "id"), parsed.data.publishAt) })));
}

/** Nothing to show: the box is on the forms. */
export function loader() {
  return redirect("/");
}
