import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { AreaPageHeader } from "~/components/area-shell";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { BookIcon, CalendarIcon, ChatIcon, InboxIcon, UsersIcon } from "~/components/icons";
import type { MessageKey } from "~/i18n/en";
import { formatDate, useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { requireRole } from "../../worker/auth/viewer";
import { listManagedGroups } from "../../worker/services/groups-admin";
import { staffAttention } from "../../worker/services/dashboard";
import { AttentionList } from "~/components/progress/attention";
import { sheets } from "~/styles/sheets";
import { EmptyState } from "~/components/empty-state";

export const links: LinksFunction = () => sheets("progress");

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, metaT(matches)("teach.overview.title"));

/** The instructor's own groups (listManagedGroups scopes them), newest first, with member and request counts. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "instructor");
  const [page, attention] = await Promise.all([listManagedGroups(context.svc, viewer, { page: 1, pageSize: 100 }), staffAttention(context.svc, viewer)]);
  return {
    name: viewer.name,
    attention,
    groups: page.groups.map((g) => ({
      id: g._id,
      title: g.title,
      slug: g.slug,
      status: g.status,
      startDate: g.start_date,
      capacity: g.capacity,
      memberCount: g.memberCount,
      pendingCount: g.pendingCount,
    })),
  };
}

const STATUS_KEYS: Record<"draft" | "published" | "archived", MessageKey> = {
  draft: "group.status.draft",
  published: "group.status.published",
  archived: "group.status.archived",
};

export default function InstructorOverview() {
  const { t, lang } = useT();
  const { name, groups, attention } = useLoaderData<typeof loader>();
  return (
    <main id="main" tabIndex={-1} className="area-page">
      <AreaPageHeader title={t("teach.overview.title")} lead={t("teach.overview.lead", { name })} />
      {groups.length > 0 ? <AttentionList attention={attention} area="instructor" /> : null}
      {groups.length === 0 ? (
        <EmptyState icon={<BookIcon />} title={t("teach.overview.empty.title")} body={t("teach.overview.empty.body")} />
      ) : (
        <ul role="list" className="teach-groups">
          {groups.map((g) => (
            <li key={g.id} className="card teach-group" aria-labelledby={`group-${g.id}`}>
              <div className="teach-group-head">
                <h2 id={`group-${g.id}`} className="teach-group-title user-text">{g.title}</h2>
                <span className="badge status-badge" data-status={g.status}>{t(STATUS_KEYS[g.status])}</span>
              </div>
              <ul role="list" className="teach-group-facts">
                <li>
                  <CalendarIcon />
                  {g.startDate ? formatDate(g.startDate.slice(0, 10), lang) : t("courses.comingSoon")}
                </li>
                <li>
                  <UsersIcon />
                  {g.capacity
                    ? t("teach.group.membersOf", { count: g.memberCount, capacity: g.capacity })
                    : t("teach.group.members", { count: g.memberCount })}
                </li>
                <li data-attention={g.pendingCount > 0 || undefined}>
                  <InboxIcon />
                  {t("teach.group.pending", { count: g.pendingCount })}
                </li>
              </ul>
              <div className="teach-group-links">
                <Link to={`/instructor/group/${g.slug}/students`} className="btn btn-outline btn-sm">
                  <UsersIcon />
                  {t("teach.group.students")}
                </Link>
                <Link to={`/instructor/group/${g.slug}/lectures`} className="btn btn-ghost btn-sm">
                  <CalendarIcon />
                  {t("lectures.title")}
                </Link>
                <Link to={`/instructor/group/${g.slug}/progress`} className="btn btn-ghost btn-sm">
                  <BookIcon />
                  {t("staffProgress.title")}
                </Link>
                <Link to={`/instructor/group/${g.slug}/messages`} className="btn btn-ghost btn-sm">
                  <ChatIcon />
                  {t("teach.group.messages")}
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
