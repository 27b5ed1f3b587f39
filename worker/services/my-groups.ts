/**
 * The student area: /my-courses (the groups one belongs to) and /course/{slug} (a group's inside, for its
 * approved and special members and its staff).
 */
import { and, asc, desc, eq, inArray, ne } from "drizzle-orm";
import { can } from "../../app/lib/permissions";
import { groups, memberships, users, MEMBER_STATUSES, type MembershipStatus } from "../../db/schema";
import type { ServiceContext } from "../context";
import { groupForUser } from "./group-access";
import { AppError, notFound } from "../http/errors";
import { byIdOrSlug, groupColumns, toGroupDto, type GroupDto } from "./groups";
import type { Viewer } from "./sessions";

export { membershipStatus } from "./memberships";

export interface MyGroupDto extends GroupDto {
  membershipStatus: "approved" | "special";
  /** When staff approved the membership. */
  joinedAt: string | null;
}

export interface MemberGroupDto extends GroupDto {
  instructor: { _id: string; name: string } | null;
  /** The viewer's own status (null for staff who are not members). */
  membershipStatus: MembershipStatus | null;
}

/**
 * A 403 for someone who may not see a group's inside, carrying their membership status (null, pending,
 * rejected, left, removed) so the page can offer "Request to join" or say the request is pending.
 */
export class NotAMemberError extends AppError {
  constructor(readonly membershipStatus: MembershipStatus | null) {
    super(403, "not_member", membershipStatus === "pending" ? "Your request to join this group is pending." : "Only members of this group can open it.");
  }

  override toJSON() {
    return { ...super.toJSON(), membershipStatus: this.membershipStatus };
  }
}

/** /my-courses: the viewer's requests still waiting for a decision, newest first; a group back in draft is unknown to them until it is published again (its requests kept). */
export async function listMyPendingRequests(ctx: ServiceContext, viewer: Viewer): Promise<(GroupDto & { requestedAt: string })[]> {
  const rows = await ctx.db
    .select({ ...groupColumns, requestedAt: memberships.createdAt })
    .from(memberships)
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .leftJoin(users, eq(users.id, groups.instructorId))
    .where(and(eq(memberships.userId, viewer.userId), eq(memberships.status, "pending"), ne(groups.status, "draft")))
    .orderBy(desc(memberships.createdAt));
  return rows.map((r) => ({ ...toGroupDto(r), requestedAt: r.requestedAt.toISOString() }));
}

/** /my-courses: the viewer's approved and special groups, soonest start first. */
export async function listMyGroups(ctx: ServiceContext, viewer: Viewer): Promise<MyGroupDto[]> {
  const rows = await ctx.db
    .select({ ...groupColumns, membershipStatus: memberships.status, decidedAt: memberships.decidedAt })
    .from(memberships)
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .leftJoin(users, eq(users.id, groups.instructorId))
    .where(and(eq(memberships.userId, viewer.userId), inArray(memberships.status, MEMBER_STATUSES)))
    .orderBy(asc(groups.startDate), asc(groups.title));
  return rows.map((r) => ({
    ...toGroupDto(r),
    membershipStatus: r.membershipStatus as MyGroupDto["membershipStatus"],
    joinedAt: r.decidedAt?.toISOString() ?? null,
  }));
}

/**
 * /course/{slug}: the group's overview (instructor, start date) for its members and staff; its pages read the
 * outline (listCourseOutline) together with their other lists, not after this.
 * Throws 404 for an unknown group (or a draft, to anyone but its staff) and `NotAMemberError` (403) otherwise.
 */
export async function getGroupForMember(ctx: ServiceContext, viewer: Viewer, idOrSlug: string): Promise<MemberGroupDto> {
  const row = await groupForUser(ctx, viewer.userId, idOrSlug);
  if (!row) throw notFound("Course not found");
  const group = { instructorId: row.instructorId, membershipStatus: row.membershipStatus };
  const staff = can(viewer, "group.manage", { group });
  if (row.status === "draft" && !staff) throw notFound("Course not found");
  if (!can(viewer, "group.viewInside", { group })) throw new NotAMemberError(row.membershipStatus);
  return {
    ...toGroupDto(row),
    instructor: row.instructorId && row.instructorName ? { _id: row.instructorId, name: row.instructorName } : null,
    membershipStatus: row.membershipStatus,
  };
}
