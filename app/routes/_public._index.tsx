import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { CourseCatalogue } from "~/components/course-catalogue";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FeedbackSection } from "~/components/feedback-section";
import { LandingBenefits, LandingCta, LandingFaq, LandingHero, LandingSteps } from "~/components/landing";
import { pageMeta } from "~/lib/meta";
import { listPublicFeedback } from "../../worker/services/feedback";
import { listPublishedGroups } from "../../worker/services/groups";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, null);

/** Both lists stream (un-awaited promises): the page paints at once and each section fills in. */
export function loader({ context }: LoaderFunctionArgs) {
  return {
    courses: listPublishedGroups(context.svc),
    feedback: listPublicFeedback(context.svc),
  };
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

