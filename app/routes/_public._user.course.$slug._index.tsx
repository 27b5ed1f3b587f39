import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction, LinksFunction } from "@remix-run/cloudflare";
import { Breadcrumb } from "~/components/breadcrumb";
import { isRouteErrorResponse, Link, useLoaderData, useParams, useRouteError } from "@remix-run/react";
import { data } from "@remix-run/server-runtime";
import { GroupChatPanel } from "~/components/chat/group-chat-panel";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { CourseOutlineList } from "~/components/groups/course-outline-list";
import { MembersOnlyScreen } from "~/components/groups/members-only";
import { MembershipBadge, type MembershipStatus } from "~/components/groups/badges";
import { StarSmallIcon } from "~/components/groups/extra-icons";
import { AlertIcon, CalendarIcon, SettingsIcon, UserIcon } from "~/components/icons";
import type { MessageKey } from "~/i18n/en";
import { formatDate, useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { errorMeta } from "~/lib/error-words";
import { notFoundResponse, orNotFound } from "~/lib/not-found.server";
import { can } from "~/lib/permissions";
import { idOrSlugParam } from "~/lib/schemas";
import { requireViewer } from "../../worker/auth/viewer";
import { getGroupForMember, NotAMemberError } from "../../worker/services/my-groups";
import { listLectures } from "../../worker/services/lectures";
import { listCourseOutline } from "../../worker/services/groups";
import { CourseLectures } from "~/components/lectures/course-lectures";
import { CourseQuizzes } from "~/components/quizzes/course-quizzes";
import { CourseTasks } from "~/components/tasks/course-tasks";
import { listGroupQuizzes } from "../../worker/services/quizzes";
import { listGroupTasks } from "../../worker/services/tasks";
import { memberProgress } from "../../worker/services/progress";
import { ProgressSummary } from "~/components/progress/progress-summary";
import { UpNext } from "~/components/progress/up-next";
import { upNext } from "~/lib/up-next";
import { sheets } from "~/styles/sheets";
import { CourseAnnouncements, CourseCertificate } from "~/components/lifecycle/course-home-extras";
import { attempt, invalid, text, unknownIntent } from "~/lib/group-actions.server";
import { certificateLanguageInput } from "~/lib/lifecycle-schemas";
import { dismissAnnouncement, pinnedAnnouncements } from "../../worker/services/announcements";
import { certificateInGroup, setCertificateLanguage } from "../../worker/services/certificates";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const links: LinksFunction = () => sheets("coursePages", "chat", "lectures", "tasks", "quizzes", "progress", "lifecycle");

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches, error }) => {
  const t = metaT(matches);
  if (loaded) return pageMeta(matches, loaded.group.title);
  // Members only (403) has its own words; anything else (a course that does not exist) is titled as its screen.
  return isRouteErrorResponse(error) && error.status === 403 ? pageMeta(matches, t("groups.course.forbiddenTitle")) : errorMeta(matches, error);
};

/** What the 403 page reads: the viewer's status in the group (null: never asked). */
export interface NotMemberData {
  code: "not_member";
  membershipStatus: MembershipStatus | null;
}

