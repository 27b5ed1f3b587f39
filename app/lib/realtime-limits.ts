/**
 * The realtime limits and room names as plain values, without zod, so the Durable Object classes that every
 * Worker isolate exports can read them without loading the frame schemas (realtime-protocol.ts re-exports them).
 */

/** Frames larger than this are refused without parsing. */
export const MAX_FRAME_BYTES = 8 * 1024;
/** Inbound frames allowed per connection per 10 seconds. */
export const FRAME_RATE = { max: 40, windowMs: 10_000 } as const;

/** Rooms that exist: `party` is the kebab-cased Durable Object binding, `room` its instance name. */
export const PARTIES = ["group-room", "user-hub", "staff-inbox"] as const;
export type Party = (typeof PARTIES)[number];

/** A realtime ticket's lifetime (worker/realtime/tickets.ts); a room remembers a used one for twice as long. */
export const TICKET_TTL_SECONDS = 60;

/** Messages per `chat.history` frame at most; `more: true` says "sync again after the last one". */
export const CHAT_HISTORY_MAX = 200;
