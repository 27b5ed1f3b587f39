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
  | { type: "contact.created"; message: ContactMessageFrameBody }
  /** Join requests and their decisions (see MembershipFrame below). */
  | MembershipFrame;

/** A group as membership frames name it. */
export interface MembershipGroupRef {
  _id: string;
  title: string;
  slug: string;
}

/** A join request as the staff inbox shows it; GET /api/membership-requests answers items of the same shape. */
export interface MembershipRequestFrameBody {
  _id: string;
  status: "pending" | "approved" | "special" | "rejected" | "left" | "removed";
  requestMessage: string | null;
  /** When this request was made (a re-request after rejected/left/removed counts anew). */
  createdAt: string;
  user: { _id: string; name: string; email: string; phone_number: string | null; slug: string };
  group: MembershipGroupRef;
}

/** A decided join request. */
export interface MembershipDecisionFrameBody {
  _id: string;
  status: "approved" | "special" | "rejected";
  userId: string;
  group: MembershipGroupRef;
  decidedAt: string;
  decidedBy: { _id: string; name: string };
}

export type MembershipFrame =
  /** A new (or re-opened) join request. staff-inbox: admins and the instructor of that group only. */
  | { type: "membership.requested"; request: MembershipRequestFrameBody }
  /**
   * A join request was decided. staff-inbox: admins and the group's instructor (drop it from the inbox);
   * user-hub: the student it concerns.
   */
  | { type: "membership.decided"; decision: MembershipDecisionFrameBody };
