import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";

import { QuizEditor } from "~/components/quizzes/quiz-editor";

import { metaT, pageMeta } from "~/lib/meta";
import { newQuizAction, loadNewQuiz } from "~/lib/quizzes.server";
import { sheets } from "~/styles/sheets";
import { requireRole } from "../../worker/auth/viewer";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const links: LinksFunction = () => sheets("lectures", "tasks", "quizzes", "exercises");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data ? `${metaT(matches)("quizEditor.new")} · ${data.lecture.title}` : metaT(matches)("error.notFound.title"));

/** A new quiz on a lecture. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  return loadNewQuiz(context.svc, viewer, params);
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  return newQuizAction(context.svc, viewer, params, await request.formData());
}

export default function QuizEditorRoute() {
  const data = useLoaderData<typeof loader>();
  const groupBase = `/dashboard/admin/group/${data.group.slug}`;
  const editor = <QuizEditor bankTags={data.bankTags} otherDraws={data.otherDraws} quiz={null} started={false} listPath={`${groupBase}/quiz`} lectureTitle={data.lecture.title} studentPath={null} />;
  return editor;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
