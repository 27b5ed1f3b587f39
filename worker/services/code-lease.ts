/**
 * One student's code runs one at a time. Every hand-in of code (an exercise, a quiz with code questions) runs the
 * student's code in the sandbox for up to its time budget, and the runner is shared: without a bound, one student
 * sending thirty hand-ins at once (or the same quiz hand-in thirty times) queued minutes of work that everyone
 * else's hand-ins waited behind. A lease per student, kept in the `rate_limits` table (one atomic upsert that only
 * takes an expired or absent lease), lets one run through; the others wait a few seconds for it and are then refused
 * (429 with Retry-After), or find what they were waiting for done meanwhile (a quiz's hand-in repeated). A lease
 * outlives a lost isolate by LEASE_MS at most.
 */
import { sql } from "drizzle-orm";
import type { ServiceContext } from "../context";
import { AppError } from "../http/errors";

/** Longer than any one hand-in's runs (a quiz's code questions, each within the sandbox's budget). */
const LEASE_MS = 60_000;
/** How long a second hand-in waits for the first before it is refused. */
const WAIT_MS = 8_000;
const POLL_MS = 200;

export const BUSY_MESSAGE = "Your last hand-in is still being checked. Try again in a moment.";

const keyOf = (userId: string) => `code-run:${userId}`;

/**
 * How long a lease must last for `runs` runs of code one after another (each within the sandbox's 6 s budget, ADR
 * 0016), and never less than LEASE_MS: a quiz of fifty code questions outlasts a minute.
 */
export const leaseFor = (runs: number) => Math.max(LEASE_MS, runs * 6_000 + 10_000);

export interface CodeLease {
  /** Gives the lease back (only this one: a lease taken over after expiry is not touched). */
  release(): Promise<void>;
}

/** Takes the lease `key` for `ms` if it is free (or expired), in one atomic upsert; null while another holds it. */
async function tryTake(ctx: ServiceContext, key: string, ms: number): Promise<CodeLease | null> {
  const now = Date.now();
  const until = now + ms;
  const rows = await ctx.db.all<{ reset_at: number }>(sql`
    INSERT INTO rate_limits (key, count, reset_at) VALUES (${key}, 1, ${until})
    ON CONFLICT(key) DO UPDATE SET count = 1, reset_at = ${until} WHERE rate_limits.reset_at <= ${now}
    RETURNING reset_at`);
  if (rows.length === 0) return null;
  return { release: () => ctx.db.run(sql`DELETE FROM rate_limits WHERE key = ${key} AND reset_at = ${until}`).then(() => undefined) };
}

/**
 * Waits up to WAIT_MS for the lease `key`. `meanwhile`, asked between tries, may answer what the caller waited for (a
 * hand-in another request finished): then that answer comes back instead of a lease. Past the wait, `busy()`.
 */
async function waitFor<T>(ctx: ServiceContext, key: string, ms: number, busy: () => AppError, meanwhile?: () => Promise<T | null>): Promise<{ lease: CodeLease } | { instead: T }> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const lease = await tryTake(ctx, key, ms);
    if (lease) return { lease };
    const done = meanwhile ? await meanwhile() : null;
    if (done !== null) return { instead: done };
    if (Date.now() >= deadline) throw busy();
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Runs `work` holding `lease`, and gives it back whatever happens. */
async function holding<T>(lease: CodeLease, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } finally {
    await lease.release();
  }
}

const codeBusy = () => new AppError(429, "code_busy", BUSY_MESSAGE, undefined, 2);

/**
 * Runs `work` holding the lease `key` (waiting up to WAIT_MS for it, then refusing with `busy`), and gives it back.
 * For work that must not overlap itself across isolates: a quiz's key corrections, which each grade every attempt
 * from what they read.
 */
export async function underLease<T>(ctx: ServiceContext, key: string, busy: () => AppError, work: () => Promise<T>, ms = LEASE_MS): Promise<T> {
  const taken = await waitFor<never>(ctx, key, ms, busy);
  return holding((taken as { lease: CodeLease }).lease, work);
}

/**
 * The student's lease for a hand-in (waiting for it as above; past the wait, 429 `code_busy`). `handedIn`, asked while
 * waiting and once more when the lease is taken (it may be free because that other run has just ended), answers the
 * result the caller would make again: then that result comes back, and no lease is held.
 */
export async function takeCodeLease<T>(ctx: ServiceContext, userId: string, handedIn: () => Promise<T | null>, ms = LEASE_MS): Promise<{ lease: CodeLease } | { instead: T }> {
  const taken = await waitFor(ctx, keyOf(userId), ms, codeBusy, handedIn);
  if (!("lease" in taken)) return taken;
  const done = await handedIn();
  if (done === null) return taken;
  await taken.lease.release();
  return { instead: done };
}

/**
 * Runs `work` holding the lease `key` if it is free now, and gives it back; `busy()` at once otherwise. For work that
 * lasts minutes (an exercise's tests run again on every hand-in), where waiting for the other run helps nobody.
 */
export async function underLeaseNow<T>(ctx: ServiceContext, key: string, busy: () => AppError, work: () => Promise<T>, ms: number): Promise<T> {
  const lease = await tryTake(ctx, key, ms);
  if (!lease) throw busy();
  return holding(lease, work);
}

/** Runs `work` under the student's lease (waiting for it as above), and gives the lease back whatever happens. */
export const underCodeLease = <T>(ctx: ServiceContext, userId: string, work: () => Promise<T>, ms = LEASE_MS): Promise<T> => underLease(ctx, keyOf(userId), codeBusy, work, ms);

/** `work` under the student's lease if it is free now, without waiting; null when their code is busy (background checks skip their run). */
export async function ifCodeLeaseFree<T>(ctx: ServiceContext, userId: string, work: () => Promise<T>): Promise<T | null> {
  const lease = await tryTake(ctx, keyOf(userId), LEASE_MS);
  return lease ? holding(lease, work) : null;
}
