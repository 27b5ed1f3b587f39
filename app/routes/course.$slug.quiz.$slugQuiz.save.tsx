import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { quizSaveAction } from "~/lib/quizzes.server";
import { getViewer } from "../../worker/auth/viewer";

/**
 * POST /course/{slug}/quiz/{slugQuiz}/save (intent=save or submit): the questions screen's background autosave
 * and hand-in. Answers JSON with a status, never a redirect, so the page can tell "offline" from "refused".
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await getViewer(context.svc, request);
  if (!viewer) return Response.json({ ok: false, code: "unauthorized", message: "Your session has ended. Log in again in another tab: your answers are kept here." }, { status: 401 });
  return quizSaveAction(context.svc, viewer, params, await request.formData());
}

export function loader() {
  return Response.json({ ok: false, code: "bad_request", message: "Answers are sent with POST." }, { status: 405, headers: { allow: "POST" } });
}
