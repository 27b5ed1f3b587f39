/**
 * The chat's per-person rate limit (CHAT_SEND_LIMIT: 20 messages per 10 s across all of a person's groups and
 * tabs), counted without a round trip per message (docs/decisions/0026-chat-persist-first.md).
 *
 * One fixed-window counter per person, always held by exactly one place: the group room they are sending in holds
 * a *lease* on it and counts there, in its own storage, in the same turn as it decides; when they send in another
 * group, that room asks the person's UserHub, which takes the counter back from the holder (`release`) and hands it
 * over with a new epoch. Every send (socket or HTTP) passes through its group's room, so every send is counted, once,
 * against the one counter. Epochs settle the one race: a release that reaches a room before the grant it answers
 * (the grant is then ignored, and nothing was counted under it).
 */

export interface SendLimit {
  max: number;
  windowMs: number;
}

export interface RateWindow {
  count: number;
  resetAt: number;
}

export interface RateLease extends RateWindow {
  epoch: number;
}

/** The rule of `hitRateLimit` (services/rate-limit.ts) on one counter: the window after one more hit, and Retry-After (s) past the limit. */
export function hitWindow(window: RateWindow | null, limit: SendLimit, now: number): RateWindow & { retryAfter: number | null } {
  const fresh = !window || window.resetAt <= now;
  const count = fresh ? 1 : window.count + 1;
  const resetAt = fresh ? now + limit.windowMs : window.resetAt;
  return { count, resetAt, retryAfter: count > limit.max ? Math.max(1, Math.ceil((resetAt - now) / 1000)) : null };
}

/** The person's side (their UserHub's storage): who holds their counter, under which epoch, and its value when handed out. */
export class RateLeaseDirectory {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS chat_rate_lease (
      id INTEGER PRIMARY KEY CHECK (id = 1), holder TEXT, epoch INTEGER NOT NULL, count INTEGER NOT NULL, reset_at INTEGER NOT NULL)`);
  }

  current(): RateLease & { holder: string | null } {
    const [row] = this.sql.exec<{ holder: string | null; epoch: number; count: number; reset_at: number }>(`SELECT holder, epoch, count, reset_at FROM chat_rate_lease`).toArray();
    return row ? { holder: row.holder, epoch: row.epoch, count: row.count, resetAt: row.reset_at } : { holder: null, epoch: 0, count: 0, resetAt: 0 };
  }

  /** Records `holder` as the new holder of `window`, under the next epoch. */
  grant(holder: string, window: RateWindow): RateLease {
    const epoch = this.current().epoch + 1;
    this.sql.exec(
      `INSERT OR REPLACE INTO chat_rate_lease (id, holder, epoch, count, reset_at) VALUES (1, ?, ?, ?, ?)`,
      holder,
      epoch,
      window.count,
      window.resetAt,
    );
    return { epoch, count: window.count, resetAt: window.resetAt };
  }
}

/** A room's side (its storage): the counters it holds, and the epochs it gave back. */
export class RateLeases {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS chat_rate (
      user_id TEXT PRIMARY KEY, epoch INTEGER NOT NULL, held INTEGER NOT NULL, count INTEGER NOT NULL, reset_at INTEGER NOT NULL)`);
  }

  private row(userId: string) {
    const [row] = this.sql.exec<{ epoch: number; held: number; count: number; reset_at: number }>(`SELECT epoch, held, count, reset_at FROM chat_rate WHERE user_id = ?`, userId).toArray();
    return row ?? null;
  }

  holds(userId: string): boolean {
    return Boolean(this.row(userId)?.held);
  }

  /** Counts one send against the person's counter if this room holds it: Retry-After (s) past the limit, else null. Undefined: not held. */
  hit(userId: string, limit: SendLimit, now: number): { retryAfter: number | null } | undefined {
    const row = this.row(userId);
    if (!row?.held) return undefined;
    const next = hitWindow({ count: row.count, resetAt: row.reset_at }, limit, now);
    this.sql.exec(`UPDATE chat_rate SET count = ?, reset_at = ? WHERE user_id = ?`, next.count, next.resetAt, userId);
    return { retryAfter: next.retryAfter };
  }

  /** Takes a lease the UserHub granted, unless this room already gave that epoch (or a later one) back. */
  take(userId: string, lease: RateLease): void {
    const row = this.row(userId);
    if (row && row.epoch >= lease.epoch) return;
    this.sql.exec(`INSERT OR REPLACE INTO chat_rate (user_id, epoch, held, count, reset_at) VALUES (?, ?, 1, ?, ?)`, userId, lease.epoch, lease.count, lease.resetAt);
  }

  /**
   * Gives the counter of lease `epoch` back: its value if this room held it (asked again, the same value: a UserHub
   * that went away mid-hand-over asks again), else null, and a later grant of that epoch is refused.
   */
  release(userId: string, epoch: number): RateWindow | null {
    const row = this.row(userId);
    if (row?.held && row.epoch <= epoch) {
      this.sql.exec(`UPDATE chat_rate SET held = 0, epoch = ? WHERE user_id = ?`, epoch, userId);
      return { count: row.count, resetAt: row.reset_at };
    }
    if (row && !row.held && row.epoch === epoch && row.count >= 0) return { count: row.count, resetAt: row.reset_at };
    // Never held under this epoch (count -1: nothing counted here).
    this.sql.exec(
      `INSERT INTO chat_rate (user_id, epoch, held, count, reset_at) VALUES (?, ?, 0, -1, 0)
       ON CONFLICT (user_id) DO UPDATE SET epoch = max(epoch, excluded.epoch), count = CASE WHEN excluded.epoch > epoch THEN -1 ELSE count END`,
      userId,
      epoch,
    );
    return null;
  }
}
