import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireRole } from "../../worker/auth/viewer";
import { getSubmission } from "../../worker/services/tasks";
import { orHttpError } from "~/lib/group-actions.server";

/**
 * The grader's one whole submission (a code hand-in's full report): the grader's list carries report summaries only,
 * and loads the report of the submission on screen from here. Staff of the task's group only (the service checks).
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, ["instructor", "admin"]);
  const submission = await orHttpError(getSubmission(context.svc, viewer, null, params.taskId!, params.submissionId!));
  return Response.json({ report: submission.report }, { headers: { "Cache-Control": "private, no-store" } });
}
