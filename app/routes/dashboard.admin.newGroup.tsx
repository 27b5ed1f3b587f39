import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { redirect } from "@remix-run/server-runtime";
import { AreaPageHeader } from "~/components/area-shell";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { GroupForm } from "~/components/groups/group-form";
import { useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { attempt, invalid } from "~/lib/group-actions.server";
import { GROUP_FORM_LIMITS, groupFormFields, savedWithImage } from "~/lib/group-form.server";
import { createGroupInput } from "~/lib/schemas";
import { requireRole } from "../../worker/auth/viewer";
import { createGroup, listInstructors } from "../../worker/services/groups-admin";
import { noticeCookie } from "~/lib/notice.server";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, metaT(matches)("groups.new.title"));

export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  return { instructors: await listInstructors(context.svc, viewer), limits: GROUP_FORM_LIMITS };
}

/** Creates the group (image uploaded first when a file was chosen) and opens its overview. */
export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  const form = await request.formData();
  const parsed = createGroupInput.safeParse(groupFormFields(form));
  if (!parsed.success) return invalid("save", parsed.error);
  return attempt("save", async () => {
    const group = await savedWithImage(context.svc, viewer, form, parsed.data, (input) => createGroup(context.svc, viewer, input));
    throw redirect(`/dashboard/admin/group/${encodeURIComponent(group.slug)}`, { headers: { "Set-Cookie": noticeCookie(request, { kind: "groupCreated", slug: group.slug }) } });
  });
}

export default function NewGroup() {
  const { t } = useT();
  const { instructors, limits } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <main id="main" tabIndex={-1} className="area-page">
      <AreaPageHeader title={t("groups.new.title")} lead={t("groups.new.lead")} />
      <GroupForm
        mode="create"
        defaults={{ title: "", description: "", imageCourse: null, start_date: null, instructorId: instructors.length === 1 ? instructors[0]!._id : null, status: "draft", capacity: null }}
        instructors={instructors}
        limits={limits}
        failure={result && !result.ok ? result : null}
        busy={busy}
      />
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
