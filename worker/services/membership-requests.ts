/**
 * The staff side of join requests: the e-mail requests inbox (admins: every group; instructors: their own) and
 * the decisions. Approving respects the group's capacity atomically: the seat check is part of the UPDATE
 * itself, so two staff approving the last seat at the same moment cannot both succeed.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { can } from "../../app/lib/permissions";
import type { MembershipRequestFrameBody } from "../../app/lib/realtime-protocol";
import type { MembershipDecisionInput, MembershipRequestsQuery } from "../../app/lib/schemas";
import { groups, memberships, users } from "../../db/schema";
import type { ServiceContext } from "../context";
import { AppError, forbidden, notFound } from "../http/errors";
import { publishToGroupStaff, publishToUser } from "../realtime/publish";
import { managedGroupsScope, requireManagedGroup, requireStaff } from "./group-access";
import { sendMail } from "./mail";
import { decisionMail } from "./membership-mail";
import { mailLang } from "./accounts-mail";
import { notifyUsers, settleNotifications } from "./notifications";
import type { Viewer } from "./sessions";

/** One join request as the inbox shows it (the `membership.requested` frame carries the same shape). */
export interface MembershipRequestDto extends MembershipRequestFrameBody {
  decidedAt: string | null;
}

const requestColumns = {
  id: memberships.id,
  status: memberships.status,
  requestMessage: memberships.requestMessage,
  createdAt: memberships.createdAt,
  decidedAt: memberships.decidedAt,
  userId: users.id,
  userName: users.name,
  email: users.email,
  locale: users.locale,
  phone: users.phoneNumber,
  userSlug: users.slug,
  groupId: groups.id,
  groupTitle: groups.title,
  groupSlug: groups.slug,
  instructorId: groups.instructorId,
};

function requestQuery(ctx: ServiceContext) {
  return ctx.db
    .select(requestColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .$dynamic();
}

type RequestRow = Awaited<ReturnType<ReturnType<typeof requestQuery>["execute"]>>[number];

/**
 * What a join request's notifications are about: the membership row and when it was asked (asking again re-opens the
 * same row with a new time, so withdrawing takes back that request's notifications only, not an earlier one's).
 */
export const requestAbout = (membershipId: string, askedAt: Date | string) => `membership:${membershipId}:${new Date(askedAt).getTime()}`;

export function toRequestDto(r: RequestRow): MembershipRequestDto {
  return {
    _id: r.id,
    status: r.status,
    requestMessage: r.requestMessage,
    createdAt: r.createdAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
    user: { _id: r.userId, name: r.userName, email: r.email, phone_number: r.phone, slug: r.userSlug },
    group: { _id: r.groupId, title: r.groupTitle, slug: r.groupSlug },
  };
}

/** One request with its user and group, or null. */
export async function loadRequest(ctx: ServiceContext, membershipId: string): Promise<RequestRow | null> {
  const [row] = await requestQuery(ctx).where(eq(memberships.id, membershipId)).limit(1);
  return row ?? null;
}

/**
 * GET /api/membership-requests: pending requests (or another status) of the groups the viewer runs, newest
 * first, optionally for one group.
 */
export async function listMembershipRequests(ctx: ServiceContext, viewer: Viewer, query: MembershipRequestsQuery): Promise<MembershipRequestDto[]> {
  requireStaff(viewer);
  const group = query.groupId ? await requireManagedGroup(ctx, viewer, query.groupId) : null;
  const rows = await requestQuery(ctx)
    .where(and(managedGroupsScope(viewer), group ? eq(memberships.groupId, group.id) : undefined, eq(memberships.status, query.status)))
    .orderBy(desc(memberships.createdAt), desc(memberships.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return rows.map(toRequestDto);
}

/** The group's seats taken (approved and special members), evaluated inside the statement that uses it. */
export const seatsTakenSql = (groupId: string) => sql<number>`(SELECT count(*) FROM memberships AS m WHERE m.group_id = ${groupId} AND m.status IN ('approved', 'special'))`;

/** True while the group has a free seat (no capacity means unlimited); evaluated inside the statement that uses it. */
export const hasFreeSeat = (groupId: string) => sql`${seatsTakenSql(groupId)} < coalesce((SELECT capacity FROM groups WHERE id = ${groupId}), ${Number.MAX_SAFE_INTEGER})`;

export const GROUP_FULL = "This group is full.";

/**
 * PUT /api/membership-requests/{id}: approve, approve as special, or reject a pending request of a group the
 * viewer runs. E-mails the student, notifies them live, and tells the other staff so it leaves their inboxes.
 */
export async function decideMembershipRequest(
  ctx: ServiceContext,
  viewer: Viewer,
  membershipId: string,
  input: MembershipDecisionInput,
): Promise<MembershipRequestDto> {
  const request = await loadRequest(ctx, membershipId);
  if (!request) throw notFound("No such request.");
  if (!can(viewer, "group.manage", { group: { instructorId: request.instructorId } })) {
    throw forbidden("Only this group's instructor or an admin can decide its requests.");
  }
  if (request.status !== "pending") throw new AppError(409, "already_decided", "This request was already decided.");

  const decidedAt = new Date();
  const updated = await ctx.db
    .update(memberships)
    // The first time they are let in is when they joined (kept if they had been a member before and asked again).
    .set({ status: input.decision, decidedBy: viewer.userId, decidedAt, joinedAt: input.decision === "rejected" ? undefined : sql`coalesce(${memberships.joinedAt}, ${decidedAt.getTime()})` })
    .where(and(eq(memberships.id, membershipId), eq(memberships.status, "pending"), input.decision === "rejected" ? undefined : hasFreeSeat(request.groupId)))
    .returning({ id: memberships.id });
  if (updated.length === 0) {
    const now = await loadRequest(ctx, membershipId);
    if (now?.status !== "pending") throw new AppError(409, "already_decided", "This request was already decided.");
    throw new AppError(409, "group_full", GROUP_FULL);
  }

  const decided = { ...request, status: input.decision, decidedAt };
  // The staff's "asked to join" notifications of it are read now: nothing is left to act on (the other staff's bells
  // kept counting it), and they stay as what happened (a request taken back instead takes them away).
  await settleNotifications(ctx, requestAbout(request.id, request.createdAt));
  await announceDecision(ctx, viewer, decided, input.decision);
  return toRequestDto(decided);
}

async function announceDecision(ctx: ServiceContext, viewer: Viewer, r: RequestRow & { decidedAt: Date }, decision: MembershipDecisionInput["decision"]) {
  const group = { _id: r.groupId, title: r.groupTitle, slug: r.groupSlug };
  const mail = decisionMail({ name: r.userName, groupTitle: r.groupTitle, decision, origin: ctx.settings.publicOrigin, lang: mailLang(r.locale) });
  ctx.waitUntil(sendMail(ctx, { to: r.email, ...mail }));
  await notifyUsers(ctx, [r.userId], {
    kind: "join-decision",
    params: { group: r.groupTitle, variant: decision },
    link: decision === "rejected" ? "/courses" : `/course/${r.groupSlug}`,
  });
  const frame = {
    type: "membership.decided" as const,
    decision: { _id: r.id, status: decision, userId: r.userId, group, decidedAt: r.decidedAt.toISOString(), decidedBy: { _id: viewer.userId, name: viewer.name } },
  };
  ctx.waitUntil(Promise.all([publishToGroupStaff(ctx.env, r.instructorId, frame), publishToUser(ctx.env, r.userId, frame)]));
}
