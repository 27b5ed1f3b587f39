/**
 * Announcements (issue 22): staff post Markdown to a group; each member gets it live in the bell (a notification),
 * by e-mail in their own language, and pinned on the course home until they dismiss it or it expires. The Markdown
 * is rendered and sanitised once, when it is posted.
 */
import { and, desc, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import { can } from "../../app/lib/permissions";
import { ANNOUNCEMENT_LIMITS, type AnnouncementInput } from "../../app/lib/lifecycle-schemas";
import { renderMarkdown } from "../../app/lib/markdown.server";
import { ar } from "../../app/i18n/ar";
import { en } from "../../app/i18n/en";
import { format } from "../../app/i18n/translate";
import { announcementDismissals, announcements, groups, memberships, users, MEMBER_STATUSES } from "../../db/schema";
import { preparedOnce } from "../../db/prepared";
import type { ServiceContext } from "../context";
import { AppError, forbidden, notFound } from "../http/errors";
import { findGroup, outsider, requireManagedGroup } from "./group-access";
import { newId } from "./ids";
import { escapeHtml, sendMails, type OutgoingMail } from "./mail";
import { notifyUsers } from "./notifications";
import type { Viewer } from "./sessions";

export interface AnnouncementDto {
  _id: string;
  title: string;
  body: string;
  bodyHtml: string;
  author: string | null;
  createdAt: string;
  expiresAt: string | null;
}

export interface StaffAnnouncementDto extends AnnouncementDto {
  /** Members who dismissed it. */
  dismissed: number;
}

type Row = typeof announcements.$inferSelect;
const toDto = (r: Row, author: string | null): AnnouncementDto => ({
  _id: r.id,
  title: r.title,
  body: r.body,
  bodyHtml: r.bodyHtml,
  author,
  createdAt: r.createdAt.toISOString(),
  expiresAt: r.expiresAt ? r.expiresAt.toISOString() : null,
});

/** The e-mail of one announcement in one language. */
export function announcementMail(lang: "en" | "ar", a: { title: string; bodyHtml: string; body: string }, group: { title: string; slug: string }, author: string, origin: string): Omit<OutgoingMail, "to"> {
  const dict = lang === "ar" ? ar : en;
  const link = `${origin}/course/${encodeURIComponent(group.slug)}`;
  const intro = format(dict, "mail.announcement.intro", { author, group: group.title });
  const open = format(dict, "mail.announcement.open");
  const dir = lang === "ar" ? "rtl" : "ltr";
  return {
    subject: format(dict, "mail.announcement.subject", { group: group.title, title: a.title }),
    text: [intro, a.title, a.body, `${open}: ${link}`].join("\n\n"),
    // The announcement itself is in the language its author wrote it in, whatever the reader's: it takes its direction
    // from its own text (an English sentence in an Arabic e-mail kept its full stop at its start).
    html: `<div dir="${dir}" lang="${lang}"><p>${escapeHtml(intro)}</p><h2 dir="auto">${escapeHtml(a.title)}</h2><div dir="auto">${a.bodyHtml}</div><p><a href="${escapeHtml(link)}">${escapeHtml(open)}</a></p></div>`,
  };
}

/** POST /api/groups/{id}/announcements (staff): stored, then every member is told live and by e-mail. */
export async function postAnnouncement(ctx: ServiceContext, viewer: Viewer, groupKey: string, input: AnnouncementInput, now = Date.now()): Promise<AnnouncementDto> {
  const group = await requireManagedGroup(ctx, viewer, groupKey);
  if (input.expiresAt != null && input.expiresAt <= now) {
    throw new AppError(400, "validation_failed", "The end must be in the future.", { expiresAt: "The end must be in the future." });
  }
  if (input.expiresAt != null && input.expiresAt > now + ANNOUNCEMENT_LIMITS.days * 86_400_000) {
    throw new AppError(400, "validation_failed", `An announcement is pinned for at most ${ANNOUNCEMENT_LIMITS.days} days.`, { expiresAt: `An announcement is pinned for at most ${ANNOUNCEMENT_LIMITS.days} days.` });
  }
  const row: Row = {
    id: newId(),
    groupId: group.id,
    authorId: viewer.userId,
    title: input.title,
    body: input.body,
    bodyHtml: renderMarkdown(input.body),
    expiresAt: input.expiresAt != null ? new Date(input.expiresAt) : null,
    createdAt: new Date(now),
  };
  const [, members] = await ctx.db.batch([
    ctx.db.insert(announcements).values(row),
    ctx.db
      .select({ id: users.id, email: users.email, locale: users.locale })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.groupId, group.id), inArray(memberships.status, [...MEMBER_STATUSES]))),
  ]);
  await notifyUsers(ctx, members.map((m) => m.id), { kind: "announcement", params: { title: row.title, group: group.title }, link: `/course/${group.slug}#announcements` });
  // One message per language, addressed to each member; sent after the answer.
  const byLang = { en: announcementMail("en", row, group, viewer.name, ctx.settings.publicOrigin), ar: announcementMail("ar", row, group, viewer.name, ctx.settings.publicOrigin) };
  ctx.waitUntil(sendMails(ctx, members.map((m) => ({ to: m.email, ...byLang[m.locale === "ar" ? "ar" : "en"] }))));
  return toDto(row, viewer.name);
}

