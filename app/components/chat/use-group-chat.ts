/**
 * The group chat's client side of ADR 0007 (docs/decisions/0007-realtime-delivery.md):
 * first page over HTTP (or from the loader) → ticket → socket to `/parties/group-room/{groupId}` → on `welcome`,
 * `chat.sync {after: newest id held, from: oldest id held}` until `more: false` → live `chat.message` and
 * `chat.deleted`, de-duplicated by id. Sends carry a clientId, show until acknowledged, survive a reload in
 * sessionStorage and are sent again with the same clientId after every (re)sync, which the server answers
 * without storing twice.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { ServerFrame } from "~/lib/realtime-protocol";
import { apiFetch } from "~/lib/session-client";
import { useRoom, type RoomEnd, type RoomStatus } from "~/lib/use-room";
import { loadPending, markDeleted, mergeMessages, newClientId, savePending, unsettled, type ChatMessage, type PendingMessage } from "./chat-state";

/** The first page, newest first, as GET /api/messages/group/{id} and `listMessages` answer it. */
export interface ChatPage {
  messages: ChatMessage[];
  nextBefore: number | null;
}

export const CHAT_PAGE_SIZE = 50;

export interface GroupChatEvents {
  /** A live message from someone else arrived (not history). */
  onIncoming?: (message: ChatMessage) => void;
}

export interface GroupChat {
  /** `loading` until the first page is here; `error` if it could not be read. */
  phase: "loading" | "ready" | "error";
  messages: ChatMessage[];
  pending: PendingMessage[];
  status: RoomStatus;
  /** Why the chat is `closed` for good (no access, the session ended, opened in too many places). */
  ended: RoomEnd | null;
  /** True once the current connection finished its `chat.sync`: live from here on. */
  synced: boolean;
  hasOlder: boolean;
  loadingOlder: boolean;
  olderFailed: boolean;
  loadOlder: () => Promise<void>;
  send: (text: string, replyTo: number | null) => void;
  retry: (clientId: string) => void;
  discard: (clientId: string) => void;
  /** DELETE /api/messages/{id}; resolves to null on success or the server's error code. */
  remove: (id: number) => Promise<string | null>;
  reload: () => void;
}

async function fetchPage(groupId: string, before?: number): Promise<ChatPage> {
  const query = new URLSearchParams({ limit: String(CHAT_PAGE_SIZE) });
  if (before) query.set("before", String(before));
  const res = await apiFetch(`/api/messages/group/${encodeURIComponent(groupId)}?${query}`);
  if (!res.ok) throw new Error(`messages ${res.status}`);
  return (await res.json()) as ChatPage;
}

