import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { AreaPageHeader } from "~/components/area-shell";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FeedbackInbox } from "~/components/inbox/feedback-inbox";
import { useT } from "~/lib/i18n";
import { badInboxForm, field, inboxAction } from "~/lib/inbox-actions.server";
import { metaT, pageMeta } from "~/lib/meta";
import { requireRole } from "../../worker/auth/viewer";
import { deleteFeedback, listAllFeedback, moderateFeedback } from "../../worker/services/feedback";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, metaT(matches)("feedbackAdmin.title"));

/** Every feedback record, hidden ones and e-mail addresses included, newest first. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  return { feedback: await listAllFeedback(context.svc, viewer) };
}

/** `intent=hide` / `intent=show` / `intent=delete` for one record `id`. */
export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  const form = await request.formData();
  const intent = field(form, "intent");
  const id = field(form, "id");
  if (!id) return badInboxForm(intent, id);
  if (intent === "hide" || intent === "show") {
    return inboxAction(intent, id, () => moderateFeedback(context.svc, viewer, id, { hidden: intent === "hide" }));
  }
  if (intent === "delete") return inboxAction(intent, id, () => deleteFeedback(context.svc, viewer, id));
  return badInboxForm(intent, id);
}

export default function AdminFeedback() {
  const { t } = useT();
  const { feedback } = useLoaderData<typeof loader>();
  return (
    <main id="main" tabIndex={-1} className="area-page">
      <AreaPageHeader title={t("feedbackAdmin.title")} lead={t("feedbackAdmin.lead")} />
      <FeedbackInbox feedback={feedback} />
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
