/**
 * Closing sockets when a right ends. Tickets are checked once, when a socket opens; afterwards each room re-reads
 * permissions on every chat frame, but a socket that only listens must be closed by whoever ends the right.
 */
import { eq } from "drizzle-orm";
import { can, type Actor } from "../../app/lib/permissions";
import { groups, memberships, users } from "../../db/schema";
import type { ServiceContext } from "../context";
import { CLOSE } from "../../app/lib/realtime-limits";
import { disconnectSessionsEverywhere, disconnectUserEverywhere, type EverywhereClose } from "../realtime/publish";

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

/** `groupRoomsOf` for a user known by id (their current role is read first); none when the account is gone. */
async function groupRoomsNow(ctx: ServiceContext, userId: string): Promise<string[]> {
  const [user] = await ctx.db.select({ role: users.role }).from(users).where(eq(users.id, userId));
  return user ? groupRoomsOf(ctx, { userId, role: user.role }) : [];
}

/**
 * Closes, in the background, the sockets opened under revoked sessions (logout, "sign out this device", a copied
 * refresh token, a password change on the other devices). The user's other sessions keep theirs.
 */
export function closeSessionSockets(ctx: ServiceContext, revoked: { userId: string; sessionId: string }[]): void {
  const byUser = new Map<string, string[]>();
  for (const r of revoked) byUser.set(r.userId, [...(byUser.get(r.userId) ?? []), r.sessionId]);
  for (const [userId, sessionIds] of byUser) {
    ctx.waitUntil(
      (async () => {
        await disconnectSessionsEverywhere(ctx.env, userId, sessionIds, await groupRoomsNow(ctx, userId));
      })(),
    );
  }
}

/**
 * Closes, in the background, every socket of a user whose every session ended (a password reset), wherever it is
 * (their rooms are looked up first): the clients stop and say the session ended.
 */
export function closeAllSocketsOf(ctx: ServiceContext, userId: string, reason: string): void {
  ctx.waitUntil(
    (async () => {
      await disconnectUserEverywhere(ctx.env, userId, await groupRoomsNow(ctx, userId), reason, CLOSE.sessionEnded);
    })(),
  );
}

/**
 * Closes, in the background, every socket of a user: their hub, the staff inbox and the group rooms in `groupIds`.
 * `sessionEnded` stops the clients (the account is gone); `accessChanged` has them ask again for what they may join now.
 */
export function closeSocketsOf(ctx: ServiceContext, userId: string, groupIds: string[], reason: string, code: EverywhereClose): void {
  ctx.waitUntil(disconnectUserEverywhere(ctx.env, userId, groupIds, reason, code));
}
