/**
 * One live connection to a realtime room (`/parties/{party}/{room}`), for any screen that listens to server
 * frames: the join-request inboxes, the group chat, the notifications bell. Client-only work happens in an
 * effect, so the hook is safe to call while rendering on the server.
 */
import PartySocket from "partysocket";
import { useEffect, useRef, useState } from "react";
import { CLOSE } from "./realtime-limits";
import type { ClientFrame, Party, ServerFrame } from "./realtime-protocol";
import { apiFetch } from "./session-client";

/**
 * Where the connection stands: `connecting` (first attempt), `open`, `reconnecting` (it dropped and is being
 * retried with back-off) or `closed` (the server refused this person or the room: no more attempts).
 */
export type RoomStatus = "connecting" | "open" | "reconnecting" | "closed";

/** Every frame type the server sends; anything else that arrives is ignored. Exhaustive by type. */
const SERVER_FRAME_TYPES: Record<ServerFrame["type"], true> = {
  welcome: true,
  pong: true,
  error: true,
  notification: true,
  "contact.created": true,
  "chat.message": true,
  "chat.ack": true,
  "chat.history": true,
  "chat.deleted": true,
  "dev.broadcast": true,
  "notification.read": true,
  "notification.removed": true,
  "contact.updated": true,
  "contact.deleted": true,
  "feedback.created": true,
  "feedback.updated": true,
  "feedback.deleted": true,
  "membership.requested": true,
  "membership.decided": true,
  "attendance.opened": true,
  "attendance.closed": true,
  "attendance.marked": true,
};

/**
 * Why a connection is `closed` for good: the person may not be in the room (a refused ticket, or their right ended),
 * their session ended (logout, a password reset, signed out elsewhere), or newer sockets of theirs took its place.
 */
export type RoomEnd = "forbidden" | "session" | "replaced";
/** The close codes that end the attempts (app/lib/realtime-limits.ts CLOSE); every other close reconnects. */
const FINAL_CLOSES: Partial<Record<number, RoomEnd>> = { [CLOSE.forbidden]: "forbidden", [CLOSE.sessionEnded]: "session", [CLOSE.replaced]: "replaced" };
/**
 * Heartbeat: after this long without any frame the hook sends a `ping`; after HEARTBEAT_DEAD_MS of silence the
 * connection is treated as dead (a laptop that slept, a proxy that dropped it) and opened again. Long on purpose:
 * every ping wakes a hibernating room.
 */
const HEARTBEAT_IDLE_MS = 45_000;
const HEARTBEAT_DEAD_MS = 60_000;
const HEARTBEAT_CHECK_MS = 5_000;

/** Parses one websocket message into a known server frame, or null (not JSON, no type, or an unknown type). */
export function parseServerFrame(raw: unknown): ServerFrame | null {
  if (typeof raw !== "string") return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const type = (value as { type?: unknown }).type;
  return typeof type === "string" && Object.hasOwn(SERVER_FRAME_TYPES, type) ? (value as ServerFrame) : null;
}

/** Raised inside the ticket request when the server says this person may not join, or is signed in no more: stop retrying. */
class RefusedError extends Error {
  constructor(readonly session: boolean) {
    super(session ? "session ended" : "ticket refused");
  }
}

/** A single-use ticket for the room (POST /api/realtime/ticket), fetched anew for every (re)connection. */
async function fetchTicket(party: Party, room: string): Promise<string> {
  const res = await apiFetch("/api/realtime/ticket", { method: "POST", body: JSON.stringify({ party, room }) });
  // 401 only once the session is over: apiFetch has refreshed and tried again (and is on its way to the login page).
  if (res.status === 401) throw new RefusedError(true);
  if (res.status === 403 || res.status === 404) throw new RefusedError(false);
  if (!res.ok) throw new Error(`ticket failed (${res.status})`);
  const body = (await res.json()) as { ticket?: unknown };
  if (typeof body.ticket !== "string") throw new Error("ticket missing");
  return body.ticket;
}

export interface UseRoomOptions {
  party: Party;
  /** The room's name (`all` for the staff inbox, a user id, a group id). Null keeps the hook disconnected. */
  room: string | null;
  /** Called with every known server frame, in arrival order. The latest function is always used. */
  onFrame: (frame: ServerFrame) => void;
  /**
   * Called each time the socket opens. `reconnected` is false for the first open after mounting: frames sent
   * before an open were missed either way, so screens usually reload their data here (useRevalidator).
   */
  onOpen?: (info: { reconnected: boolean }) => void;
}

export interface RoomConnection {
  status: RoomStatus;
  /** Why the status is `closed`; null otherwise. */
  ended: RoomEnd | null;
  /** Sends a client frame when the socket is open; returns false (and sends nothing) otherwise. */
  send: (frame: ClientFrame) => boolean;
}

