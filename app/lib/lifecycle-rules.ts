/**
 * A cohort's life (issue 22): the limits and certificate IDs the screens share with the schemas, without the
 * validation library (lifecycle-schemas.ts re-exports them): the Cohort tab and the certificate pages do not
 * download zod for a few numbers.
 */
export const COPY_LIMITS = { title: 120 } as const;

export const SCHEDULE_KINDS = ["lecture", "task", "quiz"] as const;
export type ScheduleKind = (typeof SCHEDULE_KINDS)[number];

export const ANNOUNCEMENT_LIMITS = { title: 150, body: 10_000, days: 365 } as const;

export const CERTIFICATE_LIMITS = { reason: 500 } as const;

/** A certificate's public code: 16 letters and digits of an alphabet without look-alikes, in four groups. */
export const CERTIFICATE_CODE = /^[A-HJ-NP-Z2-9]{4}(-[A-HJ-NP-Z2-9]{4}){3}$/;

/**
 * A certificate ID as a person types or copies it (any case, spaces, with or without its dashes, a trailing space
 * from a PDF, Arabic-Indic digits) in its one written form ("ABCD-EFGH-JKLM-NPQR"), or null when it cannot be an ID.
 */
export function canonicalCertificateCode(input: string): string | null {
  const bare = input
    .toUpperCase()
    // Arabic-Indic digits, as an Arabic keyboard types them.
    .replace(/[\u0660-\u0669\u06f0-\u06f9]/g, (d) => String((d.charCodeAt(0) - 0x0660) % 0x90))
    .replace(/[\s\-\u2010-\u2015_.]/g, "");
  const written = bare.length === 16 ? bare.match(/.{4}/g)!.join("-") : "";
  return CERTIFICATE_CODE.test(written) ? written : null;
}
