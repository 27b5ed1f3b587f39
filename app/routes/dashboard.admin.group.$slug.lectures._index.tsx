import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { metaT, pageMeta } from "~/lib/meta";
import { sheets } from "~/styles/sheets";
import { requireRole } from "../../worker/auth/viewer";
import { LecturesScreen } from "~/components/lectures/lectures-screen";
import { loadStaffLectures, staffLecturesAction } from "~/lib/lectures.server";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const links: LinksFunction = () => sheets("lectures");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaT(matches);
  return pageMeta(matches, data ? `${t("lectures.title")} · ${data.group.title}` : t("error.notFound.title"));
};

/** The group's lectures for its staff (admin area): list, create, series, publish, reorder, delete. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  return loadStaffLectures(context.svc, viewer, params);
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  return staffLecturesAction(context.svc, viewer, params, await request.formData());
}

export default function GroupLectures() {
  const { group, lectures, timeZones } = useLoaderData<typeof loader>();
  return <LecturesScreen lectures={lectures} base={`/dashboard/admin/group/${group.slug}/lectures`} groupTitle={group.title} timeZone={group.timeZone} timeZones={timeZones} />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
