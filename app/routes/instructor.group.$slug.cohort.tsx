import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { InstructorGroupPage } from "~/components/lectures/instructor-group-page";
import { CohortScreen } from "~/components/lifecycle/cohort-screen";
import { cohortAction, loadCohort } from "~/lib/cohort.server";
import { groupSlugParam } from "~/lib/group-students.server";
import { useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { sheets } from "~/styles/sheets";
import { requireRole } from "../../worker/auth/viewer";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const links: LinksFunction = () => sheets("lectures", "progress", "lifecycle");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data ? `${metaT(matches)("cohort.tab")} · ${data.group.title}` : metaT(matches)("error.notFound.title"));

/** The Cohort tab (issue 22): announcements, the completion rule and certificates, and the next cohort's copy. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "instructor");
  return loadCohort(context.svc, viewer, groupSlugParam(params));
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "instructor");
  return cohortAction(context.svc, viewer, groupSlugParam(params), await request.formData());
}

export default function GroupCohort() {
  const data = useLoaderData<typeof loader>();
  const { t } = useT();
  return (
    <InstructorGroupPage group={data.group} section={t("cohort.tab")}>
      <CohortScreen data={data} area="instructor" />
    </InstructorGroupPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
