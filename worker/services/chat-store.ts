/**
 * The chat's D1 layer: who is asking about which group (one query), how messages are read, and how a group's room
 * reserves message ids and writes its messages through (docs/decisions/0026-chat-persist-first.md).
 * Permission decisions are made by the callers in messages.ts; nothing here broadcasts.
 */
import { and, asc, desc, eq, gt, gte, isNotNull, lt, lte, or, sql } from "drizzle-orm";
import type { Actor, GroupFacts } from "../../app/lib/permissions";
import type { ChatMessageFrameBody } from "../../app/lib/realtime-protocol";
import { groups, memberships, messageIdBlocks, messages, users, type Role } from "../../db/schema";
import type { ServiceContext } from "../context";

export type MessageDto = ChatMessageFrameBody;

/** A message about to be stored: built after the sender's checks, stored by the group's room. */
export interface MessageDraft {
  groupId: string;
  authorId: string;
  /** The author as the permission check read them, for the message's `author` until D1 has the row. */
  authorName: string;
  authorRole: Role;
  text: string;
  clientId: string;
  replyTo: number | null;
}

/** A message as the group's room stored it (in its own storage), on its way to D1. Times in ms. */
export interface StoredMessage extends MessageDraft {
  id: number;
  createdAt: number;
  deletedAt: number | null;
}

export interface ChatFacts {
  groupId: string;
  group: GroupFacts;
  /** The group's status: a draft's chat is as unknown to an outsider as a group that does not exist. */
  groupStatus: string;
  /** The asking person as the database knows them now (role included), or null when the account or the acting session is gone. */
  actor: Actor | null;
  /** The account exists but the session named is revoked or expired: "log in again", not "no access". */
  sessionEnded: boolean;
  /** Their name now (for the messages they send). */
  actorName: string;
  /** When the acting session expires (ms); no limit when no session was named. */
  sessionExpiresAt: number;
  /** Whether `replyTo` names a message of this group (true when there is no replyTo). */
  replyFound: boolean;
}

/**
 * One query: the group (by id or slug), the actor's membership in it, the actor's current role and whether the
 * message replied to belongs to the group. The role is re-read here because a socket keeps the role its ticket
 * named, while rights follow the database.
 */
export async function chatFacts(
  ctx: ServiceContext,
  actorId: string,
  idOrSlug: string,
  replyTo?: number | null,
  sessionId?: string,
): Promise<ChatFacts | null> {
  const [row] = await ctx.db
    .select({
      sessionExpiresAt: sessionId
        ? sql<number | null>`(select expires_at from sessions where sessions.id = ${sessionId} and sessions.user_id = ${actorId} and sessions.revoked_at is null and sessions.expires_at > ${Date.now()})`
        : sql<number | null>`${Number.MAX_SAFE_INTEGER}`,
      groupId: groups.id,
      groupStatus: groups.status,
      instructorId: groups.instructorId,
      membershipStatus: memberships.status,
      role: users.role,
      name: users.name,
      replyFound: replyTo
        ? sql<number>`exists (select 1 from messages where messages.id = ${replyTo} and messages.group_id = ${groups.id})`
        : sql<number>`1`,
    })
    .from(groups)
    .leftJoin(memberships, and(eq(memberships.groupId, groups.id), eq(memberships.userId, actorId)))
    .leftJoin(users, eq(users.id, actorId))
    .where(or(eq(groups.id, idOrSlug), eq(groups.slug, idOrSlug)))
    .limit(1);
  if (!row) return null;
  return {
    groupId: row.groupId,
    groupStatus: row.groupStatus,
    group: { instructorId: row.instructorId, membershipStatus: row.membershipStatus },
    // A revoked or expired session (a socket outliving its logout) acts for nobody.
    actor: row.role && row.sessionExpiresAt ? { userId: actorId, role: row.role } : null,
    sessionEnded: Boolean(row.role) && !row.sessionExpiresAt,
    actorName: row.name ?? "",
    sessionExpiresAt: row.sessionExpiresAt ?? 0,
    replyFound: Boolean(row.replyFound),
  };
}

const columns = {
  id: messages.id,
  groupId: messages.groupId,
  authorId: messages.authorId,
  authorName: users.name,
  authorRole: users.role,
  text: messages.text,
  replyTo: messages.replyTo,
  createdAt: messages.createdAt,
  deletedAt: messages.deletedAt,
  clientId: messages.clientId,
};

