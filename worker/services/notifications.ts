/**
 * Notifications (PRODUCT.md §3 "Notifications"): stored per recipient, pushed live to their hub, listed and
 * marked read by their owner only. Every change that moves the unread count tells the owner's other tabs, so the
 * header bell is right everywhere.
 */
import { and, count, desc, eq, inArray, isNull, lt, or } from "drizzle-orm";
import type { NotificationFrameBody } from "../../app/lib/realtime-protocol";
import type { NotificationsQuery } from "../../app/lib/schemas";
import { en } from "../../app/i18n/en";
import { notificationText, type NotificationParams } from "../../app/lib/notification-text";
import { notifications, users } from "../../db/schema";
import type { ServiceContext } from "../context";
import { notFound } from "../http/errors";
import { publishToUser } from "../realtime/publish";
import { newId } from "./ids";
import type { Viewer } from "./sessions";
import { D1_MAX_PARAMS, slices } from "./chunks";

export type NotificationDto = NotificationFrameBody;

/** A notification to store: its kind and the parameters of its text (see app/i18n/notifications.en.ts). */
export interface NewNotification {
  kind: string;
  params: NotificationParams;
  link?: string | null;
  /** What it is about, when that can be taken back (see `retireNotifications`). */
  about?: string | null;
}

type Row = typeof notifications.$inferSelect;

function toDto(r: Pick<Row, "id" | "kind" | "title" | "params" | "link" | "createdAt" | "readAt">): NotificationDto {
  return { _id: r.id, kind: r.kind, title: r.title, params: r.params ?? null, link: r.link, createdAt: r.createdAt.toISOString(), readAt: r.readAt ? r.readAt.toISOString() : null };
}

const unreadOf = (userId: string) => and(eq(notifications.userId, userId), isNull(notifications.readAt));

/** D1 binds at most 100 values per statement: long lists go in slices, all in one batch. */

async function unreadCounts(ctx: ServiceContext, userIds: string[]): Promise<Map<string, number>> {
  const [first, ...rest] = slices(userIds, D1_MAX_PARAMS - 1).map((ids) =>
    ctx.db
      .select({ userId: notifications.userId, n: count() })
      .from(notifications)
      .where(and(inArray(notifications.userId, ids), isNull(notifications.readAt)))
      .groupBy(notifications.userId),
  );
  const results = await ctx.db.batch([first!, ...rest]);
  return new Map(results.flat().map((r) => [r.userId, r.n]));
}

/**
 * Stores one notification per recipient in a single batch, then pushes each, with the recipient's new unread
 * count, to their live hub. The push happens after the write, in the background: a closed tab reads it later.
 */
export async function notifyUsers(ctx: ServiceContext, userIds: string[], n: NewNotification): Promise<void> {
  if (userIds.length === 0) return;
  const createdAt = new Date();
  // The English text is stored too: API clients read it, and it is what a page shows if a kind has no text.
  const title = notificationText(en, { kind: n.kind, title: n.kind, params: n.params });
  const rows = userIds.map((userId) => ({ id: newId(), userId, kind: n.kind, title, params: n.params, link: n.link ?? null, about: n.about ?? null, createdAt, readAt: null }));
  const [first, ...rest] = slices(rows, Math.floor(D1_MAX_PARAMS / Object.keys(rows[0]!).length)).map((part) => ctx.db.insert(notifications).values(part));
  await ctx.db.batch([first!, ...rest]);
  ctx.waitUntil(
    (async () => {
      const unread = await unreadCounts(ctx, userIds);
      await Promise.all(rows.map((r) => publishToUser(ctx.env, r.userId, { type: "notification", notification: toDto(r), unread: unread.get(r.userId) ?? 1 })));
    })(),
  );
}

/**
 * Takes back every notification about `about` (a join request withdrawn before anyone decided): they are deleted, and
 * each person who had one hears `notification.removed` with their unread count after it (their bell drops them).
 */
export async function retireNotifications(ctx: ServiceContext, about: string): Promise<void> {
  const gone = await ctx.db.delete(notifications).where(eq(notifications.about, about)).returning({ id: notifications.id, userId: notifications.userId });
  tellBells(ctx, gone, "notification.removed");
}

