import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { AreaPageHeader } from "~/components/area-shell";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ArrowIcon, BookIcon, InboxIcon, MailIcon, PlusIcon, UsersIcon } from "~/components/icons";
import { useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { requireRole } from "../../worker/auth/viewer";
import { adminOverview, staffAttention } from "../../worker/services/dashboard";
import { AttentionList } from "~/components/progress/attention";
import { sheets } from "~/styles/sheets";

export const links: LinksFunction = () => sheets("progress");

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, metaT(matches)("admin.overview.title"));

export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  const [overview, attention] = await Promise.all([adminOverview(context.svc, viewer), staffAttention(context.svc, viewer)]);
  return { name: viewer.name, overview, attention };
}

function StatCard({ to, icon, label, value, children, tone }: { to: string; icon: ReactNode; label: string; value: number; children?: ReactNode; tone?: "attention" }) {
  return (
    <Link to={to} className="card stat-card" data-tone={tone}>
      <span className="stat-icon" aria-hidden="true">{icon}</span>
      <span className="stat-label">{label}</span>
      <span className="stat-value">{value}</span>
      {children ? <span className="stat-detail">{children}</span> : null}
      <ArrowIcon className="stat-arrow" />
    </Link>
  );
}

export default function AdminOverview() {
  const { t } = useT();
  const { name, overview, attention } = useLoaderData<typeof loader>();
  return (
    <main id="main" tabIndex={-1} className="area-page">
      <AreaPageHeader title={t("admin.overview.title")} lead={t("admin.overview.lead", { name })}>
        <Link to="/dashboard/admin/newGroup" className="btn btn-primary">
          <PlusIcon />
          {t("admin.nav.newGroup")}
        </Link>
      </AreaPageHeader>
      <AttentionList attention={attention} area="admin" />
      <ul role="list" className="stat-grid">
        <li>
          <StatCard to="/dashboard/admin/allStudent" icon={<UsersIcon />} label={t("admin.overview.users")} value={overview.users.total}>
            {t("admin.overview.usersDetail", { users: overview.users.user, instructors: overview.users.instructor, admins: overview.users.admin })}
          </StatCard>
        </li>
        <li>
          <StatCard to="/dashboard/admin/allGroups" icon={<BookIcon />} label={t("admin.overview.groups")} value={overview.groups.total}>
            {t("admin.overview.groupsDetail", { published: overview.groups.published, draft: overview.groups.draft, archived: overview.groups.archived })}
          </StatCard>
        </li>
        <li>
          <StatCard
            to="/dashboard/admin/email-request"
            icon={<InboxIcon />}
            label={t("admin.overview.requests")}
            value={overview.pendingRequests}
            tone={overview.pendingRequests > 0 ? "attention" : undefined}
          >
            {overview.pendingRequests > 0 ? t("admin.overview.requestsWaiting") : t("admin.overview.requestsNone")}
          </StatCard>
        </li>
        <li>
          <StatCard
            to="/dashboard/admin/get-all-message-by-admin"
            icon={<MailIcon />}
            label={t("admin.overview.messages")}
            value={overview.unreadMessages}
            tone={overview.unreadMessages > 0 ? "attention" : undefined}
          >
            {overview.unreadMessages > 0 ? t("admin.overview.messagesUnread") : t("admin.overview.messagesNone")}
          </StatCard>
        </li>
      </ul>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
