/**
 * What every page needs to know about the signed-in person beyond who they are: whether the header shows
 * "My Courses" (platform-spec §2: only for someone with a group whose status is approved or special), and the
 * bell's unread count. Read with the viewer's session, in the same statement: every signed-in page asks (issue 23).
 */
import { and, count, eq, inArray, isNull, sql, type SQLWrapper } from "drizzle-orm";
import { memberships, MEMBER_STATUSES, notifications } from "../../db/schema";
import type { Database } from "../../db/client";

export interface HeaderFigures {
  /** An approved or special member of at least one group. */
  hasCourses: boolean;
  unreadNotifications: number;
}

export const NO_FIGURES: HeaderFigures = { hasCourses: false, unreadNotifications: 0 };

/**
 * The figures as two columns of a query that has the user's id in `userId` (correlated subqueries, each an indexed
 * lookup): the session read that names the viewer brings them in the same statement (worker/services/sessions.ts).
 */
export function headerFigureColumns(db: Database, userId: SQLWrapper) {
  const member = db
    .select({ one: sql`1` })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), inArray(memberships.status, MEMBER_STATUSES)))
    .limit(1);
  const unread = db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return {
    hasCourses: sql<number>`exists ${member}`.mapWith(Number),
    unreadNotifications: sql<number>`${unread}`.mapWith(Number),
  };
}
