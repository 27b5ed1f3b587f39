/**
 * Staff group management (admin/newGroup, admin/allGroups, admin/group/{slug}/update and the instructor's own
 * groups). Admins create groups, assign instructors and archive; a group's instructor edits everything else of
 * their own group. Slugs are made once from the title and never change, so links keep working.
 */
import { and, asc, count, desc, eq, or, sql } from "drizzle-orm";
import { byName } from "../../app/lib/names";
import { formatMessage } from "../../app/i18n/translate";
import { can } from "../../app/lib/permissions";
import type { CreateGroupInput, ManageGroupsQuery, UpdateGroupInput } from "../../app/lib/schemas";
import { groups, memberships, users } from "../../db/schema";
import type { Database } from "../../db/client";
import { preparedOnce } from "../../db/prepared";
import type { ServiceContext } from "../context";
import { AppError, forbidden } from "../http/errors";
import { disconnectUserFromGroup } from "../realtime/publish";
import { managedGroupsScope, matchesAny, requireManagedGroup, requireStaff } from "./group-access";
import { groupColumns, listCourseContent, toGroupDto, type CourseContentDto, type GroupDto } from "./groups";
import { newId, slugCandidates, slugify } from "./ids";
import { seatsTakenSql } from "./membership-requests";
import type { Viewer } from "./sessions";

/** A group as staff see it: the public fields plus who runs it and how full it is. */
export interface ManagedGroupDto extends GroupDto {
  instructorId: string | null;
  /** Approved and special members: the seats taken. */
  memberCount: number;
  pendingCount: number;
  createdAt: string;
}

export interface ManagedGroupPage {
  groups: ManagedGroupDto[];
  total: number;
  page: number;
  pageSize: number;
}

export interface InstructorDto {
  _id: string;
  name: string;
  email: string;
}

/** Slugs that are API paths under /api/groups, so no group may take them. */
const RESERVED_SLUGS = new Set(["manage"]);

const managedColumns = {
  ...groupColumns,
  instructorId: groups.instructorId,
  createdAt: groups.createdAt,
  memberCount: sql<number>`coalesce(sum(CASE WHEN ${memberships.status} IN ('approved', 'special') THEN 1 ELSE 0 END), 0)`.mapWith(Number),
  pendingCount: sql<number>`coalesce(sum(CASE WHEN ${memberships.status} = 'pending' THEN 1 ELSE 0 END), 0)`.mapWith(Number),
};

/** Groups with their member and pending counts, aggregated in the same query. */
function managedQuery(db: Database) {
  return db
    .select(managedColumns)
    .from(groups)
    .leftJoin(users, eq(users.id, groups.instructorId))
    .leftJoin(memberships, eq(memberships.groupId, groups.id))
    .groupBy(groups.id)
    .$dynamic();
}

type ManagedRow = Awaited<ReturnType<ReturnType<typeof managedQuery>["execute"]>>[number];

