import { and, asc, eq, or } from "drizzle-orm";
import { courseContents, groups, users } from "../../db/schema";
import { notFound } from "../http/errors";
import type { ServiceContext } from "../context";

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

const groupColumns = {
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

interface GroupRow {
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

function toDto(row: GroupRow): GroupDto {
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

/** The public catalogue: published groups, soonest start first (one query, whatever the count). */
export async function listPublishedGroups(ctx: ServiceContext): Promise<GroupDto[]> {
  const rows = await ctx.db
    .select(groupColumns)
    .from(groups)
    .leftJoin(users, eq(users.id, groups.instructorId))
    .where(eq(groups.status, "published"))
    .orderBy(asc(groups.startDate), asc(groups.title));
  return rows.map(toDto);
}

/** One published group by id or slug, with its public outline. Drafts and archived groups are not public. */
export async function getPublicGroup(ctx: ServiceContext, idOrSlug: string): Promise<GroupDto & { content: CourseContentDto[] }> {
  const [row] = await ctx.db
    .select(groupColumns)
    .from(groups)
    .leftJoin(users, eq(users.id, groups.instructorId))
    .where(and(or(eq(groups.id, idOrSlug), eq(groups.slug, idOrSlug)), eq(groups.status, "published")))
    .limit(1);
  if (!row) throw notFound("Course not found");
  const content = await ctx.db
    .select({ _id: courseContents.id, title: courseContents.title, body: courseContents.body, order: courseContents.order })
    .from(courseContents)
    .where(eq(courseContents.groupId, row.id))
    .orderBy(asc(courseContents.order));
  return { ...toDto(row), content };
}
