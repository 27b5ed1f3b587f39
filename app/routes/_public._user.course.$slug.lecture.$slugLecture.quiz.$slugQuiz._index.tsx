import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { MembersOnlyBoundary } from "~/components/groups/members-only";
import { QuizIntro } from "~/components/quizzes/quiz-pages";
import { metaT, pageMeta } from "~/lib/meta";
import { loadQuizIntro, quizIntroAction } from "~/lib/quizzes.server";
import { sheets } from "~/styles/sheets";
import { requireViewer } from "../../worker/auth/viewer";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const links: LinksFunction = () => sheets("coursePages", "lectures", "quizzes");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data ? `${data.quiz.title} · ${data.quiz.group.title}` : metaT(matches)("error.notFound.title"));

/** /course/{slug}/lecture/{slugLecture}/quiz/{slugQuiz} (platform-spec §2): the quiz's rules, attempts left, start. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(context.svc, request);
  return loadQuizIntro(context.svc, viewer, params);
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(context.svc, request);
  return quizIntroAction(context.svc, viewer, params, await request.formData());
}

export default function QuizIntroRoute() {
  const { quiz, base, editPath, previewPath, keysMayWait } = useLoaderData<typeof loader>();
  return <QuizIntro quiz={quiz} base={base} editPath={editPath} previewPath={previewPath} isStaff={quiz.isStaff} open={quiz.attempt} attemptsUsed={quiz.attemptsUsed} attemptsLeft={quiz.attemptsLeft} bestScore={quiz.bestScore} serverNow={quiz.serverNow} keysMayWait={keysMayWait} />;
}

export function ErrorBoundary() {
  return <MembersOnlyBoundary />;
}
