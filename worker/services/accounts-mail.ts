/**
 * The e-mails of the account flows. Codes appear in the subject and the text, so a person can read them from
 * the notification preview (and tests can read them from the dev mailbox).
 */
import { formatMessage } from "../../app/i18n/translate";
import { escapeHtml, type OutgoingMail } from "./mail";

type Mail = Omit<OutgoingMail, "to">;

/** The language an account's e-mails are written in: the one the person last chose (`users.locale`), else English. */
export type MailLang = "en" | "ar";
export const mailLang = (locale: string | null | undefined): MailLang => (locale === "ar" ? "ar" : "en");

/** "It expires in 1 minute." / "It expires in 15 minutes.", in the mail's language. */
const expiresIn = (minutes: number, lang: MailLang) =>
  lang === "ar"
    ? formatMessage("تنتهي صلاحيته بعد {minutes, plural, one {دقيقة واحدة} two {دقيقتين} few {# دقائق} other {# دقيقة}}.", { minutes }, "ar")
    : formatMessage("It expires in {minutes, plural, one {# minute} other {# minutes}}.", { minutes }, "en");

/**
 * An e-mail of lines, with a closing link when given (a line "label: address" in the text part, an anchor in the
 * HTML). An Arabic mail reads right to left in mail clients that honour `dir` (the text part is plain either way).
 */
export function compose(subject: string, lines: string[], lang: MailLang = "en", link?: { label: string; href: string }): Mail {
  const dir = lang === "ar" ? ' dir="rtl" lang="ar"' : "";
  const anchor = link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : "";
  return {
    subject,
    text: [...lines, ...(link ? [`${link.label}: ${link.href}`] : [])].join("\n\n"),
    html: `<div${dir}>${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("")}${anchor}</div>`,
  };
}

/**
 * The code that proves a mailbox. Its greeting names nobody: the name was typed by whoever signed the address up,
 * who may not be its owner, and a name is free text ("Call +20… for a refund") that must not reach a stranger's
 * inbox in Cohort's words.
 */
export function verificationMail(code: string, minutes: number, lang: MailLang = "en"): Mail {
  if (lang === "ar") {
    return compose(`رمز التحقق في كوهورت: ${code}`, ["مرحبًا،", `رمز التحقق الخاص بك هو ${code}. ${expiresIn(minutes, lang)}`, "إن لم تنشئ حسابًا في كوهورت، فتجاهل هذه الرسالة."], lang);
  }
  return compose(`Your Cohort verification code: ${code}`, [
    "Hello,",
    `Your verification code is ${code}. ${expiresIn(minutes, lang)}`,
    "If you did not create a Cohort account, you can ignore this e-mail.",
  ]);
}

/** A password reset code; `name` null greets nobody (an account whose name its owner has not confirmed yet). */
export function resetMail(name: string | null, code: string, minutes: number, lang: MailLang = "en"): Mail {
  if (lang === "ar") {
    return compose(`رمز إعادة تعيين كلمة المرور في كوهورت: ${code}`, [name ? `مرحبًا ${name}،` : "مرحبًا،", `رمز إعادة تعيين كلمة المرور هو ${code}. ${expiresIn(minutes, lang)}`, "إن لم تطلب إعادة تعيين كلمة المرور، فتجاهل هذه الرسالة: تبقى كلمة مرورك كما هي."], lang);
  }
  return compose(`Your Cohort password reset code: ${code}`, [
    name ? `Hello ${name},` : "Hello,",
    `Your password reset code is ${code}. ${expiresIn(minutes, lang)}`,
    "If you did not ask to reset your password, you can ignore this e-mail: your password stays the same.",
  ]);
}

/** Sent instead of a code when someone registers with an address that already has an account. */
export function alreadyRegisteredMail(name: string, lang: MailLang = "en"): Mail {
  if (lang === "ar") {
    return compose("حاول أحدهم التسجيل ببريدك الإلكتروني", [`مرحبًا ${name}،`, "حاول أحدهم (ربما أنت) للتو إنشاء حساب جديد في كوهورت بهذا البريد الإلكتروني، وله حساب بالفعل.", "إن كنت أنت، فسجّل الدخول بدلًا من ذلك، أو استخدم «نسيت كلمة المرور» إن لم تتذكرها. وإن لم تكن أنت، فتجاهل هذه الرسالة: لم يتغير شيء."], lang);
  }
  return compose("Someone tried to register with your e-mail address", [
    `Hello ${name},`,
    "Someone (maybe you) just tried to create a new Cohort account with this e-mail address, which already has an account.",
    "If it was you, log in instead, or use \"Forgot password\" if you do not remember your password. If it was not you, you can ignore this e-mail: nothing has changed.",
  ]);
}

export function passwordChangedMail(name: string, lang: MailLang = "en"): Mail {
  if (lang === "ar") {
    return compose("تغيّرت كلمة مرور حسابك في كوهورت", [`مرحبًا ${name}،`, "تغيّرت للتو كلمة مرور حسابك في كوهورت، وسُجّل خروج أجهزتك الأخرى.", "إن لم تفعل ذلك، فأعد تعيين كلمة المرور الآن من «نسيت كلمة المرور» وتواصل معنا."], lang);
  }
  return compose("Your Cohort password was changed", [
    `Hello ${name},`,
    "The password of your Cohort account was just changed, and your other devices were signed out.",
    "If you did not do this, reset your password now with \"Forgot password\" and contact us.",
  ]);
}
