import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

export type Database = ReturnType<typeof createDb>;

/**
 * A Drizzle client over the D1 binding (or the request's D1 session). Cheap to create; make one per request.
 * Without `{ schema }`: the code uses the query builder only, and the relational config Drizzle would derive from
 * the whole schema on every call cost about a millisecond per request (issue 23).
 */
export function createDb(d1: D1Database) {
  return drizzle(d1);
}

export { schema };
