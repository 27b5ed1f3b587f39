import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { metaT, pageMeta } from "~/lib/meta";
import { sheets } from "~/styles/sheets";
import { CopyLectureBox, ScheduleBox } from "~/components/lifecycle/schedule-box";
import { LectureItems } from "~/components/lectures/lecture-items";
import { requireRole } from "../../worker/auth/viewer";
import { LectureEditor } from "~/components/lectures/lecture-editor";
import { lectureEditorAction, loadLectureEditor } from "~/lib/lectures.server";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const links: LinksFunction = () => sheets("coursePages", "lectures", "lifecycle");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaT(matches);
  return pageMeta(matches, data ? `${data.lecture.title} · ${t("lectures.editTitle")}` : t("error.notFound.title"));
};

/** One lecture's editor (admin area). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  return loadLectureEditor(context.svc, viewer, params);
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  return lectureEditorAction(context.svc, viewer, params, await request.formData());
}

export default function EditLecture() {
  const { group, lecture, copyTo, items } = useLoaderData<typeof loader>();
  const base = `/dashboard/admin/group/${group.slug}/lectures`;
  return (
    <>
      <LectureEditor key={lecture._id} lecture={lecture} listPath={base} attendancePath={`${base}/${lecture.slug}/attendance`} />
      <div className="lifecycle-boxes">
        <LectureItems groupBase={`/dashboard/admin/group/${group.slug}`} lectureSlug={lecture.slug} tasks={items.tasks} quizzes={items.quizzes} />
        <ScheduleBox kind="lecture" id={lecture._id} publishAt={lecture.publishAt} published={lecture.published} />
        <CopyLectureBox lectureId={lecture._id} groups={copyTo} area="admin" />
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
