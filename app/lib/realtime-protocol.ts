/**
 * The realtime protocol: every frame that crosses a Cohort websocket, as zod schemas.
 * The server validates every inbound frame against `clientFrame`; it builds every outbound frame
 * itself (never re-broadcasting raw client input), typed by `ServerFrame`. Client-safe.
 */
import { z } from "zod";
import { hasVisibleText, withoutControls } from "./text";
import { CHAT_TEXT_MAX } from "./chat-limits";
import type { Party } from "./realtime-limits";

/* The frame size and rate limits and the room names (`party` is the kebab-cased Durable Object binding, `room` its
   instance name) live without zod in realtime-limits.ts. */
export { FRAME_RATE, MAX_FRAME_BYTES, PARTIES, type Party } from "./realtime-limits";

/* Group chat fields, shared by the `chat.send` frame and `POST /api/messages` (sendMessageInput in schemas.ts). */
export { CHAT_TEXT_MAX };
export { CHAT_HISTORY_MAX } from "./realtime-limits";
import { CHAT_HISTORY_MAX } from "./realtime-limits";

export const chatFields = z.object({
  text: z
    .string({ error: "Write a message." })
    .overwrite(withoutControls)
    .trim()
    .min(1, "Write a message.")
    .refine(hasVisibleText, "Write a message.")
    .max(CHAT_TEXT_MAX, `Messages are limited to ${CHAT_TEXT_MAX} characters.`),
  /**
   * The sender's own id for this message (a UUID is ideal). Sending again with the same clientId stores nothing
   * new and answers the message stored the first time, so retrying after a lost answer is always safe.
   */
  clientId: z
    .string({ error: "clientId is required." })
    .min(8, "clientId must be 8 to 64 characters.")
    .max(64, "clientId must be 8 to 64 characters.")
    .regex(/^[A-Za-z0-9_-]+$/, "clientId may contain letters, digits, - and _ only."),
  /** The id of the message this one answers (in the same group). */
  replyTo: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).nullish(),
});

const messageCursor = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const clientFrame = z.discriminatedUnion("type", [
  /** Heartbeat; answered with `pong` carrying the same `t`. */
  z.object({ type: z.literal("ping"), t: z.number().finite() }),
  /**
   * group-room: post a message. Answered with `chat.ack` (or an `error` carrying the same clientId); the stored
   * message then reaches every synced connection, the sender's included, as `chat.message`.
   */
  chatFields.extend({ type: z.literal("chat.send") }),
  /**
   * group-room: "send me every message after id `after`" (0: from the start). Answered with `chat.history`.
   * `from` is the oldest id the client holds: deletions in `[from, after]` come back in `deleted`, so a client
   * that was away learns about them too. A connection gets live chat frames only after a sync answered with
   * `more: false`; from then on every chat frame arrives once, in id order, without gaps.
   */
  z.object({ type: z.literal("chat.sync"), after: messageCursor, from: messageCursor.optional() }),
]);
export type ClientFrame = z.infer<typeof clientFrame>;

/**
 * Development only (ENVIRONMENT=development; elsewhere rooms answer `invalid_frame`): a group room broadcasts
 * `dev.broadcast` to its synced connections through the same queue as chat, storing nothing.
 * bench/soak.mjs and bench/chat.mjs use it as the "broadcast alone" baseline; `body`, when given, is sent back as it
 * is, so the baseline can carry a message of the chat's own size and shape (within the frame limit).
 */
export const devClientFrame = z.object({ type: z.literal("dev.broadcast"), t: z.number().finite(), body: z.record(z.string(), z.unknown()).optional() });
export type DevClientFrame = z.infer<typeof devClientFrame>;

