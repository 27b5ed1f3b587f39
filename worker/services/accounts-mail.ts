/**
 * The e-mails of the account flows. Codes appear in the subject and the text, so a person can read them from
 * the notification preview (and tests can read them from the dev mailbox).
 */
import { formatMessage } from "../../app/i18n/translate";
import { escapeHtml, type OutgoingMail } from "./mail";

type Mail = Omit<OutgoingMail, "to">;

/** "It expires in 1 minute." / "It expires in 15 minutes." (the e-mails are in English). */
const expiresIn = (minutes: number) => formatMessage("It expires in {minutes, plural, one {# minute} other {# minutes}}.", { minutes }, "en");

function compose(subject: string, lines: string[]): Mail {
  return {
    subject,
    text: lines.join("\n\n"),
    html: lines.map((l) => `<p>${escapeHtml(l)}</p>`).join(""),
  };
}

export function verificationMail(name: string, code: string, minutes: number): Mail {
  return compose(`Your Cohort verification code: ${code}`, [
    `Hello ${name},`,
    `Your verification code is ${code}. ${expiresIn(minutes)}`,
    "If you did not create a Cohort account, you can ignore this e-mail.",
  ]);
}

export function resetMail(name: string, code: string, minutes: number): Mail {
  return compose(`Your Cohort password reset code: ${code}`, [
    `Hello ${name},`,
    `Your password reset code is ${code}. ${expiresIn(minutes)}`,
    "If you did not ask to reset your password, you can ignore this e-mail: your password stays the same.",
  ]);
}

/** Sent instead of a code when someone registers with an address that already has an account. */
export function alreadyRegisteredMail(name: string): Mail {
  return compose("Someone tried to register with your e-mail address", [
    `Hello ${name},`,
    "Someone (maybe you) just tried to create a new Cohort account with this e-mail address, which already has an account.",
    "If it was you, log in instead, or use \"Forgot password\" if you do not remember your password. If it was not you, you can ignore this e-mail: nothing has changed.",
  ]);
}

export function passwordChangedMail(name: string): Mail {
  return compose("Your Cohort password was changed", [
    `Hello ${name},`,
    "The password of your Cohort account was just changed, and your other devices were signed out.",
    "If you did not do this, reset your password now with \"Forgot password\" and contact us.",
  ]);
}
