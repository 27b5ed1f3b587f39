import type { LoaderFunctionArgs, MetaFunction, LinksFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { GroupChatPanel } from "~/components/chat/group-chat-panel";
import { CHAT_PAGE_SIZE } from "~/components/chat/use-group-chat";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { UsersIcon } from "~/components/icons";
import { useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { orHttpError } from "~/lib/group-actions.server";
import { notFoundResponse } from "~/lib/not-found.server";
import { can } from "~/lib/permissions";
import { idOrSlugParam } from "~/lib/schemas";
import { requireRole } from "../../worker/auth/viewer";
import { listMessages } from "../../worker/services/messages";
import { getGroupForMember } from "../../worker/services/my-groups";
import { sheets } from "~/styles/sheets";
import { GroupTabs } from "~/components/groups/group-tabs";
import { INSTRUCTOR_GROUP_TABS } from "~/components/lectures/instructor-group-page";
import { Breadcrumb } from "~/components/breadcrumb";

export const links: LinksFunction = () => sheets("chat");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaT(matches);
  return pageMeta(matches, data ? `${t("chat.title")} · ${data.group.title}` : t("error.notFound.title"));
};

/**
 * The group chat of one of the instructor's own groups, full height. `getGroupForMember` answers 404 for an
 * unknown group and 403 for a group the instructor does not teach (and is not a member of); the first page of
 * messages comes from the same service as GET /api/messages/group/{id}.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "instructor");
  const slug = idOrSlugParam.safeParse({ id: params.slug });
  if (!slug.success) throw notFoundResponse();
  const group = await orHttpError(getGroupForMember(context.svc, viewer, slug.data.id));
  const page = await orHttpError(listMessages(context.svc, viewer, group._id, { limit: CHAT_PAGE_SIZE }));
  return {
    group: { id: group._id, slug: group.slug, title: group.title, ended: group.status === "archived" },
    canModerate: can(viewer, "group.manage", { group: { instructorId: group.instructor?._id ?? null } }),
    page,
  };
}

export default function InstructorGroupMessages() {
  const { t } = useT();
  const { group, canModerate, page } = useLoaderData<typeof loader>();
  return (
    <main id="main" tabIndex={-1} className="area-page group-page chat-page">
      <header className="group-page-header">
        <Breadcrumb items={[{ label: t("teach.overview.title"), to: "/instructor" }, { label: group.title, userText: true }]} />
        <div className="area-page-header">
          <div>
            <h1 className="area-page-title user-text">{group.title}</h1>
            <p className="area-page-lead">{t("chat.page.lead")}</p>
          </div>
          <div className="area-page-actions">
            <Link to={`/instructor/group/${group.slug}/students`} className="btn btn-ghost btn-sm">
              <UsersIcon />
              {t("teach.group.students")}
            </Link>
          </div>
        </div>
      </header>
      <GroupTabs base={`/instructor/group/${group.slug}`} tabs={INSTRUCTOR_GROUP_TABS} />
      <GroupChatPanel groupId={group.id} groupSlug={group.slug} initial={page} canModerate={canModerate} fill ended={group.ended} />
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
