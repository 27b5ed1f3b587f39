import type { lifecycleEn } from "./lifecycle.en";

/** دورة حياة الدفعة (المسألة 22): نسخ دورة، والجدولة، والإعلانات، والشهادات. */
export const lifecycleAr: Record<keyof typeof lifecycleEn, string> = {
  "mail.announcement.subject": "{group}: {title}",
  "mail.announcement.intro": "نشر {author} إعلانًا في {group}.",
  "mail.announcement.open": "افتح الدورة",
  "mail.certificate.subject": "شهادتك في {course}",
  "mail.certificate.body": "تهانينا يا {name}! لقد أتممت {course}. شهادتك جاهزة للمشاركة:",
  "mail.certificate.open": "افتح شهادتك",
};
