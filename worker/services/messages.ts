/**
 * Group chat (PRODUCT.md §3 "Messages"): the group's members and staff read and post; authors and staff delete.
 * The API, the Remix actions and the group's room (for frames sent over the socket) all call these functions.
 *
 * Delivery (docs/decisions/0007-realtime-delivery.md, 0026-chat-persist-first.md): a message is stored in its
 * group's room (GroupRoom, in the room's own Durable Object storage) before it is broadcast, and the room writes it
 * through to D1 right after (retried until D1 has it). The room performs every store and broadcast of its group in
 * one queue, so broadcasts leave in id order; a retried clientId stores nothing new and answers the first message.
 * The room also counts every send against the person's rate limit (worker/realtime/chat-rate.ts).
 */
import { can, type Actor } from "../../app/lib/permissions";
import { CHAT_HISTORY_MAX } from "../../app/lib/realtime-protocol";
import type { MessagePageQuery, SendMessageInput } from "../../app/lib/schemas";
import type { ServiceContext } from "../context";
import { AppError, forbidden, notFound, SESSION_ENDED, unauthorized } from "../http/errors";
import { commitToGroupChat, deleteFromGroupChat, groupChatHas, pendingInGroupChat } from "../realtime/publish";
import { outsider, requireCourseRunning } from "./group-access";
import {
  chatFacts,
  deletedBetween,
  groupOfReservedId,
  messagesAfter,
  messageWithFacts,
  newestMessages,
  toMessageDto,
  type ChatFacts,
  type MessageDto,
} from "./chat-store";

export type { MessageDto };

/** Per person, across their groups and tabs: a fast typist is fine, a script is not. Counted by the group rooms (chat-rate.ts). */
export const CHAT_SEND_LIMIT = { max: 20, windowMs: 10_000 };
/** A history frame stops early past this many bytes of text, so frames stay far below the 1 MiB socket limit. */
const HISTORY_TEXT_BUDGET = 256 * 1024;
/** At most this many deleted ids per `chat.history`; a client holding more history than that reloads the page. */
const DELETED_MAX = 1000;

const NOT_IN_GROUP = "Only the group's members and staff can use its chat.";

export type AllowedChat = ChatFacts & { actor: Actor };

/** The facts for a group whose chat the actor may use; 404 for an unknown group, 401 for a session that ended, 403 for anyone else. */
export async function requireChat(ctx: ServiceContext, actor: Actor, idOrSlug: string, replyTo?: number | null): Promise<AllowedChat> {
  const facts = await chatFacts(ctx, actor.userId, idOrSlug, replyTo, actor.sessionId);
  if (!facts) throw notFound("No such group.");
  if (facts.sessionEnded) throw unauthorized(SESSION_ENDED);
  if (!facts.actor || !can(facts.actor, "group.viewInside", { group: facts.group })) throw outsider(facts.actor ?? actor, { ...facts.group, status: facts.groupStatus }, NOT_IN_GROUP);
  return { ...facts, actor: facts.actor };
}

/** Writing in a group's chat, over HTTP or the socket: its history stays readable once the course has ended, and closed. */
export function requireChatOpen(facts: { actor: Actor; group: ChatFacts["group"]; groupStatus: string }): void {
  requireCourseRunning(facts.actor, { ...facts.group, status: facts.groupStatus });
}

export function replyNotInGroup(): AppError {
  const message = "The message you are replying to is not in this group.";
  return new AppError(400, "validation_failed", message, { replyTo: message });
}

/** Past CHAT_SEND_LIMIT (counted by the group's room, worker/realtime/chat-rate.ts). */
export function sendingTooFast(retryAfter: number): AppError {
  return new AppError(429, "rate_limited", "You are sending messages too fast. Please wait a moment.", undefined, retryAfter);
}

/** What the group's room answers a commit: the message (stored now or before), or a refusal past the rate limit. */
export type CommitResult = { message: MessageDto; created: boolean } | { refused: "rate_limited"; retryAfter: number };

/**
 * POST /api/messages (and the Remix actions): checks, then the group's room counts the send against the person's
 * limit, stores and broadcasts the message and answers once it tried to write it through to D1. Sending the same
 * clientId again in the same group returns the message stored the first time (`created: false`) and broadcasts
 * nothing; a clientId names a send in one group, so the same one in another group is another message there, over
 * HTTP as over the socket (the group's room keeps its own keys). Permission and role are read from D1 on every
 * HTTP send. The socket's `chat.send` takes the same steps in the room (group-room.ts), with the permission facts
 * it read last.
 */
export async function sendMessage(ctx: ServiceContext, actor: Actor, input: SendMessageInput): Promise<{ message: MessageDto; created: boolean }> {
  const facts = await requireChat(ctx, actor, input.groupId, input.replyTo);
  requireChatOpen(facts);
  // A reply to a message still on its way to D1: the room knows it.
  if (!facts.replyFound && !(input.replyTo && (await groupChatHas(ctx.env, facts.groupId, input.replyTo)))) throw replyNotInGroup();
  const result = await commitToGroupChat(ctx.env, {
    groupId: facts.groupId,
    authorId: actor.userId,
    authorName: facts.actorName,
    authorRole: facts.actor.role,
    text: input.text,
    clientId: input.clientId,
    replyTo: input.replyTo ?? null,
  });
  if ("refused" in result) throw sendingTooFast(result.retryAfter);
  return result;
}

