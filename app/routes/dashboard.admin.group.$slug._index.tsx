import type { LoaderFunctionArgs, LinksFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { data } from "@remix-run/server-runtime";
import { GroupChatPanel } from "~/components/chat/group-chat-panel";
import { ExternalIcon } from "~/components/groups/extra-icons";
import { GroupStatusBadge } from "~/components/groups/badges";
import { SectionErrorBoundary } from "~/components/groups/section-error";
import { BookIcon, CheckIcon, InboxIcon, UsersIcon } from "~/components/icons";
import { formatDate, useT } from "~/lib/i18n";
import { orHttpError } from "~/lib/group-actions.server";
import { notFoundResponse } from "~/lib/not-found.server";
import { idOrSlugParam } from "~/lib/schemas";
import { takeNotice } from "~/lib/notice.server";
import { requireRole } from "../../worker/auth/viewer";
import { getManagedGroup } from "../../worker/services/groups-admin";
import { sheets } from "~/styles/sheets";

export const links: LinksFunction = () => sheets("coursePages", "chat");

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  const slug = idOrSlugParam.safeParse({ id: params.slug });
  if (!slug.success) throw notFoundResponse();
  const g = await orHttpError(getManagedGroup(context.svc, viewer, slug.data.id));
  const { notice, headers } = takeNotice(request);
  return data({
    created: notice?.kind === "groupCreated" && notice.slug === g.slug,
    group: {
      id: g._id,
      slug: g.slug,
      title: g.title,
      description: g.description,
      image: g.imageCourse,
      status: g.status,
      startDate: g.start_date,
      instructorName: g.instructorId ? g.instructorName : null,
      capacity: g.capacity,
      memberCount: g.memberCount,
      pendingCount: g.pendingCount,
      createdAt: g.createdAt,
      parts: g.content.length,
    },
  }, { headers });
}

/** Key facts, counts with links to the work waiting, the public page, and the group chat for staff. */
export default function AdminGroupOverview() {
  const { t, lang } = useT();
  const { group, created } = useLoaderData<typeof loader>();
  const base = `/dashboard/admin/group/${group.slug}`;
  return (
    <div className="group-section">
      {created ? (
        <p className="notice-success" role="status">
          <CheckIcon />
          {t(group.status === "published" ? "groups.overview.createdPublished" : "groups.overview.created")}
        </p>
      ) : null}
      <ul role="list" className="stat-grid">
        <li>
          <Link to={`${base}/students`} className="card stat-card">
            <span className="stat-icon" aria-hidden="true">
              <UsersIcon />
            </span>
            <span className="stat-label">{t("groups.all.members")}</span>
            <span className="stat-value">{group.memberCount}</span>
            <span className="stat-detail">
              {group.capacity ? t("groups.overview.seatsLeft", { count: Math.max(0, group.capacity - group.memberCount) }) : t("groups.overview.noLimit")}
            </span>
          </Link>
        </li>
        <li>
          <Link to={`/dashboard/admin/email-request?group=${group.slug}`} className="card stat-card" data-tone={group.pendingCount > 0 ? "attention" : undefined}>
            <span className="stat-icon" aria-hidden="true">
              <InboxIcon />
            </span>
            <span className="stat-label">{t("groups.all.pending")}</span>
            <span className="stat-value">{group.pendingCount}</span>
            <span className="stat-detail">{group.pendingCount > 0 ? t("admin.overview.requestsWaiting") : t("admin.overview.requestsNone")}</span>
          </Link>
        </li>
        <li>
          <Link to={`${base}/update#outline`} className="card stat-card">
            <span className="stat-icon" aria-hidden="true">
              <BookIcon />
            </span>
            <span className="stat-label">{t("course.outline")}</span>
            <span className="stat-value">{group.parts}</span>
            <span className="stat-detail">{t("groups.overview.editOutline")}</span>
          </Link>
        </li>
      </ul>

      <div className="group-overview">
        <section className="card group-facts-card" aria-labelledby="facts-title">
          <h2 id="facts-title" className="block-title">
            {t("groups.overview.facts")}
          </h2>
          <dl className="facts">
            <div>
              <dt>{t("groups.form.status")}</dt>
              <dd>
                <GroupStatusBadge status={group.status} />
              </dd>
            </div>
            <div>
              <dt>{t("groups.form.instructor")}</dt>
              <dd>{group.instructorName ?? t("groups.form.noInstructor")}</dd>
            </div>
            <div>
              <dt>{t("groups.form.startDate")}</dt>
              <dd>{group.startDate ? formatDate(group.startDate, lang) : t("courses.comingSoon")}</dd>
            </div>
            <div>
              <dt>{t("groups.form.capacity")}</dt>
              <dd>{group.capacity ? t("courses.seats", { count: group.capacity }) : t("groups.overview.noLimit")}</dd>
            </div>
            <div>
              <dt>{t("groups.form.slug")}</dt>
              <dd dir="ltr">/content/{group.slug}</dd>
            </div>
            <div>
              <dt>{t("groups.overview.createdAt")}</dt>
              <dd>{formatDate(group.createdAt, lang)}</dd>
            </div>
          </dl>
          <div className="group-facts-links">
            <Link to={`/content/${group.slug}`} className="btn btn-outline btn-sm">
              <ExternalIcon />
              {t(group.status === "published" ? "groups.overview.publicPage" : "groups.overview.previewPage")}
            </Link>
            {group.status === "published" ? null : <p className="muted group-hidden-note">{t("groups.overview.notPublic")}</p>}
            <Link to={`/course/${group.slug}`} className="btn btn-ghost btn-sm">
              <BookIcon />
              {t("groups.overview.memberView")}
            </Link>
          </div>
        </section>

        <section className="card group-about-card" aria-labelledby="about-title">
          {group.image ? <img src={group.image} alt={t("courses.imageAlt", { title: group.title })} className="group-about-image" width={640} height={360} /> : null}
          <div className="group-about-body">
            <h2 id="about-title" className="block-title">
              {t("course.about")}
            </h2>
            {group.description ? <p className="user-text">{group.description}</p> : <p className="muted">{t("groups.course.noDescription")}</p>}
          </div>
        </section>
      </div>

      {/* The panel is the landmark (a region named by its heading): a second one around it would repeat the name. */}
      <div className="group-chat-slot">
        <GroupChatPanel groupId={group.id} groupSlug={group.slug} ended={group.status === "archived"} />
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <SectionErrorBoundary />;
}
