/**
 * The admin landing (/dashboard): how many users of each role, groups of each status, join requests waiting
 * and contact messages unread. Four aggregate statements in one D1 batch (one round trip).
 */
import { count, eq, isNull } from "drizzle-orm";
import { can } from "../../app/lib/permissions";
import { contactMessages, groups, GROUP_STATUSES, memberships, ROLES, users, type GroupStatus, type Role } from "../../db/schema";
import type { ServiceContext } from "../context";
import { forbidden } from "../http/errors";
import type { Viewer } from "./sessions";

export interface AdminOverview {
  users: Record<Role, number> & { total: number };
  groups: Record<GroupStatus, number> & { total: number };
  pendingRequests: number;
  unreadMessages: number;
}

function tally<K extends string>(keys: readonly K[], rows: { key: K; n: number }[]): Record<K, number> & { total: number } {
  const out = Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  let total = 0;
  for (const r of rows) {
    out[r.key] = r.n;
    total += r.n;
  }
  return { ...out, total };
}

/** Counts for the admin overview cards. Admins only. */
export async function adminOverview(ctx: ServiceContext, viewer: Viewer): Promise<AdminOverview> {
  if (!can(viewer, "site.admin")) throw forbidden();
  const [userRows, groupRows, [pending], [unread]] = await ctx.db.batch([
    ctx.db.select({ key: users.role, n: count() }).from(users).groupBy(users.role),
    ctx.db.select({ key: groups.status, n: count() }).from(groups).groupBy(groups.status),
    ctx.db.select({ n: count() }).from(memberships).where(eq(memberships.status, "pending")),
    ctx.db.select({ n: count() }).from(contactMessages).where(isNull(contactMessages.readAt)),
  ]);
  return {
    users: tally(ROLES, userRows),
    groups: tally(GROUP_STATUSES, groupRows),
    pendingRequests: pending?.n ?? 0,
    unreadMessages: unread?.n ?? 0,
  };
}
