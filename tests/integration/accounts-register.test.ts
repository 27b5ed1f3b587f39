import { eq } from "drizzle-orm";
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { resendCode } from "../../worker/services/accounts";
import { call, codeFromMail, createUser, login, mailbox, ORIGIN, RESET_SUBJECT, VERIFY_SUBJECT, waitForMails, type ErrorBody } from "./factories";
import { db, randomIp, serviceContext, unique } from "./helpers";

const PASSWORD = "a-long-enough-password";
const newEmail = () => `${unique("reg")}@test.example`;
const valid = (over: Record<string, unknown> = {}) => ({ name: "Salma Hany", email: newEmail(), password: PASSWORD, phone_number: "+201001234567", ...over });

const register = (body: unknown, ip?: string) => call("/api/users/register", { body, ip });
const verify = (email: string, code: string) => call("/api/users/verify-email", { body: { email, code } });
const userByEmail = async (email: string) => (await db().select().from(s.users).where(eq(s.users.email, email)))[0];

describe("POST /api/users/register", () => {
  it("creates an unverified user and e-mails a 6-digit code", async () => {
    const input = valid({ email: `${unique("Mixed")}@Test.Example`, country: "EG", fingerprint: "visitor-123" });
    const res = await register(input);
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ message: "Thanks for registering! Please check your e-mail for your 6-digit verification code." });

    const email = input.email.toLowerCase();
    const user = await userByEmail(email);
    expect(user).toMatchObject({ name: "Salma Hany", email, role: "user", phoneNumber: "+201001234567", country: "EG", fingerprint: "visitor-123", emailVerifiedAt: null, googleSub: null });
    expect(user!.slug).toBe("salma-hany");
    expect(user!.passwordHash).toMatch(/^pbkdf2-sha256\$100000\$/);
    expect(user!.passwordHash).not.toContain(PASSWORD);

    const code = await codeFromMail(email, VERIFY_SUBJECT);
    expect(code).toMatch(/^\d{6}$/);
    const [stored] = await db().select().from(s.oneTimeCodes).where(eq(s.oneTimeCodes.userId, user!.id));
    expect(stored).toMatchObject({ purpose: "verify-email", attempts: 0, usedAt: null });
    expect(stored!.codeHash).not.toContain(code);
    expect(stored!.codeHash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(stored!.expiresAt.getTime() - stored!.createdAt.getTime()).toBe(10 * 60_000);
  });

  it("gives people with the same name different slugs", async () => {
    const name = `Omar ${unique("same")}`;
    expect((await register(valid({ name }))).status).toBe(201);
    expect((await register(valid({ name }))).status).toBe(201);
    const rows = await db().select({ slug: s.users.slug }).from(s.users).where(eq(s.users.name, name));
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((r) => r.slug)).size).toBe(2);
  });

  it("accepts a phone number written with spaces and dashes, stored as + and digits", async () => {
    const input = valid({ phone_number: "+966 50-111 2227" });
    expect((await register(input)).status).toBe(201);
    expect((await userByEmail(input.email))!.phoneNumber).toBe("+966501112227");
  });

  it.each([
    ["every field missing", {}, ["name", "email", "password", "phone_number"]],
    ["a blank name", { name: "   " }, ["name"]],
    ["a name of blank-looking characters (braille blank, grapheme joiner)", { name: "\u2800\u034f" }, ["name"]],
    ["an empty phone", { phone_number: "" }, ["phone_number"]],
  ])("refuses %s with 'Please fill out all fields.'", async (_label, patch, fields) => {
    const body = Object.keys(patch).length === 0 ? {} : valid(patch);
    const res = await register(body);
    expect(res.status).toBe(400);
    const err = (await res.json()) as ErrorBody;
    expect(err.code).toBe("validation_failed");
    expect(err.message).toBe("Please fill out all fields.");
    for (const f of fields) expect(err.fields?.[f]).toBe("Please fill out all fields.");
  });

  it.each([
    ["a 9-character password", { password: "123456789" }, "password", "Password must be at least 10 characters."],
    ["an invalid e-mail", { email: "not-an-email" }, "email", "Please enter a valid e-mail address."],
    ["a phone without country code", { phone_number: "01001234567" }, "phone_number", "Enter the phone number with its country code, e.g. +201001234567."],
    ["a phone with letters", { phone_number: "+20100abc4567" }, "phone_number", "Enter the phone number with its country code, e.g. +201001234567."],
    ["a too short phone", { phone_number: "+12345" }, "phone_number", "Enter the phone number with its country code, e.g. +201001234567."],
    ["a too long phone", { phone_number: "+1234567890123456" }, "phone_number", "Enter the phone number with its country code, e.g. +201001234567."],
    ["a password of ten spaces", { password: " ".repeat(10) }, "password", "Choose a password of letters, digits or symbols, not only spaces or invisible characters."],
    ["a password with control characters", { password: "abc\u0000defghijk" }, "password", "Choose a password of letters, digits or symbols, not only spaces or invisible characters."],
    ["a country not on the list", { country: "ZZ-not-a-country" }, "country", "Choose a country."],
    // Platform-spec §9: each country its calling code and its cap of digits (Saudi Arabia 9, Egypt 11).
    ["another country's number", { country: "SA", phone_number: "+20100123456" }, "phone_number", "Enter a phone number of the chosen country: +966 and at most 9 digits after it."],
    ["more digits than the country takes", { country: "SA", phone_number: "+9665012345678" }, "phone_number", "Enter a phone number of the chosen country: +966 and at most 9 digits after it."],
    ["twelve digits for Egypt", { country: "EG", phone_number: "+20100123456789" }, "phone_number", "Enter a phone number of the chosen country: +20 and at most 11 digits after it."],
  ])("refuses %s", async (_label, patch, field, message) => {
    const input = valid(patch);
    const res = await register(input);
    expect(res.status).toBe(400);
    const err = (await res.json()) as ErrorBody;
    expect(err.fields?.[field]).toBe(message);
    expect(await db().$count(s.users, eq(s.users.email, String(input.email).toLowerCase()))).toBe(0);
  });

  it("answers a registered address exactly like a new one, and tells its owner instead of sending a code", async () => {
    const owner = await createUser({ name: "Owner Person" });
    const res = await register(valid({ email: owner.email.toUpperCase(), password: "attacker-password" }));
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ message: "Thanks for registering! Please check your e-mail for your 6-digit verification code." });

    const [note] = await waitForMails(owner.email, /Someone tried to register/);
    expect(note!.text).toContain("Owner Person");
    expect((await mailbox(owner.email)).some((m) => VERIFY_SUBJECT.test(m.subject))).toBe(false);
    // The existing account is untouched.
    expect((await login(owner)).status).toBe(200);
    expect((await login({ email: owner.email, password: "attacker-password" })).status).toBe(401);
  });

  it("verifies an address signed up twice with different passwords without either: its owner chooses one by reset code", async () => {
    // The owner signs up; someone else signs the same address up again with their own password before it is verified.
    const owner = valid({ password: "owners-password-1" });
    expect((await register(owner)).status).toBe(201);
    const oldCode = await codeFromMail(owner.email, VERIFY_SUBJECT);
    const stranger = { ...owner, name: "CALL +20999 FOR REFUND", phone_number: "+201009999999", country: "EG", password: "someone-elses-2" };
    expect((await register(stranger, randomIp())).status).toBe(201);
    const newCode = await codeFromMail(owner.email, VERIFY_SUBJECT, 2);
    // The contesting sign-up changed none of the details, and no mail to the address says the stranger's words.
    expect(await userByEmail(owner.email)).toMatchObject({ name: "Salma Hany", phoneNumber: "+201001234567", country: null, registrationContested: true });
    if (oldCode !== newCode) expect((await verify(owner.email, oldCode)).status).toBe(400);
    // The code proves the mailbox, not whose password is whose: verified, with no password at all.
    const verified = await verify(owner.email, newCode);
    expect(verified.status).toBe(200);
    expect(await verified.json()).toEqual({ message: "Your e-mail is verified. It was signed up more than once, so choose your password: we sent you a 6-digit code.", choosePassword: true });
    for (const password of ["owners-password-1", "someone-elses-2"]) expect((await login({ email: owner.email, password })).status).toBe(401);
    // The mailbox gets a reset code; the password chosen with it is the one that works.
    const resetCode = await codeFromMail(owner.email, RESET_SUBJECT);
    const mails = await mailbox(owner.email);
    expect(mails.length).toBe(3);
    for (const m of mails) {
      expect(m.text).not.toContain("CALL");
      expect(m.text.startsWith("Hello,\n\n")).toBe(true);
    }
    expect((await call("/api/users/reset-password", { body: { email: owner.email, resetCode, newPassword: "chosen-by-owner-3" } })).status).toBe(200);
    expect((await login({ email: owner.email, password: "chosen-by-owner-3" })).status).toBe(200);
    expect(await userByEmail(owner.email)).toMatchObject({ registrationContested: false, name: "Salma Hany", phoneNumber: "+201001234567" });
  });

  it("greets nobody in a reset code for an address not proven yet, and a verified account's owner by name", async () => {
    const squatted = valid({ name: "CALL +20100 FOR A REFUND" });
    expect((await register(squatted)).status).toBe(201);
    expect((await call("/api/users/forgot-password", { body: { email: squatted.email } })).status).toBe(200);
    const [reset] = await waitForMails(squatted.email, RESET_SUBJECT);
    expect(reset!.text.startsWith("Hello,\n\n")).toBe(true);
    expect(reset!.text).not.toContain("CALL");
    const owner = await createUser({ name: "Owner Person" });
    expect((await call("/api/users/forgot-password", { body: { email: owner.email } })).status).toBe(200);
    const [theirs] = await waitForMails(owner.email, RESET_SUBJECT);
    expect(theirs!.text.startsWith("Hello Owner Person,")).toBe(true);
  });

  it("lets its owner sign an unverified address up again with the same password (a corrected name): nothing is contested", async () => {
    const first = valid({ password: "first-password-1" });
    expect((await register(first)).status).toBe(201);
    expect((await register({ ...first, name: "Second Try" })).status).toBe(201);
    const newCode = await codeFromMail(first.email, VERIFY_SUBJECT, 2);
    expect(await (await verify(first.email, newCode)).json()).toEqual({ message: "Your e-mail is verified. Welcome to Cohort!" });
    expect((await login({ email: first.email, password: "first-password-1" })).status).toBe(200);
    expect((await userByEmail(first.email))!.name).toBe("Second Try");
  });

  it("limits new codes per e-mail address and client to 5 in 10 minutes: the spec's sentence, and Retry-After within 10 minutes", async () => {
    const input = valid();
    const ip = randomIp();
    for (let i = 0; i < 5; i++) expect((await register(input, ip)).status).toBe(201);
    const res = await register(input, ip);
    expect(res.status).toBe(429);
    const wait = Number(res.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(9 * 60);
    expect(wait).toBeLessThanOrEqual(10 * 60);
    expect(await res.json()).toEqual({ code: "rate_limited", message: "An error occurred during registration. please try again after 10 minutes." });
  });
});

