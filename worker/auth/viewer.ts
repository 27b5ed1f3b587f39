/**
 * Server-only helpers for Remix loaders and actions (pages are rendered by the same Worker). A page knows the
 * user from the refresh-token cookie: the session is looked up (not rotated, so parallel loaders never race),
 * and the role comes from the database. Call one of these in every loader and action that needs a user:
 * parent loaders do not guard their children in Remix.
 */
import type { Role } from "../../db/schema";
import type { ServiceContext } from "../context";
import { viewerFromRefreshToken, viewerHeaderFigures, type Viewer } from "../services/sessions";
import type { HeaderFigures } from "../services/viewer-summary";
import { refreshTokenFrom } from "./cookies";

export type { Viewer };

/** The signed-in viewer, or null. */
export async function getViewer(svc: ServiceContext, request: Request): Promise<Viewer | null> {
  return viewerFromRefreshToken(svc, refreshTokenFrom(request));
}

/** The header's figures of the signed-in viewer (read with the viewer, in the same statement). */
export function getHeaderFigures(svc: ServiceContext, request: Request): Promise<HeaderFigures> {
  return viewerHeaderFigures(svc, refreshTokenFrom(request));
}

/** The signed-in viewer; otherwise throws a redirect to `/auth/login?redirectTo=<this page>`. */
export async function requireViewer(svc: ServiceContext, request: Request): Promise<Viewer> {
  const viewer = await getViewer(svc, request);
  if (viewer) return viewer;
  const url = new URL(request.url);
  const params = new URLSearchParams({ redirectTo: `${url.pathname}${url.search}` });
  throw new Response(null, { status: 302, headers: { Location: `/auth/login?${params}` } });
}

/** The viewer when their role is one of `roles`; a 403 Response otherwise (after the login redirect above). */
export async function requireRole(svc: ServiceContext, request: Request, roles: Role | readonly Role[]): Promise<Viewer> {
  const viewer = await requireViewer(svc, request);
  const allowed: readonly Role[] = typeof roles === "string" ? [roles] : roles;
  if (!allowed.includes(viewer.role)) {
    throw Response.json({ message: "You are not allowed to see this page.", code: "forbidden" }, { status: 403 });
  }
  return viewer;
}

/** The one redirect-safety rule (app/lib/safe-redirect.ts), for loaders and actions that import it from here. */
export { safeRedirectPath } from "../../app/lib/safe-redirect";
