import { sql } from "drizzle-orm";

/**
 * When a lecture took place, for who joined after it: its start, or when its attendance first opened. A fragment over
 * the `lectures` row in scope: progress's "work from before joining" and the absences a closed session marks read the
 * same moment (ADR 54, ADR 65).
 */
export const lectureTime = sql<number | null>`coalesce("lectures"."starts_at", (select min(s."opens_at") from "attendance_sessions" s where s."lecture_id" = "lectures"."id"))`;
