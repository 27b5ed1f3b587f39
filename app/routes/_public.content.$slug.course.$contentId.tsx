import type { LoaderFunctionArgs, MetaFunction, LinksFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ArrowIcon } from "~/components/icons";
import { useT } from "~/lib/i18n";
import { courseContentHtml } from "../../worker/services/course-content";
import { metaT, pageMeta } from "~/lib/meta";
import { notFoundResponse, orNotFound } from "~/lib/not-found.server";
import { idOrSlugParam } from "~/lib/schemas";
import { getPublicGroup } from "../../worker/services/groups";
import { getViewer } from "../../worker/auth/viewer";
import { PreviewNotice } from "~/components/groups/preview-notice";
import { sheets } from "~/styles/sheets";
import { Breadcrumb } from "~/components/breadcrumb";

export const links: LinksFunction = () => sheets("coursePages");

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return pageMeta(matches, metaT(matches)("error.notFound.title"));
  return pageMeta(matches, `${data.part.title} · ${data.course.title}`, data.course.description);
};

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const slug = idOrSlugParam.safeParse({ id: params.slug });
  const contentId = idOrSlugParam.safeParse({ id: params.contentId });
  if (!slug.success || !contentId.success) throw notFoundResponse();
  // Staff who run a draft or archived group preview its parts too (a visitor's copy, cached, has no viewer).
  const viewer = await getViewer(context.svc, request);
  const group = await orNotFound(getPublicGroup(context.svc, slug.data.id, null, viewer));
  const index = group.content.findIndex((c) => c._id === contentId.data.id);
  if (index < 0) throw notFoundResponse();
  const item = group.content[index]!;
  const link = (c: { _id: string; title: string } | undefined) => (c ? { _id: c._id, title: c.title } : null);
  return {
    course: { slug: group.slug, title: group.title, description: group.description, status: group.status },
    part: { _id: item._id, title: item.title, html: await courseContentHtml(context.svc, item), n: index + 1, total: group.content.length },
    previous: link(group.content[index - 1]),
    next: link(group.content[index + 1]),
    outline: group.content.map((c) => ({ _id: c._id, title: c.title })),
  };
}

export default function CoursePart() {
  const { course, part, previous, next, outline } = useLoaderData<typeof loader>();
  const { t } = useT();
  const base = `/content/${course.slug}`;
  return (
    <main id="main" tabIndex={-1} className="page page-part">
      <div className="page-band page-band-compact">
        <div className="container">
          <Breadcrumb items={[{ label: t("nav.courses"), to: "/courses" }, { label: course.title, to: base, userText: true }, { label: part.title, userText: true }]} />
          <PreviewNotice status={course.status} manageHref={null} />
          <p className="eyebrow">{t("course.part", { n: part.n, total: part.total })}</p>
          <h1 className="page-title user-text">{part.title}</h1>
        </div>
      </div>

      <div className="container part-layout">
        <article className="part-article">
          <div className="prose" dir="auto" dangerouslySetInnerHTML={{ __html: part.html }} />
          <nav className="part-nav" aria-label={t("course.partNav")}>
            {previous ? (
              <Link to={`${base}/course/${previous._id}`} className="part-nav-link" rel="prev">
                <span className="part-nav-label"><ArrowIcon className="icon-back" />{t("course.prevPart")}</span>
                <span className="part-nav-title" dir="auto">{previous.title}</span>
              </Link>
            ) : <span />}
            {next ? (
              <Link to={`${base}/course/${next._id}`} className="part-nav-link part-nav-next" rel="next">
                <span className="part-nav-label">{t("course.nextPart")}<ArrowIcon /></span>
                <span className="part-nav-title" dir="auto">{next.title}</span>
              </Link>
            ) : (
              <Link to={base} className="part-nav-link part-nav-next">
                <span className="part-nav-label">{t("course.backToCourse")}<ArrowIcon /></span>
                <span className="part-nav-title" dir="auto">{course.title}</span>
              </Link>
            )}
          </nav>
        </article>

        <aside className="part-aside" aria-labelledby="part-outline-title">
          <h2 id="part-outline-title" className="aside-title">{t("course.outline")}</h2>
          <ol className="mini-outline">
            {outline.map((o, i) => (
              <li key={o._id}>
                <Link to={`${base}/course/${o._id}`} aria-current={o._id === part._id ? "page" : undefined}>
                  <span className="mini-outline-n" aria-hidden="true">{i + 1}</span>
                  <bdi>{o.title}</bdi>
                </Link>
              </li>
            ))}
          </ol>
          <Link to={base} className="btn btn-ghost btn-sm">
            <ArrowIcon className="icon-back" />
            {t("course.backToCourse")}
          </Link>
        </aside>
      </div>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
