import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { InstructorGroupPage } from "~/components/lectures/instructor-group-page";
import { StaffQuizzesScreen } from "~/components/quizzes/staff-quizzes";
import { useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { loadStaffQuizzes, staffQuizzesAction } from "~/lib/quizzes.server";
import { QuestionBankSection } from "~/components/quizzes/question-bank";
import { sheets } from "~/styles/sheets";
import { requireRole } from "../../worker/auth/viewer";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const links: LinksFunction = () => sheets("lectures", "tasks", "quizzes");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data ? `${metaT(matches)("staffQuizzes.title")} · ${data.group.title}` : metaT(matches)("error.notFound.title"));

/** The group's quizzes, the results matrix and question-by-question statistics. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "instructor");
  return loadStaffQuizzes(context.svc, viewer, params);
}

/** The question bank's intents (save, delete, a question's preview). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "instructor");
  return staffQuizzesAction(context.svc, viewer, params, await request.formData());
}

export default function GroupQuizzes() {
  const data = useLoaderData<typeof loader>();
  const groupBase = `/instructor/group/${data.group.slug}`;
  const { t } = useT();
  return (
    <InstructorGroupPage group={data.group} section={t("staffQuizzes.title")}>
      <StaffQuizzesScreen results={data.results} lectures={data.lectures} base={groupBase} />
      <QuestionBankSection questions={data.bank.questions} tags={data.bank.tags} />
    </InstructorGroupPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
