/**
 * The instructor area's layout (/instructor/*): the header plus the instructor side navigation. Links to each
 * group's screens (students, lectures, messages, ...) are on the overview page.
 *
 * GUARD IN EVERY ROUTE: Remix runs child loaders and actions in parallel with this one and does not stop them
 * when this loader throws, so this loader protects nothing below it. Every loader and every action of every
 * page under /instructor must call `requireRole(context.svc, request, "instructor")` (worker/auth/viewer.ts)
 * itself and export an ErrorBoundary (`<GeneralErrorBoundary />`), which then shows inside this layout.
 */
import type { LoaderFunctionArgs, LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { Outlet } from "@remix-run/react";
import { AreaErrorShell, AreaShell, type AreaLink } from "~/components/area-shell";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { errorMeta } from "~/lib/error-words";
import { GridIcon, InboxIcon, SettingsIcon } from "~/components/icons";
import { requireRole } from "../../worker/auth/viewer";
import { sheets } from "~/styles/sheets";

export const links: LinksFunction = () => sheets("groups", "staff");

/** The layout's own refusal (a role that may not enter) is titled as its screen says; a page inside titles itself. */
export const meta: MetaFunction = ({ matches, error }) => errorMeta(matches, error);

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireRole(context.svc, request, "instructor");
  return null;
}

const INSTRUCTOR_LINKS: AreaLink[] = [
  { to: "/instructor", key: "teach.nav.overview", icon: <GridIcon />, end: true },
  { to: "/instructor/email-request", key: "teach.nav.requests", icon: <InboxIcon /> },
  { to: "/instructor/setting", key: "teach.nav.settings", icon: <SettingsIcon /> },
];

export default function InstructorLayout() {
  return (
    <AreaShell labelKey="teach.nav.label" links={INSTRUCTOR_LINKS}>
      <Outlet />
    </AreaShell>
  );
}

/** Reached when this layout's own guard refuses (403) or fails: no instructor navigation then. */
export function ErrorBoundary() {
  return (
    <AreaErrorShell>
      <GeneralErrorBoundary />
    </AreaErrorShell>
  );
}
