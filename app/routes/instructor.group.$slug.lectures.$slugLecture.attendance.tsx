import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { metaT, pageMeta } from "~/lib/meta";
import { sheets } from "~/styles/sheets";
import { requireRole } from "../../worker/auth/viewer";
import { AttendanceScreen } from "~/components/lectures/attendance-screen";
import { InstructorGroupPage } from "~/components/lectures/instructor-group-page";
import { useT } from "~/lib/i18n";
import { attendanceAction, loadAttendanceScreen } from "~/lib/lectures.server";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const links: LinksFunction = () => sheets("lectures");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaT(matches);
  return pageMeta(matches, data ? `${t(data.state.session?.open ? "attendance.title" : "attendance.titleIdle")} · ${data.lecture.title}` : t("error.notFound.title"));
};

/** A lecture's live attendance (instructor area): the projector view and the roster. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "instructor");
  return { ...(await loadAttendanceScreen(context.svc, viewer, params)), origin: new URL(request.url).origin };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "instructor");
  return attendanceAction(context.svc, viewer, params, await request.formData());
}

export default function LectureAttendance() {
  const { t } = useT();
  const { group, lecture, state, origin } = useLoaderData<typeof loader>();
  const base = `/instructor/group/${group.slug}/lectures`;
  return (
    <InstructorGroupPage group={group} section={lecture.title} parent={{ label: t("lectures.title"), to: base }}>
      <AttendanceScreen lectureId={lecture.id} lectureSlug={lecture.slug} groupId={group.id} initial={state} origin={origin} published={lecture.published} startsAt={lecture.startsAt} />
    </InstructorGroupPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
