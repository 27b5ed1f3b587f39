/**
 * A group's public course outline (the items of `/content/{slug}`), edited by the group's staff: add, edit,
 * reorder and remove. Items are Markdown; the public page renders them.
 */
import { and, eq, sql } from "drizzle-orm";
import { CONTENT_LIMITS, type CourseContentInput, type CourseContentOrderInput, type UpdateCourseContentInput } from "../../app/lib/schemas";
import { courseContents } from "../../db/schema";
import type { ServiceContext } from "../context";
import { AppError, notFound } from "../http/errors";
import { requireManagedGroup } from "./group-access";
import { listCourseContent, type CourseContentDto } from "./groups";
import { newId } from "./ids";
import { htmlOf, withHtml } from "./stored-html";
import type { Viewer } from "./sessions";

const contentColumns = { _id: courseContents.id, title: courseContents.title, body: courseContents.body, order: courseContents.order };

/** GET /api/groups/{id}/content: the outline in order, for the group's staff (drafts included). */
export async function listGroupContent(ctx: ServiceContext, viewer: Viewer, groupIdOrSlug: string): Promise<CourseContentDto[]> {
  const group = await requireManagedGroup(ctx, viewer, groupIdOrSlug);
  return listCourseContent(ctx, group.id);
}

/** POST /api/groups/{id}/content: a new item at the end of the outline (at most CONTENT_LIMITS.items of them). */
export async function addGroupContent(ctx: ServiceContext, viewer: Viewer, groupIdOrSlug: string, input: CourseContentInput): Promise<CourseContentDto> {
  const group = await requireManagedGroup(ctx, viewer, groupIdOrSlug);
  // The place after the last is read by the insert itself: items added at the same moment each get their own.
  // It is written only while the outline is under its limit, asked by the same statement (parts added at once too).
  const body = input.body ?? "";
  const [row] = await ctx.db
    .insert(courseContents)
    .select(
      sql`SELECT ${newId()}, ${group.id}, ${input.title}, ${body}, ${withHtml(body)}, coalesce(max(c."order"), -1) + 1
        FROM course_contents AS c WHERE c.group_id = ${group.id} HAVING count(*) < ${CONTENT_LIMITS.items}`,
    )
    .returning(contentColumns);
  if (!row) throw new AppError(409, "conflict", `An outline has at most ${CONTENT_LIMITS.items} parts. Remove one to add another.`);
  return row;
}

/** PUT /api/groups/{id}/content/{contentId}: edits an item's title and/or body. */
export async function updateGroupContent(
  ctx: ServiceContext,
  viewer: Viewer,
  groupIdOrSlug: string,
  contentId: string,
  input: UpdateCourseContentInput,
): Promise<CourseContentDto> {
  const group = await requireManagedGroup(ctx, viewer, groupIdOrSlug);
  const where = and(eq(courseContents.id, contentId), eq(courseContents.groupId, group.id));
  const [row] =
    input.title === undefined && input.body === undefined
      ? await ctx.db.select(contentColumns).from(courseContents).where(where)
      : await ctx.db.update(courseContents).set({ title: input.title, body: input.body, ...(input.body === undefined ? {} : { bodyHtml: withHtml(input.body) }) }).where(where).returning(contentColumns);
  if (!row) throw notFound("No such item in this group's outline.");
  return row;
}

/** DELETE /api/groups/{id}/content/{contentId}. */
export async function deleteGroupContent(ctx: ServiceContext, viewer: Viewer, groupIdOrSlug: string, contentId: string): Promise<{ message: string }> {
  const group = await requireManagedGroup(ctx, viewer, groupIdOrSlug);
  const deleted = await ctx.db
    .delete(courseContents)
    .where(and(eq(courseContents.id, contentId), eq(courseContents.groupId, group.id)))
    .returning({ id: courseContents.id });
  if (deleted.length === 0) throw notFound("No such item in this group's outline.");
  return { message: "The item was removed from the outline." };
}

/**
 * PUT /api/groups/{id}/content/order: the outline's items in their new order. The list must name every item
 * of the group exactly once (so a stale editor cannot silently drop one); all positions change in one batch.
 */
export async function reorderGroupContent(
  ctx: ServiceContext,
  viewer: Viewer,
  groupIdOrSlug: string,
  input: CourseContentOrderInput,
): Promise<CourseContentDto[]> {
  const group = await requireManagedGroup(ctx, viewer, groupIdOrSlug);
  const current = await ctx.db.select({ id: courseContents.id }).from(courseContents).where(eq(courseContents.groupId, group.id));
  const known = new Set(current.map((r) => r.id));
  const given = new Set(input.ids);
  if (given.size !== input.ids.length || given.size !== known.size || input.ids.some((id) => !known.has(id))) {
    const message = "The order must list every item of this outline exactly once. Reload and try again.";
    throw new AppError(409, "conflict", message, { ids: message });
  }
  const [first, ...rest] = input.ids.map((id, order) =>
    ctx.db.update(courseContents).set({ order }).where(and(eq(courseContents.id, id), eq(courseContents.groupId, group.id))),
  );
  await ctx.db.batch([first!, ...rest]);
  return listCourseContent(ctx, group.id);
}

/** A part of the outline as its public page shows it: its HTML, rendered when it was saved (or now, once, and kept). */
export async function courseContentHtml(ctx: ServiceContext, item: { _id: string; body: string }): Promise<string> {
  const [row] = await ctx.db.select({ html: courseContents.bodyHtml }).from(courseContents).where(eq(courseContents.id, item._id));
  return htmlOf(ctx, "course_contents", { id: item._id, source: item.body, html: row?.html ?? null });
}
