import { RateLeaseDirectory, type RateLease } from "./chat-rate";
import { releaseChatRateIn } from "./publish";
import { Room } from "./room";

/** One per course group: its chat and live attendance (room name = group id). See group-room.ts. */
export { GroupRoom } from "./group-room";

/** One per user: their notifications, on every device they have open (room name = user id). */
export class UserHub extends Room {
  readonly party = "user-hub" as const;
  private leases: RateLeaseDirectory | null = null;
  /** Hand-overs of the chat rate counter, one at a time. */
  private handing: Promise<unknown> = Promise.resolve();

  /**
   * RPC from the group room this user is sending in: takes their chat rate counter back from the room that holds it
   * and hands it to `room` under a new epoch (chat-rate.ts). A holder that cannot be reached fails the hand-over.
   */
  acquireChatRate(room: string): Promise<RateLease> {
    const run = this.handing.then(async () => {
      this.leases ??= new RateLeaseDirectory(this.ctx.storage.sql);
      const current = this.leases.current();
      let window = { count: current.count, resetAt: current.resetAt };
      if (current.holder) window = (await releaseChatRateIn(this.env, current.holder, this.name, current.epoch)) ?? window;
      return this.leases.grant(room, window);
    });
    this.handing = run.catch(() => undefined);
    return run;
  }
}

/** One for all staff inboxes: contact messages, feedback and join requests (room name = "all"). */
export class StaffInbox extends Room {
  readonly party = "staff-inbox" as const;
}
