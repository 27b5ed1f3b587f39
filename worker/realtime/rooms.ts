import { Room } from "./room";

/** One per course group: its chat and live attendance (room name = group id). See group-room.ts. */
export { GroupRoom } from "./group-room";

/** One per user: their notifications, on every device they have open (room name = user id). */
export class UserHub extends Room {
  readonly party = "user-hub" as const;
}

/** One for all staff inboxes: contact messages, feedback and join requests (room name = "all"). */
export class StaffInbox extends Room {
  readonly party = "staff-inbox" as const;
}
