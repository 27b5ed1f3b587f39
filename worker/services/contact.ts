/**
 * The contact form and the admins' inbox of its messages (PRODUCT.md §3 "Admin messages"): read/unread, delete,
 * updating live. Contact messages carry visitors' e-mail addresses, so only admins read them: the live frames go
 * to the admins' connections of the staff inbox, never to instructors.
 */
import { and, count, desc, eq, isNotNull, isNull } from "drizzle-orm";
import { can } from "../../app/lib/permissions";
import type { ContactMessageFrameBody } from "../../app/lib/realtime-protocol";
import type { ContactInput, ContactMessagesQuery, ContactReadInput } from "../../app/lib/schemas";
import { contactMessages } from "../../db/schema";
import type { ServiceContext } from "../context";
import { forbidden, notFound } from "../http/errors";
import { publishToAdmins } from "../realtime/publish";
import { newId } from "./ids";
import { adminIds, notifyUsers } from "./notifications";
import { hitRateLimit } from "./rate-limit";
import type { Viewer } from "./sessions";

/** 5 messages per 10 minutes per IP: enough for a person, useless for a spammer. */
export const CONTACT_LIMIT = { max: 5, windowMs: 10 * 60_000 };

export type ContactMessageDto = ContactMessageFrameBody;

function toDto(r: typeof contactMessages.$inferSelect): ContactMessageDto {
  return { _id: r.id, name: r.name, email: r.email, message: r.message, createdAt: r.createdAt.toISOString(), readAt: r.readAt ? r.readAt.toISOString() : null };
}

const unreadQuery = (ctx: ServiceContext) => ctx.db.select({ n: count() }).from(contactMessages).where(isNull(contactMessages.readAt));

async function unreadCount(ctx: ServiceContext): Promise<number> {
  const [row] = await unreadQuery(ctx);
  return row?.n ?? 0;
}

function requireAdmin(viewer: Viewer): void {
  if (!can(viewer, "site.admin")) throw forbidden("Only admins can read contact messages.");
}

/**
 * Stores a contact-form message, tells the admins (notification + live inbox) and returns its id.
 * Input is already validated by the caller's schema (`contactInput`).
 */
export async function createContactMessage(ctx: ServiceContext, input: ContactInput): Promise<{ _id: string }> {
  await hitRateLimit(ctx, `contact:ip:${ctx.ip}`, CONTACT_LIMIT, "Too many messages. Please try again later.");
  const row = { id: newId(), name: input.name, email: input.email.toLowerCase(), message: input.message, createdAt: new Date(), readAt: null };
  await ctx.db.insert(contactMessages).values(row);
  const admins = await adminIds(ctx);
  await notifyUsers(ctx, admins, { kind: "contact-message", params: { name: input.name }, link: "/dashboard/admin/get-all-message-by-admin" });
  ctx.waitUntil((async () => publishToAdmins(ctx.env, { type: "contact.created", message: toDto(row), unread: await unreadCount(ctx) }))());
  return { _id: row.id };
}

const STATUS_WHERE = { all: undefined, unread: isNull(contactMessages.readAt), read: isNotNull(contactMessages.readAt) } as const;

/** GET /api/contact-messages (admins): newest first, filtered by read state, paged, with the inbox's unread count. */
export async function listContactMessages(
  ctx: ServiceContext,
  viewer: Viewer,
  query: ContactMessagesQuery,
): Promise<{ messages: ContactMessageDto[]; total: number; unread: number; page: number; pageSize: number }> {
  requireAdmin(viewer);
  const where = STATUS_WHERE[query.status];
  const [rows, [total], [unread]] = await ctx.db.batch([
    ctx.db
      .select()
      .from(contactMessages)
      .where(where)
      .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    ctx.db.select({ n: count() }).from(contactMessages).where(where),
    unreadQuery(ctx),
  ]);
  return { messages: rows.map(toDto), total: total?.n ?? 0, unread: unread?.n ?? 0, page: query.page, pageSize: query.pageSize };
}

/** PUT /api/contact-messages/{id}/read (admins): marks it read or unread; every admin's inbox follows. */
export async function setContactMessageRead(
  ctx: ServiceContext,
  viewer: Viewer,
  id: string,
  input: ContactReadInput,
): Promise<{ message: ContactMessageDto; unread: number }> {
  requireAdmin(viewer);
  // Reading an already read message keeps the time it was first read.
  const readAt = input.read ? and(eq(contactMessages.id, id), isNull(contactMessages.readAt)) : eq(contactMessages.id, id);
  const [, [row], [unread]] = await ctx.db.batch([
    ctx.db.update(contactMessages).set({ readAt: input.read ? new Date() : null }).where(readAt),
    ctx.db.select().from(contactMessages).where(eq(contactMessages.id, id)),
    unreadQuery(ctx),
  ]);
  if (!row) throw notFound("No such message.");
  const result = { message: toDto(row), unread: unread?.n ?? 0 };
  ctx.waitUntil(publishToAdmins(ctx.env, { type: "contact.updated", ...result }));
  return result;
}

/** DELETE /api/contact-messages/{id} (admins); every admin's inbox drops it. */
export async function deleteContactMessage(ctx: ServiceContext, viewer: Viewer, id: string): Promise<{ message: string; unread: number }> {
  requireAdmin(viewer);
  const [deleted, [unread]] = await ctx.db.batch([
    ctx.db.delete(contactMessages).where(eq(contactMessages.id, id)).returning({ id: contactMessages.id }),
    unreadQuery(ctx),
  ]);
  if (deleted.length === 0) throw notFound("No such message.");
  const n = unread?.n ?? 0;
  ctx.waitUntil(publishToAdmins(ctx.env, { type: "contact.deleted", _id: id, unread: n }));
  return { message: "The message was deleted.", unread: n };
}
