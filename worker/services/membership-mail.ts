/**
 * The e-mail a student gets when staff decide their join request (PRODUCT.md §3 "E-mail requests"), in the language
 * they last chose (`users.locale`), as the account e-mails are.
 */
import type { MembershipDecisionInput } from "../../app/lib/schemas";
import { compose, type MailLang } from "./accounts-mail";
import type { OutgoingMail } from "./mail";

type Decision = MembershipDecisionInput["decision"];

const WORDS: Record<MailLang, { subject: Record<Decision, (title: string) => string>; body: Record<Decision, (title: string) => string>; hello: (name: string) => string; browse: string; open: string }> = {
  en: {
    subject: {
      approved: (t) => `Your request to join "${t}" was approved`,
      special: (t) => `Your request to join "${t}" was approved on special terms`,
      rejected: (t) => `Your request to join "${t}" was not approved`,
    },
    body: {
      approved: (t) => `Good news: you are now a member of "${t}". Your course is waiting for you in My Courses.`,
      special: (t) => `Good news: you are now a member of "${t}", on special terms (such as a scholarship seat). You have the same access as every member; your course is waiting for you in My Courses.`,
      rejected: (t) => `Your request to join "${t}" was not approved this time. You can browse the other courses and ask to join one of them, or ask again later.`,
    },
    hello: (name) => `Hello ${name},`,
    browse: "Browse courses",
    open: "Open My Courses",
  },
  ar: {
    subject: {
      approved: (t) => `تمت الموافقة على طلب انضمامك إلى «${t}»`,
      special: (t) => `تمت الموافقة على طلب انضمامك إلى «${t}» بشروط خاصة`,
      rejected: (t) => `لم تتم الموافقة على طلب انضمامك إلى «${t}»`,
    },
    body: {
      approved: (t) => `خبر سار: أصبحت عضوًا في «${t}». كورسك بانتظارك في «كورساتي».`,
      special: (t) => `خبر سار: أصبحت عضوًا في «${t}» بشروط خاصة (مثل مقعد بمنحة). لك ما لكل عضو من وصول، وكورسك بانتظارك في «كورساتي».`,
      rejected: (t) => `لم تتم الموافقة على طلب انضمامك إلى «${t}» هذه المرة. يمكنك تصفّح الكورسات الأخرى وطلب الانضمام إلى أحدها، أو الطلب مرة أخرى لاحقًا.`,
    },
    hello: (name) => `مرحبًا ${name}،`,
    browse: "تصفّح الكورسات",
    open: "افتح كورساتي",
  },
};

/** Subject, text and HTML for one decision, with an absolute link to My Courses or the catalogue. */
export function decisionMail(opts: { name: string; groupTitle: string; decision: Decision; origin: string; lang: MailLang }): Omit<OutgoingMail, "to"> {
  const { name, groupTitle, decision, origin, lang } = opts;
  const w = WORDS[lang];
  const link = `${origin}${decision === "rejected" ? "/courses" : "/my-courses"}`;
  const linkLabel = decision === "rejected" ? w.browse : w.open;
  return compose(w.subject[decision](groupTitle), [w.hello(name), w.body[decision](groupTitle)], lang, { label: linkLabel, href: link });
}
