import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireViewer } from "../../worker/auth/viewer";
import { fileResponse } from "../../worker/http/hand-in-file";
import { readSubmissionFile } from "../../worker/services/tasks";
import { AppError } from "../../worker/http/errors";

/**
 * A hand-in's file for the pages (issue 21): the student's own task page and the grader read it here with the session
 * cookie; the API's route is the same service and the same response. `?inline=1` previews an image, PDF or text;
 * `?version=N` reads an earlier version's file.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(context.svc, request);
  const url = new URL(request.url);
  const version = Number(url.searchParams.get("version") ?? "");
  try {
    const file = await readSubmissionFile(context.svc, viewer, params.slugLecture ?? "", params.slugTask ?? "", params.submissionId ?? "", Number.isInteger(version) && version > 0 ? version : undefined, params.slug ?? "");
    return fileResponse(file, url.searchParams.get("inline") === "1");
  } catch (e) {
    // A file is not a page: a refusal is a short answer of its own. Someone outside the group learns no more than
    // that there is no such file (404, as for one that does not exist).
    if (e instanceof AppError && (e.status === 403 || e.status === 404)) return Response.json({ message: "No such file.", code: "not_found" }, { status: 404, headers: { "Cache-Control": "no-store" } });
    throw e;
  }
}
