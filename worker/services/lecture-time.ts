import { sql, type Placeholder } from "drizzle-orm";
import { memberships } from "../../db/schema";

/** A value of the query, or a named parameter of a query built once (db/prepared.ts). */
export type Value<T> = T | Placeholder;

/**
 * When a lecture took place, for who joined after it: its start, or when its attendance first opened. A fragment over
 * the `lectures` row in scope: progress's "work from before joining" and the absences a closed session marks read the
 * same moment (ADR 54, ADR 65).
 */
export const lectureTime = sql<number | null>`coalesce("lectures"."starts_at", (select min(s."opens_at") from "attendance_sessions" s where s."lecture_id" = "lectures"."id"))`;

// Written with qualified names: drizzle leaves columns unqualified in a one-table select, where "id" inside the
// subqueries would mean the session's own id.
/** The lecture's attendance is open right now: a session has opened and has not closed. */
export const openSql = (now: Value<number>) =>
  sql<number>`exists (select 1 from "attendance_sessions" s where s."lecture_id" = "lectures"."id" and s."opens_at" <= ${now} and (s."closes_at" is null or s."closes_at" > ${now}))`;
/**
 * A lecture counts as held once its start has passed (published lectures) or its attendance has been opened, but
 * not while its attendance is open: until it closes, a student without a record may still check in.
 */
export const heldSql = (now: Value<number>) =>
  sql<number>`((("lectures"."published" = 1 and "lectures"."starts_at" <= ${now}) or exists (select 1 from "attendance_sessions" s where s."lecture_id" = "lectures"."id" and s."opens_at" <= ${now})) and not ${openSql(now)})`;

/**
 * The member of the `memberships` row in scope joined after the lecture in scope took place (ADR 54): without a record
 * of it, it counts nowhere for them. A membership from before joining times were kept (null) joined before.
 */
export const joinedAfterSql = sql<number>`(${memberships.joinedAt} is not null and ${memberships.joinedAt} > ${lectureTime})`;
