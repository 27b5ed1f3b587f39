import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { QuizPreviewScreen } from "~/components/quizzes/quiz-preview";
import { metaT, pageMeta } from "~/lib/meta";
import { loadQuizPreview, quizPreviewAction } from "~/lib/quizzes.server";
import { sheets } from "~/styles/sheets";
import { requireRole } from "../../worker/auth/viewer";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const links: LinksFunction = () => sheets("lectures", "tasks", "quizzes", "exercises");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data ? `${metaT(matches)("quizPreview.title")} · ${data.preview.quiz.title}` : metaT(matches)("error.notFound.title"));

/** A check stores nothing: the paper on screen stays as it is. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) => (formData?.get("intent") === "check" ? false : defaultShouldRevalidate);

/** The quiz as one of its students would get it: one paper, answered and checked, nothing stored. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  return loadQuizPreview(context.svc, viewer, params, new URL(request.url));
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  return quizPreviewAction(context.svc, viewer, params, await request.formData());
}

export default function QuizPreviewRoute() {
  const data = useLoaderData<typeof loader>();
  return <QuizPreviewScreen key={data.preview.quiz._id} preview={data.preview} nextDraw={data.nextDraw} editPath={data.editPath} />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
