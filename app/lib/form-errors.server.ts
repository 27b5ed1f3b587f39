/**
 * Turns what the shared schemas and the services say (English sentences, platform-spec §8 wording) into
 * dictionary keys, so forms show them in the visitor's language. Server-only: actions return keys, the page
 * translates them with `t()`. A message this table does not know falls back to the caller's generic key.
 */
import type { ZodError } from "zod";
import type { MessageKey } from "~/i18n/en";
import { AppError } from "../../worker/http/errors";

const KNOWN: Record<string, MessageKey> = {
  "Please fill out all fields.": "form.fillAll",
  "Please enter a valid e-mail address.": "form.emailInvalid",
  "E-mail address is too long.": "form.emailLong",
  "Password must be at least 10 characters.": "form.passwordMin",
  "Password must be at most 256 characters.": "form.passwordMax",
  "Name must be at most 100 characters.": "form.nameMax",
  "Enter the phone number with its country code, e.g. +201001234567.": "form.phoneInvalid",
  "Choose a country.": "form.countryInvalid",
  "Passwords do not match.": "form.passwordMismatch",
  "Please enter your email.": "form.emailRequired",
  "Enter the full 6-digit code": "form.codeIncomplete",
  "Must be 6 digits": "form.codeDigits",
  "Please enter your current password.": "form.currentPasswordRequired",
  "Please enter your password.": "form.passwordRequired",
  "Choose admin, instructor or user.": "admin.user.roleInvalid",
  "The email or password is incorrect": "auth.login.failed",
  "Please verify your e-mail address first: enter the 6-digit code we sent you, or ask for a new one.": "auth.login.notVerified",
  "Too many login attempts. Please try again later.": "auth.login.tooMany",
  "Too many codes requested. Please try again later.": "form.tooManyCodes",
  "An error occurred during registration. please try again after 10 minutes.": "auth.register.failed",
  "Too many wrong codes. Please try again tomorrow.": "form.tooManyWrongCodes",
  "Verification failed": "auth.verify.failed",
  "Error: Invalid Reset Code": "auth.reset.badCode",
  "The current password is incorrect.": "account.password.wrongCurrent",
  "Choose a new password that differs from the current one.": "account.password.same",
  'Your account has no password yet: use "Forgot password" to set one.': "account.password.noPassword",
  "The password is incorrect.": "account.delete.wrongPassword",
  'Your account has no password yet: use "Forgot password" to set one first.': "account.delete.noPassword",
  "The last admin cannot be removed or demoted. Make someone else an admin first.": "admin.user.lastAdmin",
  "This instructor runs groups. Give their groups to another instructor first, then change the role.": "admin.user.runsGroups",
  "This instructor runs groups. Give their groups to another instructor first, then delete the account.": "admin.user.runsGroupsDelete",
  "You run groups: ask an admin to give them to another instructor before you delete your account.": "account.delete.runsGroups",
  "No such session.": "account.devices.gone",
  "No such user.": "admin.user.gone",
};

/** The key for a known message, else `fallback`. */
export function messageKey(message: string | undefined, fallback: MessageKey): MessageKey {
  return (message && KNOWN[message]) || fallback;
}

export type FieldErrors<F extends string> = Partial<Record<F, MessageKey>>;

/** The first message for each field of a failed parse, as keys. */
export function fieldErrors<F extends string>(error: ZodError, fallback: MessageKey = "form.invalid"): FieldErrors<F> {
  const out: FieldErrors<F> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "") as F;
    out[field] ??= messageKey(issue.message, fallback);
  }
  return out;
}

/** An expected failure from a service, or the error rethrown (anything else is a bug and goes to the boundary). */
export function expectedError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  throw err;
}

/** Minutes to wait, for "try again in N minutes" (Retry-After rounded up; at least 1). */
export function retryMinutes(err: AppError): number | undefined {
  return err.retryAfterSeconds ? Math.max(1, Math.ceil(err.retryAfterSeconds / 60)) : undefined;
}

/** Headers for a rate-limited answer. */
export function retryHeaders(err: AppError): HeadersInit {
  return err.retryAfterSeconds ? { "Retry-After": String(err.retryAfterSeconds) } : {};
}

/** Reads text fields of a form, missing ones as "". */
export function formValues<F extends string>(form: FormData, fields: readonly F[]): Record<F, string> {
  return Object.fromEntries(fields.map((f) => [f, typeof form.get(f) === "string" ? (form.get(f) as string) : ""])) as Record<F, string>;
}