/**
 * A group's home for its members (and its staff): overview, outline and the group chat. Anyone else gets a
 * 403 that carries their membership status, so the page can say "pending" or offer to request a seat.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(context.svc, request);
  const slug = idOrSlugParam.safeParse({ id: params.slug });
  if (!slug.success) throw notFoundResponse();
  try {
    const group = await orNotFound(getGroupForMember(context.svc, viewer, slug.data.id));
    const staff = can(viewer, "group.manage", { group: { instructorId: group.instructor?._id ?? null } });
    const isMember = group.membershipStatus === "approved" || group.membershipStatus === "special";
    const now = Date.now();
    const [outline, lectures, tasks, quizzes, progress, announcements, certificate] = await Promise.all([
      listCourseOutline(context.svc, group._id),
      listLectures(context.svc, viewer, group._id),
      listGroupTasks(context.svc, viewer, group._id),
      listGroupQuizzes(context.svc, viewer, group._id, now),
      isMember ? memberProgress(context.svc, viewer, group._id, undefined, now) : null,
      pinnedAnnouncements(context.svc, group._id, viewer.userId, now),
      isMember ? certificateInGroup(context.svc, group._id, viewer.userId) : null,
    ]);
    return {
      announcements: announcements.map(({ _id, title, bodyHtml, author, createdAt }) => ({ _id, title, bodyHtml, author, createdAt })),
      certificate,
      progress: progress ? { lectures: progress.lectures, tasks: progress.tasks, quizzes: progress.quizzes, overall: progress.overall } : null,
      // An ended course (archived) has nothing to do next: it takes no hand-in, attempt or check-in.
      upNext: isMember && group.status !== "archived" ? upNext({ groupSlug: group.slug, lectures, tasks, quizzes }, now) : [],
      tasks: tasks.map(({ _id, slug: taskSlug, title, dueAt, maxScore, lectureSlug, submission }) => ({
        _id,
        slug: taskSlug,
        title,
        dueAt,
        maxScore,
        lectureSlug,
        submission: submission
          ? { state: submission.state, score: submission.score, feedbackHtml: submission.feedbackHtml }
          : null,
      })),
      quizzes: quizzes.map(({ _id, slug: quizSlug, title, lectureSlug, opensAt, closesAt, maxScore, maxAttempts, window, mine }) => ({ _id, slug: quizSlug, title, lectureSlug, opensAt, closesAt, maxScore, maxAttempts, window, mine })),
      lectures: lectures.map(({ _id, slug: lectureSlug, title, startsAt, myAttendance, missed }) => ({ _id, slug: lectureSlug, title, startsAt, myAttendance, missed })),
      isMember,
      group: {
        id: group._id,
        slug: group.slug,
        title: group.title,
        description: group.description,
        startDate: group.start_date,
        instructorName: group.instructorName,
        status: group.membershipStatus,
        /** Ended: an admin archived it (its members keep everything in it). */
        archived: group.status === "archived",
        outline,
      },
      manageHref: staff ? (viewer.role === "admin" ? `/dashboard/admin/group/${group.slug}` : `/instructor/group/${group.slug}/students`) : null,
    };
  } catch (err) {
    if (err instanceof NotAMemberError) {
      throw data<NotMemberData>({ code: "not_member", membershipStatus: err.membershipStatus }, { status: 403 });
    }
    throw err;
  }
}

