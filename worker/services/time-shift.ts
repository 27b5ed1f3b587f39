/**
 * Moving a course in time (issue 22): every date moves by whole days and keeps its wall-clock hour in the group's
 * time zone, across daylight-saving changes. The move is written as one SQL expression, so a copy shifts every row
 * of a table in the same INSERT ... SELECT, whatever the number of rows.
 */
import { sql, type SQL } from "drizzle-orm";

const DAY = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The zone's offset from UTC at an instant, in milliseconds (wall clock = instant + offset). */
export function zoneOffset(at: number, timeZone: string): number {
  const parts = Object.fromEntries(formatter(timeZone).formatToParts(new Date(at)).map((p) => [p.type, p.value]));
  // Not Date.UTC, which reads the years 0-99 as 1900-1999.
  const wall = new Date(0);
  wall.setUTCFullYear(+parts.year!, +parts.month! - 1, +parts.day!);
  wall.setUTCHours(+parts.hour!, +parts.minute!, +parts.second!, 0);
  return wall.getTime() - Math.floor(at / 1000) * 1000;
}

/** The calendar day (YYYY-MM-DD) of an instant in a zone. */
export function zonedDay(at: number, timeZone: string): string {
  return new Date(at + zoneOffset(at, timeZone)).toISOString().slice(0, 10);
}

/** Whole days from one calendar day to another (YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY);
}

/**
 * Zones change their offset at most a few times a year, never twice within a week: the search steps a week at a time
 * and bisects to the second. Only the 100 years around now are searched (a date further out keeps the offset at the
 * span's edge), so a far-off date cannot make the work or the SQL grow without bound.
 */
const STEP = 7 * DAY;
const REACH = 50 * 365 * DAY;

/** The offset at `from`, then each change of offset up to `to`. */
export function offsetSteps(timeZone: string, from: number, to: number, now = Date.now()): { first: number; changes: { at: number; offset: number }[] } {
  from = Math.max(from, now - REACH);
  to = Math.min(to, now + REACH);
  const first = zoneOffset(from, timeZone);
  const changes: { at: number; offset: number }[] = [];
  let prev = first;
  for (let t = from; t < to; ) {
    const next = Math.min(t + STEP, to);
    const offset = zoneOffset(next, timeZone);
    if (offset !== prev) {
      let lo = t;
      let hi = next;
      while (hi - lo > 1000) {
        const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
        if (zoneOffset(mid, timeZone) === prev) lo = mid;
        else hi = mid;
      }
      changes.push({ at: hi, offset });
      prev = offset;
    }
    t = next;
  }
  return { first, changes };
}

/**
 * The move of one instant (the rule the SQL expression follows): `days` later at the same wall-clock time, read in
 * `fromZone` and written in `toZone` (the same zone unless a copy moves the course to another).
 */
export function shiftInstant(at: number, days: number, fromZone: string, toZone = fromZone): number {
  const moved = at + days * DAY;
  // The wall-clock time wanted, written as if it were UTC; the instant showing it in `toZone` is that less the
  // offset at that instant, which is not known before it is found: a first guess with the offset where the day moved
  // to, then the offset at the guess (they differ when a clock change lies between the two, up to the zones' gap).
  const wall = moved + zoneOffset(at, fromZone);
  const guess = wall - zoneOffset(moved, toZone);
  return wall - zoneOffset(guess, toZone);
}

function int(n: number): SQL {
  if (!Number.isSafeInteger(n)) throw new Error(`Not an integer: ${n}`);
  return sql.raw(String(n));
}

/** A CASE expression: the zone's offset at instant `x`, for instants within the span the steps were found in. */
function offsetCase(x: SQL, steps: { first: number; changes: { at: number; offset: number }[] }): SQL {
  const { first, changes } = steps;
  if (changes.length === 0) return int(first);
  const arms = [sql`CASE WHEN ${x} < ${int(changes[0]!.at)} THEN ${int(first)}`];
  for (let i = 0; i < changes.length - 1; i++) arms.push(sql` WHEN ${x} < ${int(changes[i + 1]!.at)} THEN ${int(changes[i]!.offset)}`);
  arms.push(sql` ELSE ${int(changes[changes.length - 1]!.offset)} END`);
  return sql.join(arms, sql``);
}

/**
 * An SQL expression for `column` moved as `shiftInstant` moves an instant, valid for values in [from, to] (NULL stays
 * NULL). Its size grows with the zones' offset changes within the source's and the target's spans, never with rows.
 */
export function shiftSql(column: SQL, days: number, fromZone: string, toZone: string, from: number, to: number): SQL {
  const delta = days * DAY;
  const source = offsetSteps(fromZone, from - DAY, to + DAY);
  // The guess of shiftInstant lies within two zones' offsets (under 28 hours) of the moved instant.
  const target = offsetSteps(toZone, from + delta - 2 * DAY, to + delta + 2 * DAY);
  const moved = sql`(${column} + ${int(delta)})`;
  if (source.changes.length === 0 && target.changes.length === 0) return sql`(${column} + ${int(delta + source.first - target.first)})`;
  const wall = sql`(${moved} + ${offsetCase(column, source)})`;
  const guess = sql`(${wall} - ${offsetCase(moved, target)})`;
  return sql`(${wall} - ${offsetCase(guess, target)})`;
}
