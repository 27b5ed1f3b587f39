import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

export type Database = ReturnType<typeof createDb>;

/** A Drizzle client over the D1 binding. Cheap to create; make one per request. */
export function createDb(d1: D1Database) {
  return drizzle(d1, { schema });
}

export { schema };
