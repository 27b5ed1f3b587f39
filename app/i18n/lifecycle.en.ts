/** A cohort's life (issue 22): copying a course, scheduling, announcements and certificates. */
export const lifecycleEn = {
  "mail.announcement.subject": "{group}: {title}",
  "mail.announcement.intro": "{author} posted an announcement in {group}.",
  "mail.announcement.open": "Open the course",
  "mail.certificate.subject": "Your certificate for {course}",
  "mail.certificate.body": "Congratulations, {name}! You completed {course}. Your certificate is ready to share:",
  "mail.certificate.open": "Open your certificate",
} as const;
