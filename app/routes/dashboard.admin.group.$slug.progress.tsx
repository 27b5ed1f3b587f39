import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { StaffProgressScreen } from "~/components/progress/staff-progress";
import { metaT, pageMeta } from "~/lib/meta";
import { loadStaffProgress } from "~/lib/progress.server";
import { sheets } from "~/styles/sheets";
import { requireRole } from "../../worker/auth/viewer";

export const links: LinksFunction = () => sheets("progress");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data ? `${metaT(matches)("staffProgress.title")} · ${data.group.title}` : metaT(matches)("error.notFound.title"));

/** Every student's progress in a group, with charts and downloads (the group's layout draws the tabs). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  return loadStaffProgress(context.svc, viewer, params);
}

export default function GroupProgress() {
  const { group, report } = useLoaderData<typeof loader>();
  return <StaffProgressScreen report={report} exportBase={`/dashboard/admin/group/${group.slug}/export`} studentHref={(slug) => `/dashboard/admin/allStudent/student/${slug}`} />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
