/**
 * Read-ahead for signed-in pages (ADR 0033): a page starts from the rows this isolate saw the last time the same user
 * asked for the same thing, reads them afresh in the same call to D1 as everything else, and is sent only if the
 * fresh rows are the same. If one differs (a rename, a membership changed, a group deleted), the page is rendered
 * again from the database (worker/pages.ts), exactly as ADR 0030 does for a viewer hint that no longer holds.
 *
 * Why: every group page found its group first (by the slug in the address, with the viewer's membership) and only
 * then read its lists by the group's id: two calls to D1 one after the other, at the edge two round trips to the
 * replica. With the group row assumed, the lists start at once and the whole page is one call.
 *
 * The kept rows are plain values in one bounded map per isolate (never promises: an isolate serves many requests at
 * once, and a request must not wait on I/O another request started; ADR 0029). A kept row is only ever a guess; what
 * is sent is decided by the fresh read of the same request.
 */

import type { ServiceContext } from "../context";

/** How many rows an isolate keeps (about half a kilobyte each). The oldest is dropped first. */
export const READ_AHEAD_MAX_ROWS = 500;

const kept = new Map<string, unknown>();

/** Files the row the database gave for `key` (null: there is none), for the next request that asks for it. */
export function keepRow(key: string, row: unknown): void {
  kept.delete(key);
  if (row === null || row === undefined) return;
  kept.set(key, row);
  if (kept.size > READ_AHEAD_MAX_ROWS) kept.delete(kept.keys().next().value as string);
}

/** One page render's assumptions: the kept rows it started from, each with the fresh read it must equal. */
export interface ReadAhead {
  /** The row kept for `key`, or undefined (none kept, or the render's assumptions are closed). */
  assume<T>(key: string): T | undefined;
  /** `assumed` was used in place of what `fresh` answers; the page is sent only if they are equal. */
  check(assumed: unknown, fresh: Promise<unknown>): void;
  /**
   * Whether every assumption made so far held (false when one differed or its read failed). Closes the render: a
   * read after this (a part streamed late) reads the database, it assumes nothing.
   */
  held(): Promise<boolean>;
  /**
   * Keeps an error of this render to be logged only if the render is sent (true), or answers false once the render
   * is closed (log it now). A render started from a row that has since changed may fail in ways the database, read
   * consistently, never would (a removed member's progress); such a render is dropped, and its errors with it.
   */
  defer(error: unknown): boolean;
  /** The errors kept by `defer`: what the render that is being sent would have logged. */
  deferred(): unknown[];
}

export function readAhead(): ReadAhead {
  const checks: Promise<boolean>[] = [];
  const errors: unknown[] = [];
  let open = true;
  return {
    assume<T>(key: string) {
      return open ? (kept.get(key) as T | undefined) : undefined;
    },
    check(assumed, fresh) {
      const expected = JSON.stringify(assumed);
      checks.push(fresh.then((row) => JSON.stringify(row ?? null) === expected, () => false));
    },
    async held() {
      open = false;
      return (await Promise.all(checks)).every(Boolean);
    },
    defer(error) {
      if (open) errors.push(error);
      return open;
    },
    deferred: () => errors,
  };
}

/**
 * The row `read` gives for `key`, kept for the requests after this one (under `alsoKeys` too: the same row asked for
 * by its id and by its slug). During a signed-in page's render the row kept from an earlier request is answered at
 * once instead, and the fresh read, started all the same, is checked against it before the page is sent.
 */
export async function readOrAssume<T>(ctx: ServiceContext, key: string, read: () => Promise<T | undefined>, alsoKeys: (row: T) => string[] = () => []): Promise<T | null> {
  const fresh = read().then((row) => {
    keepRow(key, row);
    if (row) for (const k of alsoKeys(row)) keepRow(k, row);
    return row ?? null;
  });
  const assumed = ctx.readAhead?.assume<T>(key);
  if (assumed === undefined) return fresh;
  ctx.readAhead!.check(assumed, fresh);
  return assumed;
}

/**
 * A row found by the id or the slug a page asks for it with, as `userId` may see it (a group with their membership,
 * a lecture with its group's facts): read once per request whichever of the two later callers ask by (readOrAssume).
 */
export function rowFor<T extends { id: string; slug: string }>(
  ctx: ServiceContext,
  kind: string,
  userId: string,
  idOrSlug: string,
  read: () => Promise<T | undefined>,
): Promise<T | null> {
  const keyOf = (k: string) => `${kind}:${userId}:${k}`;
  return ctx.memo(keyOf(idOrSlug), async () => {
    const row = await readOrAssume(ctx, keyOf(idOrSlug), read, (r) => [keyOf(r.id), keyOf(r.slug)]);
    if (!row) return null;
    ctx.remember(keyOf(row.id), row);
    ctx.remember(keyOf(row.slug), row);
    return row;
  });
}
