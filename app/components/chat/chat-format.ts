import { localeOf, type Lang } from "~/i18n/config";
import { dateTimeFormat } from "~/lib/intl-cache";

const locale = localeOf;

/**
 * The server renders in UTC and cannot know the reader's time zone; the first client render must match it,
 * so callers pass `timeZone: "UTC"` until hydration and the reader's own zone (undefined) afterwards.
 */
export interface ZoneOption {
  timeZone?: string;
}

/** "14:05" in the reader's language. */
export function formatTime(iso: string, lang: Lang, { timeZone }: ZoneOption = {}): string {
  return dateTimeFormat(locale(lang), { hour: "numeric", minute: "2-digit", timeZone }).format(new Date(iso));
}

/** "21 November 2026 at 14:05", for a title attribute. */
export function formatFull(iso: string, lang: Lang, { timeZone }: ZoneOption = {}): string {
  return dateTimeFormat(locale(lang), { dateStyle: "full", timeStyle: "short", timeZone }).format(new Date(iso));
}

/** A calendar day as a stable key ("2026-11-21") in the given zone. */
export function dayKey(iso: string, { timeZone }: ZoneOption = {}): string {
  return dateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit", timeZone }).format(new Date(iso));
}

/**
 * "Today", "Yesterday" (through `relative`) or "Friday, 21 November 2026". `now` is null until the page runs in
 * the browser (the server's "today" may not be the reader's): the date is written out then.
 */
export function dayLabel(iso: string, lang: Lang, zone: ZoneOption, now: number | null, relative: { today: string; yesterday: string }): string {
  const key = dayKey(iso, zone);
  if (now !== null && key === dayKey(new Date(now).toISOString(), zone)) return relative.today;
  if (now !== null && key === dayKey(new Date(now - 86_400_000).toISOString(), zone)) return relative.yesterday;
  return dateTimeFormat(locale(lang), { weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: zone.timeZone }).format(new Date(iso));
}

/** The first line of a message, shortened, for quotes and announcements. */
export function snippet(text: string, max = 120): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
