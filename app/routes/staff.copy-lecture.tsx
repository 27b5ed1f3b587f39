import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/server-runtime";
import { attempt, invalid, resourceAnswer, text } from "~/lib/group-actions.server";
import { copyLectureInput } from "~/lib/lifecycle-schemas";
import { requireRole } from "../../worker/auth/viewer";
import { copyLecture } from "../../worker/services/course-copy";

/** The lecture form's "Copy to a group" box (issue 22): the same service as POST /api/lectures/{id}/copy. */
export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireRole(context.svc, request, ["instructor", "admin"]);
  const form = await request.formData();
  const parsed = copyLectureInput.safeParse({ groupId: text(form, "groupId"), startsAt: text(form, "startsAt") || null });
  if (!parsed.success) return resourceAnswer(context, invalid("copy-lecture", parsed.error));
  return resourceAnswer(context, await attempt("copy-lecture", () => copyLecture(context.svc, viewer, text(form, "lectureId"), parsed.data)));
}

export function loader() {
  return redirect("/");
}
