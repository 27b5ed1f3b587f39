import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { StudentsScreen } from "~/components/groups/students-screen";
import { ExternalIcon } from "~/components/groups/extra-icons";
import { useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { groupSlugParam, groupStudentsAction, loadGroupStudents } from "~/lib/group-students.server";
import { requireRole } from "../../worker/auth/viewer";
import { GroupTabs } from "~/components/groups/group-tabs";
import { INSTRUCTOR_GROUP_TABS } from "~/components/lectures/instructor-group-page";
import { Breadcrumb } from "~/components/breadcrumb";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaT(matches);
  return pageMeta(matches, data ? `${t("groups.tabs.students")} · ${data.group.title}` : t("error.notFound.title"));
};

/** The students of one of the instructor's own groups (the service answers 403/404 for anyone else's). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "instructor");
  return loadGroupStudents(context.svc, viewer, groupSlugParam(params), new URL(request.url));
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "instructor");
  return groupStudentsAction(context.svc, viewer, groupSlugParam(params), await request.formData());
}

export default function InstructorGroupStudents() {
  const { t } = useT();
  const data = useLoaderData<typeof loader>();
  const slug = data.group.slug;
  return (
    <main id="main" tabIndex={-1} className="area-page group-page">
      <header className="group-page-header">
        <Breadcrumb items={[{ label: t("teach.overview.title"), to: "/instructor" }, { label: data.group.title, userText: true }]} />
        <div className="area-page-header">
          <div>
            <h1 className="area-page-title">{t("groups.tabs.students")}</h1>
            <p className="area-page-lead user-text">{data.group.title}</p>
          </div>
          <div className="area-page-actions">
            <Link to={`/content/${slug}`} className="btn btn-ghost btn-sm">
              <ExternalIcon />
              {t(data.group.status === "published" ? "groups.overview.publicPage" : "groups.overview.previewPage")}
            </Link>
          </div>
        </div>
      </header>
      <GroupTabs base={`/instructor/group/${slug}`} tabs={INSTRUCTOR_GROUP_TABS} />
      <StudentsScreen
        {...data}
        studentHref={(studentSlug) => `/instructor/${slug}/student/${studentSlug}`}
        inboxHref={`/instructor/email-request?group=${slug}`}
      />
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
