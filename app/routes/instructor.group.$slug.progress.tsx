import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { InstructorGroupPage } from "~/components/lectures/instructor-group-page";
import { StaffProgressScreen } from "~/components/progress/staff-progress";
import { useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { loadStaffProgress } from "~/lib/progress.server";
import { sheets } from "~/styles/sheets";
import { requireRole } from "../../worker/auth/viewer";

export const links: LinksFunction = () => sheets("progress");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data ? `${metaT(matches)("staffProgress.title")} · ${data.group.title}` : metaT(matches)("error.notFound.title"));

/** Every student's progress in one of the instructor's groups, with charts and downloads. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "instructor");
  return loadStaffProgress(context.svc, viewer, params);
}

export default function GroupProgress() {
  const { group, report } = useLoaderData<typeof loader>();
  const { t } = useT();
  return (
    <InstructorGroupPage group={group} section={t("staffProgress.title")}>
      <StaffProgressScreen report={report} exportBase={`/instructor/group/${group.slug}/export`} studentHref={(slug) => `/instructor/${group.slug}/student/${slug}`} />
    </InstructorGroupPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
