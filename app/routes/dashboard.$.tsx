import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { metaT, pageMeta } from "~/lib/meta";
import { notFoundResponse } from "~/lib/not-found.server";
import { requireRole } from "../../worker/auth/viewer";

/** An unknown path under /dashboard: a 404 inside the admin layout (for admins; others get the guard's answer). */
export async function loader({ request, context }: LoaderFunctionArgs): Promise<never> {
  await requireRole(context.svc, request, "admin");
  throw notFoundResponse();
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, metaT(matches)("error.notFound.title"));

export default function AdminNotFound() {
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