/**
 * GET /api/groups/{id}/announcements. Staff: every announcement, newest first, with how many dismissed it. Members:
 * the ones still pinned for them (not expired, not dismissed).
 */
export async function listAnnouncements(ctx: ServiceContext, viewer: Viewer, groupKey: string, now = Date.now()): Promise<AnnouncementDto[] | StaffAnnouncementDto[]> {
  const group = await findGroup(ctx, groupKey);
  if (!group) throw notFound("No such group.");
  if (can(viewer, "group.manage", { group })) {
    const rows = await ctx.db
      .select({ a: announcements, author: users.name, dismissed: sql<number>`(select count(*) from ${announcementDismissals} d join ${memberships} on ${memberships.userId} = d.user_id and ${memberships.groupId} = ${announcements.groupId} and ${inArray(memberships.status, [...MEMBER_STATUSES])} where d.announcement_id = ${announcements.id})` })
      .from(announcements)
      .leftJoin(users, eq(users.id, announcements.authorId))
      .where(eq(announcements.groupId, group.id))
      .orderBy(desc(announcements.createdAt), desc(announcements.id));
    return rows.map((r) => ({ ...toDto(r.a, r.author), dismissed: Number(r.dismissed) }));
  }
  const [membership] = await ctx.db.select({ status: memberships.status }).from(memberships).where(and(eq(memberships.groupId, group.id), eq(memberships.userId, viewer.userId)));
  const facts = { ...group, membershipStatus: membership?.status ?? null };
  if (!can(viewer, "group.viewInside", { group: facts })) throw outsider(viewer, facts, "Only the group's members and staff can read its announcements.");
  return pinnedAnnouncements(ctx, group.id, viewer.userId, now);
}

/** The announcements pinned for one member on the course home: not expired, not dismissed, newest first. */
export async function pinnedAnnouncements(ctx: ServiceContext, groupId: string, userId: string, now = Date.now()): Promise<AnnouncementDto[]> {
  // Every course home runs it: built once per isolate (db/prepared.ts); the time goes as the milliseconds the column stores.
  const rows = await preparedOnce(ctx, "announcements.pinned", (db) =>
    db
      .select({ a: announcements, author: users.name })
      .from(announcements)
      .leftJoin(users, eq(users.id, announcements.authorId))
      .leftJoin(announcementDismissals, and(eq(announcementDismissals.announcementId, announcements.id), eq(announcementDismissals.userId, sql.placeholder("userId"))))
      .where(and(eq(announcements.groupId, sql.placeholder("groupId")), or(isNull(announcements.expiresAt), gt(announcements.expiresAt, sql.placeholder("now"))), isNull(announcementDismissals.userId)))
      .orderBy(desc(announcements.createdAt), desc(announcements.id))
      .limit(20),
  ).all({ userId, groupId, now });
  return rows.map((r) => toDto(r.a, r.author));
}

async function findAnnouncement(ctx: ServiceContext, groupKey: string, id: string) {
  const [row] = await ctx.db
    .select({ id: announcements.id, groupId: groups.id, instructorId: groups.instructorId, status: groups.status })
    .from(announcements)
    .innerJoin(groups, eq(groups.id, announcements.groupId))
    .where(and(eq(announcements.id, id), or(eq(groups.id, groupKey), eq(groups.slug, groupKey))))
    .limit(1);
  if (!row) throw notFound("No such announcement.");
  return row;
}

/**
 * POST /api/groups/{id}/announcements/{announcementId}/dismiss (members): it is no longer pinned for them. Staff who
 * read the course home may put it away for themselves too; the staff's count of dismissals counts members only.
 */
export async function dismissAnnouncement(ctx: ServiceContext, viewer: Viewer, groupKey: string, id: string): Promise<{ message: string }> {
  const row = await findAnnouncement(ctx, groupKey, id);
  const [membership] = await ctx.db.select({ status: memberships.status }).from(memberships).where(and(eq(memberships.groupId, row.groupId), eq(memberships.userId, viewer.userId)));
  const group = { status: row.status, instructorId: row.instructorId, membershipStatus: membership?.status ?? null };
  if (!can(viewer, "group.viewInside", { group })) throw outsider(viewer, group, "Only the group's members can dismiss its announcements.", "No such announcement.");
  await ctx.db.insert(announcementDismissals).values({ announcementId: row.id, userId: viewer.userId, dismissedAt: new Date() }).onConflictDoNothing();
  return { message: "Dismissed." };
}

/** DELETE /api/groups/{id}/announcements/{announcementId} (staff). */
export async function deleteAnnouncement(ctx: ServiceContext, viewer: Viewer, groupKey: string, id: string): Promise<{ message: string }> {
  const row = await findAnnouncement(ctx, groupKey, id);
  if (!can(viewer, "group.manage", { group: row })) throw outsider(viewer, row, "Only this group's instructor or an admin can do that.", "No such announcement.");
  await ctx.db.delete(announcements).where(eq(announcements.id, row.id));
  return { message: "Announcement deleted." };
}
