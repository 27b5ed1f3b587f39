/**
 * A student's side of membership (PRODUCT.md §2): asking to join a group and leaving it.
 *
 * One row per user and group. `pending` → `approved` | `special` | `rejected` (staff decide,
 * membership-requests.ts); `approved`/`special` → `left` (the student) or `removed` (staff). `rejected`, `left`
 * and `removed` may ask again: the same row goes back to `pending`, and its `createdAt` becomes the time of the
 * new request (the inbox sorts by it).
 */
import { and, count, eq, inArray } from "drizzle-orm";
import { can } from "../../app/lib/permissions";
import type { JoinGroupInput, LeaveGroupInput } from "../../app/lib/schemas";
import { memberships, MEMBER_STATUSES, type MembershipStatus } from "../../db/schema";
import type { ServiceContext } from "../context";
import { AppError, forbidden, notFound } from "../http/errors";
import { disconnectUserFromGroup, publishToGroupStaff, publishToUser } from "../realtime/publish";
import { findGroup, type GroupRecord } from "./group-access";
import { newId } from "./ids";
import { GROUP_FULL, loadRequest, requestAbout, toRequestDto, type MembershipRequestDto } from "./membership-requests";

/** Whether a viewer's membership status makes them a student of the group (the member statuses). */
export const isMember = (r: { membershipStatus: string | null }) => MEMBER_STATUSES.includes((r.membershipStatus ?? "") as MembershipStatus);
import { adminIds, notifyUsers, retireNotifications } from "./notifications";
import { hitRateLimit } from "./rate-limit";
import type { Viewer } from "./sessions";

/** Requests to join one student may send: 10 an hour (each tells every admin and the group's instructor). */
export const JOIN_REQUEST_LIMIT = { max: 10, windowMs: 60 * 60_000 };
const JOIN_REQUEST_TOO_MANY = "You have asked to join groups many times in the last hour. Please wait a while and ask again.";

/** Recipients per notifyUsers call (7 bound columns each, under D1's 100 parameters per statement). */
const NOTIFY_SLICE = 10;

/** Statuses from which a student may ask again. */
const MAY_ASK_AGAIN: MembershipStatus[] = ["rejected", "left", "removed"];

/** The ids of a group's members (approved and special seats), for notifying them. */
export async function memberIds(ctx: ServiceContext, groupId: string): Promise<string[]> {
  const rows = await ctx.db
    .select({ id: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.groupId, groupId), inArray(memberships.status, [...MEMBER_STATUSES])));
  return rows.map((r) => r.id);
}

export interface JoinResult {
  message: string;
  request: MembershipRequestDto;
}

export interface LeaveResult {
  message: string;
  groupSlug: string;
  status: "left";
}

/** The viewer's membership status in a group, or null when they never asked to join. */
export async function membershipStatus(ctx: ServiceContext, viewer: Viewer, groupId: string): Promise<MembershipStatus | null> {
  const [row] = await ctx.db
    .select({ status: memberships.status })
    .from(memberships)
    .where(and(eq(memberships.groupId, groupId), eq(memberships.userId, viewer.userId)))
    .limit(1);
  return row?.status ?? null;
}

/** Seats taken: approved and special members. */
async function seatsTaken(ctx: ServiceContext, groupId: string): Promise<number> {
  const [row] = await ctx.db
    .select({ n: count() })
    .from(memberships)
    .where(and(eq(memberships.groupId, groupId), inArray(memberships.status, MEMBER_STATUSES)));
  return row?.n ?? 0;
}

function refuseFor(status: MembershipStatus | null): AppError | null {
  if (status === "pending") return new AppError(409, "already_requested", "You have already requested to join this group.");
  if (status === "approved" || status === "special") return new AppError(409, "already_member", "You are already a member of this group.");
  return null;
}

/**
 * POST /api/users/joinGroupRequest: a student asks to join a published group that has a free seat.
 * Creates the request (or re-opens a rejected/left/removed one), tells the group's instructor and the admins
 * (notification + live inbox frame) and answers the pending request.
 */
export async function requestToJoin(ctx: ServiceContext, viewer: Viewer, input: JoinGroupInput): Promise<JoinResult> {
  if (!can(viewer, "group.requestJoin")) throw forbidden("Only students can request to join a group.");
  // Each request tells every admin and the instructor: asking, withdrawing and asking again is not a way to flood them.
  await hitRateLimit(ctx, `join-request:${viewer.userId}`, JOIN_REQUEST_LIMIT, JOIN_REQUEST_TOO_MANY);
  const group = await findGroup(ctx, (input.groupSlug ?? input.groupId)!);
  if (!group || group.status === "draft") throw notFound("Course not found");
  if (group.status === "archived") throw new AppError(409, "group_closed", "This group is archived and no longer accepts requests.");

  const [current, taken] = await Promise.all([membershipStatus(ctx, viewer, group.id), seatsTaken(ctx, group.id)]);
  const refusal = refuseFor(current);
  if (refusal) throw refusal;
  if (group.capacity !== null && taken >= group.capacity) throw new AppError(409, "group_full", GROUP_FULL);

  const now = new Date();
  const [row] = await ctx.db
    .insert(memberships)
    .values({ id: newId(), userId: viewer.userId, groupId: group.id, status: "pending", requestMessage: input.message || null, createdAt: now })
    .onConflictDoUpdate({
      target: [memberships.userId, memberships.groupId],
      set: { status: "pending", requestMessage: input.message || null, decidedBy: null, decidedAt: null, createdAt: now },
      // Only a finished membership re-opens; a request or membership made meanwhile (another tab) stays as it is.
      setWhere: inArray(memberships.status, MAY_ASK_AGAIN),
    })
    .returning({ id: memberships.id });
  if (!row) throw refuseFor(await membershipStatus(ctx, viewer, group.id)) ?? new AppError(409, "conflict", "Please try again.");

  const request = toRequestDto((await loadRequest(ctx, row.id))!);
  await announceRequest(ctx, viewer, group, request);
  return { message: "Your request to join was sent.", request };
}


