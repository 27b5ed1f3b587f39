import type { MetaFunction } from "@remix-run/cloudflare";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { metaT, pageMeta } from "~/lib/meta";
import { notFoundResponse } from "~/lib/not-found.server";

/** Any path no other route claims: a real 404 (status and page) inside the public layout. */
export function loader(): never {
  throw notFoundResponse();
}

export const meta: MetaFunction = ({ matches }) => {
  const t = metaT(matches);
  return pageMeta(matches, t("error.notFound.title"), t("error.notFound.body"));
};

export default function NotFound() {
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
