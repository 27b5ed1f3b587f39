import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { progressDownload } from "~/lib/progress.server";
import { requireRole } from "../../worker/auth/viewer";

/** The progress tab's downloads: attendance.csv, grades.csv, progress.csv (the API's exports, for the cookie session; the same file in every language). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  return progressDownload(context.svc, viewer, params);
}
