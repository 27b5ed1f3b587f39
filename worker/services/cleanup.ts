/**
 * Housekeeping, run daily by the Worker's Cron Trigger (wrangler.toml [triggers]): rows that no rule needs any more
 * are deleted, so tables that grow with every login, code and mail stay small. Each rule keeps a margin so that
 * nothing still in use (a live session, a code inside its 10 minutes, a rate-limit window) is touched.
 */
import { and, isNotNull, lt, or } from "drizzle-orm";
import { attendancePendingCheckins, mails, oneTimeCodes, rateLimits, sessions } from "../../db/schema";
import type { ServiceContext } from "../context";

const DAY = 24 * 60 * 60 * 1000;
/** Revoked or expired sessions are kept this long (a device list, a reused token's revocation), then deleted. */
export const ENDED_SESSION_DAYS = 7;
/** Used or expired one-time codes are kept this long. */
export const OLD_CODE_DAYS = 1;
/** The mail outbox keeps this many days. */
export const MAIL_DAYS = 30;

export interface CleanupResult {
  sessions: number;
  codes: number;
  rateLimits: number;
  mails: number;
  pendingCheckins: number;
}

/** Deletes what is older than the margins above, as of `now`, in one batch; answers how many rows went. */
export async function cleanUp(ctx: ServiceContext, now = Date.now()): Promise<CleanupResult> {
  const endedBefore = new Date(now - ENDED_SESSION_DAYS * DAY);
  const codesBefore = new Date(now - OLD_CODE_DAYS * DAY);
  const [s, c, r, m, p] = await ctx.db.batch([
    ctx.db
      .delete(sessions)
      .where(or(and(isNotNull(sessions.revokedAt), lt(sessions.revokedAt, endedBefore)), lt(sessions.expiresAt, endedBefore))),
    ctx.db
      .delete(oneTimeCodes)
      .where(or(and(isNotNull(oneTimeCodes.usedAt), lt(oneTimeCodes.usedAt, codesBefore)), lt(oneTimeCodes.expiresAt, codesBefore))),
    // A window that has ended counts nothing any more (hitRateLimit starts a new one anyway).
    ctx.db.delete(rateLimits).where(lt(rateLimits.resetAt, new Date(now))),
    ctx.db.delete(mails).where(lt(mails.createdAt, new Date(now - MAIL_DAYS * DAY))),
    // QR scans from signed-out phones live 5 minutes (ADR 0018); a day later nothing can redeem them.
    ctx.db.delete(attendancePendingCheckins).where(lt(attendancePendingCheckins.expiresAt, codesBefore)),
  ]);
  return { sessions: s.meta.changes, codes: c.meta.changes, rateLimits: r.meta.changes, mails: m.meta.changes, pendingCheckins: p.meta.changes };
}

