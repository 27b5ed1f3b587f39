/**
 * A stored chat message as the protocol sends it: plain code without the database, so the group room (which every
 * Worker isolate exports) can use it before it loads the chat's services (docs/decisions/0025-lean-cold-start.md).
 */
import type { MessageDto, StoredMessage } from "./chat-store";

export function storedToDto(m: StoredMessage): MessageDto {
  return {
    id: m.id,
    groupId: m.groupId,
    author: { _id: m.authorId, name: m.authorName, role: m.authorRole },
    text: m.deletedAt ? "" : m.text,
    replyTo: m.replyTo,
    createdAt: new Date(m.createdAt).toISOString(),
    deletedAt: m.deletedAt ? new Date(m.deletedAt).toISOString() : null,
    clientId: m.clientId,
  };
}
