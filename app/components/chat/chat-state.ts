/**
 * Pure helpers of the group chat's client state: merging messages by id, tombstones, the pending sends kept in
 * sessionStorage. No React here, so the rules read (and test) on their own.
 */
import type { ChatMessageFrameBody } from "~/lib/realtime-protocol";

export type ChatMessage = ChatMessageFrameBody;

/** A message typed here and not yet confirmed by the server. */
export interface PendingMessage {
  clientId: string;
  text: string;
  replyTo: number | null;
  /** `sending`: waiting for a connection or the ack; `failed`: refused (retry or discard). */
  state: "sending" | "failed";
  /** The id from `chat.ack`, once acknowledged (the stored message itself may still be on its way). */
  id?: number;
  /** Why it failed (an error frame's code). */
  error?: string;
  createdAt: string;
}

/** Messages kept sorted by id (oldest first); an incoming copy replaces the one held (a tombstone wins). */
export function mergeMessages(held: ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  if (incoming.length === 0) return held;
  const byId = new Map(held.map((m) => [m.id, m]));
  for (const m of incoming) {
    const known = byId.get(m.id);
    byId.set(m.id, known?.deletedAt && !m.deletedAt ? known : m);
  }
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** Turns the given ids into tombstones (text erased), as the server stores them. */
export function markDeleted(held: ChatMessage[], ids: readonly number[], at = new Date().toISOString()): ChatMessage[] {
  if (ids.length === 0) return held;
  const gone = new Set(ids);
  let changed = false;
  const next = held.map((m) => {
    if (!gone.has(m.id) || m.deletedAt) return m;
    changed = true;
    return { ...m, text: "", deletedAt: at };
  });
  return changed ? next : held;
}

/**
 * The pending sends still worth showing: those the server has not answered with a message we hold
 * (matched by our own clientId, or by the acknowledged id).
 */
export function unsettled(pending: PendingMessage[], held: ChatMessage[], userId: string): PendingMessage[] {
  if (pending.length === 0) return pending;
  const ids = new Set(held.map((m) => m.id));
  const mine = new Set(held.filter((m) => m.author?._id === userId && m.clientId).map((m) => m.clientId));
  const left = pending.filter((p) => !mine.has(p.clientId) && !(p.id !== undefined && ids.has(p.id)));
  return left.length === pending.length ? pending : left;
}

const storageKey = (groupId: string, userId: string) => `cohort:chat-pending:${groupId}:${userId}`;

/**
 * Pending sends saved by an earlier page of this tab (a reload must not lose an unsent message). One the server
 * refused comes back refused, with its reason: only the sender's Retry sends it, never a reload (which would post it
 * unasked, after whatever they wrote since).
 */
export function loadPending(groupId: string, userId: string): PendingMessage[] {
  try {
    const raw = sessionStorage.getItem(storageKey(groupId, userId));
    const list: unknown = raw ? JSON.parse(raw) : [];
    if (!Array.isArray(list)) return [];
    return list
      .filter(
        (p): p is PendingMessage =>
          typeof p === "object" && p !== null && typeof p.clientId === "string" && typeof p.text === "string" && typeof p.createdAt === "string",
      )
      .map((p): PendingMessage => {
        const kept = { clientId: p.clientId, text: p.text, replyTo: typeof p.replyTo === "number" ? p.replyTo : null, createdAt: p.createdAt };
        return p.state === "failed" ? { ...kept, state: "failed", error: typeof p.error === "string" ? p.error : undefined } : { ...kept, state: "sending" };
      });
  } catch {
    return [];
  }
}

/** Saves the sends the server has not acknowledged yet (acknowledged ones are stored server-side). */
export function savePending(groupId: string, userId: string, pending: PendingMessage[]): void {
  try {
    const open = pending.filter((p) => p.id === undefined);
    if (open.length === 0) sessionStorage.removeItem(storageKey(groupId, userId));
    else sessionStorage.setItem(storageKey(groupId, userId), JSON.stringify(open));
  } catch {
    // Storage may be full or blocked; the message still shows and is sent while the page stays open.
  }
}

/** A clientId for a new message: a UUID where the browser has one (secure contexts), otherwise random hex. */
export function newClientId(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}
