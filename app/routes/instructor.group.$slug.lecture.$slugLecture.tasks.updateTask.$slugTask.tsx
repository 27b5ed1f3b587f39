import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { metaT, pageMeta } from "~/lib/meta";
import { sheets } from "~/styles/sheets";
import { ScheduleBox } from "~/components/lifecycle/schedule-box";
import { requireRole } from "../../worker/auth/viewer";
import { ExerciseEditor } from "~/components/exercises/exercise-editor";
import { TaskForm } from "~/components/tasks/staff-tasks";
import { ExtensionsPanel } from "~/components/extensions-panel";
import { editTaskAction, loadEditTask } from "~/lib/tasks.server";
import { InstructorGroupPage } from "~/components/lectures/instructor-group-page";
import { useT } from "~/lib/i18n";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";
// Its own delete is not followed by a reload of the item it deleted (lib/gone-after-delete.ts).
export { notAfterOwnDelete as shouldRevalidate } from "~/lib/gone-after-delete";

export const links: LinksFunction = () => sheets("lectures", "tasks", "exercises", "lifecycle");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data ? `${data.task.title} · ${data.lecture.title}` : metaT(matches)("error.notFound.title"));

/** Edit a task. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "instructor");
  return loadEditTask(context.svc, viewer, params);
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "instructor");
  return editTaskAction(context.svc, viewer, params, await request.formData());
}

export default function EditTask() {
  const data = useLoaderData<typeof loader>();
  const groupBase = `/instructor/group/${data.group.slug}`;
  const { t } = useT();
  return (
    <InstructorGroupPage group={data.group} section={data.task.title} parent={{ label: t("staffTasks.title"), to: `${groupBase}/tasks` }}>
      <>
      <TaskForm rubrics={data.rubrics} key={data.task._id} task={data.task} listPath={`${groupBase}/tasks`} lectureTitle={data.lecture.title} />
      {data.exercise ? <ExerciseEditor key={`exercise-${data.task._id}`} exercise={data.exercise} /> : null}
      <ExtensionsPanel kind="task" extensions={data.extensions} students={data.students} defaultTime={data.task.dueAt} graderHref={`${groupBase}/lecture/${data.lecture.slug}/tasks/${data.task.slug}/submissions`} />
      <div className="lifecycle-boxes">
        <ScheduleBox kind="task" id={data.task._id} publishAt={data.task.publishAt} published={false} />
      </div>
    </>
    </InstructorGroupPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
