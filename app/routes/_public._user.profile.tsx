import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction, LinksFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { AccountPanels } from "~/components/account/account-panels";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { accountAction, loadAccount } from "~/lib/account.server";
import { useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { PASSWORD_MIN_LENGTH } from "~/lib/schemas";
import { redirect } from "@remix-run/server-runtime";
import { accountPath } from "~/lib/areas";
import { requireViewer } from "../../worker/auth/viewer";
import { sheets } from "~/styles/sheets";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const links: LinksFunction = () => sheets("accounts");

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, metaT(matches)("account.title"));

/** A student's own account. Staff have one account page, inside their area: /profile sends them there. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(context.svc, request);
  if (viewer.role !== "user") throw redirect(accountPath(viewer.role));
  return { ...(await loadAccount(context.svc, viewer)), minPassword: PASSWORD_MIN_LENGTH };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(context.svc, request);
  return accountAction(context.svc, viewer, request);
}

/** Members open their course from here; other statuses are shown without a link. */
const courseLink = (slug: string, status: string) => (status === "approved" || status === "special" ? `/course/${slug}` : null);

export default function ProfilePage() {
  const { t } = useT();
  const data = useLoaderData<typeof loader>();
  return (
    <main id="main" tabIndex={-1} className="page page-account">
      <div className="page-band page-band-compact">
        <div className="container">
          <h1 className="page-title">{t("account.title")}</h1>
          <p className="page-lead">{t("account.lead")}</p>
        </div>
      </div>
      <div className="container account-page">
        <AccountPanels data={data} groupHref={courseLink} />
      </div>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
