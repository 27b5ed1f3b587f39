import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { AreaPageHeader } from "~/components/area-shell";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { JoinRequestsInbox } from "~/components/groups/join-requests-inbox";
import { useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { joinRequestsAction, loadJoinRequests } from "~/lib/join-requests.server";
import { requireRole } from "../../worker/auth/viewer";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, metaT(matches)("groups.requests.title"));

/** Every group's pending join requests, newest first, updating live. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  return loadJoinRequests(context.svc, viewer, new URL(request.url));
}

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  return joinRequestsAction(context.svc, viewer, await request.formData());
}

export default function AdminJoinRequests() {
  const { t } = useT();
  const data = useLoaderData<typeof loader>();
  return (
    <main id="main" tabIndex={-1} className="area-page">
      <AreaPageHeader title={t("groups.requests.title")} lead={t("groups.requests.leadAdmin")} />
      <JoinRequestsInbox {...data} groupHref={(slug) => `/dashboard/admin/group/${slug}`} />
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
