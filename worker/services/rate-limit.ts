import { sql } from "drizzle-orm";
import { AppError } from "../http/errors";
import type { ServiceContext } from "../context";

export interface Limit {
  /** Requests allowed per window. */
  max: number;
  windowMs: number;
}

/**
 * Counts one hit against `key` in a fixed window and throws 429 (with Retry-After) past the limit.
 * One atomic upsert: concurrent requests cannot both slip under the limit.
 */
export async function hitRateLimit(ctx: ServiceContext, key: string, limit: Limit, message = "Too many requests. Please try again later."): Promise<void> {
  const now = Date.now();
  const resetAt = now + limit.windowMs;
  const rows = await ctx.db.all<{ count: number; reset_at: number }>(sql`
    INSERT INTO rate_limits (key, count, reset_at) VALUES (${key}, 1, ${resetAt})
    ON CONFLICT(key) DO UPDATE SET
      count = CASE WHEN rate_limits.reset_at <= ${now} THEN 1 ELSE rate_limits.count + 1 END,
      reset_at = CASE WHEN rate_limits.reset_at <= ${now} THEN ${resetAt} ELSE rate_limits.reset_at END
    RETURNING count, reset_at`);
  const row = rows[0];
  if (row && row.count > limit.max) {
    const retryAfter = Math.max(1, Math.ceil((row.reset_at - now) / 1000));
    throw new AppError(429, "rate_limited", message, undefined, retryAfter);
  }
}

/**
 * Gives back one hit counted by `hitRateLimit`. Used where only failures should count (a wrong password,
 * a wrong code): the hit is taken before the check, so parallel requests cannot all pass a limit that a
 * "count after failure" scheme would only notice too late, and it is returned when the check succeeds.
 */
export async function refundRateLimit(ctx: ServiceContext, key: string): Promise<void> {
  await ctx.db.run(sql`UPDATE rate_limits SET count = count - 1 WHERE key = ${key} AND count > 0`);
}
