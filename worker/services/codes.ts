/**
 * One-time codes (PRODUCT.md §2): 6 digits, 10 minutes, single use, burned after 5 wrong tries.
 *
 * Limits never let a stranger keep the owner out: wrong codes are counted per address *and client* (IP), so
 * someone guessing from elsewhere burns only the code they guessed at, and a new code from the owner's mailbox
 * works at once. Brute force stays bounded by the code itself (5 tries) and by how many codes can be asked for.
 * Requests for new codes are limited per address and client, per client, and (more generously, against mail
 * bombing) per address, each in windows of 10 minutes: the spec's register screen says "please try again after 10
 * minutes", and that is then true of every limit. A stranger who asks for an address's codes from many places can
 * still hold its owner up, for at most 10 minutes after they stop (ADR 65).
 *
 * Every counter is moved by one atomic statement, so parallel guesses cannot get more tries than allowed:
 * a try is reserved (`attempts = attempts + 1 ... WHERE attempts < 5 RETURNING`) before the code is compared.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { oneTimeCodes } from "../../db/schema";
import { codeMatches, generateCode, hashCode } from "../auth/one-time-code";
import type { ServiceContext } from "../context";
import { AppError } from "../http/errors";
import { newId } from "./ids";
import { hitRateLimit, refundRateLimit, type Limit } from "./rate-limit";
import { CODE_MAX_ATTEMPTS } from "../../app/lib/resend-cooldown";

export type CodePurpose = (typeof oneTimeCodes.$inferSelect)["purpose"];

const MINUTE = 60_000;
export const CODE_TTL_MINUTES = 10;
export { CODE_MAX_ATTEMPTS } from "../../app/lib/resend-cooldown";
/** Wrong codes per e-mail address and client per day, across both purposes. */
export const CODE_FAILURE_LIMIT: Limit = { max: 10, windowMs: 24 * 60 * MINUTE };
/**
 * New codes (register, resend, forgot password) per e-mail address and client, per client, and per address; every
 * window is the 10 minutes the register screen promises (platform-spec §8).
 */
export const CODE_REQUEST_WINDOW_MS = 10 * MINUTE;
export const CODE_REQUEST_LIMIT_EMAIL: Limit = { max: 5, windowMs: CODE_REQUEST_WINDOW_MS };
export const CODE_REQUEST_LIMIT_IP: Limit = { max: 30, windowMs: CODE_REQUEST_WINDOW_MS };
export const CODE_REQUEST_LIMIT_ADDRESS_TOTAL: Limit = { max: 10, windowMs: CODE_REQUEST_WINDOW_MS };

const TOO_MANY_REQUESTS = "Too many codes requested. Please try again later.";
const TOO_MANY_FAILURES = "Too many wrong codes. Please try again tomorrow.";

/**
 * Counts one request for a new code against the address and the caller's IP (429 past either limit), refused with
 * `message` (registration says the spec's own sentence).
 */
export async function limitCodeRequests(ctx: ServiceContext, email: string, message = TOO_MANY_REQUESTS): Promise<void> {
  await hitRateLimit(ctx, `code-request:ip:${ctx.ip}`, CODE_REQUEST_LIMIT_IP, message);
  await hitRateLimit(ctx, `code-request:email:${email}:ip:${ctx.ip}`, CODE_REQUEST_LIMIT_EMAIL, message);
  await hitRateLimit(ctx, `code-request:email:${email}`, CODE_REQUEST_LIMIT_ADDRESS_TOTAL, message);
}

/** Creates a new code for a user and purpose, retiring any earlier one, and returns it (to be e-mailed). */
export async function issueCode(ctx: ServiceContext, userId: string, purpose: CodePurpose): Promise<string> {
  const code = generateCode();
  const now = Date.now();
  await ctx.db.batch([
    // An earlier unused code is retired (marked used) so only the newest one works.
    ctx.db
      .update(oneTimeCodes)
      .set({ usedAt: new Date(now) })
      .where(and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, purpose), isNull(oneTimeCodes.usedAt))),
    ctx.db.insert(oneTimeCodes).values({
      id: newId(),
      userId,
      purpose,
      codeHash: await hashCode(ctx.settings, purpose, userId, code),
      expiresAt: new Date(now + CODE_TTL_MINUTES * MINUTE),
      createdAt: new Date(now),
    }),
  ]);
  return code;
}

export interface CodeAttempt {
  /** The address the code was asked for (the daily failure limit is per address, known or not). */
  email: string;
  /** The account, or null when the address has no account in a state that can use this code. */
  userId: string | null;
  purpose: CodePurpose;
  code: string;
  /** The error to answer for a wrong, expired or used code, and the form field it belongs to. */
  failure: { message: string; field: string };
}

/**
 * Uses up a code and returns the id of the user it belonged to. Throws 400 `invalid_code` (with the caller's
 * wording) for a wrong, expired, used or burned code or an unknown account, all alike, and 429 past the daily
 * failure limit.
 */
export async function consumeCode(ctx: ServiceContext, attempt: CodeAttempt): Promise<string> {
  const failKey = `code-failures:${attempt.email}:ip:${ctx.ip}`;
  // Reserve a failure first; it is given back when the code turns out right.
  await hitRateLimit(ctx, failKey, CODE_FAILURE_LIMIT, TOO_MANY_FAILURES);
  if (attempt.userId && (await tryCode(ctx, attempt.userId, attempt.purpose, attempt.code))) {
    await refundRateLimit(ctx, failKey);
    return attempt.userId;
  }
  throw new AppError(400, "invalid_code", attempt.failure.message, { [attempt.failure.field]: attempt.failure.message });
}

async function tryCode(ctx: ServiceContext, userId: string, purpose: CodePurpose, code: string): Promise<boolean> {
  const now = Date.now();
  const [reserved] = await ctx.db.all<{ id: string; code_hash: string }>(sql`
    UPDATE one_time_codes SET attempts = attempts + 1
    WHERE id = (
        SELECT id FROM one_time_codes
        WHERE user_id = ${userId} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > ${now}
        ORDER BY created_at DESC LIMIT 1)
      AND attempts < ${CODE_MAX_ATTEMPTS}
    RETURNING id, code_hash`);
  if (!reserved || !(await codeMatches(ctx.settings, purpose, userId, code, reserved.code_hash))) return false;
  const used = await ctx.db
    .update(oneTimeCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(oneTimeCodes.id, reserved.id), isNull(oneTimeCodes.usedAt)))
    .returning({ id: oneTimeCodes.id });
  return used.length === 1;
}
