import { Await, Link } from "@remix-run/react";
import { Suspense } from "react";
import { useSite } from "~/hooks/use-site";
import { askAboutCourseHref, startDateLabel } from "~/lib/course-links";
import { useT } from "~/lib/i18n";
import type { GroupDto } from "../../worker/services/groups";
import { ArrowIcon, BookIcon, CalendarIcon, ChatIcon, UserIcon } from "./icons";
import { LoadingState } from "./spinner";
import { EmptyState } from "~/components/empty-state";

/** The fields a catalogue card needs (a subset of the API's group). */
export type CatalogueCourse = Pick<GroupDto, "_id" | "title" | "slug" | "imageCourse" | "start_date" | "instructorName">;

/**
 * The course catalogue (anchor `courses`, heading 'Available Courses'): streams the list, shows a spinner
 * with "Loading..." until it arrives, and the empty state for an empty, non-array or failed list.
 */
export function CourseCatalogue({ courses, headingLevel = 2 }: { courses: Promise<unknown> | unknown; headingLevel?: 1 | 2 }) {
  const { t } = useT();
  const Heading = headingLevel === 1 ? "h1" : "h2";
  return (
    <section id="courses" className="section catalogue" aria-labelledby="courses-title">
      <div className="container">
        <header className="section-header">
          <Heading id="courses-title" className="section-title">{t("courses.title")}</Heading>
          <p className="section-subtitle">{t("courses.subtitle")}</p>
        </header>
        <Suspense fallback={<CatalogueLoading />}>
          <Await resolve={courses} errorElement={<CatalogueEmpty />}>
            {(list) => (Array.isArray(list) && list.length > 0 ? <CourseGrid courses={list as CatalogueCourse[]} headingLevel={headingLevel} /> : <CatalogueEmpty />)}
          </Await>
        </Suspense>
      </div>
    </section>
  );
}

function CatalogueLoading() {
  return (
    <div className="catalogue-loading">
      <LoadingState />
      <div className="card-grid" aria-hidden="true">
        {[0, 1, 2].map((i) => (
          <div key={i} className="card course-card skeleton-card">
            <div className="skeleton skeleton-media" />
            <div className="course-card-body">
              <div className="skeleton skeleton-line short" />
              <div className="skeleton skeleton-line" />
              <div className="skeleton skeleton-line medium" />
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}

function CatalogueEmpty() {
  const { t } = useT();
  return (
    <EmptyState icon={<BookIcon />} title={t("courses.empty.title")} body={t("courses.empty.body")}>
      <Link to="/contact" className="btn btn-outline">
        {t("nav.contact")}
      </Link>
    </EmptyState>
  );
}

/** Cards' titles sit one level below the catalogue's heading (h2 under the page's h1, h3 under a section's h2). */
function CourseGrid({ courses, headingLevel }: { courses: CatalogueCourse[]; headingLevel: 1 | 2 }) {
  return (
    <ul className="card-grid" role="list">
      {courses.map((c) => (
        <li key={c._id}>
          <CourseCard course={c} headingLevel={headingLevel === 1 ? 2 : 3} />
        </li>
      ))}
    </ul>
  );
}

export function CourseCard({ course, headingLevel = 3 }: { course: CatalogueCourse; headingLevel?: 2 | 3 }) {
  const { t } = useT();
  const site = useSite();
  const start = startDateLabel(course.start_date);
  const titleId = `course-${course._id}-title`;
  const Title = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="card course-card" aria-labelledby={titleId}>
      <div className="course-card-media">
        {course.imageCourse ? (
          <img src={course.imageCourse} alt={t("courses.imageAlt", { title: course.title })} width={640} height={360} loading="lazy" decoding="async" />
        ) : (
          <div className="course-card-fallback" aria-hidden="true">
            <BookIcon />
          </div>
        )}
      </div>
      <div className="course-card-body">
        <p className="course-date">
          <CalendarIcon />
          {start ? (
            <>
              <span className="visually-hidden">{t("courses.startDate")} </span>
              <time dateTime={start} data-testid="course-start">{start}</time>
            </>
          ) : (
            <span data-testid="course-start">{t("courses.comingSoon")}</span>
          )}
        </p>
        <Title id={titleId} className="course-title user-text">
          {course.title}
        </Title>
        <p className="course-instructor">
          <UserIcon />
          <span>
            {t("courses.instructor")}
            {course.instructorName}
          </span>
        </p>
        <div className="course-card-actions">
          {/* Each card's links say which course they are for (a screen reader's list of links read three alike). */}
          <Link to={`/content/${course.slug}`} className="btn btn-primary" prefetch="intent">
            {t("courses.viewDetails")}
            <span className="visually-hidden">: {course.title}</span>
            <ArrowIcon />
          </Link>
          <a
            href={askAboutCourseHref(site.whatsappNumber, course.title, t)}
            target="_blank"
            rel="noopener noreferrer"
            className="btn btn-outline"
            aria-describedby={titleId}
          >
            <ChatIcon />
            {t("courses.ask")}
            <span className="visually-hidden"> {t("common.newTab")}</span>
          </a>
        </div>
      </div>
    </article>
  );
}