interface Row {
  id: number;
  groupId: string;
  authorId: string | null;
  authorName: string | null;
  authorRole: Role | null;
  text: string;
  replyTo: number | null;
  createdAt: Date;
  deletedAt: Date | null;
  clientId: string | null;
}

export function toMessageDto(r: Row): MessageDto {
  return {
    id: r.id,
    groupId: r.groupId,
    author: r.authorId && r.authorName && r.authorRole ? { _id: r.authorId, name: r.authorName, role: r.authorRole } : null,
    text: r.deletedAt ? "" : r.text,
    replyTo: r.replyTo,
    createdAt: r.createdAt.toISOString(),
    deletedAt: r.deletedAt ? r.deletedAt.toISOString() : null,
    clientId: r.clientId,
  };
}

const selectMessages = (ctx: ServiceContext) => ctx.db.select(columns).from(messages).leftJoin(users, eq(users.id, messages.authorId));

export { storedToDto } from "./chat-dto";

/** One message by id, as D1 has it. */
export async function messageById(ctx: ServiceContext, id: number): Promise<MessageDto | null> {
  const [row] = await selectMessages(ctx).where(eq(messages.id, id)).limit(1);
  return row ? toMessageDto(row) : null;
}

/** Whether message `id` is in D1 and belongs to the group. */
export async function messageInGroup(ctx: ServiceContext, groupId: string, id: number): Promise<boolean> {
  const [row] = await ctx.db.select({ id: messages.id }).from(messages).where(and(eq(messages.id, id), eq(messages.groupId, groupId))).limit(1);
  return Boolean(row);
}

/** Every (author, clientId) of a group's messages in D1: a room learns the keys stored before it kept its own. */
export function groupMessageKeys(ctx: ServiceContext, groupId: string) {
  return ctx.db
    .select({ id: messages.id, authorId: messages.authorId, clientId: messages.clientId })
    .from(messages)
    .where(and(eq(messages.groupId, groupId), isNotNull(messages.authorId), isNotNull(messages.clientId)));
}

/** The group whose room reserved message id `id` (whether or not the message reached D1 yet), or null. */
export async function groupOfReservedId(ctx: ServiceContext, id: number): Promise<string | null> {
  const [block] = await ctx.db
    .select({ end: messageIdBlocks.end, groupId: messageIdBlocks.groupId })
    .from(messageIdBlocks)
    .where(lte(messageIdBlocks.start, id))
    .orderBy(desc(messageIdBlocks.start))
    .limit(1);
  return block && block.end >= id ? block.groupId : null;
}

/**
 * Reserves `size` consecutive message ids for a group's room, in one D1 batch (a transaction). The ids come from
 * `messages`' AUTOINCREMENT sequence: a reserving row takes the next id `start`, a second one is inserted with the
 * explicit id `start + size - 1`, which moves the sequence past the block, the block is recorded, and both
 * reserving rows are deleted. So nothing else ever gets an id of the block (neither another room nor a plain insert),
 * and every later block is higher: a group's ids increase. The reserving rows' clientIds (`~...`) are ones no client
 * may send, and nobody reads them: the batch commits or rolls back as a whole.
 */
export async function reserveIdBlock(ctx: ServiceContext, groupId: string, size: number): Promise<{ start: number; end: number }> {
  if (size < 2) throw new Error("A block holds at least two ids");
  const first = `~ids-${crypto.randomUUID()}`;
  const last = `~ide-${crypto.randomUUID()}`;
  const now = Date.now();
  const d1 = ctx.env.DB;
  const [, , blocks] = await d1.batch<{ start: number; end: number }>([
    d1.prepare(`INSERT INTO messages (group_id, text, client_id, created_at) VALUES (?, '', ?, ?)`).bind(groupId, first, now),
    d1
      .prepare(`INSERT INTO messages (id, group_id, text, client_id, created_at) SELECT id + ?, group_id, '', ?, ? FROM messages WHERE author_id IS NULL AND client_id = ?`)
      .bind(size - 1, last, now, first),
    d1
      .prepare(
        `INSERT INTO message_id_blocks (start, "end", group_id, reserved_at)
         SELECT a.id, b.id, ?, ? FROM messages a, messages b
         WHERE a.author_id IS NULL AND a.client_id = ? AND b.author_id IS NULL AND b.client_id = ?
         RETURNING start, "end"`,
      )
      .bind(groupId, now, first, last),
    d1.prepare(`DELETE FROM messages WHERE author_id IS NULL AND client_id IN (?, ?)`).bind(first, last),
  ]);
  const block = blocks?.results[0];
  if (!block || block.end - block.start !== size - 1) throw new Error("Reserving message ids failed");
  return block;
}

