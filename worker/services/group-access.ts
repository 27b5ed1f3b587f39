/**
 * Finding a group and deciding who may run it, shared by the staff services (group settings, outline,
 * students, join requests). Every decision goes through `can()` from app/lib/permissions.ts.
 */
import { and, eq, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { can, type Actor } from "../../app/lib/permissions";
import { foldForSearch, SEARCH_FOLDS } from "../../app/lib/search-fold";
import { certificates, groups, lectures, memberships, users, type GroupStatus, type MembershipStatus } from "../../db/schema";
import { preparedOnce } from "../../db/prepared";
import type { ServiceContext } from "../context";
import { AppError, forbidden, notFound } from "../http/errors";
import { rowFor } from "../http/read-ahead";
import { byIdOrSlug, groupColumns, type GroupRow } from "./groups";
import type { Viewer } from "./sessions";

/** The facts about a group that the membership and staff rules need. */
export interface GroupRecord {
  id: string;
  slug: string;
  title: string;
  status: GroupStatus;
  capacity: number | null;
  instructorId: string | null;
}

export const groupRecordColumns = {
  id: groups.id,
  slug: groups.slug,
  title: groups.title,
  status: groups.status,
  capacity: groups.capacity,
  instructorId: groups.instructorId,
};

/**
 * The refusal of someone who may not do `message`'s thing in a group: to someone outside a draft group (not in the
 * catalogue) the group is as unknown as one that does not exist (404); a member of it, or anyone once it is
 * published or archived, is told the rule (403). `unknown` is what the 404 says: the thing the address names (a
 * lecture, task or quiz of a draft group is as unknown as its group).
 */
export function outsider(viewer: Actor, group: { status?: string | null; instructorId: string | null; membershipStatus?: string | null }, message: string, unknown = "No such group.") {
  return group.status === "draft" && !can(viewer, "group.viewInside", { group }) ? notFound(unknown) : forbidden(message);
}

/**
 * The refusal of someone who does not run an item's group (a lecture, task or quiz): an item not shown yet (`hidden`:
 * unpublished, or scheduled) is unknown to them, in the group or not, as is anything of a draft group they are outside
 * of (404 saying `unknown`); anyone else is told the rule (403).
 */
export function notStaffOf(viewer: Actor, group: Parameters<typeof outsider>[1], hidden: boolean, unknown: string, message = "Only this group's instructor or an admin can do that.") {
  return hidden ? notFound(unknown) : outsider(viewer, group, message, unknown);
}

/**
 * Refuses adding to a group whose course has ended (archived): 409 `course_ended`. Asked after the membership check,
 * so that someone outside the group is told that first. The rule is `can(…, "group.contribute")`.
 */
export function requireCourseRunning(viewer: Actor, group: { status?: string | null; instructorId: string | null; membershipStatus?: string | null }): void {
  if (!can(viewer, "group.contribute", { group })) throw new AppError(409, "course_ended", "This course has ended: it takes no more hand-ins, quiz attempts, check-ins, comments or chat messages.");
}

/** The group facts of a lecture, task or quiz record (read with `workPlaceColumns` or alike) that `outsider()` needs. */
export const placeFacts = (r: { groupStatus: GroupStatus; instructorId: string | null; membershipStatus: string | null }) => ({
  status: r.groupStatus,
  instructorId: r.instructorId,
  membershipStatus: r.membershipStatus,
});

export async function findGroup(ctx: ServiceContext, idOrSlug: string): Promise<GroupRecord | null> {
  const [row] = await ctx.db.select(groupRecordColumns).from(groups).where(byIdOrSlug(idOrSlug)).limit(1);
  return row ?? null;
}

/** The asking user's certificate of the group, as it comes with the group (`groupForUser`). */
const ownCertificateColumns = {
  id: certificates.id,
  code: certificates.code,
  issuedAt: certificates.issuedAt,
  language: certificates.language,
  revokedAt: certificates.revokedAt,
  revokedReason: certificates.revokedReason,
  courseTitle: certificates.courseTitle,
};

/** A group with the asking user's membership in it: what every member page decides access from. */
export type GroupForUser = GroupRow & {
  instructorId: string | null;
  /** Where its lectures happen: the zone a weekly series and a copy's dates are set in. */
  timeZone: string;
  membershipStatus: MembershipStatus | null;
  /** Their certificate of this group, if one was issued to them (a unique (group, user) row, revoked or not). */
  certificate: Pick<typeof certificates.$inferSelect, keyof typeof ownCertificateColumns> | null;
};

/**
 * The group (by id or slug) with `userId`'s membership and certificate, read once per request whichever of its id or
 * slug later callers ask by (a course home asks for it by slug, then its lectures, tasks, quizzes and progress by id).
 */
export function groupForUser(ctx: ServiceContext, userId: string, idOrSlug: string): Promise<GroupForUser | null> {
  // Most member and staff pages run it: built once per isolate (db/prepared.ts). A signed-in page starts from the
  // row this isolate saw last and checks it before sending (ADR 0033), so the lists need not wait for it.
  return rowFor(ctx, "group", userId, idOrSlug, async () => {
    const query = preparedOnce(ctx, "group-access.groupForUser", (db) =>
      db
        .select({ ...groupColumns, instructorId: groups.instructorId, timeZone: groups.timeZone, membershipStatus: memberships.status, certificate: ownCertificateColumns })
        .from(groups)
        .leftJoin(users, eq(users.id, groups.instructorId))
        .leftJoin(memberships, and(eq(memberships.groupId, groups.id), eq(memberships.userId, sql.placeholder("userId"))))
        .leftJoin(certificates, and(eq(certificates.groupId, groups.id), eq(certificates.userId, sql.placeholder("userId"))))
        .where(or(eq(groups.id, sql.placeholder("idOrSlug")), eq(groups.slug, sql.placeholder("idOrSlug"))))
        .limit(1),
    );
    const [row] = await query.all({ userId, idOrSlug });
    return row;
  });
}

/**
 * The group if the viewer runs it (its instructor, or an admin); 404 when there is no such group, 403 otherwise.
 * Read through groupForUser: a staff page's header, lists and checks ask for the same group by slug and by id, and
 * all of them are answered by one read per request.
 */
export async function requireManagedGroup(ctx: ServiceContext, viewer: Actor, idOrSlug: string): Promise<GroupRecord> {
  const row = await groupForUser(ctx, viewer.userId, idOrSlug);
  if (!row) throw notFound("No such group.");
  const group: GroupRecord = { id: row.id, slug: row.slug, title: row.title, status: row.status, capacity: row.capacity, instructorId: row.instructorId };
  if (!can(viewer, "group.manage", { group })) throw outsider(viewer, row, "Only this group's instructor or an admin can do that.");
  return group;
}

/**
 * Where a piece of work (a task, a quiz) sits: its lecture, its group and the viewer's membership in that group, as
 * the columns of a read that joins `lectures`, `groups` and the viewer's `memberships` row.
 */
export const workPlaceColumns = {
  lectureId: lectures.id,
  lectureSlug: lectures.slug,
  lectureTitle: lectures.title,
  lecturePublished: lectures.published,
  groupId: groups.id,
  groupSlug: groups.slug,
  groupTitle: groups.title,
  groupStatus: groups.status,
  instructorId: groups.instructorId,
  membershipStatus: memberships.status,
};

/** A staff page's heading: the group's id, slug and title, once the viewer may run it (404, 403 as requireManagedGroup). */
export async function managedGroupHeading(ctx: ServiceContext, viewer: Actor, idOrSlug: string): Promise<{ _id: string; slug: string; title: string }> {
  const group = await requireManagedGroup(ctx, viewer, idOrSlug);
  return { _id: group.id, slug: group.slug, title: group.title };
}

/** Staff are the people with a staff inbox: admins (every group) and instructors (their own groups). */
export function requireStaff(viewer: Viewer): void {
  if (!can(viewer, "staff.inbox")) throw forbidden("Only instructors and admins can do that.");
}

/**
 * The groups a staff member runs, as an SQL condition (the set form of `isStaffOf`): admins run every group
 * (`site.admin`), instructors the groups assigned to them.
 */
export function managedGroupsScope(viewer: Viewer): SQL | undefined {
  return can(viewer, "site.admin") ? undefined : eq(groups.instructorId, viewer.userId);
}

/**
 * Whether one of several columns contains `term`, with the letters a person may type for one another taken as the
 * same (app/lib/search-fold.ts: Arabic's alef forms and marks, Latin accents, ASCII case, apostrophes; runs of spaces
 * in the term as one). The column is folded in SQL by the same table as the term in JS. By `instr`, not LIKE: D1
 * refuses a LIKE pattern over 50 bytes (a search of 25 Arabic letters was a 500), and a term needs no escaping of
 * LIKE's wildcards.
 */
export function matchesAny(term: string, ...columns: AnyColumn[]): SQL {
  const folded = foldForSearch(term);
  const parts = columns.map((c) => sql`instr(lower(${foldedSql(c)}), ${folded}) > 0`);
  return sql`(${sql.join(parts, sql` OR `)})`;
}

/**
 * `column` through every replacement of the search's fold table, as nested `replace` calls. The table's characters
 * are constants written into the statement as literals (a bound parameter each would pass D1's 100 per statement).
 */
function foldedSql(column: AnyColumn): SQL {
  let out: SQL = sql`${column}`;
  for (const [from, to] of SEARCH_FOLDS) out = sql`replace(${out}, ${sql.raw(literal(from))}, ${sql.raw(literal(to))})`;
  return out;
}

const literal = (s: string) => `'${s.replaceAll("'", "''")}'`;
