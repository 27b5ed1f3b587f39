import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { InstructorGroupPage } from "~/components/lectures/instructor-group-page";
import { QuizEditor } from "~/components/quizzes/quiz-editor";
import { ExtensionsPanel } from "~/components/extensions-panel";
import { useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { editQuizAction, loadEditQuiz } from "~/lib/quizzes.server";
import { sheets } from "~/styles/sheets";
import { ScheduleBox } from "~/components/lifecycle/schedule-box";
import { requireRole } from "../../worker/auth/viewer";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";
// Its own delete is not followed by a reload of the item it deleted (lib/gone-after-delete.ts).
export { notAfterOwnDelete as shouldRevalidate } from "~/lib/gone-after-delete";

export const links: LinksFunction = () => sheets("lectures", "tasks", "quizzes", "exercises", "lifecycle");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data ? `${metaT(matches)("quizEditor.edit")} · ${data.quiz.title}` : metaT(matches)("error.notFound.title"));

/** A quiz's editor: settings, and questions until a student has started. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "instructor");
  return loadEditQuiz(context.svc, viewer, params);
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "instructor");
  return editQuizAction(context.svc, viewer, params, await request.formData());
}

export default function QuizEditorRoute() {
  const data = useLoaderData<typeof loader>();
  const groupBase = `/instructor/group/${data.group.slug}`;
  const editor = (
    <>
      <QuizEditor bankTags={data.bankTags} otherDraws={data.otherDraws} key={data.quiz._id} quiz={data.quiz} started={data.started} listPath={`${groupBase}/quizzes`} lectureTitle={data.lecture.title} studentPath={`/course/${data.group.slug}/lecture/${data.lecture.slug}/quiz/${data.quiz.slug}`} previewPath={`${groupBase}/quiz-preview/${data.quiz.slug}`} />
      <div className="extensions-after-editor">
        <ExtensionsPanel kind="quiz" extensions={data.extensions} students={data.students} defaultTime={data.quiz.closesAt} />
      </div>
      <div className="lifecycle-boxes">
        <ScheduleBox kind="quiz" id={data.quiz._id} publishAt={data.quiz.publishAt ?? null} published={data.quiz.published} />
      </div>
    </>
  );
  const { t } = useT();
  return (
    <InstructorGroupPage group={data.group} section={data.quiz.title} parent={{ label: t("staffQuizzes.title"), to: `${groupBase}/quizzes` }}>
      {editor}
    </InstructorGroupPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