describe("POST /api/users/verify-email", () => {
  async function registered() {
    const input = valid();
    expect((await register(input)).status).toBe(201);
    return { ...input, code: await codeFromMail(input.email, VERIFY_SUBJECT) };
  }
  const wrong = (code: string, n = 1) => String((Number(code) + n) % 1_000_000).padStart(6, "0");

  it("verifies the address with the code; then login works", async () => {
    const r = await registered();
    expect((await login(r)).status).toBe(403);
    const res = await verify(r.email.toUpperCase(), r.code);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: "Your e-mail is verified. Welcome to Cohort!" });
    expect((await userByEmail(r.email))!.emailVerifiedAt).toBeInstanceOf(Date);
    expect((await login(r)).status).toBe(200);
  });

  it("accepts the code with spaces, as the form shows it", async () => {
    const r = await registered();
    expect((await verify(r.email, `${r.code.slice(0, 3)} ${r.code.slice(3)}`)).status).toBe(200);
  });

  it("refuses a wrong code with 'Verification failed'", async () => {
    const r = await registered();
    const res = await verify(r.email, wrong(r.code));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: "Verification failed", code: "invalid_code", fields: { code: "Verification failed" } });
    expect((await userByEmail(r.email))!.emailVerifiedAt).toBeNull();
  });

  it("burns a code after 5 wrong tries, and a stranger's wrong codes never keep the owner from verifying", async () => {
    const r = await registered();
    const stranger = randomIp();
    const verifyFrom = (code: string, ip: string) => call("/api/users/verify-email", { body: { email: r.email, code }, ip });
    for (let i = 1; i <= 5; i++) expect((await verifyFrom(wrong(r.code, i), stranger)).status).toBe(400);
    // The 6th try meets a burned code: even the right one fails now.
    expect((await verifyFrom(r.code, randomIp())).status).toBe(400);
    for (let i = 6; i <= 10; i++) expect((await verifyFrom(wrong(r.code, i), stranger)).status).toBe(400);
    expect((await verifyFrom(wrong(r.code, 11), stranger)).status).toBe(429);
    // The owner asks for a new code and uses it straight from the mailbox.
    expect((await call("/api/users/resend-verification", { body: { email: r.email } })).status).toBe(200);
    const fresh = await codeFromMail(r.email, VERIFY_SUBJECT, 2);
    expect((await verifyFrom(fresh, randomIp())).status).toBe(200);
  });

  it("uses a code once", async () => {
    const r = await registered();
    expect((await verify(r.email, r.code)).status).toBe(200);
    expect((await verify(r.email, r.code)).status).toBe(400);
  });

  it("refuses an expired code", async () => {
    const r = await registered();
    const user = await userByEmail(r.email);
    await db().update(s.oneTimeCodes).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(s.oneTimeCodes.userId, user!.id));
    expect((await verify(r.email, r.code)).status).toBe(400);
  });

  it("answers an unknown address like a wrong code", async () => {
    const res = await verify(newEmail(), "123456");
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).message).toBe("Verification failed");
  });

  it.each([["12345"], ["12345a"], ["1234567"], [""]])("refuses the malformed code %j with 'Enter the full 6-digit code'", async (code) => {
    const res = await verify(newEmail(), code);
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).fields?.code).toBe("Enter the full 6-digit code");
  });
});

