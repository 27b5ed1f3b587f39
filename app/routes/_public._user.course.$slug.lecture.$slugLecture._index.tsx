import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { MembersOnlyBoundary } from "~/components/groups/members-only";
import { LecturePage } from "~/components/lectures/lecture-page";
import { lecturePageAction, loadLecturePage } from "~/lib/lectures.server";
import { metaT, pageMeta } from "~/lib/meta";
import { sheets } from "~/styles/sheets";
import { requireViewer } from "../../worker/auth/viewer";
import { ensureBrowser } from "../../worker/services/attendance-client";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const links: LinksFunction = () => sheets("coursePages", "lectures", "tasks");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  pageMeta(matches, data ? `${data.lecture.title} · ${data.lecture.group.title}` : metaT(matches)("error.notFound.title"));

/**
 * /course/{slug}/lecture/{slugLecture}: a lecture for the group's members (published ones) and staff, with the
 * check-in box while attendance is open. `?checkedIn=1` follows a QR check-in.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(context.svc, request);
  const { lecture, work } = await loadLecturePage(context.svc, viewer, params);
  // Only the group's staff can read a lecture without being a member (getLecture checked who may read it).
  const staff = viewer.role !== "user";
  const manageHref = staff
    ? viewer.role === "admin"
      ? `/dashboard/admin/group/${lecture.group.slug}/lectures/${lecture.slug}/attendance`
      : `/instructor/group/${lecture.group.slug}/lectures/${lecture.slug}/attendance`
    : null;
  return { lecture, work, manageHref, justCheckedIn: new URL(request.url).searchParams.get("checkedIn") === "1" };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(context.svc, request);
  // The check-in's browser (an HttpOnly cookie, set here when missing) lets staff see one browser checking in for several students.
  const browser = ensureBrowser(request);
  const result = await lecturePageAction(context.svc, viewer, params, await request.formData(), { browser: browser.id });
  if (browser.setCookie) {
    const headers = new Headers(result.init?.headers);
    headers.append("Set-Cookie", browser.setCookie);
    result.init = { ...result.init, headers };
  }
  return result;
}

export default function LectureRoute() {
  const { lecture, work, manageHref, justCheckedIn } = useLoaderData<typeof loader>();
  return <LecturePage lecture={lecture} work={work} manageHref={manageHref} justCheckedIn={justCheckedIn} />;
}

export function ErrorBoundary() {
  return <MembersOnlyBoundary />;
}
