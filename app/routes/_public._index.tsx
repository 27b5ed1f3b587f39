import type { LoaderFunctionArgs, MetaFunction, LinksFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { redirect } from "@remix-run/server-runtime";
import { CourseCatalogue } from "~/components/course-catalogue";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FeedbackSection } from "~/components/feedback-section";
import { LandingBenefits, LandingCta, LandingFaq, LandingHero, LandingSteps } from "~/components/landing";
import { pageMeta } from "~/lib/meta";
import { roleHome } from "~/lib/session-client";
import { getViewer } from "../../worker/auth/viewer";
import { listPublicFeedback } from "../../worker/services/feedback";
import { listPublishedGroups } from "../../worker/services/groups";
import { sheets } from "~/styles/sheets";

export const links: LinksFunction = () => sheets("landing");

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, null);

/**
 * Landing load (platform-spec §4): signed-in staff go to their area (admin → /dashboard, instructor →
 * /instructor); users stay here, and the browser takes them to a stored redirect if there is one
 * (useSessionSync). Both lists stream (un-awaited promises): the page paints at once and each section fills in.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await getViewer(context.svc, request);
  if (viewer && viewer.role !== "user") throw redirect(roleHome(viewer.role));
  const courses = listPublishedGroups(context.svc);
  // Each testimonial names its course by title (the API's records carry only its slug), from the catalogue's own
  // read: no statement more. A course no longer listed is named by its slug.
  const feedback = Promise.all([listPublicFeedback(context.svc), courses.catch(() => [])]).then(([items, listed]) => {
    const titles = new Map(listed.map((c) => [c.slug, c.title]));
    return items.map((item) => ({ ...item, groupTitle: titles.get(item.groupSlug) ?? null }));
  });
  return { courses, feedback };
}

export default function Landing() {
  const { courses, feedback } = useLoaderData<typeof loader>();
  return (
    <main id="main" tabIndex={-1} className="landing">
      <LandingHero />
      <LandingBenefits />
      <LandingSteps />
      <CourseCatalogue courses={courses} />
      <FeedbackSection feedback={feedback} />
      <LandingFaq />
      <LandingCta />
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

