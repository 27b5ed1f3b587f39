import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { metaT, pageMeta } from "~/lib/meta";
import { sheets } from "~/styles/sheets";
import { requireRole } from "../../worker/auth/viewer";
import { GradeRelease } from "~/components/tasks/grade-release";
import { Grader } from "~/components/tasks/grader";
import { graderAction, loadGrader } from "~/lib/tasks.server";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const links: LinksFunction = () => sheets("lectures", "tasks", "exercises");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data ? `${data.task.title} · ${metaT(matches)("staffTasks.submissionsTitle")}` : metaT(matches)("error.notFound.title"));

/** The grader: every member's submission of a task. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  return loadGrader(context.svc, viewer, params);
}

/** The feedback's preview changes nothing: the grader's data is not loaded again for it. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) => (formData?.get("intent") === "preview" ? false : defaultShouldRevalidate);

export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  return graderAction(context.svc, viewer, params, await request.formData());
}

export default function Submissions() {
  const data = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  return (
    <>
      <GradeRelease held={data.task.gradesHeld} graded={data.submissions.filter((x) => x.heldGrade).length} changed={data.submissions.filter((x) => x.changedSinceGraded).length} />
      <Grader key={`${data.task._id}:${params.get("submission") ?? ""}`} taskId={data.task._id} maxScore={data.task.maxScore} initial={data.submissions} missing={data.missing} rubric={data.task.rubric} snippets={data.snippets} fileBase={`/course/${data.group.slug}/lecture/${data.task.lecture.slug}/task-file/${data.task.slug}`} extendHref={data.task.dueAt ? `/dashboard/admin/group/${data.group.slug}/lecture/${data.task.lecture.slug}/tasks/updateTask/${data.task.slug}` : null} open={params.get("submission")} />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
