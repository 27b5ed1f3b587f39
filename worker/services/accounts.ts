/**
 * Signing up and signing in (PRODUCT.md §3 "Accounts", platform-spec §5 and §8 wording): register, verify the
 * e-mail, log in, forgot and reset the password. The API handlers and the Remix actions both call these.
 *
 * Nothing here tells a stranger whether an e-mail address has an account: registration, "resend code" and
 * "forgot password" answer the same words in the same time for every address (the e-mail work happens in the
 * background), and a failed login costs one password hash whether or not the address is known.
 */
import { and, eq, isNull, or, sql } from "drizzle-orm";
import type { EmailOnlyInput, LoginInput, RegisterInput, ResetPasswordInput, VerifyEmailInput } from "../../app/lib/schemas";
import { users, type Role } from "../../db/schema";
import type { ClientInfo } from "../auth/cookies";
import { dummyVerify, hashPassword, verifyPassword } from "../auth/password";
import type { ServiceContext } from "../context";
import { countryById, phoneFits, phoneMismatchMessage } from "../../app/lib/countries";
import { AppError } from "../http/errors";
import { isLang, type Lang } from "../../app/i18n/config";
import { alreadyRegisteredMail, mailLang, passwordChangedMail, resetMail, verificationMail } from "./accounts-mail";
import { CODE_TTL_MINUTES, consumeCode, issueCode, limitCodeRequests, type CodePurpose } from "./codes";
import { newId, slugify } from "./ids";
import { sendMail } from "./mail";
import { hitRateLimit, refundRateLimit, type Limit } from "./rate-limit";
import { openSession, revokeAllSessions } from "./sessions";

const MINUTE = 60_000;
/**
 * Failed logins per client (IP; generous: a classroom shares one address) and per account *and* client, so wrong
 * passwords from elsewhere never lock the owner out of their own account.
 */
export const LOGIN_LIMIT_IP: Limit = { max: 50, windowMs: 15 * MINUTE };
export const LOGIN_LIMIT_ACCOUNT: Limit = { max: 10, windowMs: 15 * MINUTE };

export const MESSAGES = {
  registered: "Thanks for registering! Please check your e-mail for your 6-digit verification code.",
  /** platform-spec §8, the register screen's failure; every limit on registering lasts 10 minutes (codes.ts). */
  registerFailed: "An error occurred during registration. please try again after 10 minutes.",
  verified: "Your e-mail is verified. Welcome to Cohort!",
  verifiedChoosePassword: "Your e-mail is verified. It was signed up more than once, so choose your password: we sent you a 6-digit code.",
  verifyFailed: "Verification failed",
  codeResent: "If this e-mail is waiting for verification, a new code is on its way.",
  loggedIn: "Login Successfully",
  badCredentials: "The email or password is incorrect",
  notVerified: "Please verify your e-mail address first: enter the 6-digit code we sent you, or ask for a new one.",
  tooManyLogins: "Too many login attempts. Please try again later.",
  resetSent: "Password reset email sent. Please check your inbox.",
  resetDone: "Reset Successful , Please Login",
  badResetCode: "Error: Invalid Reset Code",
} as const;

const invalidCredentials = () => new AppError(401, "invalid_credentials", MESSAGES.badCredentials);

type NewUser = Pick<typeof users.$inferInsert, "name" | "email" | "passwordHash" | "phoneNumber" | "country" | "fingerprint" | "emailVerifiedAt" | "googleSub" | "locale">;

/**
 * Inserts a user with a unique slug (the name's slug, or with a random suffix when taken).
 * Returns null when the e-mail address (or Google account) already has a user.
 */
export async function insertUser(ctx: ServiceContext, values: NewUser): Promise<{ id: string; role: Role } | null> {
  const base = slugify(values.name);
  for (const slug of [base, `${base}-${newId().slice(0, 6).toLowerCase().replace(/[^a-z0-9]/g, "x")}`]) {
    const [row] = await ctx.db
      .insert(users)
      // createdAt to the millisecond (the column default has whole seconds), so "newest first" is exact.
      .values({ id: newId(), slug, role: "user", createdAt: new Date(), ...values })
      .onConflictDoNothing()
      .returning({ id: users.id, role: users.role });
    if (row) return row;
    const [taken] = await ctx.db
      .select({ id: users.id })
      .from(users)
      .where(or(eq(users.email, values.email), values.googleSub ? eq(users.googleSub, values.googleSub) : undefined))
      .limit(1);
    if (taken) return null;
  }
  throw new AppError(409, "conflict", "Please try again.");
}

/**
 * E-mails a new code. It greets nobody unless given `greet`, the name of an owner who proved the address (a reset code
 * of a verified account): until then the name was typed by whoever signed the address up (ADR 0065).
 */
async function sendCode(ctx: ServiceContext, user: { id: string; email: string; locale: string | null }, purpose: CodePurpose, greet: string | null = null): Promise<void> {
  const code = await issueCode(ctx, user.id, purpose);
  const lang = mailLang(user.locale);
  const mail = purpose === "verify-email" ? verificationMail(code, CODE_TTL_MINUTES, lang) : resetMail(greet, code, CODE_TTL_MINUTES, lang);
  await sendMail(ctx, { to: user.email, ...mail, secret: code });
}

