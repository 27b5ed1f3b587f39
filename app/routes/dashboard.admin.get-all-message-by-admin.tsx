import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { AreaPageHeader } from "~/components/area-shell";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ContactInbox } from "~/components/inbox/contact-inbox";
import { useT } from "~/lib/i18n";
import { badInboxForm, field, inboxAction } from "~/lib/inbox-actions.server";
import { metaT, pageMeta } from "~/lib/meta";
import { contactMessagesQuery } from "~/lib/schemas";
import { requireRole } from "../../worker/auth/viewer";
import { deleteContactMessage, listContactMessages, setContactMessageRead } from "../../worker/services/contact";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, metaT(matches)("contactInbox.title"));

const PAGE_SIZE = 20;

/** The contact-form inbox: `?status=unread|read|all&page=`, newest first, with the unread count. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  const url = new URL(request.url);
  const parsed = contactMessagesQuery.safeParse({
    status: url.searchParams.get("status") ?? undefined,
    page: url.searchParams.get("page") ?? undefined,
    pageSize: PAGE_SIZE,
  });
  const query = parsed.success ? parsed.data : { status: "all" as const, page: 1, pageSize: PAGE_SIZE };
  return listContactMessages(context.svc, viewer, query).then((page) => ({ ...page, status: query.status }));
}

/** `intent=read` (with `read=true|false`) or `intent=delete`, for one message `id`. */
export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  const form = await request.formData();
  const intent = field(form, "intent");
  const id = field(form, "id");
  if (!id) return badInboxForm(intent, id);
  if (intent === "read") {
    const read = field(form, "read") === "true";
    return inboxAction(intent, id, () => setContactMessageRead(context.svc, viewer, id, { read }));
  }
  if (intent === "delete") return inboxAction(intent, id, () => deleteContactMessage(context.svc, viewer, id));
  return badInboxForm(intent, id);
}

export default function AdminContactMessages() {
  const { t } = useT();
  const data = useLoaderData<typeof loader>();
  return (
    <main id="main" tabIndex={-1} className="area-page">
      <AreaPageHeader title={t("contactInbox.title")} lead={t("contactInbox.lead")} />
      <ContactInbox {...data} />
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