/**
 * Writes messages a group's room stored through to D1, in one batch (a transaction: all or none), idempotently:
 * a row already there (an earlier attempt that committed but whose answer was lost) only takes a deletion.
 * A message whose author account is gone is kept without author (as D1 does for older ones); one whose group is
 * gone is dropped with its group. If the author's clientId is already on another of their messages of the group in D1
 * (which the room's own keys should make impossible), the message is kept without its clientId rather than lost.
 */
export async function writeThrough(ctx: ServiceContext, rows: StoredMessage[]): Promise<void> {
  if (rows.length === 0) return;
  const d1 = ctx.env.DB;
  const insert = `INSERT INTO messages (id, group_id, author_id, text, reply_to, client_id, created_at, deleted_at)
    SELECT ?, g.id, (SELECT id FROM users WHERE id = ?), ?, ?, ?, ?, ? FROM groups g WHERE g.id = ?`;
  const statements = rows.flatMap((m) => {
    const text = m.deletedAt ? "" : m.text;
    return [
      d1
        .prepare(
          `${insert}
           ON CONFLICT (id) DO UPDATE SET
             deleted_at = coalesce(messages.deleted_at, excluded.deleted_at),
             text = CASE WHEN coalesce(messages.deleted_at, excluded.deleted_at) IS NULL THEN messages.text ELSE '' END
           ON CONFLICT DO NOTHING`,
        )
        .bind(m.id, m.authorId, text, m.replyTo, m.clientId, m.createdAt, m.deletedAt, m.groupId),
      d1
        .prepare(`${insert} AND NOT EXISTS (SELECT 1 FROM messages WHERE id = ?)`)
        .bind(m.id, m.authorId, text, m.replyTo, null, m.createdAt, m.deletedAt, m.groupId, m.id),
    ];
  });
  await d1.batch(statements);
}

/** One page of a group's messages, newest first, strictly before message `before` when given. */
export function newestMessages(ctx: ServiceContext, groupId: string, before: number | undefined, limit: number) {
  return selectMessages(ctx)
    .where(and(eq(messages.groupId, groupId), before ? lt(messages.id, before) : undefined))
    .orderBy(desc(messages.id))
    .limit(limit);
}

/** Messages after `after`, oldest first. */
export function messagesAfter(ctx: ServiceContext, groupId: string, after: number, limit: number) {
  return selectMessages(ctx)
    .where(and(eq(messages.groupId, groupId), gt(messages.id, after)))
    .orderBy(asc(messages.id))
    .limit(limit);
}

/** Ids of deleted messages with `from <= id <= to` (walks the (group_id, id) index). */
export function deletedBetween(ctx: ServiceContext, groupId: string, from: number, to: number, limit: number) {
  return ctx.db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.groupId, groupId), gte(messages.id, from), lte(messages.id, to), isNotNull(messages.deletedAt)))
    .orderBy(asc(messages.id))
    .limit(limit);
}

/** The message with its group's permission facts for `actorId`. */
export async function messageWithFacts(ctx: ServiceContext, id: number, actorId: string) {
  const [row] = await ctx.db
    .select({
      message: columns,
      status: groups.status,
      instructorId: groups.instructorId,
      membershipStatus: memberships.status,
      actorRole: sql<Role | null>`(select role from users where users.id = ${actorId})`,
    })
    .from(messages)
    .innerJoin(groups, eq(groups.id, messages.groupId))
    .leftJoin(users, eq(users.id, messages.authorId))
    .leftJoin(memberships, and(eq(memberships.groupId, messages.groupId), eq(memberships.userId, actorId)))
    .where(eq(messages.id, id))
    .limit(1);
  return row ?? null;
}

/** Soft-deletes a message: the row and its id stay (clients drop it by id), the text goes. Null if already deleted. */
export async function markDeleted(ctx: ServiceContext, id: number): Promise<Date | null> {
  const deletedAt = new Date();
  const rows = await ctx.db
    .update(messages)
    .set({ deletedAt, text: "" })
    .where(and(eq(messages.id, id), sql`${messages.deletedAt} is null`))
    .returning({ id: messages.id });
  return rows.length > 0 ? deletedAt : null;
}
