/**
 * Small helpers for the foundation and realtime integration tests: unique values, direct inserts,
 * a production-like env for calling the Worker or the API app directly, and a websocket collector.
 * Every insert gets random ids and slugs, so tests in one file (which share a database) never collide.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { getTableColumns } from "drizzle-orm";
import { createDb } from "../../db/client";
import * as s from "../../db/schema";
import { createServiceContext, type ServiceContext } from "../../worker/context";
import type { Bindings } from "../../worker/env";
import { newId } from "../../worker/services/ids";
import { counted, watchAnswers } from "../../worker/http/d1-session";

export const db = () => createDb(env.DB);

/** A short random suffix for slugs, e-mails and IPs. */
export function unique(prefix = "t"): string {
  return `${prefix}-${newId().slice(0, 10).toLowerCase().replace(/[^a-z0-9]/g, "x")}`;
}

/** A random private IPv4 address, so rate-limit buckets never collide between tests. */
export function randomIp(): string {
  const b = crypto.getRandomValues(new Uint8Array(3));
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

export async function insertUser(over: Partial<typeof s.users.$inferInsert> = {}) {
  const slug = unique("user");
  const row = { id: newId(), slug, name: `User ${slug}`, email: `${slug}@test.example`, role: "user" as const, ...over };
  await db().insert(s.users).values(row);
  return row;
}

export async function insertGroup(over: Partial<typeof s.groups.$inferInsert> = {}) {
  const slug = unique("group");
  const row = { id: newId(), slug, title: `Group ${slug}`, status: "published" as const, startDate: "2027-01-01", ...over };
  await db().insert(s.groups).values(row);
  return row;
}

export async function insertFeedback(over: Partial<typeof s.feedback.$inferInsert> = {}) {
  const slug = unique("fb");
  const row = {
    id: newId(),
    name: `Student ${slug}`,
    email: `${slug}@test.example`,
    groupSlug: "frontend-react",
    userFeedback: `Feedback ${slug}`,
    rating: 4,
    ...over,
  };
  await db().insert(s.feedback).values(row);
  return row;
}

/** A ServiceContext over the test env whose background work the caller can await. */
export function serviceContext(bindings: Bindings = env): { ctx: ServiceContext; settle: () => Promise<void> } {
  const pending: Promise<unknown>[] = [];
  const ctx = createServiceContext(bindings, { waitUntil: (p) => void pending.push(p) });
  return { ctx, settle: async () => void (await Promise.all(pending)) };
}

/** The test env as a production deployment would see it (valid secrets, no dev helpers). */
export function productionEnv(): Bindings {
  return {
    ...env,
    ENVIRONMENT: "production",
    AUTH_SECRET: "x".repeat(40),
    PASSWORD_PEPPER: "y".repeat(20),
    // The shape of a key of one's own (no test signs with it).
    CERTIFICATE_SIGNING_KEY: JSON.stringify({ kty: "RSA", n: "production-modulus", e: "AQAB", d: "production-exponent" }),
  };
}

type IncomingRequest = Request<unknown, IncomingRequestCfProperties>;

/** Calls a fetch handler with a fresh ExecutionContext and waits for its background work. */
export async function callHandler(
  handler: { fetch: (req: IncomingRequest, env: Bindings, ctx: ExecutionContext) => Response | Promise<Response> },
  request: Request,
  bindings: Bindings,
): Promise<Response> {
  const ctx = createExecutionContext();
  // A test request has no Cloudflare `cf` properties; the handlers do not read them.
  const res = await handler.fetch(request as IncomingRequest, bindings, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, timeoutMs = 2_000, what = "condition"): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A ServiceContext whose D1 binding counts every statement prepared on it. */
export function countingContext() {
  const counter = counted(env.DB);
  const { ctx } = serviceContext({ ...env, DB: counter.db });
  return { ctx, count: counter.count, reset: counter.reset };
}

/**
 * A ServiceContext whose D1 binding adds up the size of what every read answered (its rows as JSON, without the
 * answers' timing metadata): a list that reads columns it never shows grows with them.
 */
export function readingContext() {
  let bytes = 0;
  // An answer's rows: a batch's answers each, a statement's `results` without its meta; `raw` rows as they are.
  const rowsOf = (answer: unknown): unknown => {
    if (Array.isArray(answer)) return answer.map(rowsOf);
    return answer && typeof answer === "object" && "results" in answer ? (answer as D1Result).results : answer;
  };
  const DB = watchAnswers(env.DB, (answer) =>
    answer.then((value) => {
      bytes += JSON.stringify(rowsOf(value) ?? null).length;
      return value;
    }),
  );
  return { ctx: serviceContext({ ...env, DB }).ctx, bytes: () => bytes, reset: () => void (bytes = 0) };
}

/** Inserts in slices that stay under D1's limit on bound parameters per statement. */
export async function insertAll<T extends Record<string, unknown>>(table: Parameters<ReturnType<typeof db>["insert"]>[0], rows: T[]) {
  // Every column may be bound (defaults included), so slice by the table's width, not the row's keys.
  const perRow = Math.max(Object.keys(rows[0] ?? {}).length, Object.keys(getTableColumns(table as never)).length);
  const slice = Math.max(1, Math.floor(90 / perRow));
  for (let i = 0; i < rows.length; i += slice) await db().insert(table).values(rows.slice(i, i + slice) as never);
}

/**
 * An isolate trusts the content version behind cached public answers for one second (ADR 0029). A test that
 * writes straight into D1 (as another isolate, a cron or a Durable Object would) and then reads a cached public
 * answer (the landing page, the catalogue, a course's pages, `GET /api/feedback`) waits this long first.
 */
export function aSecondLater(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1000 + 10));
}

/**
 * A service context whose D1 runs `first` once, to its end, just before the first statement matching `when` (a SQL
 * pattern; alone, or the first batch that holds it) or the first batch ("batch"): another request's whole write
 * landing between this one's reads and writes.
 */
export function gatedContext(when: RegExp | "batch", first: () => Promise<unknown>) {
  let pending: (() => Promise<unknown>) | null = first;
  const gate = async () => {
    const run = pending;
    pending = null;
    if (run) await run();
  };
  const db = env.DB;
  // The statements a matching query made, by the proxy handed out: a batch is given the statements themselves.
  const originals = new WeakMap<object, D1PreparedStatement>();
  const gated = new Proxy(db, {
    get(target, prop) {
      if (prop === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          if (when === "batch" || statements.some((st) => originals.has(st))) await gate();
          return target.batch(statements.map((st) => originals.get(st) ?? st));
        };
      }
      if (prop === "prepare" && when !== "batch") {
        return (query: string) => {
          const statement = target.prepare(query);
          if (!when.test(query)) return statement;
          const wrap = (stmt: D1PreparedStatement): D1PreparedStatement => {
            const proxy = new Proxy(stmt, {
              get(t, p) {
                if (p === "bind") return (...values: unknown[]) => wrap(t.bind(...values));
                if (p === "all" || p === "raw" || p === "run" || p === "first") return async (...args: unknown[]) => (await gate(), (t[p] as (...a: unknown[]) => unknown).apply(t, args));
                const v = Reflect.get(t, p, t) as unknown;
                return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(t) : v;
              },
            });
            originals.set(proxy, stmt);
            return proxy;
          };
          return wrap(statement);
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return serviceContext({ ...env, DB: gated }).ctx;
}
