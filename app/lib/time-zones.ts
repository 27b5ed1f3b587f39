/**
 * How a time zone reads in a list: its city in the reader's language and its offset from UTC ("Cairo (UTC+02:00)",
 * "القاهرة (UTC+02:00)") instead of the IANA name. Client-safe; the offset is worked out on the server and handed
 * over as a number, so both renders agree.
 */
import type { MessageKey } from "~/i18n/en";
import { isolateLtr } from "./bidi";

const CITY_KEYS: Record<string, MessageKey> = {
  "Africa/Cairo": "zone.Africa/Cairo",
  "Asia/Riyadh": "zone.Asia/Riyadh",
  "Asia/Dubai": "zone.Asia/Dubai",
  "Asia/Kuwait": "zone.Asia/Kuwait",
  "Asia/Qatar": "zone.Asia/Qatar",
  "Asia/Amman": "zone.Asia/Amman",
  "Asia/Beirut": "zone.Asia/Beirut",
  "Asia/Baghdad": "zone.Asia/Baghdad",
  "Africa/Casablanca": "zone.Africa/Casablanca",
  "Africa/Tunis": "zone.Africa/Tunis",
  "Africa/Algiers": "zone.Africa/Algiers",
  "Europe/London": "zone.Europe/London",
  "Europe/Berlin": "zone.Europe/Berlin",
  "America/New_York": "zone.America/New_York",
  UTC: "zone.UTC",
};

/** A zone offered in a picker, with its offset from UTC worked out on the server (minutes). */
export type ZoneChoice = { id: string; offsetMinutes: number };

/** "UTC+02:00", "UTC-05:00", "UTC+05:30". */
export function utcOffsetText(offsetMinutes: number): string {
  const abs = Math.abs(offsetMinutes);
  const two = (n: number) => String(n).padStart(2, "0");
  return `UTC${offsetMinutes < 0 ? "-" : "+"}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

/** A zone named by its city where we know it (any other keeps its IANA name), with its offset. */
export function zoneLabel(t: (key: MessageKey, params?: Record<string, string | number>) => string, id: string, offsetMinutes: number): string {
  const key = CITY_KEYS[id];
  return t("cohort.copy.zoneOption", { city: key ? t(key) : id, offset: isolateLtr(utcOffsetText(offsetMinutes)) });
}
