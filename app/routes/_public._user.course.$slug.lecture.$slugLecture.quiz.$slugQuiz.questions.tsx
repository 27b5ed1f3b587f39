import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { MembersOnlyBoundary } from "~/components/groups/members-only";
import { QuizRunner } from "~/components/quizzes/quiz-runner";
import { metaT, pageMeta } from "~/lib/meta";
import { loadQuizQuestions } from "~/lib/quizzes.server";
import { sheets } from "~/styles/sheets";
import { requireViewer } from "../../worker/auth/viewer";

export const links: LinksFunction = () => sheets("coursePages", "lectures", "quizzes", "exercises");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data ? `${data.quiz.title} · ${data.quiz.group.title}` : metaT(matches)("error.notFound.title"));

/** .../quiz/{slugQuiz}/questions: the open attempt, its saved answers and the server's deadline. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(context.svc, request);
  return loadQuizQuestions(context.svc, viewer, params);
}

export default function QuizQuestionsRoute() {
  const { quiz, attempt, base } = useLoaderData<typeof loader>();
  return <QuizRunner key={attempt._id} quiz={quiz} questions={quiz.questions} attempt={attempt} base={base} saveUrl={`/course/${quiz.group.slug}/quiz/${quiz.slug}/save`} serverNow={quiz.serverNow} />;
}

export function ErrorBoundary() {
  return <MembersOnlyBoundary />;
}
