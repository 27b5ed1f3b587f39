/**
 * Hono middleware for the API: who is calling, and may they. Sets `c.var.viewer`.
 * The access token may come raw in Authorization (as the original client sends it) or as `Bearer <token>`.
 */
import type { Context } from "hono";
import { FOREIGN_ORIGIN_MESSAGE, isOwnOrigin } from "../http/origin";
import { hasSessionCookie } from "./cookies";
import { createMiddleware } from "hono/factory";
import type { Role } from "../../db/schema";
import type { ApiEnv } from "../api/app";
import { AppError, forbidden, unauthorized } from "../http/errors";
import { requireStaff } from "../services/group-access";
import { authenticate, type Viewer } from "../services/sessions";

/** 401 unless the request carries a valid access token of a live session. */
export const requireAuth = createMiddleware<ApiEnv>(async (c, next) => {
  c.set("viewer", await authenticate(c.var.svc, c.req.header("authorization")));
  await next();
});

/**
 * For public answers that get personal when someone is signed in (the catalogue): a valid Authorization header
 * sets `c.var.viewer`; no header, or a stale or invalid token, is simply an anonymous visitor, so a public page
 * never fails because of an old token left in a browser. Such answers are marked `private, no-store`.
 */
export const optionalAuth = createMiddleware<ApiEnv>(async (c, next) => {
  const header = c.req.header("authorization");
  if (header) {
    try {
      c.set("viewer", await authenticate(c.var.svc, header));
    } catch (e) {
      if (!(e instanceof AppError && e.status === 401)) throw e;
    }
  }
  await next();
  if (c.var.viewer) c.res.headers.set("Cache-Control", "private, no-store");
  c.res.headers.append("Vary", "Authorization");
});

/** 401 without a valid session, 403 when the viewer's current role (from the database) is not one of `roles`. */
export function requireRole(...roles: Role[]) {
  return createMiddleware<ApiEnv>(async (c, next) => {
    const viewer = c.var.viewer ?? (await authenticate(c.var.svc, c.req.header("authorization")));
    c.set("viewer", viewer);
    if (!roles.includes(viewer.role)) throw forbidden();
    await next();
  });
}

/**
 * For routes that only some roles may ever use: 401 without a session, and `check`'s 403 before the request's body or
 * query is read, so a student's probe of a staff form is refused as such and never answered field by field. The
 * check is the service's own (its first half, asked early); the service still asks the rest (`can(viewer,
 * "group.manage", ...)` for this group).
 */
export function refuseFirst(check: (viewer: Viewer) => void) {
  return createMiddleware<ApiEnv>(async (c, next) => {
    const viewer = c.var.viewer ?? (await authenticate(c.var.svc, c.req.header("authorization")));
    c.set("viewer", viewer);
    check(viewer);
    await next();
  });
}

/** Routes that only a group's staff may ever use (running a group, grading, the staff's lists): `requireStaff`. */
export const requireStaffRole = refuseFirst(requireStaff);

/** The viewer set by `requireAuth`/`requireRole` (a handler without either gets 401, never an undefined user). */
export function viewerOf(c: Context<ApiEnv>): Viewer {
  const viewer = c.var.viewer;
  if (!viewer) throw unauthorized();
  return viewer;
}

/** Account answers are personal: never cached by the browser or anything in between. */
export const noStore = createMiddleware<ApiEnv>(async (c, next) => {
  await next();
  c.res.headers.set("Cache-Control", "no-store");
});

/**
 * 403 unless the request's Origin is this site (its own origin or PUBLIC_ORIGIN). Guards the endpoints that
 * act on the refresh cookie alone, so another site cannot make a browser refresh or sign out.
 */
export const requireSameOrigin = createMiddleware<ApiEnv>(async (c, next) => {
  if (!isOwnOrigin(c.req.raw, c.var.svc.settings)) throw forbidden(FOREIGN_ORIGIN_MESSAGE);
  await next();
});

/**
 * Logout's guard: as `requireSameOrigin`, except for a request with no Origin at all and no session cookie (an API
 * client signing out by its access token, ADR 62): it can act on nothing but the token in its own Authorization
 * header, which no other site can make a browser send. Another site's Origin is refused whatever it carries.
 */
export const requireSameOriginForCookie = createMiddleware<ApiEnv>(async (c, next) => {
  const request = c.req.raw;
  const tokenOnly = !request.headers.has("origin") && !hasSessionCookie(request);
  if (!tokenOnly && !isOwnOrigin(request, c.var.svc.settings)) throw forbidden(FOREIGN_ORIGIN_MESSAGE);
  await next();
});
