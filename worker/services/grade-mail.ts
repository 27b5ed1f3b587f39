/**
 * The e-mails of grading: a grade (at once, or when held grades are released) and a request for a new version, in the
 * language the student last chose (`users.locale`), as the account e-mails are.
 */
import { compose, type MailLang } from "./accounts-mail";
import type { OutgoingMail } from "./mail";

type Mail = Omit<OutgoingMail, "to">;

interface Graded {
  name: string;
  task: string;
  score: number | null;
  max: number;
  /** The score before a late penalty, when one was taken. */
  rawScore?: number | null;
  /** Only what the student may read. */
  feedback?: string | null;
  href: string;
  lang: MailLang;
}

export function gradedMail(g: Graded): Mail {
  if (g.lang === "ar") {
    const lines = [
      `مرحبًا ${g.name}،`,
      `حصل عملك في «${g.task}» على ${g.score} من ${g.max}.`,
      g.rawScore != null ? `سُلِّم متأخرًا: ${g.rawScore} قبل خصم التأخير.` : "",
      g.feedback ? `الملاحظات:\n${g.feedback}` : "",
    ];
    return compose(`تم تقييم عملك في «${g.task}»: ${g.score}/${g.max}`, lines.filter(Boolean), "ar", { label: "افتح المهمة", href: g.href });
  }
  const lines = [
    `Hello ${g.name},`,
    `Your work on "${g.task}" got ${g.score} of ${g.max}.`,
    g.rawScore != null ? `It was handed in late: ${g.rawScore} before the late penalty.` : "",
    g.feedback ? `Feedback:\n${g.feedback}` : "",
  ];
  return compose(`Your work on "${g.task}" was graded: ${g.score}/${g.max}`, lines.filter(Boolean), "en", { label: "Open the task", href: g.href });
}

export function newVersionMail(r: { name: string; task: string; feedback?: string | null; href: string; lang: MailLang }): Mail {
  if (r.lang === "ar") {
    const lines = [`مرحبًا ${r.name}،`, `طلب منك مدرّبك نسخة جديدة من عملك في «${r.task}».`, r.feedback ? `الملاحظات:\n${r.feedback}` : ""];
    return compose(`طُلبت نسخة جديدة من «${r.task}»`, lines.filter(Boolean), "ar", { label: "افتح المهمة", href: r.href });
  }
  const lines = [`Hello ${r.name},`, `Your instructor asked for a new version of your work on "${r.task}".`, r.feedback ? `Feedback:\n${r.feedback}` : ""];
  return compose(`A new version of "${r.task}" was asked for`, lines.filter(Boolean), "en", { label: "Open the task", href: r.href });
}
