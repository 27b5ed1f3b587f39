import { useHydrated } from "~/hooks/use-hydrated";
import { localeOf, type Lang } from "~/i18n/config";
import { useT } from "~/lib/i18n";
import { dateTimeFormat, remembered } from "~/lib/intl-cache";

const locale = localeOf;

/**
 * "Tue 1 Dec 2026, 18:00" in the reader's language and zone (UTC until hydrated: the server cannot know the zone).
 * A time and its day period stay on one line ("09:47 م" never leaves the "م" alone on the next).
 */
export function formatWhen(iso: string, lang: Lang, timeZone?: string): string {
  return remembered(written, MAX_WRITTEN, `${lang}|${timeZone ?? ""}|${iso}`, () => write(iso, lang, timeZone));
}

/** Instants already written, by language and zone (`remembered`: a group's dates recur on every page of it). */
const MAX_WRITTEN = 2048;
const written = new Map<string, string>();

function write(iso: string, lang: Lang, timeZone?: string): string {
  const parts = dateTimeFormat(locale(lang), { weekday: "short", day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone }).formatToParts(new Date(iso));
  return parts.map((p, i) => (p.type === "literal" && parts[i + 1]?.type === "dayPeriod" ? p.value.replace(/\s/g, "\u00a0") : p.value)).join("");
}

/** A lecture's start, or "No date yet". */
export function When({ iso }: { iso: string | null }) {
  const { t, lang } = useT();
  const hydrated = useHydrated();
  if (!iso) return <span className="muted">{t("lectures.noDate")}</span>;
  return (
    <time dateTime={iso} suppressHydrationWarning>
      {formatWhen(iso, lang, hydrated ? undefined : "UTC")}
      {hydrated ? null : " UTC"}
    </time>
  );
}

/** The value of a datetime-local input for an ISO instant, in the browser's zone ("" for none). */
export function toLocalInput(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** An ISO instant for a datetime-local value read in the browser's zone (null for ""). */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}
