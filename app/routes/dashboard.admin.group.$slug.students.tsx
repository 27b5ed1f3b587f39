import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { SectionErrorBoundary } from "~/components/groups/section-error";
import { StudentsScreen } from "~/components/groups/students-screen";
import { metaT, pageMeta } from "~/lib/meta";
import { groupSlugParam, groupStudentsAction, loadGroupStudents } from "~/lib/group-students.server";
import { requireRole } from "../../worker/auth/viewer";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaT(matches);
  return pageMeta(matches, data ? `${t("groups.tabs.students")} · ${data.group.title}` : t("error.notFound.title"));
};

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  return loadGroupStudents(context.svc, viewer, groupSlugParam(params), new URL(request.url));
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  return groupStudentsAction(context.svc, viewer, groupSlugParam(params), await request.formData());
}

export default function AdminGroupStudents() {
  const data = useLoaderData<typeof loader>();
  return (
    <StudentsScreen
      {...data}
      studentHref={(studentSlug) => `/dashboard/admin/allStudent/student/${studentSlug}`}
      inboxHref={`/dashboard/admin/email-request?group=${data.group.slug}`}
    />
  );
}

export function ErrorBoundary() {
  return <SectionErrorBoundary />;
}
