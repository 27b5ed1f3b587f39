import type { notificationsEn } from "./notifications.en";

export const notificationsAr: Record<keyof typeof notificationsEn, string> = {
  "notification.contact-message": "رسالة جديدة من {name}",
  "notification.feedback": "رأي جديد من {name} ({group})",
  "notification.join-request": "طلب {name} الانضمام إلى {group}",
  "notification.join-decision.approved": "تم قبولك! وافقنا على طلب انضمامك إلى {group}",
  "notification.join-decision.special": "تم قبولك! انضممت إلى {group} بشروط خاصة",
  "notification.join-decision.rejected": "لم تتم الموافقة على طلب انضمامك إلى {group}",
  "notification.join-decision.restored": "أُعيدت إضافتك إلى {group}",
  "notification.membership-removed": "أُزلت من {group}",
  "notification.lecture-published": "محاضرة جديدة في {group}: {lecture}",
  "notification.lectures-scheduled": "{count, plural, zero {لم تُجدوَل أي محاضرة} one {جُدولت محاضرة واحدة} two {جُدولت محاضرتان} few {جُدولت # محاضرات} many {جُدولت # محاضرة} other {جُدولت # محاضرة}} في {group}",
  "notification.task-created": "مهمة جديدة في {group}: {task}",
  "notification.quiz-published": "اختبار جديد في {group}: {quiz}",
  "notification.submission-created": "سلّم {name} المهمة {task} ({group})",
  "notification.submission-graded": "قُيّم عملك في {task}: {score}/{max}",
  "notification.submission-returned": "طُلبت نسخة جديدة من عملك في {task}",
  "notification.grades-released": "ظهرت درجتك في {task}",
  "notification.extension-granted": "لديك وقت إضافي لـ{work}",
  "notification.quiz-regraded": "أصبحت درجتك في {quiz} الآن {score}/{max}",
  "notification.submission-comment": "كتب {name} عن {task}",
};
