/**
 * One group's admin pages (/dashboard/admin/group/{slug}/*): the group's title and status, the section links,
 * and the section below. Sections render inside this <main> (their error boundaries are blocks, not screens).
 *
 * GUARD IN EVERY ROUTE: this loader protects nothing below it; every child loader and action calls
 * `requireRole(context.svc, request, "admin")` itself and then its service.
 */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Outlet, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { GroupStatusBadge } from "~/components/groups/badges";
import { GroupTabs, type GroupTab } from "~/components/groups/group-tabs";
import { useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { orHttpError } from "~/lib/group-actions.server";
import { notFoundResponse } from "~/lib/not-found.server";
import { idOrSlugParam } from "~/lib/schemas";
import { requireRole } from "../../worker/auth/viewer";
import { getManagedGroup } from "../../worker/services/groups-admin";
import { Breadcrumb } from "~/components/breadcrumb";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  pageMeta(matches, data ? data.group.title : metaT(matches)("error.notFound.title"));

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  const slug = idOrSlugParam.safeParse({ id: params.slug });
  if (!slug.success) throw notFoundResponse();
  const group = await orHttpError(getManagedGroup(context.svc, viewer, slug.data.id));
  return { group: { slug: group.slug, title: group.title, status: group.status } };
}

const TABS: GroupTab[] = [
  { to: "", key: "groups.tabs.overview" },
  { to: "students", key: "groups.tabs.students" },
  { to: "lectures", key: "lectures.title" },
  { to: "tasks", key: "staffTasks.title" },
  { to: "quiz", key: "staffQuizzes.title" },
  { to: "progress", key: "staffProgress.title" },
  { to: "cohort", key: "cohort.tab" },
  { to: "update", key: "groups.tabs.update" },
];

export default function AdminGroupLayout() {
  const { t } = useT();
  const { group } = useLoaderData<typeof loader>();
  const base = `/dashboard/admin/group/${group.slug}`;
  return (
    <main id="main" tabIndex={-1} className="area-page group-page">
      <header className="group-page-header">
        <Breadcrumb items={[{ label: t("admin.nav.allGroups"), to: "/dashboard/admin/allGroups" }, { label: group.title, userText: true }]} />
        <div className="group-page-title">
          <h1 className="area-page-title user-text">{group.title}</h1>
          <GroupStatusBadge status={group.status} />
        </div>
      </header>
      <GroupTabs base={base} tabs={TABS} />
      <Outlet />
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
