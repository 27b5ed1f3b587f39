import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { MembersOnlyBoundary } from "~/components/groups/members-only";
import { TaskPage } from "~/components/tasks/task-page";
import { metaT, pageMeta } from "~/lib/meta";
import { loadTaskPage, taskPageAction } from "~/lib/tasks.server";
import { sheets } from "~/styles/sheets";
import { requireViewer } from "../../worker/auth/viewer";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const links: LinksFunction = () => sheets("coursePages", "lectures", "tasks", "exercises");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  pageMeta(matches, data ? `${data.task.title} · ${data.task.group.title}` : metaT(matches)("error.notFound.title"));

/** /course/{slug}/lecture/{slugLecture}/Add-Task/{slugTask} (platform-spec §2): a task and the member's submission. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(context.svc, request);
  return loadTaskPage(context.svc, viewer, params);
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(context.svc, request);
  return taskPageAction(context.svc, viewer, params, await request.formData());
}

export default function TaskRoute() {
  const { task, submission, isStaff, serverNow, exercise, thread } = useLoaderData<typeof loader>();
  return <TaskPage key={task._id} task={task} submission={submission} isStaff={isStaff} serverNow={serverNow} exercise={exercise} thread={thread} />;
}

export function ErrorBoundary() {
  return <MembersOnlyBoundary />;
}