/** A member dismisses a pinned announcement, or the graduate chooses their certificate's language. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(context.svc, request);
  const slug = idOrSlugParam.safeParse({ id: params.slug });
  if (!slug.success) throw notFoundResponse();
  const form = await request.formData();
  const intent = text(form, "intent");
  if (intent === "dismiss-announcement") return attempt(intent, () => dismissAnnouncement(context.svc, viewer, slug.data.id, text(form, "announcementId")));
  if (intent === "certificate-language") {
    const parsed = certificateLanguageInput.safeParse({ language: text(form, "language") });
    if (!parsed.success) return invalid(intent, parsed.error);
    return attempt(intent, async () => ({ certificate: await setCertificateLanguage(context.svc, viewer, text(form, "certificateId"), parsed.data.language) }));
  }
  return unknownIntent(intent);
}

export default function CourseHome() {
  const { t, lang } = useT();
  const { group, manageHref, lectures, tasks, quizzes, isMember, progress, upNext: next, announcements, certificate } = useLoaderData<typeof loader>();
  const start = group.startDate ? formatDate(group.startDate, lang) : t("courses.comingSoon");
  return (
    <main id="main" tabIndex={-1} className="page page-course-home">
      <div className="page-band">
        <div className="container course-home-head">
          <div>
            <Breadcrumb items={[{ label: t("nav.myCourses"), to: "/my-courses" }, { label: group.title, userText: true }]} />
            <h1 className="page-title user-text">{group.title}</h1>
            <ul className="fact-row" role="list">
              <li>
                <UserIcon />
                <span className="visually-hidden">{t("course.instructor")}: </span>
                {group.instructorName}
              </li>
              <li>
                <CalendarIcon />
                <span className="visually-hidden">{t("course.start")}: </span>
                {start}
              </li>
              {group.status === "special" ? (
                <li className="fact-special">
                  <StarSmallIcon />
                  {t("groups.course.specialSeat")}
                </li>
              ) : null}
              {manageHref ? <li>{t("groups.course.staffView")}</li> : null}
            </ul>
          </div>
          {manageHref ? (
            <Link to={manageHref} className="btn btn-outline">
              <SettingsIcon />
              {t("groups.join.manage")}
            </Link>
          ) : null}
        </div>
      </div>

      <div className="container course-home">
        {group.archived ? (
          <div className="preview-notice course-archived" role="note">
            <AlertIcon />
            <p>
              <strong>{t("groups.course.archivedTitle")}</strong> {t("groups.course.archivedBody")}
            </p>
          </div>
        ) : null}
        <CourseAnnouncements announcements={announcements} />
        {certificate ? <CourseCertificate certificate={certificate} /> : null}
        {progress ? (
          <div className="course-home-progress">
            <ProgressSummary progress={progress} title={t("progress.title")} ended={group.archived} />
            <UpNext items={next} />
          </div>
        ) : null}

        <section className="course-home-about" aria-labelledby="about-title">
          <h2 id="about-title" className="block-title">
            {t("course.about")}
          </h2>
          {group.description ? (
            <p className="user-text course-home-description">{group.description}</p>
          ) : (
            <p className="empty-inline">{t("groups.course.noDescription")}</p>
          )}
        </section>

        <CourseLectures groupSlug={group.slug} lectures={lectures} showAttendance={isMember} />

        <CourseTasks groupSlug={group.slug} tasks={tasks} />

        <CourseQuizzes groupSlug={group.slug} quizzes={quizzes} ended={group.archived} />

        <section className="course-home-outline" aria-labelledby="home-outline-title">
          <h2 id="home-outline-title" className="block-title">
            {t("course.outline")}
          </h2>
          <CourseOutlineList groupSlug={group.slug} outline={group.outline} />
        </section>

        {/* The panel is the landmark (a region named by its heading): a second one around it would repeat the name. */}
        <div className="course-home-chat group-chat-slot">
          <GroupChatPanel groupId={group.id} groupSlug={group.slug} canModerate={manageHref !== null} ended={group.archived} />
        </div>
      </div>
    </main>
  );
}

const NOT_MEMBER_BODY: Record<MembershipStatus | "none", MessageKey> = {
  none: "groups.course.forbidden.none",
  pending: "groups.course.forbidden.pending",
  rejected: "groups.course.forbidden.rejected",
  left: "groups.course.forbidden.left",
  removed: "groups.course.forbidden.removed",
  approved: "groups.course.forbidden.none",
  special: "groups.course.forbidden.none",
};

/** 403 for non-members: their status and the way in ("Request to join" on the course page). Others: the usual screens. */
export function ErrorBoundary() {
  const error = useRouteError();
  const { slug } = useParams();
  const { t } = useT();
  if (!isRouteErrorResponse(error) || error.status !== 403 || (error.data as NotMemberData | null)?.code !== "not_member") {
    return <GeneralErrorBoundary />;
  }
  const status = (error.data as NotMemberData).membershipStatus;
  const pending = status === "pending";
  return (
    <MembersOnlyScreen
      status={
        status ? (
          <p className="not-member-status">
            {t("groups.course.yourStatus")} <MembershipBadge status={status} />
          </p>
        ) : null
      }
      body={t(NOT_MEMBER_BODY[status ?? "none"])}
      action={pending ? { to: `/content/${slug}`, label: t("groups.course.viewDetails") } : { to: `/content/${slug}`, label: t("groups.join.request"), arrow: true }}
    />
  );
}
