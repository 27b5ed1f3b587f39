/**
 * The one definition of the dates and times people type (lectures, series, tasks, quizzes, groups): a calendar
 * day as YYYY-MM-DD, a wall-clock time as HH:MM, and a moment as an ISO date-time. Each is checked field by field,
 * so a day that does not exist (month 13, 30 February, year 0000) or a time like 25:00 is refused with the
 * field's message rather than rolled over by `Date.parse` (2026-02-30 would become 2 March) or left to throw
 * later (`RangeError: Invalid time value`). Client-safe.
 */
import { z } from "zod";

/** Years we accept: 0001 to 9999 (four digits; there is no year 0). */
const MIN_YEAR = 1;
const MAX_YEAR = 9999;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Whether year, month (1-12) and day name a day of the calendar. */
export function isRealDay(year: number, month: number, day: number): boolean {
  return (
    Number.isInteger(year) && Number.isInteger(month) && Number.isInteger(day) &&
    year >= MIN_YEAR && year <= MAX_YEAR && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)
  );
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
/** YYYY-MM-DDTHH:MM, optional :SS and fraction, optional Z or ±HH:MM (±HHMM); no zone means UTC. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** Whether `value` is YYYY-MM-DD and that day exists. */
export function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  return !!m && isRealDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** Whether `value` is HH:MM on a 24-hour clock (00:00 to 23:59). */
export function isTimeOfDay(value: string): boolean {
  return TIME.test(value);
}

/** Milliseconds since the epoch of an ISO date-time whose every part exists, else null. */
export function parseDateTime(value: string): number | null {
  const m = DATE_TIME.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi, s = "00", fraction = "", zone = "Z"] = m;
  if (!isRealDay(Number(y), Number(mo), Number(d))) return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  let offset = "Z";
  if (zone.toUpperCase() !== "Z") {
    const digits = zone.slice(1).replace(":", "");
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2));
    if (oh > 23 || om > 59) return null;
    offset = `${zone[0]}${digits.slice(0, 2)}:${digits.slice(2)}`;
  }
  const ms = (fraction + "000").slice(0, 3);
  const at = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}${offset}`);
  // The year is asked again in UTC: 9999-12-31T23:59-23:59 is in the year 10000 there, which no date field, ISO
  // string or calendar file can write back.
  return Number.isNaN(at) || !inYears(at) ? null : at;
}

/** Whether an instant falls in the years we accept (0001 to 9999), read in UTC. */
export function inYears(at: number): boolean {
  const year = new Date(at).getUTCFullYear();
  return Number.isFinite(at) && year >= MIN_YEAR && year <= MAX_YEAR;
}

/** The default message for a well-formed date that does not exist. */
export const NO_SUCH_DATE = "That date does not exist.";
/** The default message for a well-formed date-time whose day or time does not exist. */
export const NO_SUCH_MOMENT = "That date or time does not exist.";

/**
 * A calendar day as "YYYY-MM-DD" (kept as that string). `format` answers a value of the wrong shape, `impossible`
 * a day that is not in the calendar.
 */
export const calendarDate = (format: string, impossible: string = NO_SUCH_DATE) =>
  z
    .string({ error: format })
    .trim()
    .regex(DATE, format)
    .refine((v) => !DATE.test(v) || isCalendarDate(v), impossible);

/** An IANA time zone the runtime knows ("Africa/Cairo"). */
export const timeZone = (message = "Unknown time zone.") =>
  z
    .string({ error: message })
    .trim()
    .max(64, message)
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat("en", { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, message);

/** A wall-clock time as "HH:MM" (24-hour, 00:00 to 23:59). */
export const timeOfDay = (message: string) => z.string({ error: message }).trim().regex(TIME, message);

/**
 * A moment as an ISO date-time ("2026-12-01T18:00:00.000Z", with an offset, or without one for UTC), turned into
 * milliseconds since the epoch. `format` answers a value of the wrong shape, `impossible` a day or time that does
 * not exist.
 */
export const dateTime = (format: string, impossible: string = NO_SUCH_MOMENT) =>
  z
    .string({ error: format })
    .trim()
    .max(40, format)
    .refine((v) => DATE_TIME.test(v), format)
    .refine((v) => !DATE_TIME.test(v) || parseDateTime(v) !== null, impossible)
    .transform((v) => parseDateTime(v)!);
