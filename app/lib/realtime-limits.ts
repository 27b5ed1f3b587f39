/**
 * The realtime limits and room names as plain values, without zod, so the Durable Object classes that every
 * Worker isolate exports can read them without loading the frame schemas (realtime-protocol.ts re-exports them).
 */

/** Frames larger than this are refused without parsing. */
export const MAX_FRAME_BYTES = 8 * 1024;
/**
 * Inbound frames allowed per connection per 10 seconds. Past `max` each frame is refused with an error; a
 * connection that goes on past `closeAfter` in one window is closed (CLOSE.tooFast): a flood is not answered frame by
 * frame, and the room stays free for everybody else's messages.
 */
export const FRAME_RATE = { max: 40, closeAfter: 80, windowMs: 10_000 } as const;
/** Sockets one person may hold open in one room (tabs, devices); a newer one closes the oldest (CLOSE.replaced). */
export const MAX_SOCKETS_PER_PERSON = 8;

/**
 * How a room closes a socket, and so what the client does next (app/lib/use-room.ts): the first three end the
 * attempts (a new ticket would be refused, or a newer socket of the same person took this one's place); the others
 * reconnect with a fresh ticket, which answers what the person may do now.
 */
export const CLOSE = {
  /** The session that opened the socket ended (logout, password reset, account deleted). */
  sessionEnded: 4401,
  /** The person's right to the room ended (removed from the group, no longer its instructor). */
  forbidden: 4403,
  /** The person opened more sockets in this room than MAX_SOCKETS_PER_PERSON; this was the oldest. */
  replaced: 4408,
  /** The person's rights changed (their role): ask again. */
  accessChanged: 4409,
  /** Far too many frames in one window: reconnect after the usual back-off. */
  tooFast: 4429,
} as const;

/** Rooms that exist: `party` is the kebab-cased Durable Object binding, `room` its instance name. */
export const PARTIES = ["group-room", "user-hub", "staff-inbox"] as const;
export type Party = (typeof PARTIES)[number];

/** A realtime ticket's lifetime (worker/realtime/tickets.ts); a room remembers a used one for twice as long. */
export const TICKET_TTL_SECONDS = 60;

/** Messages per `chat.history` frame at most; `more: true` says "sync again after the last one". */
export const CHAT_HISTORY_MAX = 200;