export interface NotificationFrameBody {
  _id: string;
  kind: string;
  /** English text; pages render `kind` with `params` in the reader's language (app/lib/notification-text.ts). */
  title: string;
  params: Record<string, string | number> | null;
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
  /**
   * A frame the server refused. The connection stays open, except after `forbidden`: the right to the room has
   * ended and the server closes the socket with 4403. `clientId` names the refused `chat.send`.
   */
  | { type: "error"; code: ErrorFrameCode; message: string; clientId?: string; /** rate_limited: seconds until it may be sent (the API's Retry-After). */ retryAfter?: number }
  /** A new notification for the connected user (user-hub), with their unread count after it. */
  | { type: "notification"; notification: NotificationFrameBody; unread: number }
  /** Notifications taken back (a join request withdrawn): gone from the list, with the unread count after. */
  | { type: "notification.removed"; ids: string[]; unread: number }
  /** A new contact-form message (staff-inbox, admins only), with the inbox's unread count after it. */
  | { type: "contact.created"; message: ContactMessageFrameBody; unread: number }
  /** Group chat, notification reads and the admins' inbox (see ChatFrame and InboxFrame below). */
  | ChatFrame
  | InboxFrame
  /** Join requests and their decisions (see MembershipFrame below). */
  | MembershipFrame
  /** Live attendance (see AttendanceFrame below). */
  | AttendanceFrame;

/** One student's attendance as the roster shows it. */
export interface AttendanceRecordFrameBody {
  user: { _id: string; name: string };
  /** null: not marked yet. */
  status: "present" | "late" | "excused" | "absent" | null;
  method: "code" | "manual" | null;
  markedAt: string | null;
  /** The same device checked in for more than one account in this lecture: for staff to judge. */
  flagged: boolean;
  /** Why it is flagged (empty when not): the same device fingerprint, the same browser, the same address in a short window. */
  flags: AttendanceFlag[];
  /**
   * Joined the group after the lecture took place (its start, or its first session's): without a record it counts
   * nowhere for them, as in Progress (ADR 54).
   */
  joinedAfter: boolean;
}

export type AttendanceFlag = "elsewhere" | "device" | "browser" | "address";

export interface AttendanceCounts {
  present: number;
  late: number;
  excused: number;
  absent: number;
  members: number;
}

export interface AttendanceSessionFrameBody {
  open: boolean;
  rotateSeconds: number;
  opensAt: string;
  closesAt: string;
  lateAfterMinutes: number | null;
}

/**
 * Live attendance, in the group's room (group-room/{groupId}). Opening and closing go to everyone in the room (a
 * student's lecture page shows or hides its check-in box); marks go to the group's staff only. Every mark is
 * stored in D1 before it is sent; a screen that reconnects reads the whole state again over the API.
 */
export type AttendanceFrame =
  | { type: "attendance.opened"; lectureId: string; session: AttendanceSessionFrameBody }
  | { type: "attendance.closed"; lectureId: string }
  | { type: "attendance.marked"; lectureId: string; record: AttendanceRecordFrameBody; counts: AttendanceCounts };

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
  /** `withdrawn`: the student took their request back (decidedBy is themselves). */
  status: "approved" | "special" | "rejected" | "withdrawn";
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

export type ErrorFrameCode =
  | "invalid_frame"
  | "frame_too_large"
  | "rate_limited"
  | "invalid_input"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  /** The group's course has ended (archived): its chat is read-only. */
  | "course_ended"
  | "server_error";

/** A group chat message as the API and the socket deliver it. A deleted message keeps its id and loses its text. */
export interface ChatMessageFrameBody {
  /** Increases within a group: the resync cursor. */
  id: number;
  groupId: string;
  /** Null once the author's account is deleted. */
  author: { _id: string; name: string; role: "admin" | "instructor" | "user" } | null;
  /** Empty for a deleted message. */
  text: string;
  replyTo: number | null;
  createdAt: string;
  deletedAt: string | null;
  /** The sender's clientId, so the sender can match the message to what it showed optimistically. */
  clientId: string | null;
}

export type ChatFrame =
  /** A stored chat message (group-room, synced connections), in id order, once per message. */
  | { type: "chat.message"; message: ChatMessageFrameBody }
  /** To the sender of a `chat.send`: the message is stored under `id` (also when the clientId was seen before). */
  | { type: "chat.ack"; clientId: string; id: number }
  /**
   * The answer to `chat.sync`: messages with id > after, oldest first (deleted ones as tombstones), and the ids of
   * messages in `[from, after]` that are deleted. `more: true`: sync again after the last message's id.
   */
  | { type: "chat.history"; messages: ChatMessageFrameBody[]; more: boolean; deleted: number[] }
  /** A message was deleted by its author or the group's staff (group-room, synced connections). */
  | { type: "chat.deleted"; id: number; groupId: string }
  /** Development only: the answer to `dev.broadcast`, to every synced connection of the room. */
  | { type: "dev.broadcast"; t: number; body?: Record<string, unknown> };

/** A feedback record as the admins' inbox shows it (with the e-mail address, so admins only). */
export interface FeedbackFrameBody {
  _id: string;
  userId: string | null;
  name: string;
  email: string;
  groupSlug: string;
  /** The group's title (null when the group no longer exists). */
  groupTitle: string | null;
  userFeedback: string;
  rating: number;
  hidden: boolean;
  createdAt: string;
  /** When its author last changed it; null as first written. */
  editedAt: string | null;
}

export type InboxFrame =
  /** Notifications were marked read, maybe in another tab (user-hub): `ids`, or `"all"`; `unread` is the new count. */
  | { type: "notification.read"; ids: string[] | "all"; unread: number }
  /** A contact message was marked read or unread (staff-inbox, admins only). */
  | { type: "contact.updated"; message: ContactMessageFrameBody; unread: number }
  /** A contact message was deleted (staff-inbox, admins only). */
  | { type: "contact.deleted"; _id: string; unread: number }
  /** A student shared feedback for a group for the first time (staff-inbox, admins only). */
  | { type: "feedback.created"; feedback: FeedbackFrameBody }
  /** A feedback record changed: edited by its author, or hidden/shown by an admin (staff-inbox, admins only). */
  | { type: "feedback.updated"; feedback: FeedbackFrameBody }
  /** An admin deleted a feedback record (staff-inbox, admins only). */
  | { type: "feedback.deleted"; _id: string };
