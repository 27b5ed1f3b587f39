import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { exerciseSaveAction } from "~/lib/exercises.server";
import { getViewer } from "../../worker/auth/viewer";

/**
 * POST /course/{slug}/exercise/{slugTask}/save (intent=draft or submit): the exercise page's background draft save
 * and hand-in. Answers JSON with a status, never a redirect, so the page can tell "offline" from "refused".
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await getViewer(context.svc, request);
  if (!viewer) return Response.json({ ok: false, code: "unauthorized", message: "Your session has ended. Log in again in another tab: your code is kept here." }, { status: 401 });
  return exerciseSaveAction(context.svc, viewer, params, await request.formData());
}

export function loader() {
  return Response.json({ ok: false, code: "bad_request", message: "Code is sent with POST." }, { status: 405, headers: { allow: "POST" } });
}
