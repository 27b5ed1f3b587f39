import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { StaffAttemptScreen } from "~/components/quizzes/staff-attempt";
import { metaT, pageMeta } from "~/lib/meta";
import { loadStaffAttempt, staffAttemptAction } from "~/lib/quizzes.server";
import { sheets } from "~/styles/sheets";
import { requireRole } from "../../worker/auth/viewer";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const links: LinksFunction = () => sheets("lectures", "tasks", "quizzes", "exercises");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data ? `${data.attempt.user.name} · ${data.attempt.quiz.title}` : metaT(matches)("error.notFound.title"));

/** One student's attempt, answer by answer: points for one answer, a corrected key (issue 21). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  return loadStaffAttempt(context.svc, viewer, params);
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  return staffAttemptAction(context.svc, viewer, params, await request.formData());
}

export default function StaffAttemptRoute() {
  const data = useLoaderData<typeof loader>();
  return <StaffAttemptScreen key={data.attempt._id} attempt={data.attempt} backTo={`/dashboard/admin/group/${data.group.slug}/quiz`} />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
