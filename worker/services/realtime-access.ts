/**
 * Closing sockets when a right ends. Tickets are checked once, when a socket opens; afterwards each room re-reads
 * permissions on every chat frame, but a socket that only listens must be closed by whoever ends the right.
 */
import { eq } from "drizzle-orm";
import { can, type Actor } from "../../app/lib/permissions";
import { groups, memberships } from "../../db/schema";
import type { ServiceContext } from "../context";
import { disconnectUserEverywhere } from "../realtime/publish";

/**
 * The groups whose rooms a user can have a socket in, read before their role or account changes: every group for
 * an admin, otherwise the groups they belong to (in any status) or teach.
 */
export async function groupRoomsOf(ctx: ServiceContext, user: Actor): Promise<string[]> {
  const userId = user.userId;
  if (can(user, "site.admin")) {
    return (await ctx.db.select({ id: groups.id }).from(groups)).map((g) => g.id);
  }
  const [member, taught] = await ctx.db.batch([
    ctx.db.select({ id: memberships.groupId }).from(memberships).where(eq(memberships.userId, userId)),
    ctx.db.select({ id: groups.id }).from(groups).where(eq(groups.instructorId, userId)),
  ]);
  return [...new Set([...member, ...taught].map((g) => g.id))];
}

/** Closes, in the background, every socket of a user: their hub, the staff inbox and the group rooms in `groupIds`. */
export function closeSocketsOf(ctx: ServiceContext, userId: string, groupIds: string[], reason: string): void {
  ctx.waitUntil(disconnectUserEverywhere(ctx.env, userId, groupIds, reason));
}