export function useGroupChat(groupId: string, userId: string, initial: ChatPage | undefined, events: GroupChatEvents = {}): GroupChat {
  const [phase, setPhase] = useState<GroupChat["phase"]>(initial ? "ready" : "loading");
  const [messages, setMessages] = useState<ChatMessage[]>(() => (initial ? mergeMessages([], initial.messages) : []));
  const [nextBefore, setNextBefore] = useState<number | null>(initial?.nextBefore ?? null);
  const [pendingAll, setPendingAll] = useState<PendingMessage[]>([]);
  const [synced, setSynced] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderFailed, setOlderFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  const messagesRef = useRef(messages);
  messagesRef.current = messages;
  const pendingRef = useRef(pendingAll);
  pendingRef.current = pendingAll;
  const syncedRef = useRef(false);
  const eventsRef = useRef(events);
  eventsRef.current = events;

  // Sends left unconfirmed by an earlier page of this tab come back first (sessionStorage is per tab).
  useEffect(() => {
    const saved = loadPending(groupId, userId);
    if (saved.length > 0) setPendingAll((list) => [...saved.filter((s) => !list.some((p) => p.clientId === s.clientId)), ...list]);
  }, [groupId, userId]);

  useEffect(() => {
    if (initial || phase !== "loading") return;
    let live = true;
    fetchPage(groupId)
      .then((page) => {
        if (!live) return;
        setMessages((held) => mergeMessages(held, page.messages));
        setNextBefore(page.nextBefore);
        setPhase("ready");
      })
      .catch(() => live && setPhase("error"));
    return () => {
      live = false;
    };
  }, [groupId, initial, phase, attempt]);

  const pending = useMemo(() => unsettled(pendingAll, messages, userId), [pendingAll, messages, userId]);

  // What is still unconfirmed is what the storage keeps.
  useEffect(() => {
    savePending(groupId, userId, pending);
    if (pending !== pendingAll) setPendingAll(pending);
  }, [groupId, userId, pending, pendingAll]);

  const roomRef = useRef<{ send: ReturnType<typeof useRoom>["send"] } | null>(null);

  const sync = useCallback(() => {
    const held = messagesRef.current;
    const after = held.length > 0 ? held[held.length - 1]!.id : 0;
    const from = held.length > 0 ? held[0]!.id : undefined;
    roomRef.current?.send(from === undefined ? { type: "chat.sync", after } : { type: "chat.sync", after, from });
  }, []);

  const transmit = useCallback((p: PendingMessage) => {
    if (!syncedRef.current) return;
    roomRef.current?.send({ type: "chat.send", clientId: p.clientId, text: p.text, replyTo: p.replyTo });
  }, []);

  const onFrame = useCallback(
    (frame: ServerFrame) => {
      switch (frame.type) {
        case "welcome":
          syncedRef.current = false;
          setSynced(false);
          sync();
          return;
        case "chat.history": {
          const merged = markDeleted(mergeMessages(messagesRef.current, frame.messages), frame.deleted);
          messagesRef.current = merged;
          setMessages(merged);
          if (frame.more) {
            sync();
            return;
          }
          syncedRef.current = true;
          setSynced(true);
          // Everything typed meanwhile (or before a reload) goes now, with its own clientId: never stored twice.
          for (const p of unsettled(pendingRef.current, merged, userId)) if (p.state === "sending" && p.id === undefined) transmit(p);
          return;
        }
        case "chat.message": {
          const known = messagesRef.current.some((m) => m.id === frame.message.id);
          const merged = mergeMessages(messagesRef.current, [frame.message]);
          messagesRef.current = merged;
          setMessages(merged);
          if (!known && frame.message.author?._id !== userId) eventsRef.current.onIncoming?.(frame.message);
          return;
        }
        case "chat.ack":
          setPendingAll((list) => list.map((p) => (p.clientId === frame.clientId ? { ...p, id: frame.id, state: "sending", error: undefined } : p)));
          return;
        case "chat.deleted":
          setMessages((held) => markDeleted(held, [frame.id]));
          return;
        case "error":
          if (frame.clientId) {
            const clientId = frame.clientId;
            setPendingAll((list) => list.map((p) => (p.clientId === clientId ? { ...p, state: "failed", error: frame.code } : p)));
          }
          return;
        default:
          return;
      }
    },
    [sync, transmit, userId],
  );

  const room = useRoom({
    party: "group-room",
    // The socket waits for the first page: its newest id is where the sync starts.
    room: phase === "ready" ? groupId : null,
    onFrame,
    onOpen: () => {
      syncedRef.current = false;
      setSynced(false);
    },
  });
  roomRef.current = room;

  const send = useCallback(
    (text: string, replyTo: number | null) => {
      const p: PendingMessage = { clientId: newClientId(), text, replyTo, state: "sending", createdAt: new Date().toISOString() };
      setPendingAll((list) => [...list, p]);
      transmit(p);
    },
    [transmit],
  );

  const retry = useCallback(
    (clientId: string) => {
      const p = pendingRef.current.find((x) => x.clientId === clientId);
      if (!p) return;
      const again = { ...p, state: "sending" as const, error: undefined };
      setPendingAll((list) => list.map((x) => (x.clientId === clientId ? again : x)));
      transmit(again);
    },
    [transmit],
  );

  const discard = useCallback((clientId: string) => setPendingAll((list) => list.filter((p) => p.clientId !== clientId)), []);

  const loadOlder = useCallback(async () => {
    const oldest = messagesRef.current[0]?.id ?? nextBefore ?? undefined;
    if (!oldest) return;
    setLoadingOlder(true);
    setOlderFailed(false);
    try {
      const page = await fetchPage(groupId, oldest);
      setMessages((held) => mergeMessages(held, page.messages));
      setNextBefore(page.nextBefore);
    } catch {
      setOlderFailed(true);
    } finally {
      setLoadingOlder(false);
    }
  }, [groupId, nextBefore]);

  const remove = useCallback(async (id: number) => {
    const res = await apiFetch(`/api/messages/${id}`, { method: "DELETE" });
    if (!res.ok) {
      const body = (await res.json().catch(() => null)) as { code?: string } | null;
      return body?.code ?? "server_error";
    }
    setMessages((held) => markDeleted(held, [id]));
    return null;
  }, []);

  const reload = useCallback(() => {
    setPhase("loading");
    setAttempt((n) => n + 1);
  }, []);

  return {
    phase,
    messages,
    pending,
    status: room.status,
    ended: room.ended,
    synced,
    hasOlder: nextBefore !== null,
    loadingOlder,
    olderFailed,
    loadOlder,
    send,
    retry,
    discard,
    remove,
    reload,
  };
}
