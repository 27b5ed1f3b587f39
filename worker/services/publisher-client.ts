/** Setting a group's Publisher (worker/realtime/publisher.ts) to ring by a time; the cron is the safety net. */
import type { ServiceContext } from "../context";

export async function armPublisher(ctx: ServiceContext, groupId: string, at: number): Promise<void> {
  const ns = ctx.env.Publisher as typeof ctx.env.Publisher | undefined;
  if (!ns) return;
  try {
    await ns.get(ns.idFromName(groupId)).arm(groupId, at);
  } catch (err) {
    console.warn("The group's publisher could not be set; the cron will publish on time within five minutes.", err);
  }
}

/** How long a publishing time may be in the past and still count as "now" (a form sent at 18:00 arriving at 18:00:30). */
export const SCHEDULE_SLACK_MS = 60_000;