/** Staff hear about a new request: a notification each (linking to their inbox) and a live inbox frame. */
async function announceRequest(ctx: ServiceContext, viewer: Viewer, group: GroupRecord, request: MembershipRequestDto) {
  const params = { name: viewer.name, group: group.title };
  // Taken back with the request if it is withdrawn before anyone decides.
  const about = requestAbout(request._id, request.createdAt);
  const admins = await adminIds(ctx);
  const instructor = group.instructorId && !admins.includes(group.instructorId) ? [group.instructorId] : [];
  // notifyUsers writes one multi-row INSERT, and D1 binds at most 100 parameters per statement: admins go
  // in small slices so any number of them is fine.
  const slices = [];
  for (let i = 0; i < admins.length; i += NOTIFY_SLICE) slices.push(admins.slice(i, i + NOTIFY_SLICE));
  await Promise.all([
    ...slices.map((ids) => notifyUsers(ctx, ids, { kind: "join-request", params, link: "/dashboard/admin/email-request", about })),
    notifyUsers(ctx, instructor, { kind: "join-request", params, link: "/instructor/email-request", about }),
  ]);
  ctx.waitUntil(publishToGroupStaff(ctx.env, group.instructorId, { type: "membership.requested", request }));
}

/** POST /api/users/withdraw-request's answer: the request is gone. */
export interface WithdrawResult {
  message: string;
  groupSlug: string;
}

/**
 * POST /api/users/withdraw-request {groupSlug}: the viewer's pending request is taken back. It is deleted, not
 * decided: they are as someone who never asked (and may ask again), not one who left or was turned away. The group's
 * staff see it leave their inbox live, and the viewer's other tabs hear of it as of a decision.
 */
export async function withdrawRequest(ctx: ServiceContext, viewer: Viewer, input: LeaveGroupInput): Promise<WithdrawResult> {
  const group = await findGroup(ctx, input.groupSlug);
  if (!group) throw notFound("Course not found");
  // Asked by the write itself: a decision made meanwhile (approved a moment ago) is not undone.
  const [withdrawn] = await ctx.db
    .delete(memberships)
    .where(and(eq(memberships.groupId, group.id), eq(memberships.userId, viewer.userId), eq(memberships.status, "pending")))
    .returning({ id: memberships.id, createdAt: memberships.createdAt });
  if (!withdrawn) {
    const status = await membershipStatus(ctx, viewer, group.id);
    if (status === null && group.status === "draft") throw notFound("Course not found");
    throw new AppError(409, "not_pending", "You have no request waiting for this group.");
  }
  // The staff's notifications of it go too: a request taken back leaves nothing to act on.
  await retireNotifications(ctx, requestAbout(withdrawn.id, withdrawn.createdAt));
  const frame = {
    type: "membership.decided" as const,
    decision: {
      _id: withdrawn.id,
      status: "withdrawn" as const,
      userId: viewer.userId,
      group: { _id: group.id, title: group.title, slug: group.slug },
      decidedAt: new Date().toISOString(),
      decidedBy: { _id: viewer.userId, name: viewer.name },
    },
  };
  ctx.waitUntil(Promise.all([publishToGroupStaff(ctx.env, group.instructorId, frame), publishToUser(ctx.env, viewer.userId, frame)]));
  return { message: "Your request was withdrawn.", groupSlug: group.slug };
}

/**
 * POST /api/users/leave-group {groupSlug}: the viewer's approved or special membership becomes `left`, and
 * their sockets in the group's room (its chat) are closed.
 */
export async function leaveGroup(ctx: ServiceContext, viewer: Viewer, input: LeaveGroupInput): Promise<LeaveResult> {
  const group = await findGroup(ctx, input.groupSlug);
  if (!group) throw notFound("Course not found");
  const left = await ctx.db
    .update(memberships)
    .set({ status: "left" })
    .where(and(eq(memberships.groupId, group.id), eq(memberships.userId, viewer.userId), inArray(memberships.status, MEMBER_STATUSES)))
    .returning({ id: memberships.id });
  if (left.length === 0) {
    const status = await membershipStatus(ctx, viewer, group.id);
    const message = "You are not a member of this group.";
    // A draft group that never had them is as unknown to them as a group that does not exist.
    if (status === null && group.status === "draft") throw notFound("Course not found");
    throw status === null ? new AppError(404, "not_member", message) : new AppError(409, "not_member", message);
  }
  ctx.waitUntil(disconnectUserFromGroup(ctx.env, group.id, viewer.userId));
  return { message: "You left the group.", groupSlug: group.slug, status: "left" };
}

