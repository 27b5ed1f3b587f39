/**
 * Loader bodies of the progress pages, calling the same services as the progress API: the staff's progress tab
 * (instructor and admin) and its CSV downloads, which the pages serve under the group's staff path because a
 * plain link carries the page's cookie session, not the API's bearer token.
 */
import type { ServiceContext } from "../../worker/context";
import { csvResponse } from "../../worker/http/csv";
import { AppError } from "../../worker/http/errors";
import { managedGroupHeading } from "../../worker/services/group-access";
import { groupProgress } from "../../worker/services/progress";
import { exportGroupCsv, EXPORTS, type ExportKind } from "../../worker/services/progress-export";
import type { Viewer } from "../../worker/services/sessions";
import { orHttpError } from "./group-actions.server";
import { notFoundResponse } from "./not-found.server";

/** The progress tab: the group (checked as the viewer's to run) and every member's numbers. */
export async function loadStaffProgress(svc: ServiceContext, viewer: Viewer, params: { slug?: string }) {
  if (!params.slug) throw notFoundResponse();
  const group = await orHttpError(managedGroupHeading(svc, viewer, params.slug));
  const report = await orHttpError(groupProgress(svc, viewer, group._id));
  return { group: { id: group._id, slug: group.slug, title: group.title }, report };
}

/** `{file}` is attendance.csv, grades.csv or progress.csv; anything else is a 404. */
export async function progressDownload(svc: ServiceContext, viewer: Viewer, params: { slug?: string; file?: string }): Promise<Response> {
  const kind = EXPORTS.find((k) => `${k}.csv` === params.file) as ExportKind | undefined;
  // Answered, not thrown: a Response thrown from this resource route (nested under the staff layouts) surfaces in
  // workerd as an unhandled rejection, although the client gets its status (checked; the top-level calendar.ics
  // route throws without it).
  if (!params.slug || !kind) return notFoundResponse();
  try {
    const file = await exportGroupCsv(svc, viewer, params.slug, kind);
    return csvResponse(file.filename, file.body);
  } catch (err) {
    if (err instanceof AppError && (err.status === 403 || err.status === 404)) return Response.json({ message: err.message, code: err.code }, { status: err.status });
    throw err;
  }
}
