/**
 * The staff's student screens: a group's students (status, change of terms, removal, search) and one
 * student's details with their memberships. Instructors see only their own groups' students and memberships.
 */
import { and, asc, desc, eq, inArray, or, sql } from "drizzle-orm";
import { byName } from "../../app/lib/names";
import { can } from "../../app/lib/permissions";
import type { GroupStudentsQuery, QuizTimeInput, StudentStatusInput } from "../../app/lib/schemas";
import { groups, memberships, users, MEMBER_STATUSES, type MembershipStatus, type Role } from "../../db/schema";
import type { ServiceContext } from "../context";
import { AppError, forbidden, notFound } from "../http/errors";
import { disconnectUserFromGroup } from "../realtime/publish";
import { matchesAny, requireManagedGroup, requireStaff, type GroupRecord } from "./group-access";
import { GROUP_FULL, hasFreeSeat } from "./membership-requests";
import { notifyUsers } from "./notifications";
import type { Viewer } from "./sessions";

export interface StudentRef {
  _id: string;
  name: string;
  email: string;
  phone_number: string | null;
  slug: string;
}

/** One row of a group's students screen. `_id` is the membership's id. */
export interface GroupStudentDto {
  _id: string;
  status: MembershipStatus;
  /** When they (last) asked to join. */
  requestedAt: string;
  /** When staff last decided (approved, special, removed). */
  decidedAt: string | null;
  /** The day they first joined, kept across a switch of terms (special and back) and a removal and return. */
  joinedAt: string | null;
  /** The member's time on timed quizzes of the group, as a multiple of each quiz's duration (an accommodation). */
  quizTimeMultiplier: number;
  user: StudentRef;
}

export interface StudentDto extends StudentRef {
  role: Role;
  country: string | null;
  createdAt: string;
  /** Only the memberships in groups the viewer runs (every group for admins). */
  memberships: { _id: string; status: MembershipStatus; requestedAt: string; decidedAt: string | null; group: { _id: string; title: string; slug: string } }[];
}

const studentColumns = {
  id: memberships.id,
  status: memberships.status,
  createdAt: memberships.createdAt,
  decidedAt: memberships.decidedAt,
  joinedAt: memberships.joinedAt,
  quizTimePercent: memberships.quizTimePercent,
  userId: users.id,
  name: users.name,
  email: users.email,
  phone: users.phoneNumber,
  slug: users.slug,
};

function studentQuery(ctx: ServiceContext) {
  return ctx.db.select(studentColumns).from(memberships).innerJoin(users, eq(users.id, memberships.userId)).$dynamic();
}

type StudentRow = Awaited<ReturnType<ReturnType<typeof studentQuery>["execute"]>>[number];

function toStudentDto(r: StudentRow): GroupStudentDto {
  return {
    _id: r.id,
    status: r.status,
    requestedAt: r.createdAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
    joinedAt: r.joinedAt?.toISOString() ?? null,
    quizTimeMultiplier: r.quizTimePercent / 100,
    user: { _id: r.userId, name: r.name, email: r.email, phone_number: r.phone, slug: r.slug },
  };
}

/** GET /api/groups/{id}/students: members (approved and special) by default, or those of one status, or `all`. */
export async function listGroupStudents(ctx: ServiceContext, viewer: Viewer, groupIdOrSlug: string, query: GroupStudentsQuery): Promise<GroupStudentDto[]> {
  const group = await requireManagedGroup(ctx, viewer, groupIdOrSlug);
  const term = query.search;
  const status = query.status ?? "members";
  const rows = await studentQuery(ctx)
    .where(
      and(
        eq(memberships.groupId, group.id),
        status === "all" ? undefined : status === "members" ? inArray(memberships.status, MEMBER_STATUSES) : eq(memberships.status, status),
        term ? matchesAny(term, users.name, users.email) : undefined,
      ),
    )
    .orderBy(asc(users.name), asc(users.id));
  return byName(rows, (r) => r.name).map(toStudentDto);
}

async function findMembership(ctx: ServiceContext, group: GroupRecord, userIdOrSlug: string): Promise<StudentRow> {
  const [row] = await studentQuery(ctx)
    .where(and(eq(memberships.groupId, group.id), or(eq(users.id, userIdOrSlug), eq(users.slug, userIdOrSlug))))
    .limit(1);
  if (!row) throw notFound("This student has no membership in this group.");
  return row;
}

/** Why a status change is refused, from the current status (null: allowed). */
function refusal(from: MembershipStatus, to: StudentStatusInput["status"]): AppError | null {
  const member = from === "approved" || from === "special";
  if (to === "removed") return member ? null : new AppError(409, "not_member", "Only members can be removed.");
  if (member || from === "removed") return null;
  if (from === "pending") return new AppError(409, "conflict", "Decide pending requests in the e-mail requests inbox.");
  return new AppError(409, "conflict", "This student has to ask to join again.");
}

/**
 * PUT /api/groups/{id}/students/{userId}: switch a member between approved and special, remove them (their
 * chat sockets close), or restore a removed student (if a seat is free, checked atomically).
 */
