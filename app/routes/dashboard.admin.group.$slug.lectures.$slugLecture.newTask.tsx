import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { metaT, pageMeta } from "~/lib/meta";
import { sheets } from "~/styles/sheets";
import { requireRole } from "../../worker/auth/viewer";
import { TaskForm } from "~/components/tasks/staff-tasks";
import { loadNewTask, newTaskAction } from "~/lib/tasks.server";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const links: LinksFunction = () => sheets("lectures", "tasks", "exercises");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data ? `${metaT(matches)("staffTasks.new")} · ${data.lecture.title}` : metaT(matches)("error.notFound.title"));

/** A new task on a lecture. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  return loadNewTask(context.svc, viewer, params);
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  return newTaskAction(context.svc, viewer, params, await request.formData());
}

export default function NewTask() {
  const data = useLoaderData<typeof loader>();
  const groupBase = `/dashboard/admin/group/${data.group.slug}`;
  return <TaskForm rubrics={data.rubrics} task={null} listPath={`${groupBase}/tasks`} lectureTitle={data.lecture.title} editPath={(slug) => `${groupBase}/lecture/${data.lecture.slug}/tasks/updateTask/${slug}`} />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
