/**
 * The admin area's layout (/dashboard/*): the header plus the admin side navigation.
 *
 * GUARD IN EVERY ROUTE: Remix runs child loaders and actions in parallel with this one and does not stop them
 * when this loader throws, so this loader protects nothing below it. Every loader and every action of every
 * page under /dashboard must call `requireRole(context.svc, request, "admin")` (worker/auth/viewer.ts) itself
 * and export an ErrorBoundary (`<GeneralErrorBoundary />`), which then shows inside this layout.
 */
import type { LoaderFunctionArgs, LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { Outlet } from "@remix-run/react";
import { AreaErrorShell, AreaShell, type AreaLink } from "~/components/area-shell";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { errorMeta } from "~/lib/error-words";
import { BookIcon, GridIcon, InboxIcon, MailIcon, PlusIcon, QuoteIcon, UserIcon, UsersIcon } from "~/components/icons";
import { requireRole } from "../../worker/auth/viewer";
import { sheets } from "~/styles/sheets";

export const links: LinksFunction = () => sheets("groups", "staff");

/** The layout's own refusal (a role that may not enter) is titled as its screen says; a page inside titles itself. */
export const meta: MetaFunction = ({ matches, error }) => errorMeta(matches, error);

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireRole(context.svc, request, "admin");
  return null;
}

const ADMIN_LINKS: AreaLink[] = [
  { to: "/dashboard", key: "admin.nav.overview", icon: <GridIcon />, end: true },
  { to: "/dashboard/admin/newGroup", key: "admin.nav.newGroup", icon: <PlusIcon /> },
  { to: "/dashboard/admin/allGroups", key: "admin.nav.allGroups", icon: <BookIcon /> },
  { to: "/dashboard/admin/allStudent", key: "admin.nav.students", icon: <UsersIcon /> },
  { to: "/dashboard/admin/email-request", key: "admin.nav.requests", icon: <InboxIcon /> },
  { to: "/dashboard/admin/get-all-feedback-by-admin", key: "admin.nav.feedback", icon: <QuoteIcon /> },
  { to: "/dashboard/admin/get-all-message-by-admin", key: "admin.nav.messages", icon: <MailIcon /> },
  { to: "/dashboard/admin/profile-admin", key: "admin.nav.profile", icon: <UserIcon /> },
];

export default function AdminLayout() {
  return (
    <AreaShell labelKey="admin.nav.label" links={ADMIN_LINKS}>
      <Outlet />
    </AreaShell>
  );
}

/** Reached when this layout's own guard refuses (403) or fails: no admin navigation then. */
export function ErrorBoundary() {
  return (
    <AreaErrorShell>
      <GeneralErrorBoundary />
    </AreaErrorShell>
  );
}