/** GET /api/messages/group/{id}: one page, newest first, deleted messages as tombstones; `nextBefore` pages back. */
export async function listMessages(
  ctx: ServiceContext,
  actor: Actor,
  idOrSlug: string,
  query: MessagePageQuery,
): Promise<{ messages: MessageDto[]; nextBefore: number | null }> {
  const { groupId } = await requireChat(ctx, actor, idOrSlug);
  const rows = await newestMessages(ctx, groupId, query.before, query.limit + 1);
  const page = rows.slice(0, query.limit).map(toMessageDto);
  return { messages: page, nextBefore: rows.length > query.limit ? page[page.length - 1]!.id : null };
}

/** What the group's room holds that D1 may not have yet: messages after the cursor and deletions in `[from, after]`. */
export interface PendingChat {
  messages: MessageDto[];
  deleted: number[];
}

/**
 * The answer to `chat.sync`: messages after `after`, oldest first (at most CHAT_HISTORY_MAX, fewer when their
 * text is large; `more` says there are more), and the ids of deleted messages in `[from, after]`, from D1 merged
 * with `pending`, the room's messages not yet written through (read *before* D1, so a message written through
 * meanwhile is in one or the other). The reads run in parallel; nothing is returned unless the permission check
 * passes, and the facts it read come back for the room to keep.
 */
export async function syncMessages(
  ctx: ServiceContext,
  actor: Actor,
  groupId: string,
  after: number,
  from?: number,
  pending: PendingChat = { messages: [], deleted: [] },
): Promise<{ messages: MessageDto[]; more: boolean; deleted: number[]; facts: AllowedChat }> {
  const [facts, rows, deleted] = await Promise.all([
    requireChat(ctx, actor, groupId),
    messagesAfter(ctx, groupId, after, CHAT_HISTORY_MAX + 1),
    from !== undefined && from <= after ? deletedBetween(ctx, groupId, from, after, DELETED_MAX) : Promise.resolve([]),
  ]);
  if (facts.groupId !== groupId) throw notFound("No such group.");
  // Both lists hold the first CHAT_HISTORY_MAX + 1 after the cursor, so the first CHAT_HISTORY_MAX merged are right.
  const byId = new Map<number, MessageDto>(rows.map((row) => [row.id, toMessageDto(row)]));
  for (const m of pending.messages) {
    const known = byId.get(m.id);
    if (!known || (m.deletedAt && !known.deletedAt)) byId.set(m.id, m);
  }
  const merged = [...byId.values()].sort((a, b) => a.id - b.id);
  const messages: MessageDto[] = [];
  let bytes = 0;
  for (const m of merged.slice(0, CHAT_HISTORY_MAX)) {
    bytes += m.text.length * 3;
    if (messages.length > 0 && bytes > HISTORY_TEXT_BUDGET) break;
    messages.push(m);
  }
  const gone = [...new Set([...deleted.map((d) => d.id), ...pending.deleted])].sort((a, b) => a - b).slice(0, DELETED_MAX);
  return { messages, more: merged.length > messages.length, deleted: gone, facts };
}

/**
 * Finds message `id` with what deleting it needs: in D1, or, when it is not written through yet, in the room of
 * the group that reserved its id (then D1 is asked again, in case it was written through meanwhile).
 */
async function locateMessage(ctx: ServiceContext, actorId: string, id: number) {
  const row = await messageWithFacts(ctx, id, actorId);
  if (row) return { message: toMessageDto(row.message), group: { status: row.status, instructorId: row.instructorId, membershipStatus: row.membershipStatus }, actorRole: row.actorRole };
  const groupId = await groupOfReservedId(ctx, id);
  if (!groupId) return null;
  const pending = await pendingInGroupChat(ctx.env, groupId, id);
  if (!pending) {
    const again = await messageWithFacts(ctx, id, actorId);
    return again ? { message: toMessageDto(again.message), group: { status: again.status, instructorId: again.instructorId, membershipStatus: again.membershipStatus }, actorRole: again.actorRole } : null;
  }
  const facts = await chatFacts(ctx, actorId, groupId);
  if (!facts) return null;
  return { message: pending, group: { ...facts.group, status: facts.groupStatus }, actorRole: facts.actor?.role ?? null };
}

/**
 * DELETE /api/messages/{id}: the author or the group's staff, while they still belong to the group. The text is
 * erased and the id stays as a tombstone; `chat.deleted` reaches everyone in the room. Deleting twice is harmless.
 * The group's room performs it, also for a message it has not written through to D1 yet.
 */
export async function deleteMessage(ctx: ServiceContext, actor: Actor, id: number): Promise<MessageDto> {
  const found = await locateMessage(ctx, actor.userId, id);
  if (!found) throw notFound("No such message.");
  const { message, group } = found;
  const current: Actor | null = found.actorRole ? { userId: actor.userId, role: found.actorRole } : null;
  if (!current || !can(current, "group.viewInside", { group })) throw outsider(current ?? actor, group, NOT_IN_GROUP, "No such message.");
  if (!can(current, "message.delete", { message: { authorId: message.author?._id ?? null, group } })) {
    throw forbidden("Only the author or the group's staff can delete this message.");
  }
  const deletedAt = await deleteFromGroupChat(ctx.env, message.groupId, id);
  if (!deletedAt) return message;
  return { ...message, text: "", deletedAt };
}
