import type { LoaderFunctionArgs, MetaFunction, LinksFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { CourseCatalogue } from "~/components/course-catalogue";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { metaT, pageMeta } from "~/lib/meta";
import { listPublishedGroups } from "../../worker/services/groups";
import { sheets } from "~/styles/sheets";

export const links: LinksFunction = () => sheets("landing");

export const meta: MetaFunction = ({ matches }) => {
  const t = metaT(matches);
  return pageMeta(matches, t("courses.title"), t("courses.subtitle"));
};

/** The list streams: the page shows the loading state until the published groups arrive. */
export function loader({ context }: LoaderFunctionArgs) {
  return { courses: listPublishedGroups(context.svc) };
}

export default function CoursesPage() {
  const { courses } = useLoaderData<typeof loader>();
  return (
    <main id="main" tabIndex={-1} className="page page-courses">
      <CourseCatalogue courses={courses} headingLevel={1} />
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
