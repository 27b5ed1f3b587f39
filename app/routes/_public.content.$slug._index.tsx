import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction, LinksFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { CourseOutlineList } from "~/components/groups/course-outline-list";
import { JoinPanel } from "~/components/groups/join-panel";
import { CalendarIcon, ChatIcon, UserIcon, UsersIcon } from "~/components/icons";
import { useSite } from "~/hooks/use-site";
import { askAboutCourseHref } from "~/lib/course-links";
import { formatDate, useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { notFoundResponse, orNotFound } from "~/lib/not-found.server";
import { attempt, invalid, text, unknownIntent } from "~/lib/group-actions.server";
import { GROUP_LIMITS, idOrSlugParam, joinGroupInput, leaveGroupInput } from "~/lib/schemas";
import { getViewer, requireViewer } from "../../worker/auth/viewer";
import { AppError } from "../../worker/http/errors";
import { getPublicGroup } from "../../worker/services/groups";
import { getManagedGroup } from "../../worker/services/groups-admin";
import { requestToJoin, withdrawRequest } from "../../worker/services/memberships";
import type { Viewer } from "../../worker/services/sessions";
import { sheets } from "~/styles/sheets";
import { PreviewNotice } from "~/components/groups/preview-notice";
import { Breadcrumb } from "~/components/breadcrumb";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const links: LinksFunction = () => sheets("landing", "coursePages", "groups");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return pageMeta(matches, metaT(matches)("error.notFound.title"));
  return pageMeta(matches, data.course.title, data.course.description);
};

/** The group's Cohort tab in the viewer's area (where a draft is published). */
const cohortBase = (role: string | null, slug: string) => (role === "admin" ? `/dashboard/admin/group/${slug}/cohort` : `/instructor/group/${slug}/cohort`);

/** Where staff who run this group manage it, or null (an instructor of other groups). */
async function manageHref(context: LoaderFunctionArgs["context"], viewer: Viewer, slug: string): Promise<string | null> {
  try {
    await getManagedGroup(context.svc, viewer, slug);
  } catch (err) {
    if (err instanceof AppError && (err.status === 403 || err.status === 404)) return null;
    throw err;
  }
  return viewer.role === "admin" ? `/dashboard/admin/group/${slug}` : `/instructor/group/${slug}/students`;
}

/**
 * The public course page. A signed-in viewer's membership status comes with the group (one query), so the
 * join spot shows the right action; staff get a link to manage the group when they run it.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const slug = idOrSlugParam.safeParse({ id: params.slug });
  if (!slug.success) throw notFoundResponse();
  const viewer = await getViewer(context.svc, request);
  const group = await orNotFound(getPublicGroup(context.svc, slug.data.id, viewer, viewer));
  const { content, membershipStatus, ...course } = group;
  return {
    course,
    // The outline needs titles only; bodies are rendered on each part's own page.
    outline: content.map(({ _id, title }) => ({ _id, title })),
    join: {
      role: viewer?.role ?? null,
      status: membershipStatus ?? null,
      manageHref: viewer && viewer.role !== "user" ? await manageHref(context, viewer, group.slug) : null,
      messageMax: GROUP_LIMITS.requestMessage,
    },
  };
}

/** "Request to join" (students): the optional message goes with the request; the service decides the rest. `intent=withdraw` takes a pending request back. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(context.svc, request);
  const form = await request.formData();
  const intent = text(form, "intent");
  if (intent === "withdraw") {
    const parsed = leaveGroupInput.safeParse({ groupSlug: params.slug });
    if (!parsed.success) return invalid("withdraw", parsed.error);
    return attempt("withdraw", async () => ({ message: (await withdrawRequest(context.svc, viewer, parsed.data)).message }));
  }
  if (intent !== "join") return unknownIntent(intent);
  const message = form.get("message");
  const parsed = joinGroupInput.safeParse({ groupSlug: params.slug, message: typeof message === "string" ? message : undefined });
  if (!parsed.success) return invalid("join", parsed.error);
  return attempt("join", async () => {
    const { message: text } = await requestToJoin(context.svc, viewer, parsed.data);
    return { message: text };
  });
}

export default function CourseDetails() {
  const { course, outline, join } = useLoaderData<typeof loader>();
  const { t, lang } = useT();
  const site = useSite();
  const start = course.start_date ? formatDate(course.start_date, lang) : t("courses.comingSoon");
  return (
    <main id="main" tabIndex={-1} className="page page-course">
      <div className="page-band">
        <div className="container">
          <Breadcrumb items={[{ label: t("nav.courses"), to: "/courses" }, { label: course.title, userText: true }]} />
          <PreviewNotice status={course.status} manageHref={join.manageHref} publishHref={join.manageHref ? `${cohortBase(join.role, course.slug)}#publishing` : null} />
          <h1 className="page-title user-text">{course.title}</h1>
          <p className="page-lead user-text">{course.description}</p>
          <ul className="fact-row" role="list">
            <li><UserIcon /><span className="visually-hidden">{t("course.instructor")}: </span>{course.instructorName}</li>
            <li><CalendarIcon /><span className="visually-hidden">{t("course.start")}: </span>{start}</li>
            {course.capacity ? <li><UsersIcon /><span className="visually-hidden">{t("course.capacity")}: </span>{t("courses.seats", { count: course.capacity })}</li> : null}
          </ul>
        </div>
      </div>

      <div className="container course-layout">
        {/* First in the page's order, where a phone shows it (above the outline); beside it on a wide screen. */}
        <aside className="course-aside" aria-labelledby="enrol-title">
          <div className="card enrol-card">
            {course.imageCourse ? (
              <img src={course.imageCourse} alt={t("courses.imageAlt", { title: course.title })} width={640} height={360} className="enrol-image" />
            ) : null}
            <div className="enrol-body">
              <h2 id="enrol-title" className="enrol-title">{t("course.enrolTitle")}</h2>
              <dl className="facts">
                <div><dt>{t("course.instructor")}</dt><dd>{course.instructorName}</dd></div>
                <div><dt>{t("course.start")}</dt><dd>{start}</dd></div>
                {course.capacity ? <div><dt>{t("course.capacity")}</dt><dd>{t("courses.seats", { count: course.capacity })}</dd></div> : null}
              </dl>
              <JoinPanel slug={course.slug} role={join.role} status={join.status} manageHref={join.manageHref} messageMax={join.messageMax} />
              <a
                href={askAboutCourseHref(site.whatsappNumber, course.title, t)}
                target="_blank"
                rel="noopener noreferrer"
                className="btn btn-outline btn-block"
              >
                <ChatIcon />
                {t("courses.ask")}
                <span className="visually-hidden"> {t("common.newTab")}</span>
              </a>
            </div>
          </div>
        </aside>

        <section className="course-main" aria-labelledby="outline-title">
          <h2 id="outline-title" className="block-title">{t("course.outline")}</h2>
          <p className="muted">{t("course.partsCount", { count: outline.length })}</p>
          <CourseOutlineList groupSlug={course.slug} outline={outline} />
        </section>
      </div>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
