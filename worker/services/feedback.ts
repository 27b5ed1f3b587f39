/**
 * Student feedback (PRODUCT.md §2 Feedback, §3 "Admin feedback"): one record per student and group, shared by the
 * group's students (approved or special members), listed publicly without e-mail addresses unless hidden, and
 * moderated by admins, whose inbox updates live.
 */
import { and, desc, eq, or } from "drizzle-orm";
import { can } from "../../app/lib/permissions";
import type { FeedbackFrameBody } from "../../app/lib/realtime-protocol";
import type { FeedbackModerationInput, ShareFeedbackInput } from "../../app/lib/schemas";
import { feedback, groups, memberships, users } from "../../db/schema";
import type { ServiceContext } from "../context";
import { forbidden, notFound } from "../http/errors";
import { outsider } from "./group-access";
import { publishToAdmins } from "../realtime/publish";
import { newId } from "./ids";
import { adminIds, notifyUsers } from "./notifications";
import type { Viewer } from "./sessions";

/** A feedback record as the public list shows it: never the author's e-mail address. */
export interface PublicFeedbackDto {
  _id: string;
  name: string;
  groupSlug: string;
  userFeedback: string;
  rating: number;
}

/** A feedback record as its author and the admins see it. */
export type FeedbackDto = FeedbackFrameBody;

function toDto(r: typeof feedback.$inferSelect, groupTitle: string | null): FeedbackDto {
  return {
    _id: r.id,
    userId: r.userId,
    name: r.name,
    email: r.email,
    groupSlug: r.groupSlug,
    groupTitle,
    userFeedback: r.userFeedback,
    rating: r.rating,
    hidden: r.hidden,
    createdAt: r.createdAt.toISOString(),
    editedAt: r.editedAt ? r.editedAt.toISOString() : null,
  };
}

/** Feedback rows with the title of the group they are about (null once the group is gone), in one query. */
const withGroupTitles = (ctx: ServiceContext) =>
  ctx.db.select({ feedback, groupTitle: groups.title }).from(feedback).leftJoin(groups, eq(groups.slug, feedback.groupSlug));

/** Visible feedback, newest first. */
export async function listPublicFeedback(ctx: ServiceContext): Promise<PublicFeedbackDto[]> {
  return ctx.db
    .select({
      _id: feedback.id,
      name: feedback.name,
      groupSlug: feedback.groupSlug,
      userFeedback: feedback.userFeedback,
      rating: feedback.rating,
    })
    .from(feedback)
    .where(eq(feedback.hidden, false))
    .orderBy(desc(feedback.createdAt), desc(feedback.id));
}

/**
 * POST /api/feedback: creates the viewer's feedback for a group, or edits it when they already gave some (one
 * per student and group, by the unique index). Only the group's students may: people who see the group's inside
 * as members, not as its staff. Name and e-mail come from the account. A hidden record stays hidden when edited.
 * New feedback notifies the admins; every change reaches the admins' live inbox.
 */
export async function shareFeedback(ctx: ServiceContext, viewer: Viewer, input: ShareFeedbackInput): Promise<{ feedback: FeedbackDto; created: boolean }> {
  const [row] = await ctx.db
    .select({ slug: groups.slug, title: groups.title, status: groups.status, instructorId: groups.instructorId, membershipStatus: memberships.status, name: users.name, email: users.email })
    .from(groups)
    .leftJoin(memberships, and(eq(memberships.groupId, groups.id), eq(memberships.userId, viewer.userId)))
    .leftJoin(users, eq(users.id, viewer.userId))
    .where(or(eq(groups.slug, input.groupSlug), eq(groups.id, input.groupSlug)))
    .limit(1);
  if (!row) throw notFound("No such group.");
  const group = { status: row.status, instructorId: row.instructorId, membershipStatus: row.membershipStatus };
  const asStudent = can(viewer, "group.viewInside", { group }) && !can(viewer, "group.manage", { group });
  // A draft group is unknown to anyone outside it, as everywhere else (ADR 58).
  if (!asStudent || !row.name || !row.email) throw outsider(viewer, group, "Only the group's students can share feedback about it.");

  const id = newId();
  const [stored] = await ctx.db
    .insert(feedback)
    .values({ id, userId: viewer.userId, name: row.name, email: row.email, groupSlug: row.slug, userFeedback: input.userFeedback, rating: input.rating, createdAt: new Date() })
    .onConflictDoUpdate({
      target: [feedback.userId, feedback.groupSlug],
      // Edited: when, so the admins who read it see it changed (a record could be written harmless and edited after).
      set: { name: row.name, email: row.email, userFeedback: input.userFeedback, rating: input.rating, editedAt: new Date() },
    })
    .returning();
  const dto = toDto(stored!, row.title);
  const created = stored!.id === id;
  if (created) {
    await notifyUsers(ctx, await adminIds(ctx), { kind: "feedback", params: { name: row.name, group: row.title }, link: "/dashboard/admin/get-all-feedback-by-admin" });
  }
  ctx.waitUntil(publishToAdmins(ctx.env, { type: created ? "feedback.created" : "feedback.updated", feedback: dto }));
  return { feedback: dto, created };
}

/** GET /api/feedback/mine: the viewer's own records (to prefill the form), newest first. */
export async function listMyFeedback(ctx: ServiceContext, viewer: Viewer): Promise<FeedbackDto[]> {
  const rows = await withGroupTitles(ctx).where(eq(feedback.userId, viewer.userId)).orderBy(desc(feedback.createdAt), desc(feedback.id));
  return rows.map((r) => toDto(r.feedback, r.groupTitle));
}

function requireAdmin(viewer: Viewer): void {
  if (!can(viewer, "site.admin")) throw forbidden("Only admins can moderate feedback.");
}

/** GET /api/feedback/all (admins): every record, hidden ones and e-mail addresses included, newest first. */
export async function listAllFeedback(ctx: ServiceContext, viewer: Viewer): Promise<FeedbackDto[]> {
  requireAdmin(viewer);
  const rows = await withGroupTitles(ctx).orderBy(desc(feedback.createdAt), desc(feedback.id));
  return rows.map((r) => toDto(r.feedback, r.groupTitle));
}

/** PUT /api/feedback/{id} (admins): hides a record from the public list, or shows it again. */
export async function moderateFeedback(ctx: ServiceContext, viewer: Viewer, id: string, input: FeedbackModerationInput): Promise<FeedbackDto> {
  requireAdmin(viewer);
  const [row] = await ctx.db.update(feedback).set({ hidden: input.hidden }).where(eq(feedback.id, id)).returning();
  if (!row) throw notFound("No such feedback.");
  const [group] = await ctx.db.select({ title: groups.title }).from(groups).where(eq(groups.slug, row.groupSlug));
  const dto = toDto(row, group?.title ?? null);
  ctx.waitUntil(publishToAdmins(ctx.env, { type: "feedback.updated", feedback: dto }));
  return dto;
}

/** DELETE /api/feedback/{id} (admins). The student may share feedback for that group again afterwards. */
export async function deleteFeedback(ctx: ServiceContext, viewer: Viewer, id: string): Promise<{ message: string }> {
  requireAdmin(viewer);
  const deleted = await ctx.db.delete(feedback).where(eq(feedback.id, id)).returning({ id: feedback.id });
  if (deleted.length === 0) throw notFound("No such feedback.");
  ctx.waitUntil(publishToAdmins(ctx.env, { type: "feedback.deleted", _id: id }));
  return { message: "The feedback was deleted." };
}