describe("POST /api/users/resend-verification", () => {
  const resend = (email: string, ip?: string) => call("/api/users/resend-verification", { body: { email }, ip });

  it("sends a new code that replaces the old one", async () => {
    const input = valid();
    await register(input);
    const first = await codeFromMail(input.email, VERIFY_SUBJECT);
    const res = await resend(input.email);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const second = await codeFromMail(input.email, VERIFY_SUBJECT, 2);
    if (first !== second) expect((await verify(input.email, first)).status).toBe(400);
    expect((await verify(input.email, second)).status).toBe(200);
  });

  it("answers the same for unknown and verified addresses and sends them nothing", async () => {
    const unknown = newEmail();
    const verified = await createUser();
    const a = await resend(unknown);
    const b = await resend(verified.email);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(await a.json()).toEqual(await b.json());
    // The mail work runs in the background: run it through the service and wait for it to finish.
    const { ctx, settle } = serviceContext();
    for (const email of [unknown, verified.email]) await resendCode(ctx, { email });
    await settle();
    expect(await mailbox(unknown)).toEqual([]);
    expect(await mailbox(verified.email)).toEqual([]);
  });

  it("limits requests per IP across addresses", async () => {
    const ip = randomIp();
    for (let i = 0; i < 30; i++) expect((await resend(newEmail(), ip)).status).toBe(200);
    const res = await resend(newEmail(), ip);
    expect(res.status).toBe(429);
    // 30 in 10 minutes.
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(9 * 60);
    expect(Number(res.headers.get("retry-after"))).toBeLessThanOrEqual(10 * 60);
  });

  it("counts exactly under concurrency: parallel requests for one address from one client get exactly 5 through", async () => {
    const email = newEmail();
    const ip = randomIp();
    const results = await Promise.all(Array.from({ length: 12 }, () => resend(email, ip)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((x) => x === 200)).toHaveLength(5);
    expect(statuses.filter((x) => x === 429)).toHaveLength(7);
  });

  it("a stranger asking for codes does not stop the owner from getting one; 10 in 10 minutes per address in all", async () => {
    const email = newEmail();
    const stranger = randomIp();
    for (let i = 0; i < 5; i++) expect((await resend(email, stranger)).status).toBe(200);
    expect((await resend(email, stranger)).status).toBe(429);
    expect((await resend(email, randomIp())).status).toBe(200);
    // Against mail bombing from many addresses: 10 codes in 10 minutes for one address, from anywhere (6 so far).
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await resend(email, randomIp())).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it("requires an e-mail ('Please enter your email.')", async () => {
    const res = await call("/api/users/resend-verification", { body: {} });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).message).toBe("Please enter your email.");
  });
});

