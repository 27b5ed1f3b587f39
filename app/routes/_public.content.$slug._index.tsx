import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ArrowIcon, CalendarIcon, ChatIcon, ChevronIcon, UserIcon, UsersIcon } from "~/components/icons";
import { useSite } from "~/hooks/use-site";
import { askAboutCourseHref } from "~/lib/course-links";
import { formatDate, useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { notFoundResponse, orNotFound } from "~/lib/not-found.server";
import { idOrSlugParam } from "~/lib/schemas";
import { getPublicGroup } from "../../worker/services/groups";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return pageMeta(matches, metaT(matches)("error.notFound.title"));
  return pageMeta(matches, data.course.title, data.course.description);
};

export async function loader({ params, context }: LoaderFunctionArgs) {
  const slug = idOrSlugParam.safeParse({ id: params.slug });
  if (!slug.success) throw notFoundResponse();
  const group = await orNotFound(getPublicGroup(context.svc, slug.data.id));
  const { content, ...course } = group;
  // The outline needs titles only; bodies are rendered on each part's own page.
  return { course, outline: content.map(({ _id, title }) => ({ _id, title })) };
}

export default function CourseDetails() {
  const { course, outline } = useLoaderData<typeof loader>();
  const { t, lang } = useT();
  const site = useSite();
  const start = course.start_date ? formatDate(course.start_date, lang) : t("courses.comingSoon");
  return (
    <main id="main" tabIndex={-1} className="page page-course">
      <div className="page-band">
        <div className="container">
          <nav aria-label={t("common.breadcrumb")} className="breadcrumb">
            <ol>
              <li><Link to="/courses">{t("nav.courses")}</Link><ChevronIcon /></li>
              <li aria-current="page">{course.title}</li>
            </ol>
          </nav>
          <h1 className="page-title">{course.title}</h1>
          <p className="page-lead user-text">{course.description}</p>
          <ul className="fact-row" role="list">
            <li><UserIcon /><span className="visually-hidden">{t("course.instructor")}: </span>{course.instructorName}</li>
            <li><CalendarIcon /><span className="visually-hidden">{t("course.start")}: </span>{start}</li>
            {course.capacity ? <li><UsersIcon /><span className="visually-hidden">{t("course.capacity")}: </span>{t("courses.seats", { count: course.capacity })}</li> : null}
          </ul>
        </div>
      </div>

      <div className="container course-layout">
        <section className="course-main" aria-labelledby="outline-title">
          <h2 id="outline-title" className="block-title">{t("course.outline")}</h2>
          <p className="muted">{t("course.partsCount", { count: outline.length })}</p>
          {outline.length > 0 ? (
            <ol className="outline" role="list">
              {outline.map((item, i) => (
                <li key={item._id}>
                  <Link to={`/content/${course.slug}/course/${item._id}`} className="outline-link" prefetch="intent">
                    <span className="outline-number" aria-hidden="true">{String(i + 1).padStart(2, "0")}</span>
                    <span className="outline-title">
                      <span className="visually-hidden">{t("course.part", { n: i + 1, total: outline.length })}: </span>
                      {item.title}
                    </span>
                    <ArrowIcon className="outline-arrow" />
                  </Link>
                </li>
              ))}
            </ol>
          ) : (
            <p className="empty-inline">{t("course.outlineEmpty")}</p>
          )}
        </section>

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
              <div className="enrol-actions" data-slot="join">
                <p className="enrol-note">{t("course.enrolNote")}</p>
                <Link to="/auth/login" className="btn btn-primary btn-block">{t("course.loginToJoin")}</Link>
              </div>
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
      </div>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