export async function setStudentStatus(
  ctx: ServiceContext,
  viewer: Viewer,
  groupIdOrSlug: string,
  userIdOrSlug: string,
  input: StudentStatusInput,
): Promise<GroupStudentDto> {
  const group = await requireManagedGroup(ctx, viewer, groupIdOrSlug);
  const current = await findMembership(ctx, group, userIdOrSlug);
  const refused = refusal(current.status, input.status);
  if (refused) throw refused;
  if (current.status === input.status) return toStudentDto(current);

  const decidedAt = new Date();
  const members = inArray(memberships.status, MEMBER_STATUSES);
  // A switch of terms keeps the seat; a restored student needs a free one (checked inside the UPDATE).
  const from = input.status === "removed" ? members : or(members, and(eq(memberships.status, "removed"), hasFreeSeat(group.id)));
  const updated = await ctx.db
    .update(memberships)
    // A restored student keeps the day they first joined (and one without it, from before it was kept, gets today).
    .set({ status: input.status, decidedBy: viewer.userId, decidedAt, joinedAt: input.status === "removed" ? undefined : sql`coalesce(${memberships.joinedAt}, ${decidedAt.getTime()})` })
    .where(and(eq(memberships.id, current.id), from))
    .returning({ id: memberships.id });
  if (updated.length === 0) {
    const now = await findMembership(ctx, group, current.userId);
    throw refusal(now.status, input.status) ?? new AppError(409, "group_full", GROUP_FULL);
  }

  if (input.status === "removed") {
    ctx.waitUntil(disconnectUserFromGroup(ctx.env, group.id, current.userId));
    await notifyUsers(ctx, [current.userId], { kind: "membership-removed", params: { group: group.title }, link: "/courses" });
  } else if (current.status === "removed") {
    await notifyUsers(ctx, [current.userId], { kind: "join-decision", params: { group: group.title, variant: "restored" }, link: `/course/${group.slug}` });
  }
  return toStudentDto({ ...current, status: input.status, decidedAt, joinedAt: input.status === "removed" ? current.joinedAt : (current.joinedAt ?? decidedAt) });
}

/**
 * PUT /api/groups/{id}/students/{userId}/quiz-time (staff): an accommodation, the member's time on every timed quiz of
 * the group (1.5: half as long again). Attempts started from now on get it; one already running keeps its deadline.
 */
export async function setQuizTime(ctx: ServiceContext, viewer: Viewer, groupIdOrSlug: string, userIdOrSlug: string, input: QuizTimeInput): Promise<GroupStudentDto> {
  const group = await requireManagedGroup(ctx, viewer, groupIdOrSlug);
  const current = await findMembership(ctx, group, userIdOrSlug);
  if (!(MEMBER_STATUSES as readonly string[]).includes(current.status)) throw new AppError(409, "not_member", "Only members of the group take its quizzes.");
  const quizTimePercent = Math.round(input.timeMultiplier * 100);
  await ctx.db.update(memberships).set({ quizTimePercent }).where(eq(memberships.id, current.id));
  return toStudentDto({ ...current, quizTimePercent });
}

/**
 * GET /api/students/{idOrSlug}: a student's details and memberships. Admins see anyone and every membership;
 * an instructor sees a student who has a membership in one of their groups, and only those memberships.
 */
export async function getStudent(ctx: ServiceContext, viewer: Viewer, idOrSlug: string): Promise<StudentDto> {
  requireStaff(viewer);
  const [user] = await ctx.db
    .select({ id: users.id, name: users.name, email: users.email, phone: users.phoneNumber, slug: users.slug, role: users.role, country: users.country, createdAt: users.createdAt })
    .from(users)
    .where(or(eq(users.id, idOrSlug), eq(users.slug, idOrSlug)))
    .limit(1);
  if (!user) throw notFound("No such student.");
  const rows = await ctx.db
    .select({
      id: memberships.id,
      status: memberships.status,
      createdAt: memberships.createdAt,
      decidedAt: memberships.decidedAt,
      groupId: groups.id,
      title: groups.title,
      slug: groups.slug,
      instructorId: groups.instructorId,
    })
    .from(memberships)
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .where(eq(memberships.userId, user.id))
    .orderBy(desc(memberships.createdAt), desc(memberships.id));
  const visible = rows.filter((r) => can(viewer, "group.manage", { group: { instructorId: r.instructorId } }));
  if (visible.length === 0 && !can(viewer, "site.admin")) throw forbidden("You can only see the students of your own groups.");
  return {
    _id: user.id,
    name: user.name,
    email: user.email,
    phone_number: user.phone,
    slug: user.slug,
    role: user.role,
    country: user.country,
    createdAt: user.createdAt.toISOString(),
    memberships: visible.map((r) => ({
      _id: r.id,
      status: r.status,
      requestedAt: r.createdAt.toISOString(),
      decidedAt: r.decidedAt?.toISOString() ?? null,
      group: { _id: r.groupId, title: r.title, slug: r.slug },
    })),
  };
}
