import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { OutlineEditor } from "~/components/groups/outline-editor";
import { InstructorGroupPage } from "~/components/lectures/instructor-group-page";
import { orHttpError, text, unknownIntent } from "~/lib/group-actions.server";
import { groupSlugParam } from "~/lib/group-students.server";
import { useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { isOutlineIntent, outlineAction, OUTLINE_LIMITS } from "~/lib/outline-actions.server";
import { sheets } from "~/styles/sheets";
import { requireRole } from "../../worker/auth/viewer";
import { managedGroupHeading } from "../../worker/services/group-access";
import { listGroupContent } from "../../worker/services/course-content";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const links: LinksFunction = () => sheets("lectures", "staff", "coursePages");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data ? `${metaT(matches)("course.outline")} · ${data.group.title}` : metaT(matches)("error.notFound.title"));

/** The Outline tab: the group's public course outline, which its instructor writes as an admin can. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "instructor");
  const slug = groupSlugParam(params);
  const [group, outline] = await Promise.all([orHttpError(managedGroupHeading(context.svc, viewer, slug)), orHttpError(listGroupContent(context.svc, viewer, slug))]);
  return { group: { id: group._id, slug: group.slug, title: group.title }, outline: outline.map(({ _id, title, body }) => ({ _id, title, body })), limits: OUTLINE_LIMITS };
}

/** intent=content-add, -edit, -delete or -move. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "instructor");
  const form = await request.formData();
  const intent = text(form, "intent");
  if (!isOutlineIntent(intent)) return unknownIntent(intent);
  return outlineAction(context.svc, viewer, groupSlugParam(params), intent, form);
}

export default function GroupOutline() {
  const { group, outline, limits } = useLoaderData<typeof loader>();
  const { t } = useT();
  return (
    <InstructorGroupPage group={group} section={t("course.outline")}>
      <div className="group-section">
        <OutlineEditor items={outline} limits={limits} />
      </div>
    </InstructorGroupPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
