/**
 * A student's own due time or close (extensions, issue 21). An extension only ever gives more time: the student's
 * time is the later of the work's own and their extension's, and there is none when the work has none (a task with
 * no due time, a quiz that never closes). Staff may move the work's own time past an extension they gave earlier;
 * the extension then changes nothing, instead of closing the work early for that one student (and opening their
 * review while the rest of the group can still answer). One rule, read by the task and quiz rules, the lists, the
 * calendar and progress.
 */
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

export function ownTime(base: Date | null, extended: Date | null | undefined): Date | null {
  if (base === null) return null;
  if (!extended || extended.getTime() <= base.getTime()) return base;
  return extended;
}

/** Whether the extension's time is later than the work's own, so that it changes the student's time at all. */
export function extendsTime(base: Date | null, extended: Date | null | undefined): extended is Date {
  return base !== null && !!extended && extended.getTime() > base.getTime();
}

/**
 * `ownTime` in SQL, over columns stored as milliseconds: SQLite's `max` of several values is null when one of them is,
 * so work without a time keeps none.
 */
export const ownTimeSql = (base: SQLWrapper | SQL, extended: SQLWrapper | SQL) => sql<number | null>`max(${base}, coalesce(${extended}, ${base}))`;
