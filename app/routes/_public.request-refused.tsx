import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { isRouteErrorResponse } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { errorWords } from "~/lib/error-words";
import { metaT, pageMeta } from "~/lib/meta";
import { notFoundResponse } from "~/lib/not-found.server";

/**
 * The error screen for a form submission the Worker refused before any action ran (a foreign Origin, a body that
 * is not a form, too large or unreadable). The Worker renders this route in place of the page that was posted to,
 * with the refusal in the load context; visited directly, it does not exist.
 */
export function loader({ context }: LoaderFunctionArgs): never {
  const refusal = context.refusal;
  if (!refusal) throw notFoundResponse();
  throw Response.json({ message: refusal.message, code: refusal.code }, { status: refusal.status });
}

export const meta: MetaFunction = ({ matches, error }) => {
  const t = metaT(matches);
  const [title, body] = errorWords(isRouteErrorResponse(error) ? error.status : 400);
  return pageMeta(matches, t(title), t(body));
};

export default function RequestRefused() {
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