/**
 * Connects to `/parties/{party}/{room}` with partysocket (reconnecting with back-off), getting a fresh ticket
 * from `POST /api/realtime/ticket` inside partysocket's async `query` on every attempt, because tickets are
 * single-use. Frames are parsed as JSON and frames of unknown types are ignored. A refused ticket (403/404) or
 * a final close (FINAL_CLOSES) ends the attempts (`closed`, with why in `ended`); any other close, a change of the
 * person's rights among them, reconnects with a new ticket. The socket closes when the component unmounts or the room changes.
 *
 * While the browser is offline no attempt is made (each would only fail); the socket closes on `offline` and
 * opens again on `online`, so screens resync through `onOpen`. A connection that stays silent for a minute
 * despite a `ping` is reopened the same way.
 *
 * @example
 * const { status } = useRoom({
 *   party: "staff-inbox",
 *   room: "all",
 *   onFrame: (frame) => { if (frame.type === "membership.requested") add(frame.request); },
 *   onOpen: () => revalidator.revalidate(),
 * });
 */
export function useRoom({ party, room, onFrame, onOpen }: UseRoomOptions): RoomConnection {
  const [status, setStatus] = useState<RoomStatus>("connecting");
  const [ended, setEnded] = useState<RoomEnd | null>(null);
  const socketRef = useRef<PartySocket | null>(null);
  const handlers = useRef({ onFrame, onOpen });
  handlers.current = { onFrame, onOpen };

  useEffect(() => {
    if (!room) return;
    let opened = false;
    let refused = false;
    setStatus("connecting");
    setEnded(null);
    let lastFrameAt = Date.now();
    let pinged = false;
    const socket = new PartySocket({
      host: window.location.host,
      protocol: window.location.protocol === "https:" ? "wss" : "ws",
      party,
      room,
      startClosed: !navigator.onLine,
      query: async () => {
        try {
          return { ticket: await fetchTicket(party, room) };
        } catch (err) {
          if (err instanceof RefusedError) {
            refused = true;
            setEnded(err.session ? "session" : "forbidden");
            setStatus("closed");
            socket.close();
          }
          throw err;
        }
      },
    });
    socketRef.current = socket;

    const onOpenEvent = () => {
      lastFrameAt = Date.now();
      setStatus("open");
      handlers.current.onOpen?.({ reconnected: opened });
      opened = true;
    };
    const onMessage = (event: MessageEvent) => {
      lastFrameAt = Date.now();
      pinged = false;
      const frame = parseServerFrame(event.data);
      if (frame) handlers.current.onFrame(frame);
    };
    const onClose = (event: CloseEvent) => {
      // A right or a session that ended does not come back by reconnecting (a new ticket would be refused), nor does a
      // socket that newer ones of the same person replaced (reconnecting would close one of them in turn).
      const end = FINAL_CLOSES[event.code];
      if (end) {
        refused = true;
        setEnded(end);
        socket.close();
      }
      setStatus(refused ? "closed" : "reconnecting");
    };
    const onOffline = () => {
      if (refused) return;
      socket.close();
      setStatus("reconnecting");
    };
    const onOnline = () => {
      if (!refused) socket.reconnect();
    };
    const heartbeat = window.setInterval(() => {
      if (refused || !navigator.onLine || socket.readyState !== socket.OPEN) return;
      const silent = Date.now() - lastFrameAt;
      if (silent > HEARTBEAT_DEAD_MS) {
        lastFrameAt = Date.now();
        pinged = false;
        socket.reconnect();
      } else if (silent > HEARTBEAT_IDLE_MS && !pinged) {
        pinged = true;
        socket.send(JSON.stringify({ type: "ping", t: Date.now() } satisfies ClientFrame));
      }
    }, HEARTBEAT_CHECK_MS);
    if (!navigator.onLine) setStatus("reconnecting");
    socket.addEventListener("open", onOpenEvent);
    socket.addEventListener("message", onMessage);
    socket.addEventListener("close", onClose);
    window.addEventListener("offline", onOffline);
    window.addEventListener("online", onOnline);
    return () => {
      window.clearInterval(heartbeat);
      window.removeEventListener("offline", onOffline);
      window.removeEventListener("online", onOnline);
      socket.removeEventListener("open", onOpenEvent);
      socket.removeEventListener("message", onMessage);
      socket.removeEventListener("close", onClose);
      socket.close();
      if (socketRef.current === socket) socketRef.current = null;
    };
  }, [party, room]);

  const send = (frame: ClientFrame) => {
    const socket = socketRef.current;
    if (!socket || socket.readyState !== socket.OPEN) return false;
    socket.send(JSON.stringify(frame));
    return true;
  };

  return { status, ended, send };
}
