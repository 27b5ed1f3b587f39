import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { metaT, pageMeta } from "~/lib/meta";
import { sheets } from "~/styles/sheets";
import { requireRole } from "../../worker/auth/viewer";
import { StaffTasksScreen } from "~/components/tasks/staff-tasks";
import { RubricsSection } from "~/components/tasks/rubrics";
import { loadStaffTasks, staffTasksAction } from "~/lib/tasks.server";
import { InstructorGroupPage } from "~/components/lectures/instructor-group-page";
import { useT } from "~/lib/i18n";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const links: LinksFunction = () => sheets("lectures", "tasks");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data ? `${metaT(matches)("staffTasks.title")} · ${data.group.title}` : metaT(matches)("error.notFound.title"));

/** The group's tasks with hand-in and grading counts. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "instructor");
  return loadStaffTasks(context.svc, viewer, params);
}

/** The rubric intents (save, delete) of the tab's rubrics section. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "instructor");
  return staffTasksAction(context.svc, viewer, params, await request.formData());
}

export default function GroupTasks() {
  const data = useLoaderData<typeof loader>();
  const groupBase = `/instructor/group/${data.group.slug}`;
  const { t } = useT();
  return (
    <InstructorGroupPage group={data.group} section={t("staffTasks.title")}>
      <StaffTasksScreen tasks={data.tasks} lectures={data.lectures} base={groupBase} />
      <RubricsSection rubrics={data.rubrics} />
    </InstructorGroupPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
