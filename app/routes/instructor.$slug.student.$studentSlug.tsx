import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { MembershipBadge } from "~/components/groups/badges";
import { initials } from "~/components/groups/format";
import { MailIcon, PhoneIcon, UsersIcon } from "~/components/icons";
import { formatDate, useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { orHttpError } from "~/lib/group-actions.server";
import { groupSlugParam } from "~/lib/group-students.server";
import { notFoundResponse } from "~/lib/not-found.server";
import { idOrSlugParam } from "~/lib/schemas";
import { requireRole } from "../../worker/auth/viewer";
import { managedGroupHeading } from "../../worker/services/group-access";
import { getStudent } from "../../worker/services/students";
import { progressAcrossGroups } from "../../worker/services/progress";
import { StudentProgressList } from "~/components/progress/student-progress";
import { sheets } from "~/styles/sheets";
import { Breadcrumb } from "~/components/breadcrumb";

export const links: LinksFunction = () => sheets("coursePages", "progress");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  pageMeta(matches, data ? data.student.name : metaT(matches)("error.notFound.title"));

/** A student of one of the instructor's groups: details and their memberships in the instructor's groups only. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "instructor");
  const slug = groupSlugParam(params);
  const studentSlug = idOrSlugParam.safeParse({ id: params.studentSlug });
  if (!studentSlug.success) throw notFoundResponse();
  const [group, student] = await Promise.all([
    orHttpError(managedGroupHeading(context.svc, viewer, slug)),
    orHttpError(getStudent(context.svc, viewer, studentSlug.data.id)),
  ]);
  return {
    progress: await progressAcrossGroups(context.svc, viewer, student._id),
    group: { slug: group.slug, title: group.title },
    student: {
      name: student.name,
      email: student.email,
      phone: student.phone_number,
      country: student.country,
      createdAt: student.createdAt,
      memberships: student.memberships,
    },
  };
}

/** "EG" → "Egypt" / "مصر"; anything that is not a region code is shown as it is. */
function countryName(country: string, lang: string): string {
  if (!/^[A-Z]{2}$/.test(country)) return country;
  try {
    return new Intl.DisplayNames([lang], { type: "region" }).of(country) ?? country;
  } catch {
    return country;
  }
}

export default function InstructorStudent() {
  const { t, lang } = useT();
  const { group, student, progress } = useLoaderData<typeof loader>();
  return (
    <main id="main" tabIndex={-1} className="area-page student-page">
      <Breadcrumb
        items={[
          { label: t("teach.overview.title"), to: "/instructor" },
          { label: group.title, to: `/instructor/group/${group.slug}/students`, userText: true },
          { label: student.name, userText: true },
        ]}
      />

      <section className="card student-card" aria-labelledby="student-name">
        <span className="avatar student-avatar" aria-hidden="true">
          {initials(student.name)}
        </span>
        <div className="student-card-main">
          <h1 id="student-name" className="area-page-title">
            {student.name}
          </h1>
          <ul role="list" className="contact-lines">
            <li>
              <MailIcon />
              <span className="visually-hidden">{t("groups.requests.email")}: </span>
              <a href={`mailto:${student.email}`} dir="ltr">
                {student.email}
              </a>
            </li>
            {student.phone ? (
              <li>
                <PhoneIcon />
                <span className="visually-hidden">{t("groups.students.phone")}: </span>
                <a href={`tel:${student.phone}`} dir="ltr">
                  {student.phone}
                </a>
              </li>
            ) : null}
          </ul>
        </div>
        <dl className="facts student-facts">
          {student.country ? (
            <div>
              <dt>{t("groups.student.country")}</dt>
              <dd>{countryName(student.country, lang)}</dd>
            </div>
          ) : null}
          <div>
            <dt>{t("groups.student.since")}</dt>
            <dd>{formatDate(student.createdAt, lang)}</dd>
          </div>
        </dl>
      </section>

      <StudentProgressList items={progress} groupHref={(slug) => `/instructor/group/${slug}/progress`} />

      <section aria-labelledby="memberships-title" className="group-section">
        <h2 id="memberships-title" className="block-title">
          {t("groups.student.memberships")}
        </h2>
        {student.memberships.length === 0 ? (
          <p className="empty-inline">{t("groups.student.noMemberships")}</p>
        ) : (
          <ul role="list" className="student-memberships">
            {student.memberships.map((m) => (
              <li key={m._id} className="card student-membership">
                <div className="student-membership-main">
                  <Link to={`/instructor/group/${m.group.slug}/students`} className="row-link user-text">
                    <UsersIcon />
                    {m.group.title}
                  </Link>
                  <span className="muted student-membership-dates">
                    {t("groups.student.requested", { date: formatDate(m.requestedAt, lang) })}
                    {m.decidedAt ? ` · ${t("groups.student.decided", { date: formatDate(m.decidedAt, lang) })}` : ""}
                  </span>
                </div>
                <MembershipBadge status={m.status} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
