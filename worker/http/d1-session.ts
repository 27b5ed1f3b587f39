/**
 * Reads near the visitor (D1 read replication through the Sessions API, ADR 0024).
 *
 * Every request runs its queries in one D1 session. A read-only request without history starts anywhere
 * ("first-unconstrained": the replica nearest the visitor); a write starts on the primary ("first-primary"). After a
 * request that wrote, or of a signed-in visitor, and was not refused, the session's bookmark goes back to the
 * browser in a cookie, and
 * that visitor's next requests start their session from it: whatever replica answers has caught up with their own
 * writes, so nobody ever reads a page older than what they just did. Anonymous reads set no cookie (their pages
 * are shared through the edge cache).
 *
 * The session (its reads coalesced into one call per turn of the event loop, d1-coalesce.ts) is handed to the
 * services as the `DB` binding itself, so every query of the request (Drizzle's and
 * the raw batches of the course copy) runs in it. Durable Objects, alarms and crons keep the plain binding.
 */
import { hasSessionCookie, isSecureOrigin, readCookie, serializeCookie } from "../auth/cookies";
import type { Bindings } from "../env";
import { coalescing } from "./d1-coalesce";

export const BOOKMARK_COOKIE = "cohort_d1";
/** Long enough for any replica to catch up many times over; short enough that a stale cookie costs nothing. */
const BOOKMARK_MAX_AGE_SECONDS = 10 * 60;
/** D1 bookmarks are opaque but short and URL-safe; anything else is not ours and is ignored. */
const BOOKMARK = /^[A-Za-z0-9._:-]{1,200}$/;
/** Methods that change nothing: their sessions may start on any replica. */
export const READS = new Set(["GET", "HEAD", "OPTIONS"]);

export function bookmarkFrom(request: Request): string | null {
  const value = readCookie(request, BOOKMARK_COOKIE);
  return value && BOOKMARK.test(value) ? value : null;
}

export interface RequestSession {
  /** The bindings with `DB` replaced by this request's session. */
  env: Bindings;
  /** The same session without holding reads for company: for a request that reads once (a cached page's version). */
  alone: D1Database;
  /** Adds the bookmark cookie to the answer when this visitor must carry it to their next request. */
  finish(response: Response): Response;
}

/**
 * In development only, the session counts the statements it prepares and the answer says how many
 * (`X-D1-Statements`): tests hold each page to a constant number whatever its rows (issue 23). Tests count a
 * service's statements with it too.
 */
export function counted<T extends D1Database | D1DatabaseSession>(db: T): { db: T; count: () => number; reset: () => void } {
  let statements = 0;
  const proxy = new Proxy(db, {
    get(target, prop) {
      if (prop === "prepare") {
        return (query: string) => {
          statements += 1;
          return target.prepare(query);
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db: proxy, count: () => statements, reset: () => void (statements = 0) };
}

/**
 * The database with every answer it gives passed through `watch` (a statement's `all`, `raw`, `first` or `run`, and a
 * `batch`), which returns it (or throws) as it was: for noting what passes, never for changing it.
 */
export function watchAnswers<T extends D1Database | D1DatabaseSession>(db: T, watch: <R>(answer: Promise<R>) => Promise<R>): T {
  const originals = new WeakMap<object, D1PreparedStatement>();
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, prop) {
        if (prop === "bind") return (...values: unknown[]) => wrap(target.bind(...values));
        if (prop === "all" || prop === "raw" || prop === "first" || prop === "run") {
          return (...args: unknown[]) => watch((target[prop] as (...a: unknown[]) => Promise<unknown>).apply(target, args));
        }
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    originals.set(proxy, statement);
    return proxy;
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "prepare") return (query: string) => wrap(target.prepare(query));
      // A batch is given the statements themselves: the binding reads their own fields.
      if (prop === "batch") return (statements: D1PreparedStatement[]) => watch(target.batch(statements.map((st) => originals.get(st) ?? st)));
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * The database with a note of whether any read or write through it failed: a public page rendered for the edge
 * cache shows a failed read as its empty state ("No Courses Available"), which must not be stored for everyone
 * (page-cache.ts).
 */
export function watchFailures<T extends D1Database | D1DatabaseSession>(db: T): { db: T; failed: () => boolean } {
  let failed = false;
  const watched = watchAnswers(db, (answer) =>
    answer.catch((e: unknown) => {
      failed = true;
      throw e;
    }),
  );
  return { db: watched, failed: () => failed };
}

export function openSession(request: Request, env: Bindings): RequestSession {
  const incoming = bookmarkFrom(request);
  const writes = !READS.has(request.method);
  const session = env.DB.withSession(incoming ?? (writes ? "first-primary" : "first-unconstrained"));
  const counter = env.ENVIRONMENT === "development" ? counted(session) : null;
  // The reads issued together go to D1 together (d1-coalesce.ts). Made when the request first needs the bindings:
  // a cached public page's hit reads one version through `alone` and needs neither.
  let together: ReturnType<typeof coalescing> | null = null;
  let bindings: Bindings | null = null;
  return {
    get env() {
      if (!bindings) {
        together = coalescing(counter?.db ?? session);
        bindings = { ...env, DB: together.db as unknown as D1Database };
      }
      return bindings;
    },
    alone: (counter?.db ?? session) as unknown as D1Database,
    finish(response) {
      if (counter && response.status !== 101 && !response.webSocket) {
        response = new Response(response.body, response);
        response.headers.set("X-D1-Statements", String(counter.count()));
        response.headers.set("X-D1-Round-Trips", String(together?.roundTrips() ?? 0));
      }
      // A refused request (4xx, 5xx) changed nothing its sender reads back (a rate-limit count at most), and its answer
      // must not differ by a cookie (a wrong password and an unknown address answer alike).
      if (response.status >= 400) return response;
      const bookmark = session.getBookmark();
      if (!bookmark || bookmark === incoming || !BOOKMARK.test(bookmark)) return response;
      // Only ever move forwards (bookmarks sort in commit order); a plain anonymous read sets nothing.
      if (incoming && bookmark < incoming) return response;
      if (!writes && !incoming && !hasSessionCookie(request)) return response;
      if (response.status === 101 || response.webSocket) return response;
      const res = new Response(response.body, response);
      const secure = isSecureOrigin(new URL(request.url));
      res.headers.append("Set-Cookie", serializeCookie(BOOKMARK_COOKIE, bookmark, { maxAge: BOOKMARK_MAX_AGE_SECONDS, secure }));
      return res;
    },
  };
}
