/**
 * What every page needs to know about the signed-in person beyond who they are: whether the header shows
 * "My Courses" (platform-spec §2: only for someone with a group whose status is approved or special).
 */
import { and, eq, inArray } from "drizzle-orm";
import { memberships, MEMBER_STATUSES } from "../../db/schema";
import type { ServiceContext } from "../context";

/** True when the user is an approved or special member of at least one group (one indexed lookup). */
export async function hasMemberGroups(ctx: ServiceContext, userId: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: memberships.id })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), inArray(memberships.status, MEMBER_STATUSES)))
    .limit(1);
  return row !== undefined;
}
