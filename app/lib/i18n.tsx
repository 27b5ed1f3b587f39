import { useRouteLoaderData } from "@remix-run/react";
import { useCallback } from "react";
import { dirOf, localeOf, type Lang } from "~/i18n/config";
import type { MessageKey } from "~/i18n/en";
import { messagesFor } from "~/i18n/store";
import { format, type Params } from "~/i18n/translate";
import { dateTimeFormat, remembered } from "~/lib/intl-cache";

/** Numbers, percentages and dates: Latin digits in both languages (config.ts `LOCALES`). */
export { formatNumber, formatPercent } from "~/i18n/translate";

export interface RootI18n {
  lang: Lang;
}

/** The active language and a `t(key, params)` bound to it. Works in every route and in error boundaries. */
export function useT() {
  const data = useRouteLoaderData<RootI18n>("root");
  const lang: Lang = data?.lang ?? "en";
  const messages = messagesFor(lang);
  const t = useCallback((key: MessageKey, params?: Params) => (messages ? format(messages, key, params) : key), [messages]);
  return { t, lang, dir: dirOf(lang) };
}

/** A calendar day (an ISO date or time, read in UTC) with its month's name in the language; Latin digits. */
function formatDay(iso: string, lang: Lang, month: "long" | "short"): string {
  return remembered(daysWritten, MAX_DAYS_WRITTEN, `${lang}|${month}|${iso}`, () => writeDay(iso, lang, month));
}

/** Days already written (`remembered`): start dates and join dates recur on every list that shows them. */
const MAX_DAYS_WRITTEN = 2048;
const daysWritten = new Map<string, string>();

function writeDay(iso: string, lang: Lang, month: "long" | "short"): string {
  const d = new Date(iso.length <= 10 ? `${iso}T00:00:00Z` : iso);
  if (Number.isNaN(d.getTime())) return iso;
  return dateTimeFormat(localeOf(lang), { day: "numeric", month, year: "numeric", timeZone: "UTC" }).format(d);
}

/** Dates shown to people ("21 November 2026", "21 نوفمبر 2026"). */
export const formatDate = (iso: string, lang: Lang): string => formatDay(iso, lang, "long");

/** A date where room is short, as a table's column ("21 Nov 2026", "21 نوفمبر 2026"). */
export const formatShortDate = (iso: string, lang: Lang): string => formatDay(iso, lang, "short");
