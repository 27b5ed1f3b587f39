import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/server-runtime";
import { groupSlugParam } from "~/lib/group-students.server";
import { requireRole } from "../../worker/auth/viewer";

/** A group's own address on the instructor's side opens its first tab (the tabs check who is asking). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireRole(context.svc, request, "instructor");
  throw redirect(`/instructor/group/${encodeURIComponent(groupSlugParam(params))}/students`);
}
