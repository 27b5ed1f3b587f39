import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { MembersOnlyBoundary } from "~/components/groups/members-only";
import { QuizResult } from "~/components/quizzes/quiz-pages";
import { metaT, pageMeta } from "~/lib/meta";
import { loadQuizResult } from "~/lib/quizzes.server";
import { sheets } from "~/styles/sheets";
import { requireViewer } from "../../worker/auth/viewer";

export const links: LinksFunction = () => sheets("coursePages", "lectures", "quizzes");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data ? `${metaT(matches)("quiz.result.title")} · ${data.result.quiz.title}` : metaT(matches)("error.notFound.title"));

/** .../quiz/{slugQuiz}/result: the best score, every attempt with its time, attempts left. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(context.svc, request);
  return loadQuizResult(context.svc, viewer, params);
}

export default function QuizResultRoute() {
  const { result, base } = useLoaderData<typeof loader>();
  return <QuizResult result={result} base={base} />;
}

export function ErrorBoundary() {
  return <MembersOnlyBoundary />;
}
