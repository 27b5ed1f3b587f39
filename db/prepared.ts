/**
 * Statements built once per isolate (issue 23, ADR 0031).
 *
 * Drizzle builds a query's SQL text from its builder every time it runs: for the statements every signed-in page
 * runs (the session with the header's figures, a group with the viewer's membership) that is a tenth of a page's
 * work in the Worker, to produce the same text every time. Here such a query is built and prepared once, with
 * bound parameters named with `sql.placeholder` for what changes per request; each request then gets its own copy bound to its own
 * D1 session (which coalesces and counts it like any other statement), and runs it with its values.
 *
 * Drizzle's D1 prepared query keeps the D1 statement it runs in `stmt` and reads only that: the per-request copy
 * replaces it. `tests/integration/prepared.test.ts` checks that a prepared query answers as the built-per-request one
 * does and goes through the request's session, so a Drizzle upgrade that changes this fails there.
 */
import type { ServiceContext } from "../worker/context";
import { createDb, type Database } from "./client";

/** What this file needs of Drizzle's prepared query; `stmt` is D1PreparedQuery's own (see above). */
interface PreparedQuery {
  getQuery(): { sql: string };
}
type WithStatement = { stmt: D1PreparedStatement | null };

/**
 * The Drizzle client templates are built with: over no database at all (its `prepare` returns an inert object),
 * so building one prepares nothing on any request's session.
 */
const builder: Database = createDb({ prepare: () => ({}) } as unknown as D1Database);
const templates = new Map<string, PreparedQuery>();

/**
 * The query `build` makes with the client it is given (built and prepared on first use in this isolate, under
 * `key`), bound to this request's D1 session. `build` must not capture per-request values: those go in
 * named parameters (`sql.placeholder`), whose values are given when it runs.
 */
export function preparedOnce<P extends PreparedQuery>(ctx: ServiceContext, key: string, build: (db: Database) => { prepare(): P }): P {
  let template = templates.get(key) as P | undefined;
  if (!template) {
    template = build(builder).prepare();
    if (!("stmt" in template)) throw new Error("Drizzle's prepared query no longer keeps its D1 statement in `stmt`: see db/prepared.ts");
    (template as unknown as WithStatement).stmt = null;
    templates.set(key, template);
  }
  const own = Object.create(template) as P;
  (own as unknown as WithStatement).stmt = ctx.env.DB.prepare(template.getQuery().sql);
  return own;
}