describe("the account e-mails' language", () => {
  it("is the one the person registered in: Arabic from the Arabic register screen, English otherwise, codes alike", async () => {
    const register = (email: string, lang: string) =>
      SELF.fetch(`${ORIGIN}/auth/register`, {
        method: "POST",
        headers: { origin: ORIGIN, cookie: `lang=${lang}`, "content-type": "application/x-www-form-urlencoded", "cf-connecting-ip": randomIp() },
        body: new URLSearchParams({ name: "نور علي", email, password: "nour-password-1", confirmPassword: "nour-password-1", country: "EG", phone: "1001234567" }).toString(),
        redirect: "manual",
      });
    const arabic = `${unique("ar-mail")}@test.example`;
    expect((await register(arabic, "ar")).status).toBe(200);
    const [mail] = await waitForMails(arabic, /^رمز التحقق في كوهورت: \d{6}$/);
    // A code that proves a mailbox greets nobody by the name typed at sign-up (whoever typed it).
    expect(mail!.text.startsWith("مرحبًا،\n\n")).toBe(true);
    expect(mail!.text).not.toContain("نور");
    expect(mail!.text).toMatch(/رمز التحقق الخاص بك هو \d{6}\. تنتهي صلاحيته بعد 10 دقائق\./);
    expect(mail!.html).toContain('dir="rtl"');
    // Forgot password follows the same language.
    expect((await call("/api/users/forgot-password", { body: { email: arabic } })).status).toBe(200);
    await waitForMails(arabic, /^رمز إعادة تعيين كلمة المرور في كوهورت: \d{6}$/);

    const english = `${unique("en-mail")}@test.example`;
    expect((await register(english, "en")).status).toBe(200);
    const [plain] = await waitForMails(english, VERIFY_SUBJECT);
    expect(plain!.subject).toMatch(/^Your Cohort verification code: \d{6}$/);
    expect(plain!.text).toContain("It expires in 10 minutes.");
  });

  it("of an account that never chose one is the one it asks in: a reset code asked from an Arabic page is Arabic", async () => {
    const user = await createUser();
    await db().update(s.users).set({ locale: null }).where(eq(s.users.id, user.id));
    expect((await call("/api/users/forgot-password", { body: { email: user.email }, headers: { cookie: "lang=ar" } })).status).toBe(200);
    await waitForMails(user.email, /^رمز إعادة تعيين كلمة المرور في كوهورت: \d{6}$/);
    // An account's own choice wins over the page's.
    const english = await createUser();
    await db().update(s.users).set({ locale: "en" }).where(eq(s.users.id, english.id));
    expect((await call("/api/users/forgot-password", { body: { email: english.email }, headers: { cookie: "lang=ar" } })).status).toBe(200);
    await waitForMails(english.email, RESET_SUBJECT);
  });

  it("chosen by an account comes with it to a browser where none was chosen, and one chosen on the browser stays", async () => {
    const user = await createUser();
    await db().update(s.users).set({ locale: "ar" }).where(eq(s.users.id, user.id));
    const signInPage = (headers: Record<string, string>) =>
      SELF.fetch(`${ORIGIN}/auth/login`, {
        method: "POST",
        headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded", "cf-connecting-ip": randomIp(), ...headers },
        body: new URLSearchParams({ email: user.email, password: user.password }).toString(),
        redirect: "manual",
      });
    // A new phone whose browser asks for English: the account's Arabic comes with the sign-in, for a year.
    const phone = await signInPage({ "accept-language": "en-GB,en;q=0.9" });
    expect(phone.status).toBe(302);
    expect(phone.headers.getSetCookie()).toContain("lang=ar; Path=/; Max-Age=31536000; SameSite=Lax");
    // Already reading Arabic, or English chosen on this browser with the switch: no language cookie is set.
    for (const cookie of ["lang=ar", "lang=en"]) {
      const res = await signInPage({ cookie });
      expect(res.status).toBe(302);
      expect(res.headers.getSetCookie().some((c) => c.startsWith("lang="))).toBe(false);
    }
    // An account that never chose stays as the browser asks, and signing in chooses nothing for it.
    await db().update(s.users).set({ locale: null }).where(eq(s.users.id, user.id));
    const unchosen = await signInPage({ "accept-language": "ar" });
    expect(unchosen.headers.getSetCookie().some((c) => c.startsWith("lang="))).toBe(false);
    expect((await db().select({ locale: s.users.locale }).from(s.users).where(eq(s.users.id, user.id)))[0]!.locale).toBeNull();
  });
});
