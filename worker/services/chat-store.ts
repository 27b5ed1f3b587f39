/**
 * The chat's storage layer: who is asking about which group (one query), and how messages are read and written.
 * Permission decisions are made by the callers in messages.ts; nothing here broadcasts.
 */
import { and, asc, desc, eq, gt, gte, isNotNull, lt, lte, or, sql } from "drizzle-orm";
import type { Actor, GroupFacts } from "../../app/lib/permissions";
import type { ChatMessageFrameBody } from "../../app/lib/realtime-protocol";
import { groups, memberships, messages, users, type Role } from "../../db/schema";
import type { ServiceContext } from "../context";

export type MessageDto = ChatMessageFrameBody;

/** A message about to be stored: built by sendMessage after its checks, stored by the group's room. */
export interface MessageDraft {
  groupId: string;
  authorId: string;
  text: string;
  clientId: string;
  replyTo: number | null;
}

export interface ChatFacts {
  groupId: string;
  group: GroupFacts;
  /** The asking person as the database knows them now (role included), or null when the account or the acting session is gone. */
  actor: Actor | null;
  /** Whether `replyTo` names a message of this group (true when there is no replyTo). */
  replyFound: boolean;
}

/**
 * One query: the group (by id or slug), the actor's membership in it, the actor's current role and whether the
 * message replied to belongs to the group. The role is re-read here because a socket keeps the role its ticket
 * named, while rights follow the database.
 */
export async function chatFacts(ctx: ServiceContext, actorId: string, idOrSlug: string, replyTo?: number | null, sessionId?: string): Promise<ChatFacts | null> {
  const [row] = await ctx.db
    .select({
      sessionLive: sessionId
        ? sql<number>`exists (select 1 from sessions where sessions.id = ${sessionId} and sessions.user_id = ${actorId} and sessions.revoked_at is null and sessions.expires_at > ${Date.now()})`
        : sql<number>`1`,
      groupId: groups.id,
      instructorId: groups.instructorId,
      membershipStatus: memberships.status,
      role: users.role,
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
    group: { instructorId: row.instructorId, membershipStatus: row.membershipStatus },
    // A revoked session (a socket outliving its logout) acts for nobody.
    actor: row.role && row.sessionLive ? { userId: actorId, role: row.role } : null,
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

/**
 * Stores a message unless its author already stored one with this clientId, in one D1 batch (a transaction):
 * `INSERT ... ON CONFLICT (author_id, client_id) DO NOTHING`, then read the stored row. `created` says which.
 */
export async function storeMessage(ctx: ServiceContext, draft: MessageDraft): Promise<{ message: MessageDto; created: boolean }> {
  const [inserted, [row]] = await ctx.db.batch([
    ctx.db
      .insert(messages)
      .values({ ...draft, createdAt: new Date() })
      .onConflictDoNothing({ target: [messages.authorId, messages.clientId] })
      .returning({ id: messages.id }),
    selectMessages(ctx).where(and(eq(messages.authorId, draft.authorId), eq(messages.clientId, draft.clientId))),
  ]);
  if (!row) throw new Error("A stored message could not be read back");
  return { message: toMessageDto(row), created: inserted.length > 0 };
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
