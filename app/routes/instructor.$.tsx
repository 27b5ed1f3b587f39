import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { metaT, pageMeta } from "~/lib/meta";
import { notFoundResponse } from "~/lib/not-found.server";
import { requireRole } from "../../worker/auth/viewer";

/** An unknown path under /instructor: a 404 inside the instructor layout (for instructors; others get the guard's answer). */
export async function loader({ request, context }: LoaderFunctionArgs): Promise<never> {
  await requireRole(context.svc, request, "instructor");
  throw notFoundResponse();
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, metaT(matches)("error.notFound.title"));

export default function InstructorNotFound() {
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
