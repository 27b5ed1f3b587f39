/**
 * The realtime protocol: every frame that crosses a Cohort websocket, as zod schemas.
 * The server validates every inbound frame against `clientFrame`; it builds every outbound frame
 * itself (never re-broadcasting raw client input), typed by `ServerFrame`. Client-safe.
 */
import { z } from "zod";

/** Frames larger than this are refused without parsing. */
export const MAX_FRAME_BYTES = 8 * 1024;
/** Inbound frames allowed per connection per 10 seconds. */
export const FRAME_RATE = { max: 40, windowMs: 10_000 } as const;

/** Rooms that exist: `party` is the kebab-cased Durable Object binding, `room` its instance name. */
export const PARTIES = ["group-room", "user-hub", "staff-inbox"] as const;
export type Party = (typeof PARTIES)[number];

export const clientFrame = z.discriminatedUnion("type", [
  /** Heartbeat; answered with `pong` carrying the same `t`. */
  z.object({ type: z.literal("ping"), t: z.number().finite() }),
]);
export type ClientFrame = z.infer<typeof clientFrame>;

export interface NotificationFrameBody {
  _id: string;
  kind: string;
  title: string;
  link: string | null;
  createdAt: string;
  readAt: string | null;
}

export interface ContactMessageFrameBody {
  _id: string;
  name: string;
  email: string;
  message: string;
  createdAt: string;
  readAt: string | null;
}

export type ServerFrame =
  /** Sent once after a connection is admitted. */
  | { type: "welcome"; party: Party; room: string; connectionId: string }
  | { type: "pong"; t: number }
  /** A frame the server refused; the connection stays open. */
  | { type: "error"; code: "invalid_frame" | "frame_too_large" | "rate_limited"; message: string }
  /** A new notification for the connected user (user-hub). */
  | { type: "notification"; notification: NotificationFrameBody }
  /** A new contact-form message (staff-inbox, admins). */
  | { type: "contact.created"; message: ContactMessageFrameBody };
