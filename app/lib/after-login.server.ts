/**
 * Where a person goes after signing in (and where a signed-in person who opens the login page is sent). Admins go to
 * /dashboard and instructors to /instructor (or the page of their own area they were sent away from), as
 * platform-spec §2 says. A student goes to a safe `redirectTo` when one is given (a guarded page, a QR check-in);
 * without one, to their course when they have exactly one, otherwise to My Courses: never to the sales page.
 */
import { and, eq, inArray } from "drizzle-orm";
import { groups, memberships, MEMBER_STATUSES } from "../../db/schema";
import type { ServiceContext } from "../../worker/context";
import type { Role } from "./permissions";
import { segment } from "./paths";
import { safeRedirectPath } from "./safe-redirect";

/** A student's landing after login: their only course, or My Courses (one statement, at most two rows read). */
export async function studentHome(ctx: ServiceContext, userId: string): Promise<string> {
  const rows = await ctx.db
    .select({ slug: groups.slug, status: groups.status })
    .from(memberships)
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .where(and(eq(memberships.userId, userId), inArray(memberships.status, MEMBER_STATUSES)))
    .limit(2);
  const [only] = rows;
  return rows.length === 1 && only && only.status !== "draft" ? `/course/${segment(only.slug)}` : "/my-courses";
}

export async function afterLogin(ctx: ServiceContext, who: { userId: string; role: Role }, redirectTo: unknown): Promise<string> {
  const to = safeRedirectPath(redirectTo, "");
  const within = (area: string) => to === area || to.startsWith(`${area}/`) || to.startsWith(`${area}?`);
  if (who.role === "admin") return within("/dashboard") ? to : "/dashboard";
  if (who.role === "instructor") return within("/instructor") ? to : "/instructor";
  // The landing page ("/") is not a destination of its own: a stored "/" means nothing was asked for.
  if (to && to !== "/" && !to.startsWith("/auth/") && !within("/dashboard") && !within("/instructor")) return to;
  return studentHome(ctx, who.userId);
}

/** True when the login page was reached from a signed-out QR attendance scan (it comes back to redeem the check-in). */
export function isPendingCheckIn(redirectTo: string): boolean {
  if (!redirectTo) return false;
  const url = new URL(redirectTo, "http://cohort.invalid");
  return url.pathname.startsWith("/attend/") && url.searchParams.has("pending");
}
