/**
 * Group chat (PRODUCT.md §3 "Messages"): the group's members and staff read and post; authors and staff delete.
 * The API, the Remix actions and the group's room (for frames sent over the socket) all call these functions.
 *
 * Delivery (docs/decisions/0007-realtime-delivery.md): a message is stored before it is broadcast, and the
 * group's room (GroupRoom) performs every store and broadcast of its group in one queue, so broadcasts leave
 * in id order; a retried clientId stores nothing new and answers the first message.
 */
import { can, type Actor } from "../../app/lib/permissions";
import { CHAT_HISTORY_MAX } from "../../app/lib/realtime-protocol";
import type { MessagePageQuery, SendMessageInput } from "../../app/lib/schemas";
import type { ServiceContext } from "../context";
import { AppError, forbidden, notFound } from "../http/errors";
import { broadcastToGroupChat, commitToGroupChat } from "../realtime/publish";
import {
  chatFacts,
  deletedBetween,
  markDeleted,
  messagesAfter,
  messageWithFacts,
  newestMessages,
  toMessageDto,
  type ChatFacts,
  type MessageDraft,
  type MessageDto,
} from "./chat-store";
import { hitRateLimit } from "./rate-limit";

export type { MessageDto };

/** Per person, across their groups and tabs: a fast typist is fine, a script is not. */
export const CHAT_SEND_LIMIT = { max: 20, windowMs: 10_000 };
/** A history frame stops early past this many bytes of text, so frames stay far below the 1 MiB socket limit. */
const HISTORY_TEXT_BUDGET = 256 * 1024;
/** At most this many deleted ids per `chat.history`; a client holding more history than that reloads the page. */
const DELETED_MAX = 1000;

const NOT_IN_GROUP = "Only the group's members and staff can use its chat.";

/** Stores a draft and broadcasts it if new. The group's room passes its own queue; everyone else goes through RPC. */
export type CommitMessage = (draft: MessageDraft) => Promise<{ message: MessageDto; created: boolean }>;

/** The facts for a group whose chat the actor may use; 404 for an unknown group, 403 for anyone else. */
async function requireChat(ctx: ServiceContext, actor: Actor, idOrSlug: string, replyTo?: number | null): Promise<ChatFacts & { actor: Actor }> {
  const facts = await chatFacts(ctx, actor.userId, idOrSlug, replyTo, actor.sessionId);
  if (!facts) throw notFound("No such group.");
  if (!facts.actor || !can(facts.actor, "group.viewInside", { group: facts.group })) throw forbidden(NOT_IN_GROUP);
  return { ...facts, actor: facts.actor };
}

/**
 * POST /api/messages and the socket's `chat.send`: stores the message, then broadcasts it to the group's room.
 * Sending the same clientId again returns the message stored the first time (`created: false`) and broadcasts
 * nothing. Permission and role are read from D1 on every send, so a removed member cannot keep posting.
 */
export async function sendMessage(
  ctx: ServiceContext,
  actor: Actor,
  input: SendMessageInput,
  commit: CommitMessage = (draft) => commitToGroupChat(ctx.env, draft),
): Promise<{ message: MessageDto; created: boolean }> {
  const facts = await requireChat(ctx, actor, input.groupId, input.replyTo);
  if (!facts.replyFound) {
    const message = "The message you are replying to is not in this group.";
    throw new AppError(400, "validation_failed", message, { replyTo: message });
  }
  await hitRateLimit(ctx, `chat:user:${actor.userId}`, CHAT_SEND_LIMIT, "You are sending messages too fast. Please wait a moment.");
  const result = await commit({ groupId: facts.groupId, authorId: actor.userId, text: input.text, clientId: input.clientId, replyTo: input.replyTo ?? null });
  if (result.message.groupId !== facts.groupId) {
    throw new AppError(409, "conflict", "This clientId was already used for a message in another group.", { clientId: "Already used." });
  }
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

/**
 * The answer to `chat.sync`: messages after `after`, oldest first (at most CHAT_HISTORY_MAX, fewer when their
 * text is large; `more` says there are more), and the ids of deleted messages in `[from, after]`.
 * The three reads run in parallel; nothing is returned unless the permission check passes.
 */
export async function syncMessages(
  ctx: ServiceContext,
  actor: Actor,
  groupId: string,
  after: number,
  from?: number,
): Promise<{ messages: MessageDto[]; more: boolean; deleted: number[] }> {
  const [facts, rows, deleted] = await Promise.all([
    requireChat(ctx, actor, groupId),
    messagesAfter(ctx, groupId, after, CHAT_HISTORY_MAX + 1),
    from !== undefined && from <= after ? deletedBetween(ctx, groupId, from, after, DELETED_MAX) : Promise.resolve([]),
  ]);
  if (facts.groupId !== groupId) throw notFound("No such group.");
  const messages: MessageDto[] = [];
  let bytes = 0;
  for (const row of rows.slice(0, CHAT_HISTORY_MAX)) {
    bytes += row.text.length * 3;
    if (messages.length > 0 && bytes > HISTORY_TEXT_BUDGET) break;
    messages.push(toMessageDto(row));
  }
  return { messages, more: rows.length > messages.length, deleted: deleted.map((d) => d.id) };
}

/**
 * DELETE /api/messages/{id}: the author or the group's staff, while they still belong to the group. The text is
 * erased and the id stays as a tombstone; `chat.deleted` reaches everyone in the room. Deleting twice is harmless.
 */
export async function deleteMessage(ctx: ServiceContext, actor: Actor, id: number): Promise<MessageDto> {
  const row = await messageWithFacts(ctx, id, actor.userId);
  if (!row) throw notFound("No such message.");
  const group = { instructorId: row.instructorId, membershipStatus: row.membershipStatus };
  const current: Actor | null = row.actorRole ? { userId: actor.userId, role: row.actorRole } : null;
  if (!current || !can(current, "group.viewInside", { group })) throw forbidden(NOT_IN_GROUP);
  if (!can(current, "message.delete", { message: { authorId: row.message.authorId, group } })) {
    throw forbidden("Only the author or the group's staff can delete this message.");
  }
  const deletedAt = await markDeleted(ctx, id);
  if (!deletedAt) return toMessageDto(row.message);
  await broadcastToGroupChat(ctx.env, row.message.groupId, { type: "chat.deleted", id, groupId: row.message.groupId });
  return toMessageDto({ ...row.message, deletedAt });
}