async function findByEmail(ctx: ServiceContext, email: string) {
  const [user] = await ctx.db
    .select({ id: users.id, name: users.name, email: users.email, role: users.role, passwordHash: users.passwordHash, emailVerifiedAt: users.emailVerifiedAt, registrationContested: users.registrationContested, locale: users.locale })
    .from(users)
    .where(eq(users.email, email))
    .limit(1);
  return user ?? null;
}

/** 400 unless `phone` is a number of `country` (platform-spec §9); nothing to check when either is missing. */
export function requirePhoneOfCountry(countryId: string | null, phone: string | null): void {
  const country = countryById(countryId);
  if (!country || !phone || phoneFits(country, phone)) return;
  const message = phoneMismatchMessage(country);
  throw new AppError(400, "validation_failed", message, { phone_number: message });
}

/**
 * POST /api/users/register: creates an unverified account and e-mails a verification code.
 * An address that already has an account gets the same answer; its owner is told by e-mail instead (verified
 * account), or (unverified account) a fresh code goes to the address. The same person signing up again (the same
 * password) replaces their details. Two sign-ups with different passwords make the account contested: the code
 * proves the mailbox, not which of the two passwords is its owner's, so verifying it leaves no password and sends a
 * reset code (ADR 0040). An attacker can then neither plant a password before the owner signs up nor swap in their
 * own after, and a contesting sign-up changes none of the stored details (name, phone, country, language): a
 * stranger's words never become the owner's name on join requests (ADR 0065).
 */
export async function register(ctx: ServiceContext, input: RegisterInput, locale: Lang | null = null): Promise<{ message: string }> {
  requirePhoneOfCountry(input.country ?? null, input.phone_number);
  await limitCodeRequests(ctx, input.email, MESSAGES.registerFailed);
  const password = input.password;
  const profile = {
    name: input.name,
    email: input.email,
    passwordHash: await hashPassword(input.password, ctx.settings.passwordPepper),
    phoneNumber: input.phone_number,
    country: input.country ?? null,
    fingerprint: input.fingerprint ?? null,
    locale,
  };
  const created = await insertUser(ctx, profile);
  ctx.waitUntil(created ? sendCode(ctx, { id: created.id, email: profile.email, locale: profile.locale ?? null }, "verify-email") : registerAgain(ctx, profile, password));
  return { message: MESSAGES.registered };
}

async function registerAgain(ctx: ServiceContext, profile: Omit<NewUser, "emailVerifiedAt" | "googleSub">, password: string): Promise<void> {
  const existing = await findByEmail(ctx, profile.email);
  if (!existing) return;
  if (existing.emailVerifiedAt) {
    await sendMail(ctx, { to: existing.email, ...alreadyRegisteredMail(existing.name, mailLang(existing.locale)) });
    return;
  }
  // The same person signing up again (the same password) contests nothing and may correct their details; a different
  // password contests the account, for good, and changes nothing else.
  const same = existing.passwordHash ? (await verifyPassword(password, existing.passwordHash, ctx.settings.passwordPepper)).ok : false;
  const [kept] = await ctx.db
    .update(users)
    .set(same ? profile : { registrationContested: true })
    .where(and(eq(users.id, existing.id), isNull(users.emailVerifiedAt)))
    .returning({ id: users.id, locale: users.locale });
  if (kept) await sendCode(ctx, { id: existing.id, email: existing.email, locale: kept.locale }, "verify-email");
}

/**
 * POST /api/users/verify-email: marks the address verified with the newest code. A contested sign-up (two passwords)
 * is verified without a password: the code proved the mailbox, so its owner chooses one with the reset code sent now.
 */
export async function verifyEmail(ctx: ServiceContext, input: VerifyEmailInput): Promise<{ message: string; choosePassword?: true }> {
  const user = await findByEmail(ctx, input.email);
  const userId = await consumeCode(ctx, {
    email: input.email,
    userId: user && !user.emailVerifiedAt ? user.id : null,
    purpose: "verify-email",
    code: input.code,
    failure: { message: MESSAGES.verifyFailed, field: "code" },
  });
  const [verified] = await ctx.db
    .update(users)
    .set({ emailVerifiedAt: new Date(), passwordHash: sql`case when ${users.registrationContested} then null else ${users.passwordHash} end`, registrationContested: false })
    .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt)))
    .returning({ id: users.id, email: users.email, name: users.name, passwordHash: users.passwordHash, locale: users.locale });
  if (verified && verified.passwordHash === null && user?.registrationContested) {
    // Its name was typed by one of the two who signed it up: the reset code greets nobody.
    await sendCode(ctx, verified, "reset-password");
    return { message: MESSAGES.verifiedChoosePassword, choosePassword: true };
  }
  return { message: MESSAGES.verified };
}

