/**
 * The landings. The admin's (/dashboard): how many users of each role, groups of each status, join requests
 * waiting and contact messages unread (four aggregate statements in one D1 batch). Both landings (/dashboard and
 * /instructor) lead with what needs attention now (staffAttention).
 */
import { and, asc, count, eq, gt, inArray, isNull, lte, ne, or, sql } from "drizzle-orm";
import { can } from "../../app/lib/permissions";
import type { AtRiskReason } from "../../app/lib/progress";
import { attendanceSessions, contactMessages, groups, GROUP_STATUSES, lectures, memberships, MEMBER_STATUSES, ROLES, submissions, tasks, users, type GroupStatus, type Role } from "../../db/schema";
import { computeProgress } from "./progress";
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

/* ---------------------------------------------------------------------------------------------------------------
 * What needs attention now (the /dashboard and /instructor landings)
 * ------------------------------------------------------------------------------------------------------------- */

interface GroupCount {
  slug: string;
  title: string;
  count: number;
}

export interface Attention {
  requests: { total: number; groups: GroupCount[] };
  ungraded: { total: number; groups: GroupCount[] };
  /** Attendance open right now, with how many members have checked in. */
  live: { groupSlug: string; groupTitle: string; lectureSlug: string; lectureTitle: string; checkedIn: number; members: number }[];
  /** Unread contact messages: admins only (null for instructors). */
  unreadMessages: number | null;
  /** Students who need support, with why (overall or attendance below the line: app/lib/progress.ts). */
  atRisk: { total: number; groups: (GroupCount & { students: { name: string; slug: string; reasons: AtRiskReason[] }[] })[] };
}

/** At most this many students are named per group on a landing; the rest are on the group's progress tab. */
export const AT_RISK_NAMED = 3;

/**
 * The landings' attention list: join requests waiting, work to grade, attendance open now, unread contact
 * messages (admins) and students who need support, for every group the viewer runs that is not archived: an
 * admin's every group, an instructor's own. A fixed number of statements however many groups and students.
 */
export async function staffAttention(ctx: ServiceContext, viewer: Viewer, now = Date.now()): Promise<Attention> {
  if (viewer.role !== "admin" && viewer.role !== "instructor") throw forbidden();
  const admin = can(viewer, "site.admin");
  const scope = ctx.db
    .select({ id: groups.id })
    .from(groups)
    .where(and(ne(groups.status, "archived"), admin ? undefined : eq(groups.instructorId, viewer.userId)));
  const members = inArray(memberships.status, [...MEMBER_STATUSES]);
  const [groupRows, pending, ungraded, live, memberCounts, unread, progress] = await Promise.all([
    ctx.db.select({ id: groups.id, slug: groups.slug, title: groups.title }).from(groups).where(inArray(groups.id, scope)),
    ctx.db
      .select({ groupId: memberships.groupId, n: count() })
      .from(memberships)
      .where(and(eq(memberships.status, "pending"), inArray(memberships.groupId, scope)))
      .groupBy(memberships.groupId),
    ctx.db
      .select({ groupId: lectures.groupId, n: count() })
      .from(submissions)
      .innerJoin(tasks, eq(tasks.id, submissions.taskId))
      .innerJoin(lectures, eq(lectures.id, tasks.lectureId))
      .innerJoin(memberships, and(eq(memberships.userId, submissions.userId), eq(memberships.groupId, lectures.groupId), members))
      .where(and(isNull(submissions.score), inArray(lectures.groupId, scope)))
      .groupBy(lectures.groupId),
    ctx.db
      .select({
        groupId: lectures.groupId,
        lectureSlug: lectures.slug,
        lectureTitle: lectures.title,
        checkedIn: sql<number>`(select count(*) from "attendance" a where a."lecture_id" = "lectures"."id" and a."status" in ('present', 'late'))`,
      })
      .from(attendanceSessions)
      .innerJoin(lectures, eq(lectures.id, attendanceSessions.lectureId))
      .where(and(lte(attendanceSessions.opensAt, new Date(now)), or(isNull(attendanceSessions.closesAt), gt(attendanceSessions.closesAt, new Date(now))), inArray(lectures.groupId, scope)))
      .orderBy(asc(attendanceSessions.opensAt)),
    ctx.db
      .select({ groupId: memberships.groupId, n: count() })
      .from(memberships)
      .where(and(members, inArray(memberships.groupId, scope)))
      .groupBy(memberships.groupId),
    admin ? ctx.db.select({ n: count() }).from(contactMessages).where(isNull(contactMessages.readAt)) : Promise.resolve(null),
    computeProgress(ctx, { groups: scope }, now),
  ]);
  const byId = new Map(groupRows.map((g) => [g.id, g]));
  const counted = (rows: { groupId: string; n: number }[]) => {
    const list = rows.flatMap((r) => {
      const g = byId.get(r.groupId);
      return g && r.n > 0 ? [{ slug: g.slug, title: g.title, count: r.n }] : [];
    });
    list.sort((a, b) => b.count - a.count || a.title.localeCompare(b.title));
    return { total: list.reduce((sum, g) => sum + g.count, 0), groups: list };
  };
  const memberCount = new Map(memberCounts.map((r) => [r.groupId, r.n]));
  const risky = new Map<string, { name: string; slug: string; reasons: AtRiskReason[] }[]>();
  for (const m of progress.members) if (m.atRisk) risky.set(m.groupId, [...(risky.get(m.groupId) ?? []), { name: m.name, slug: m.slug, reasons: m.atRiskReasons }]);
  const atRiskGroups = [...risky.entries()].flatMap(([groupId, students]) => {
    const g = byId.get(groupId);
    return g ? [{ slug: g.slug, title: g.title, count: students.length, students: students.slice(0, AT_RISK_NAMED) }] : [];
  });
  atRiskGroups.sort((a, b) => b.count - a.count || a.title.localeCompare(b.title));
  return {
    requests: counted(pending),
    ungraded: counted(ungraded),
    live: live.flatMap((l) => {
      const g = byId.get(l.groupId);
      return g ? [{ groupSlug: g.slug, groupTitle: g.title, lectureSlug: l.lectureSlug, lectureTitle: l.lectureTitle, checkedIn: Number(l.checkedIn), members: memberCount.get(l.groupId) ?? 0 }] : [];
    }),
    unreadMessages: unread ? (unread[0]?.n ?? 0) : null,
    atRisk: { total: atRiskGroups.reduce((sum, g) => sum + g.count, 0), groups: atRiskGroups },
  };
}
