import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction, LinksFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { AccountPanels } from "~/components/account/account-panels";
import { AreaPageHeader } from "~/components/area-shell";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { accountAction, loadAccount } from "~/lib/account.server";
import { useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { PASSWORD_MIN_LENGTH } from "~/lib/schemas";
import { requireRole } from "../../worker/auth/viewer";
import { sheets } from "~/styles/sheets";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const links: LinksFunction = () => sheets("accounts");

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, metaT(matches)("teach.nav.settings"));

/** The instructor's own account (Settings), inside the instructor area. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "instructor");
  return { ...(await loadAccount(context.svc, viewer)), minPassword: PASSWORD_MIN_LENGTH };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "instructor");
  return accountAction(context.svc, viewer, request);
}

export default function InstructorSettingsPage() {
  const { t } = useT();
  const data = useLoaderData<typeof loader>();
  return (
    <main id="main" tabIndex={-1} className="area-page">
      <AreaPageHeader title={t("teach.nav.settings")} lead={t("account.lead")} />
      <AccountPanels data={data} />
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
