import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { GroupForm } from "~/components/groups/group-form";
import { OutlineEditor } from "~/components/groups/outline-editor";
import { SectionErrorBoundary } from "~/components/groups/section-error";
import { useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { attempt, invalid, orHttpError, text, unknownIntent } from "~/lib/group-actions.server";
import { isOutlineIntent, outlineAction, OUTLINE_LIMITS } from "~/lib/outline-actions.server";
import { GROUP_FORM_LIMITS, groupFormFields, savedWithImage } from "~/lib/group-form.server";
import { notFoundResponse } from "~/lib/not-found.server";
import { idOrSlugParam, updateGroupInput } from "~/lib/schemas";
import { requireRole } from "../../worker/auth/viewer";
import { getManagedGroup, listInstructors, updateGroup } from "../../worker/services/groups-admin";
import { sheets } from "~/styles/sheets";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

/** The outline editor shows the outline as the course pages do. */
export const links: LinksFunction = () => sheets("coursePages");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaT(matches);
  return pageMeta(matches, data ? `${t("groups.tabs.update")} · ${data.group.title}` : t("error.notFound.title"));
};

function slugOf(params: LoaderFunctionArgs["params"]): string {
  const slug = idOrSlugParam.safeParse({ id: params.slug });
  if (!slug.success) throw notFoundResponse();
  return slug.data.id;
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  const slug = slugOf(params);
  const [group, instructors] = await Promise.all([orHttpError(getManagedGroup(context.svc, viewer, slug)), listInstructors(context.svc, viewer)]);
  return {
    group: {
      slug: group.slug,
      title: group.title,
      description: group.description,
      imageCourse: group.imageCourse,
      start_date: group.start_date,
      instructorId: group.instructorId,
      status: group.status,
      capacity: group.capacity,
      members: group.memberCount,
    },
    outline: group.content.map(({ _id, title, body }) => ({ _id, title, body })),
    instructors,
    limits: GROUP_FORM_LIMITS,
    contentLimits: OUTLINE_LIMITS,
  };
}

/** intent: save (the group's settings, with an optional upload) or content-add/-edit/-delete/-move (the outline). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  const slug = slugOf(params);
  const svc = context.svc;
  const form = await request.formData();
  const intent = text(form, "intent");
  if (isOutlineIntent(intent)) return outlineAction(svc, viewer, slug, intent, form);
  if (intent !== "save") return unknownIntent(intent);
  const parsed = updateGroupInput.safeParse(groupFormFields(form));
  if (!parsed.success) return invalid(intent, parsed.error);
  return attempt(intent, async () => {
    const group = await savedWithImage(svc, viewer, form, parsed.data, (input) => updateGroup(svc, viewer, slug, input));
    return { slug: group.slug };
  });
}

export default function AdminGroupUpdate() {
  const { t } = useT();
  const { group, outline, instructors, limits, contentLimits } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formData?.get("intent") === "save";
  const saveResult = result && result.intent === "save" ? result : null;
  return (
    <div className="group-section">
      <section aria-labelledby="settings-title" className="group-settings">
        <h2 id="settings-title" className="block-title">
          {t("groups.update.settings")}
        </h2>
        <GroupForm
          key={group.slug}
          mode="update"
          defaults={group}
          instructors={instructors}
          limits={limits}
          failure={saveResult && !saveResult.ok ? saveResult : null}
          saved={!saving && saveResult?.ok === true}
          savedAnswer={saveResult?.ok ? saveResult : null}
          busy={saving}
        />
      </section>
      <OutlineEditor items={outline} limits={contentLimits} />
    </div>
  );
}

export function ErrorBoundary() {
  return <SectionErrorBoundary />;
}
