import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../env";

/**
 * One per group (name = group id): scheduled publishing (issue 22). Scheduling a lecture, task or quiz sets the alarm
 * to its time, keeping an earlier ring; when it rings, everything of the group that is due is published and announced
 * (worker/services/schedule.ts), and the alarm is set for the next scheduled item. It keeps only the group id and the
 * alarm: the schedule lives in D1, so a lost object loses nothing, and the cron publishes whatever an alarm missed.
 */
export class Publisher extends DurableObject<Bindings> {
  /** RPC: ring no later than `at` (ms since the epoch) for the group `groupId`. */
  async arm(groupId: string, at: number): Promise<void> {
    await this.ctx.storage.put("groupId", groupId);
    const current = await this.ctx.storage.getAlarm();
    if (current === null || at < current) await this.ctx.storage.setAlarm(at);
  }

  /** The alarm: publishes what is due, then rings again for what is still scheduled (retried by the runtime if it throws). */
  async alarm(): Promise<void> {
    const groupId = await this.ctx.storage.get<string>("groupId");
    if (!groupId) return;
    // Imported when the alarm rings, not when the Worker starts (docs/decisions/0025-lean-cold-start.md).
    const [{ createServiceContext }, { nextPublishAt, publishDue }] = await Promise.all([import("../context"), import("../services/schedule")]);
    const svc = createServiceContext(this.env, this.ctx);
    await publishDue(svc, groupId, Date.now());
    const next = await nextPublishAt(svc, groupId);
    if (next !== null) {
      const current = await this.ctx.storage.getAlarm();
      if (current === null || next < current) await this.ctx.storage.setAlarm(Math.max(next, Date.now() + 1_000));
    }
  }
}
