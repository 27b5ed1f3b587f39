/**
 * What the certificate page shows (issue 22), prepared on the server: the certificate's words in its own language
 * (not the reader's), its QR code, and the LinkedIn "add certification" link.
 */
import { renderSVG } from "uqr";
import { ar } from "~/i18n/ar";
import { localeOf } from "~/i18n/config";
import { en } from "~/i18n/en";
import { format } from "~/i18n/translate";
import type { PublicCertificate } from "../../worker/services/certificates";
import { dateTimeFormat } from "~/lib/intl-cache";
import { isolate } from "~/lib/bidi";

function longDate(value: string, lang: "en" | "ar", timeZone = "UTC"): string {
  const at = value.length === 10 ? `${value}T12:00:00Z` : value;
  return dateTimeFormat(localeOf(lang), { day: "numeric", month: "long", year: "numeric", timeZone }).format(new Date(at));
}

/** LinkedIn's "add to profile" form for a certification, filled in (https://addtoprofile.linkedin.com). */
export function linkedInAddUrl(c: Pick<PublicCertificate, "courseTitle" | "issuedAt" | "url" | "code">): string {
  const issued = new Date(c.issuedAt);
  const q = new URLSearchParams({
    startTask: "CERTIFICATION_NAME",
    name: c.courseTitle,
    organizationName: "Cohort",
    issueYear: String(issued.getUTCFullYear()),
    issueMonth: String(issued.getUTCMonth() + 1),
    certUrl: c.url,
    certId: c.code,
  });
  return `https://www.linkedin.com/profile/add?${q.toString()}`;
}

export function certificateView(c: PublicCertificate) {
  const lang = c.language;
  const dict = lang === "ar" ? ar : en;
  const t = (key: Parameters<typeof format>[1], params?: Record<string, string | number>) => format(dict, key, params);
  return {
    lang,
    dir: lang === "ar" ? ("rtl" as const) : ("ltr" as const),
    heading: t("certificate.heading"),
    presented: t("certificate.presented"),
    name: c.recipientName,
    completed: t("certificate.completed"),
    course: c.courseTitle,
    taught: c.instructorName ? t("certificate.taught", { name: c.instructorName }) : null,
    dates: c.startsOn && c.endsOn ? t("certificate.dates", { start: longDate(c.startsOn, lang), end: longDate(c.endsOn, lang) }) : null,
    issued: t("certificate.issued", { date: longDate(c.issuedAt, lang) }),
    id: t("certificate.id", { code: c.code }),
    check: t("certificate.check"),
    revoked: c.revoked ? { title: t("certificate.revokedTitle"), body: t("certificate.revokedBody", { date: longDate(c.revoked.at, lang), reason: isolate(c.revoked.reason) }) } : null,
    qr: renderSVG(c.url, { ecc: "M", border: 1, pixelSize: 4 }),
    url: c.url,
    code: c.code,
    linkedIn: linkedInAddUrl(c),
    json: `/api/certificates/${c.code}`,
  };
}
export type CertificateView = ReturnType<typeof certificateView>;
