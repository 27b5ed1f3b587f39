import { and, asc, eq, or, sql } from "drizzle-orm";
import { courseContents, groups, memberships, users, type MembershipStatus } from "../../db/schema";
import { notFound } from "../http/errors";
import { preparedOnce } from "../../db/prepared";
import type { ServiceContext } from "../context";
import { can, type Actor } from "../../app/lib/permissions";

/** The default instructor name the catalogue shows when a group has none (spec §2). */
export const DEFAULT_INSTRUCTOR_NAME = "Cohort Team";

/** A course group as the API returns it: field names exactly as in platform-spec §3. */
export interface GroupDto {
  _id: string;
  title: string;
  slug: string;
  description: string;
  imageCourse: string | null;
  start_date: string | null;
  instructorName: string;
  status: "draft" | "published" | "archived";
  capacity: number | null;
}

export interface CourseContentDto {
  _id: string;
  title: string;
  body: string;
  order: number;
}

/** What the catalogue adds for a signed-in caller: their membership status in each group (null: none). */
export type WithMembership<T> = T & { membershipStatus?: MembershipStatus | null };

/** Who is looking, when someone is signed in (only the id matters here). */
export type Caller = { userId: string } | null | undefined;

export const groupColumns = {
  id: groups.id,
  title: groups.title,
  slug: groups.slug,
  description: groups.description,
  imageCourse: groups.imageCourse,
  startDate: groups.startDate,
  status: groups.status,
  capacity: groups.capacity,
  instructorName: users.name,
};

export interface GroupRow {
  id: string;
  title: string;
  slug: string;
  description: string;
  imageCourse: string | null;
  startDate: string | null;
  status: GroupDto["status"];
  capacity: number | null;
  instructorName: string | null;
}

export function toGroupDto(row: GroupRow): GroupDto {
  return {
    _id: row.id,
    title: row.title,
    slug: row.slug,
    description: row.description,
    imageCourse: row.imageCourse,
    start_date: row.startDate,
    instructorName: row.instructorName ?? DEFAULT_INSTRUCTOR_NAME,
    status: row.status,
    capacity: row.capacity,
  };
}

/** The caller's membership row of each group, joined in the same query (no per-group lookups). */
const callerMembership = (userId: string) => and(eq(memberships.groupId, groups.id), eq(memberships.userId, userId));

/**
 * The public catalogue: published groups, soonest start first (one query, whatever the count).
 * With a signed-in caller each group also carries `membershipStatus` (null when they never asked to join).
 */
export async function listPublishedGroups(ctx: ServiceContext, caller?: Caller): Promise<WithMembership<GroupDto>[]> {
  const published = eq(groups.status, "published");
  const order = [asc(groups.startDate), asc(groups.title)] as const;
  if (!caller) {
    const rows = await ctx.db.select(groupColumns).from(groups).leftJoin(users, eq(users.id, groups.instructorId)).where(published).orderBy(...order);
    return rows.map(toGroupDto);
  }
  const rows = await ctx.db
    .select({ ...groupColumns, membershipStatus: memberships.status })
    .from(groups)
    .leftJoin(users, eq(users.id, groups.instructorId))
    .leftJoin(memberships, callerMembership(caller.userId))
    .where(published)
    .orderBy(...order);
  return rows.map((r) => ({ ...toGroupDto(r), membershipStatus: r.membershipStatus }));
}

/** A group by its id or its slug (`{id}` path parameters accept either). */
export const byIdOrSlug = (idOrSlug: string) => or(eq(groups.id, idOrSlug), eq(groups.slug, idOrSlug));

/** A group's outline, in order. */
export async function listCourseContent(ctx: ServiceContext, groupId: string): Promise<CourseContentDto[]> {
  return ctx.db
    .select({ _id: courseContents.id, title: courseContents.title, body: courseContents.body, order: courseContents.order })
    .from(courseContents)
    .where(eq(courseContents.groupId, groupId))
    .orderBy(asc(courseContents.order), asc(courseContents.id));
}

/** A group's outline as its members' course home lists it: the titles in order, without the bodies. */
export async function listCourseOutline(ctx: ServiceContext, groupId: string): Promise<{ _id: string; title: string }[]> {
  // Every course home runs it: built once per isolate (db/prepared.ts).
  return preparedOnce(ctx, "groups.outline", (db) =>
    db
      .select({ _id: courseContents.id, title: courseContents.title })
      .from(courseContents)
      .where(eq(courseContents.groupId, sql.placeholder("groupId")))
      .orderBy(asc(courseContents.order), asc(courseContents.id)),
  ).all({ groupId });
}

/**
 * One published group by id or slug, with its public outline. Drafts and archived groups are not public.
 * With a signed-in caller it carries their `membershipStatus`, so the page can show the right join button.
 * `previewFor`: the public pages' viewer. Staff who may manage a draft or archived group see its public page as a
 * preview (the page says so); for anyone else it does not exist, with the same 404 as a group that never did.
 */
export async function getPublicGroup(
  ctx: ServiceContext,
  idOrSlug: string,
  caller?: Caller,
  previewFor?: Actor | null,
): Promise<WithMembership<GroupDto> & { content: CourseContentDto[] }> {
  const [row] = await ctx.db
    .select({ ...groupColumns, instructorId: groups.instructorId, membershipStatus: memberships.status })
    .from(groups)
    .leftJoin(users, eq(users.id, groups.instructorId))
    .leftJoin(memberships, callerMembership(caller?.userId ?? ""))
    .where(and(byIdOrSlug(idOrSlug), previewFor && previewFor.role !== "user" ? undefined : eq(groups.status, "published")))
    .limit(1);
  if (!row || (row.status !== "published" && !can(previewFor ?? null, "group.manage", { group: { instructorId: row.instructorId } }))) {
    throw notFound("Course not found");
  }
  const content = await listCourseContent(ctx, row.id);
  const dto = toGroupDto(row);
  return caller ? { ...dto, membershipStatus: row.membershipStatus, content } : { ...dto, content };
}