/** POST /api/users/resend-verification: a new code for an unverified account; the same answer for any address. */
export async function resendCode(ctx: ServiceContext, input: EmailOnlyInput): Promise<{ message: string }> {
  await limitCodeRequests(ctx, input.email);
  ctx.afterResponse(async () => {
    const user = await findByEmail(ctx, input.email);
    if (user && !user.emailVerifiedAt) await sendCode(ctx, user, "verify-email");
  });
  return { message: MESSAGES.codeResent };
}

/**
 * Checks a password with the per-account failure limit (login, password change, account deletion).
 * A missing hash (unknown address, Google-only account) still costs one PBKDF2 run.
 */
export async function checkPassword(
  ctx: ServiceContext,
  email: string,
  passwordHash: string | null,
  password: string,
): Promise<{ ok: boolean; needsRehash: boolean }> {
  const key = `login:email:${email}:ip:${ctx.ip}`;
  await hitRateLimit(ctx, key, LOGIN_LIMIT_ACCOUNT, MESSAGES.tooManyLogins);
  let result = { ok: false, needsRehash: false };
  if (passwordHash) result = await verifyPassword(password, passwordHash, ctx.settings.passwordPepper);
  else await dummyVerify(password, ctx.settings.passwordPepper);
  if (result.ok) await refundRateLimit(ctx, key);
  return result;
}

export interface LoginResult {
  message: string;
  accessToken: string;
  role: Role;
  user: { _id: string; name: string; email: string; role: Role };
  /** Set-Cookie header value with the refresh token; the Remix action and the API both send it. */
  setCookie: string;
  /** The language the account chose (on the register screen or with the language switch), if any: the site follows it. */
  locale: Lang | null;
}

/** POST /api/users/login. Unverified accounts get 403 `email_not_verified` (only after the right password). */
export async function login(ctx: ServiceContext, input: LoginInput, client: ClientInfo): Promise<LoginResult> {
  const ipKey = `login:ip:${ctx.ip}`;
  await hitRateLimit(ctx, ipKey, LOGIN_LIMIT_IP, MESSAGES.tooManyLogins);
  const user = await findByEmail(ctx, input.email);
  const { ok, needsRehash } = await checkPassword(ctx, input.email, user?.passwordHash ?? null, input.password);
  if (!user || !ok) throw invalidCredentials();
  await refundRateLimit(ctx, ipKey);
  if (!user.emailVerifiedAt) throw new AppError(403, "email_not_verified", MESSAGES.notVerified);
  if (needsRehash && user.passwordHash) {
    // Upgrade-on-login to the current parameters; the condition keeps a concurrent password change intact.
    const upgraded = await hashPassword(input.password, ctx.settings.passwordPepper);
    await ctx.db.update(users).set({ passwordHash: upgraded }).where(and(eq(users.id, user.id), eq(users.passwordHash, user.passwordHash)));
  }
  const session = await openSession(ctx, user, client, input.fingerprint);
  return {
    locale: isLang(user.locale) ? user.locale : null,
    message: MESSAGES.loggedIn,
    accessToken: session.accessToken,
    role: user.role,
    user: { _id: user.id, name: user.name, email: user.email, role: user.role },
    setCookie: session.setCookie,
  };
}

/** POST /api/users/forgot-password: e-mails a reset code if the address has an account; always the same answer. */
export async function forgot(ctx: ServiceContext, input: EmailOnlyInput, pageLang: Lang | null = null): Promise<{ message: string }> {
  await limitCodeRequests(ctx, input.email);
  // Everything that depends on the address happens after the answer (bench/forgot-timing.mjs measures it).
  ctx.afterResponse(async () => {
    const user = await findByEmail(ctx, input.email);
    // In the account's language, else in the one the code was asked for in.
    if (user) await sendCode(ctx, { ...user, locale: user.locale ?? pageLang }, "reset-password", user.emailVerifiedAt ? user.name : null);
  });
  return { message: MESSAGES.resetSent };
}

/**
 * POST /api/users/reset-password: sets a new password with a reset code and signs every device out.
 * The code proves the mailbox, so an unverified address becomes verified.
 */
export async function reset(ctx: ServiceContext, input: ResetPasswordInput): Promise<{ message: string }> {
  const user = await findByEmail(ctx, input.email);
  const userId = await consumeCode(ctx, {
    email: input.email,
    userId: user?.id ?? null,
    purpose: "reset-password",
    code: input.resetCode,
    failure: { message: MESSAGES.badResetCode, field: "resetCode" },
  });
  const passwordHash = await hashPassword(input.newPassword, ctx.settings.passwordPepper);
  const [owner] = await ctx.db
    .update(users)
    .set({ passwordHash, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${Date.now()})`, registrationContested: false })
    .where(eq(users.id, userId))
    .returning({ name: users.name, email: users.email, locale: users.locale });
  await revokeAllSessions(ctx, userId);
  if (owner) ctx.waitUntil(sendMail(ctx, { to: owner.email, ...passwordChangedMail(owner.name, mailLang(owner.locale)) }));
  return { message: MESSAGES.resetDone };
}