/** Tells each person whose notifications `changed` were removed or read, with their unread count after it. */
function tellBells(ctx: ServiceContext, changed: { id: string; userId: string }[], type: "notification.removed" | "notification.read"): void {
  if (changed.length === 0) return;
  const byUser = new Map<string, string[]>();
  for (const n of changed) byUser.set(n.userId, [...(byUser.get(n.userId) ?? []), n.id]);
  ctx.waitUntil(
    (async () => {
      const unread = await unreadCounts(ctx, [...byUser.keys()]);
      await Promise.all([...byUser].map(([userId, ids]) => publishToUser(ctx.env, userId, { type, ids, unread: unread.get(userId) ?? 0 })));
    })(),
  );
}

/**
 * Marks every notification about `about` read (a join request someone decided): they stay in each bell as what
 * happened, and stop counting as something to do. Each person who had one unread hears `notification.read`.
 */
export async function settleNotifications(ctx: ServiceContext, about: string, now = Date.now()): Promise<void> {
  const settled = await ctx.db
    .update(notifications)
    .set({ readAt: new Date(now) })
    .where(and(eq(notifications.about, about), isNull(notifications.readAt)))
    .returning({ id: notifications.id, userId: notifications.userId });
  tellBells(ctx, settled, "notification.read");
}

/** Every admin's id (a small set; used to address admin notifications). */
export async function adminIds(ctx: ServiceContext): Promise<string[]> {
  const rows = await ctx.db.select({ id: users.id }).from(users).where(eq(users.role, "admin"));
  return rows.map((r) => r.id);
}

/** GET /api/notifications: the viewer's own, newest first, with the unread count; `nextBefore` pages back. */
export async function listNotifications(
  ctx: ServiceContext,
  viewer: Viewer,
  query: NotificationsQuery,
): Promise<{ notifications: NotificationDto[]; unread: number; nextBefore: string | null }> {
  let older;
  if (query.before) {
    const [cursor] = await ctx.db
      .select({ createdAt: notifications.createdAt })
      .from(notifications)
      .where(and(eq(notifications.id, query.before), eq(notifications.userId, viewer.userId)));
    if (!cursor) throw notFound("No such notification.");
    older = or(lt(notifications.createdAt, cursor.createdAt), and(eq(notifications.createdAt, cursor.createdAt), lt(notifications.id, query.before)));
  }
  const [rows, [unread]] = await ctx.db.batch([
    ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, viewer.userId), older))
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(query.limit + 1),
    ctx.db.select({ n: count() }).from(notifications).where(unreadOf(viewer.userId)),
  ]);
  const page = rows.slice(0, query.limit).map(toDto);
  return { notifications: page, unread: unread?.n ?? 0, nextBefore: rows.length > query.limit ? page[page.length - 1]!._id : null };
}

/**
 * PUT /api/notifications/{id}/read: one of the viewer's own (someone else's is a 404, as if it did not exist).
 * Reading it again is harmless. The viewer's other tabs get `notification.read` with the new count.
 */
export async function markNotificationRead(ctx: ServiceContext, viewer: Viewer, id: string): Promise<{ notification: NotificationDto; unread: number }> {
  const mine = and(eq(notifications.id, id), eq(notifications.userId, viewer.userId));
  const [, [row], [unread]] = await ctx.db.batch([
    ctx.db.update(notifications).set({ readAt: new Date() }).where(and(mine, isNull(notifications.readAt))),
    ctx.db.select().from(notifications).where(mine),
    ctx.db.select({ n: count() }).from(notifications).where(unreadOf(viewer.userId)),
  ]);
  if (!row) throw notFound("No such notification.");
  const n = unread?.n ?? 0;
  ctx.waitUntil(publishToUser(ctx.env, viewer.userId, { type: "notification.read", ids: [row.id], unread: n }));
  return { notification: toDto(row), unread: n };
}

/** PUT /api/notifications/read-all: every unread notification of the viewer; the other tabs hear of it. */
export async function markAllNotificationsRead(ctx: ServiceContext, viewer: Viewer): Promise<{ updated: number; unread: number }> {
  const [updated, [unread]] = await ctx.db.batch([
    ctx.db.update(notifications).set({ readAt: new Date() }).where(unreadOf(viewer.userId)).returning({ id: notifications.id }),
    ctx.db.select({ n: count() }).from(notifications).where(unreadOf(viewer.userId)),
  ]);
  const n = unread?.n ?? 0;
  ctx.waitUntil(publishToUser(ctx.env, viewer.userId, { type: "notification.read", ids: "all", unread: n }));
  return { updated: updated.length, unread: n };
}
