import { useEffect, useState } from "react";
import { formatDate, useT } from "~/lib/i18n";
import { formatDateTime, formatRelative } from "./format";

/**
 * When something happened, as "5 minutes ago" with the full local date and time on hover. The server knows
 * neither the reader's clock nor their time zone, so it renders the date alone; the browser then switches to
 * the relative form and keeps it current every minute.
 */
export function TimeAgo({ iso }: { iso: string }) {
  const { lang } = useT();
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <time dateTime={iso} title={now === null ? undefined : formatDateTime(iso, lang)}>
      {now === null ? formatDate(iso, lang) : formatRelative(iso, lang, now)}
    </time>
  );
}
