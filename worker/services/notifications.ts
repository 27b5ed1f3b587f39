import { eq } from "drizzle-orm";
import { notifications, users } from "../../db/schema";
import type { ServiceContext } from "../context";
import { publishToUser } from "../realtime/publish";
import { newId } from "./ids";

export interface NewNotification {
  kind: string;
  title: string;
  link?: string | null;
}

/**
 * Stores one notification per recipient in a single batch, then pushes each to the recipient's live hub.
 * The push happens after the write, in the background: a closed tab just reads it later.
 */
export async function notifyUsers(ctx: ServiceContext, userIds: string[], n: NewNotification): Promise<void> {
  if (userIds.length === 0) return;
  const createdAt = new Date();
  const rows = userIds.map((userId) => ({ id: newId(), userId, kind: n.kind, title: n.title, link: n.link ?? null, createdAt }));
  await ctx.db.insert(notifications).values(rows);
  ctx.waitUntil(
    Promise.all(
      rows.map((r) =>
        publishToUser(ctx.env, r.userId, {
          type: "notification",
          notification: { _id: r.id, kind: r.kind, title: r.title, link: r.link, createdAt: createdAt.toISOString(), readAt: null },
        }),
      ),
    ),
  );
}

/** Every admin's id (a small set; used to address admin notifications). */
export async function adminIds(ctx: ServiceContext): Promise<string[]> {
  const rows = await ctx.db.select({ id: users.id }).from(users).where(eq(users.role, "admin"));
  return rows.map((r) => r.id);
}
