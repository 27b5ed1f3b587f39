/** The error screen's words by status, shared by the screen (components/error-boundary.tsx) and pages' titles. Client-safe. */
import type { MessageKey } from "~/i18n/en";
import type { MetaDescriptor } from "@remix-run/react";
import { isRouteErrorResponse } from "@remix-run/react";
import { metaT, pageMeta, type MatchLike } from "./meta";

/** The error screen's title and sentence for a status: the screen and the refused page's title say the same. */
export function errorWords(status: number): [MessageKey, MessageKey] {
  if (status === 404) return ["error.notFound.title", "error.notFound.body"];
  if (status === 403) return ["error.forbidden.title", "error.forbidden.body"];
  if (status === 413) return ["error.tooLarge.title", "error.tooLarge.body"];
  if (status === 400 || status === 405 || status === 415) return ["error.refused.title", "error.refused.body"];
  return ["error.generic.title", "error.generic.body"];
}

/** A layout's title when its own loader refused the page (a 403 for the wrong role): the screen's words, not none. */
export function errorMeta(matches: readonly MatchLike[], error: unknown): MetaDescriptor[] {
  const t = metaT(matches);
  if (!error) return pageMeta(matches, null);
  const [title, body] = errorWords(isRouteErrorResponse(error) ? error.status : 500);
  return pageMeta(matches, t(title), t(body));
}