function toManagedDto(row: ManagedRow): ManagedGroupDto {
  return {
    ...toGroupDto(row),
    instructorId: row.instructorId,
    memberCount: row.memberCount,
    pendingCount: row.pendingCount,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * GET /api/groups/manage: admins see every group, instructors their own; search by title or slug, filter by
 * status, newest first, paged.
 */
export async function listManagedGroups(ctx: ServiceContext, viewer: Viewer, query: ManageGroupsQuery): Promise<ManagedGroupPage> {
  requireStaff(viewer);
  const term = query.search;
  const where = and(
    managedGroupsScope(viewer),
    query.status ? eq(groups.status, query.status) : undefined,
    term ? matchesAny(term, groups.title, groups.slug) : undefined,
  );
  const [rows, [total]] = await ctx.db.batch([
    managedQuery(ctx.db)
      .where(where)
      .orderBy(desc(groups.createdAt), asc(groups.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    ctx.db.select({ n: count() }).from(groups).where(where),
  ]);
  return { groups: rows.map(toManagedDto), total: total?.n ?? 0, page: query.page, pageSize: query.pageSize };
}

/** GET /api/groups/manage/{id}: one group the viewer runs, whatever its status, with its outline. */
export async function getManagedGroup(ctx: ServiceContext, viewer: Viewer, idOrSlug: string): Promise<ManagedGroupDto & { content: CourseContentDto[] }> {
  const group = await requireManagedGroup(ctx, viewer, idOrSlug);
  const [[row], content] = await Promise.all([managedQuery(ctx.db).where(eq(groups.id, group.id)), listCourseContent(ctx, group.id)]);
  return { ...toManagedDto(row!), content };
}

/**
 * A group as the staff's Students tab heads it: getManagedGroup without its outline.
 * Built once per isolate (db/prepared.ts).
 */
export async function getManagedGroupCard(ctx: ServiceContext, viewer: Viewer, idOrSlug: string): Promise<ManagedGroupDto> {
  const group = await requireManagedGroup(ctx, viewer, idOrSlug);
  const [row] = await preparedOnce(ctx, "groups-admin.card", (db) => managedQuery(db).where(eq(groups.id, sql.placeholder("groupId")))).all({ groupId: group.id });
  return toManagedDto(row!);
}

/**
 * The groups one person teaches, whatever their status, by title (admins: the account's page, so that "this instructor
 * runs groups" names them before the role can change or the account go). One statement on groups_instructor_idx.
 */
export async function groupsTaughtBy(ctx: ServiceContext, viewer: Viewer, userId: string): Promise<Pick<ManagedGroupDto, "_id" | "slug" | "title" | "status">[]> {
  if (!can(viewer, "site.admin")) throw forbidden("Only an admin can see who teaches which groups.");
  return ctx.db
    .select({ _id: groups.id, slug: groups.slug, title: groups.title, status: groups.status })
    .from(groups)
    .where(eq(groups.instructorId, userId))
    .orderBy(asc(groups.title), asc(groups.id));
}

/** GET /api/users/instructors (admins): the people a group can be assigned to. */
export async function listInstructors(ctx: ServiceContext, viewer: Viewer): Promise<InstructorDto[]> {
  if (!can(viewer, "group.create")) throw forbidden("Only an admin can assign instructors.");
  const rows = await ctx.db
    .select({ _id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(eq(users.role, "instructor"))
    .orderBy(asc(users.name), asc(users.id));
  return byName(rows, (r) => r.name);
}

async function requireInstructor(ctx: ServiceContext, instructorId: string | null | undefined): Promise<void> {
  if (!instructorId) return;
  const [row] = await ctx.db.select({ role: users.role }).from(users).where(eq(users.id, instructorId)).limit(1);
  if (row?.role !== "instructor") throw notAnInstructor();
}

function notAnInstructor(): AppError {
  const message = "Choose one of the instructors.";
  return new AppError(400, "validation_failed", message, { instructorId: message });
}

/** A group whose instructor is set to someone whose role is not instructor. */
const notRunByAnInstructor = sql`${groups.instructorId} is not null and not exists (select 1 from ${users} where ${users.id} = ${groups.instructorId} and ${users.role} = 'instructor')`;

/** The first free slug for a title: `title`, then `title-2`, `title-3`, ... */
export async function freeGroupSlug(ctx: ServiceContext, title: string, attempt = 0): Promise<string> {
  // Asked again after a race was lost: a suffix no other racer picks.
  if (attempt > 0) return slugCandidates(title)[1]!;
  const base = slugify(title);
  // The slug and those that start with it and a hyphen (by prefix, not LIKE: D1 refuses a LIKE pattern over 50
  // bytes, and a slug may be 60 letters, Arabic ones two bytes each).
  const prefix = `${base}-`;
  const rows = await ctx.db
    .select({ slug: groups.slug })
    .from(groups)
    .where(or(eq(groups.slug, base), sql`substr(${groups.slug}, 1, length(${prefix})) = ${prefix}`));
  const taken = new Set(rows.map((r) => r.slug));
  for (let n = 1; ; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    if (!taken.has(slug) && !RESERVED_SLUGS.has(slug)) return slug;
  }
}

/** Only admins create groups (`group.create`); asked by the API before it reads the new group, and by createGroup. */
export function requireGroupCreator(viewer: Viewer): void {
  if (!can(viewer, "group.create")) throw forbidden("Only an admin can create groups.");
}

/** POST /api/groups (admins): a new group (draft unless told otherwise) with a unique slug made from its title. */
export async function createGroup(ctx: ServiceContext, viewer: Viewer, input: CreateGroupInput): Promise<ManagedGroupDto & { content: CourseContentDto[] }> {
  requireGroupCreator(viewer);
  await requireInstructor(ctx, input.instructorId);
  const id = newId();
  // Two groups with the same title created at the same moment may both pick the same free slug: the unique
  // index refuses the second insert, which then tries one with a random suffix (the next number would be every
  // other racer's choice too).
  for (let attempt = 0; attempt < 5; attempt++) {
    const [inserted, unassigned] = await ctx.db.batch([
      ctx.db
      .insert(groups)
      .values({
        id,
        slug: await freeGroupSlug(ctx, input.title, attempt),
        title: input.title,
        description: input.description ?? "",
        imageCourse: input.imageCourse ?? null,
        startDate: input.start_date ?? null,
        instructorId: input.instructorId ?? null,
        status: input.status ?? "draft",
        capacity: input.capacity ?? null,
        createdAt: new Date(),
      })
      .onConflictDoNothing({ target: groups.slug })
      .returning({ id: groups.id }),
      // In the same transaction: a group given to someone who is no longer an instructor by now (demoted since the
      // check above) is not kept.
      ctx.db.delete(groups).where(and(eq(groups.id, id), notRunByAnInstructor)).returning({ id: groups.id }),
    ]);
    if (unassigned.length > 0) throw notAnInstructor();
    if (inserted.length > 0) return getManagedGroup(ctx, viewer, id);
  }
  throw new AppError(409, "conflict", "Could not find a free address for this title; please try again.");
}

/**
 * PUT /api/groups/{id}. Admins may change every field. The group's own instructor may change the title,
 * description, image, start date, capacity and move it between draft and published; assigning the instructor
 * and archiving (or un-archiving) are the admins'. The slug never changes.
 */
export async function updateGroup(
  ctx: ServiceContext,
  viewer: Viewer,
  idOrSlug: string,
  input: UpdateGroupInput,
): Promise<ManagedGroupDto & { content: CourseContentDto[] }> {
  const group = await requireManagedGroup(ctx, viewer, idOrSlug);
  if (!can(viewer, "group.create")) {
    if (input.instructorId !== undefined && input.instructorId !== group.instructorId) {
      throw forbidden("Only an admin can assign the instructor.");
    }
    const statusChanges = input.status !== undefined && input.status !== group.status;
    if (statusChanges && (input.status === "archived" || group.status === "archived")) {
      throw forbidden("Only an admin can archive a group or bring it back.");
    }
  }
  if (input.instructorId !== group.instructorId) await requireInstructor(ctx, input.instructorId);
  const changes = {
    title: input.title,
    description: input.description,
    imageCourse: input.imageCourse,
    startDate: input.start_date,
    instructorId: input.instructorId,
    status: input.status,
    capacity: input.capacity,
  };
  if (Object.values(changes).some((v) => v !== undefined)) {
    // The role is asked again by the write itself: an instructor demoted since the check above (the admin's role
    // change keeps anyone who runs a group an instructor, users.ts) is not assigned.
    const assigning = input.instructorId && input.instructorId !== group.instructorId ? sql`exists (select 1 from ${users} where ${users.id} = ${input.instructorId} and ${users.role} = 'instructor')` : undefined;
    // A capacity is never set below the seats already taken (asked by the write itself, so a member let in meanwhile
    // counts): the group would read "3 / 2" and turn every later request away without saying why.
    const seated = seatsTakenSql(group.id);
    const fits = typeof input.capacity === "number" && input.capacity !== group.capacity ? sql`${seated} <= ${input.capacity}` : undefined;
    // Nor does a group with members go back to draft, for anyone: a draft is unknown to its members, who would lose
    // their course (its lectures, grades and chat) without a word. Archiving is how a cohort ends.
    const toDraft = input.status === "draft" && group.status !== "draft";
    const empty = toDraft ? sql`${seated} = 0` : undefined;
    const written = await ctx.db.update(groups).set(changes).where(and(eq(groups.id, group.id), assigning, fits, empty)).returning({ id: groups.id });
    if (written.length === 0) {
      const [{ n }] = await ctx.db.select({ n: sql<number>`${seated}` }).from(groups).where(eq(groups.id, group.id));
      if (typeof input.capacity === "number" && Number(n) > input.capacity) {
        throw new AppError(409, "capacity_below_members", `This group already has ${n} members: its capacity cannot be lower than that.`);
      }
      if (toDraft && Number(n) > 0) {
        const message = formatMessage("This group has {n, plural, one {# member} other {# members}}: it cannot go back to draft, where they could no longer open it. Archive it when the cohort ends.", { n: Number(n) }, "en");
        throw new AppError(409, "has_members", message);
      }
      throw notAnInstructor();
    }
  }
  // The former instructor's sockets in the group's room were admitted as its staff: close them as a removed
  // student's are (ADR 0007, "Rights that end"). A new ticket then answers what they may do now (`can()`).
  const former = group.instructorId;
  if (former && input.instructorId !== undefined && input.instructorId !== former) {
    ctx.waitUntil(disconnectUserFromGroup(ctx.env, group.id, former, "You no longer teach this group."));
  }
  return getManagedGroup(ctx, viewer, group.id);
}
