import { localeOf, type Lang } from "~/i18n/config";
import { dateTimeFormat, relativeTimeFormat } from "~/lib/intl-cache";

const locale = localeOf;

/** A moment as date and time in the reader's language and time zone ("21 November 2026 at 14:05"). */
export function formatDateTime(iso: string, lang: Lang, timeZone?: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return dateTimeFormat(locale(lang), { dateStyle: "long", timeStyle: "short", timeZone }).format(d);
}

/** "5 minutes ago", "yesterday", "3 days ago", in the reader's language; `now` in milliseconds. */
export function formatRelative(iso: string, lang: Lang, now: number): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const rtf = relativeTimeFormat(locale(lang), { numeric: "auto" });
  const abs = Math.abs(seconds);
  if (abs < 45) return rtf.format(0, "second");
  if (abs < 45 * 60) return rtf.format(Math.round(seconds / 60), "minute");
  if (abs < 22 * 3600) return rtf.format(Math.round(seconds / 3600), "hour");
  if (abs < 26 * 86400) return rtf.format(Math.round(seconds / 86400), "day");
  return formatDateTime(iso, lang);
}

/** Initials for an avatar ("Nour Ali" → "NA"). */
export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.slice(0, 2).map((p) => Array.from(p)[0]!.toUpperCase());
  // Two Arabic letters side by side join into a word ("مريم عادل" would read "مع", "with"): a zero-width non-joiner
  // keeps them two initials.
  return letters.join(letters.every((l) => JOINING.test(l)) ? "\u200c" : "") || "?";
}

/** Letters of scripts that join their neighbours (Arabic, Syriac, N'Ko and their presentation forms). */
const JOINING = /[\u0600-\u08ff\ufb50-\ufdff\ufe70-\ufeff]/;
