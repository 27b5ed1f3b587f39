/**
 * What every page needs to know about the signed-in person beyond who they are: whether the header shows
 * "My Courses" (platform-spec §2: only for someone with a group whose status is approved or special), and the
 * bell's unread count. One statement for both: every signed-in page asks (issue 23).
 */
import { and, count, eq, inArray, isNull, sql } from "drizzle-orm";
import { memberships, MEMBER_STATUSES, notifications } from "../../db/schema";
import type { ServiceContext } from "../context";

export interface HeaderFigures {
  /** An approved or special member of at least one group. */
  hasCourses: boolean;
  unreadNotifications: number;
}

/** The header's figures for `userId`: two indexed lookups in one statement. */
export async function headerFigures(ctx: ServiceContext, userId: string): Promise<HeaderFigures> {
  const member = ctx.db
    .select({ one: sql`1` })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), inArray(memberships.status, MEMBER_STATUSES)))
    .limit(1);
  const unread = ctx.db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  const row = await ctx.db.get<{ has_courses: number; unread: number }>(sql`select exists ${member} as has_courses, ${unread} as unread`);
  return { hasCourses: row?.has_courses === 1, unreadNotifications: Number(row?.unread ?? 0) };
}
