import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../env";

/**
 * One per quiz (name = quiz id): the server's clock for its attempts. Starting a timed attempt sets the alarm to
 * the moment its answers stop counting (deadline + QUIZ_NETWORK_MS, see `closingTime`), keeping an earlier ring if
 * there is one. When it rings, every attempt of the quiz whose time is over is closed and graded on the answers
 * saved in time, whether or not anyone reads them, and the alarm is set again for the next open attempt.
 * docs/decisions/0014-quizzes.md.
 *
 * It keeps only the quiz id and the alarm; the attempts live in D1, so a lost or evicted object loses nothing, and
 * the reads and the daily cron (worker/index.ts `scheduled`) close whatever an alarm missed.
 */
export class QuizClock extends DurableObject<Bindings> {
  /** RPC: ring no later than `at` (ms since the epoch) for the quiz `quizId`. */
  async arm(quizId: string, at: number): Promise<void> {
    await this.ctx.storage.put("quizId", quizId);
    await this.ringBy(at);
  }

  /** The alarm: closes what is due, then rings again for the attempts still open (retried by the runtime if it throws). */
  async alarm(): Promise<void> {
    const quizId = await this.ctx.storage.get<string>("quizId");
    if (!quizId) return;
    // Imported when the alarm rings, not when the Worker starts (docs/decisions/0025-lean-cold-start.md).
    const [{ createServiceContext }, { closeDueAttempts }] = await Promise.all([import("../context"), import("../services/quizzes")]);
    const next = await closeDueAttempts(createServiceContext(this.env, this.ctx), quizId, Date.now());
    if (next !== null) await this.ringBy(next);
  }

  /** Sets the alarm to `at` unless one is already set earlier (an `arm` that arrived while the alarm ran wins). */
  private async ringBy(at: number): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || at < current) await this.ctx.storage.setAlarm(at);
  }
}
