import { env } from "cloudflare:test";
import { and, eq, like } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import * as s from "../../db/schema";
import { codeMatches, generateCode, hashCode } from "../../worker/auth/one-time-code";
import { getSettings } from "../../worker/env";
import { call, codeFromMail, createUser, login, mailbox, RESET_SUBJECT, signIn, waitForMails, type ErrorBody, type TestUser } from "./factories";
import { db, randomIp, unique } from "./helpers";

const forgot = (email: string, ip?: string) => call("/api/users/forgot-password", { body: { email }, ip });
const reset = (email: string, resetCode: string, newPassword = "a-brand-new-password", ip?: string) =>
  call("/api/users/reset-password", { body: { email, resetCode, newPassword }, ip });
/** PRODUCT.md §2: a code dies after 5 wrong tries. */
const CODE_TRIES = 5;
const wrong = (code: string, n = 1) => String((Number(code) + n) % 1_000_000).padStart(6, "0");

async function withResetCode(opts: Parameters<typeof createUser>[0] = {}): Promise<TestUser & { code: string }> {
  const user = await createUser(opts);
  expect((await forgot(user.email)).status).toBe(200);
  return { ...user, code: await codeFromMail(user.email, RESET_SUBJECT) };
}

const resetCodeRow = async (userId: string) =>
  (await db().select().from(s.oneTimeCodes).where(and(eq(s.oneTimeCodes.userId, userId), eq(s.oneTimeCodes.purpose, "reset-password"))))[0]!;

describe("POST /api/users/forgot-password", () => {
  it("answers the same words for known and unknown addresses, and mails only the known one", async () => {
    const user = await createUser();
    const unknown = `${unique("nobody")}@test.example`;
    const a = await forgot(user.email.toUpperCase());
    const b = await forgot(unknown);
    for (const res of [a, b]) {
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
    expect(await a.json()).toEqual({ message: "Password reset email sent. Please check your inbox." });
    expect(await b.json()).toEqual({ message: "Password reset email sent. Please check your inbox." });
    const [mail] = await waitForMails(user.email, RESET_SUBJECT);
    expect(mail!.text).toMatch(/expires in 10 minutes/);
    expect(await mailbox(unknown)).toEqual([]);
  });

  it("limits requests per address and client to 5 an hour, known address or not, in the same way", async () => {
    const user = await createUser();
    const unknown = `${unique("nobody")}@test.example`;
    const ip = randomIp();
    for (const email of [user.email, unknown]) {
      for (let i = 0; i < 5; i++) expect((await forgot(email, ip)).status).toBe(200);
      const res = await forgot(email, ip);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    }
  });

  it("requires an e-mail with the spec's words", async () => {
    const res = await call("/api/users/forgot-password", { body: { email: "" } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).message).toBe("Please enter your email.");
  });
});

describe("POST /api/users/reset-password", () => {
  it("sets the new password with the code and signs every device out", async () => {
    const user = await withResetCode();
    const phone = await signIn(user);
    const laptop = await signIn(user);

    const res = await reset(user.email, user.code);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: "Reset Successful , Please Login" });

    expect((await login(user)).status).toBe(401);
    expect((await login({ email: user.email, password: "a-brand-new-password" })).status).toBe(200);
    for (const device of [phone, laptop]) {
      expect((await call("/api/users/profile", { token: device.accessToken })).status).toBe(401);
      expect((await call("/api/users/refresh-token", { method: "POST", cookie: device.cookie })).status).toBe(401);
    }
    await waitForMails(user.email, /password was changed/);
  });

  it("accepts the code as the form shows it, with spaces", async () => {
    const user = await withResetCode();
    expect((await reset(user.email, `${user.code.slice(0, 3)} ${user.code.slice(3)}`)).status).toBe(200);
  });

  it("verifies an unverified address (the code proves the mailbox)", async () => {
    const user = await withResetCode({ verified: false });
    expect((await reset(user.email, user.code)).status).toBe(200);
    expect((await login({ email: user.email, password: "a-brand-new-password" })).status).toBe(200);
  });

  it("refuses a wrong code with 'Error: Invalid Reset Code' and keeps the password", async () => {
    const user = await withResetCode();
    const res = await reset(user.email, wrong(user.code));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: "Error: Invalid Reset Code", code: "invalid_code", fields: { resetCode: "Error: Invalid Reset Code" } });
    expect((await login(user)).status).toBe(200);
  });

  it("uses a code once", async () => {
    const user = await withResetCode();
    expect((await reset(user.email, user.code)).status).toBe(200);
    expect((await reset(user.email, user.code, "yet-another-password")).status).toBe(400);
  });

  it("refuses an expired code", async () => {
    const user = await withResetCode();
    await db().update(s.oneTimeCodes).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(s.oneTimeCodes.userId, user.id));
    expect((await reset(user.email, user.code)).status).toBe(400);
  });

  it("does not accept a verification code as a reset code", async () => {
    const user = await createUser({ verified: false });
    await call("/api/users/resend-verification", { body: { email: user.email } });
    const verifyCode = await codeFromMail(user.email, /verification code/);
    expect((await reset(user.email, verifyCode)).status).toBe(400);
  });

  it("answers an unknown address like a wrong code", async () => {
    const res = await reset(`${unique("nobody")}@test.example`, "123456");
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).message).toBe("Error: Invalid Reset Code");
  });

  it.each([
    ["a 5-digit code", { resetCode: "12345" }, "resetCode", "Must be 6 digits"],
    ["letters in the code", { resetCode: "12a456" }, "resetCode", "Must be 6 digits"],
    ["a short new password", { newPassword: "short" }, "newPassword", "Password must be at least 10 characters."],
  ])("refuses %s", async (_label, patch, field, message) => {
    const res = await call("/api/users/reset-password", { body: { email: "someone@test.example", resetCode: "123456", newPassword: "long-enough-pass", ...patch } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).fields?.[field]).toBe(message);
  });

  it("burns a code after 5 wrong tries", async () => {
    const user = await withResetCode();
    for (let i = 1; i <= CODE_TRIES; i++) expect((await reset(user.email, wrong(user.code, i))).status).toBe(400);
    expect((await reset(user.email, user.code)).status).toBe(400);
    expect((await resetCodeRow(user.id)).attempts).toBe(CODE_TRIES);
  });

  it("counts exactly under concurrency: parallel guesses never get more than 5 tries at a code", async () => {
    const user = await withResetCode();
    const guesses = Array.from({ length: 8 }, (_, i) => reset(user.email, wrong(user.code, i + 1)));
    const statuses = (await Promise.all(guesses)).map((r) => r.status);
    expect(statuses.every((x) => x === 400)).toBe(true);
    expect((await resetCodeRow(user.id)).attempts).toBe(CODE_TRIES);
    expect((await reset(user.email, user.code)).status).toBe(400);
  });

  it("allows one client at most 10 wrong codes per address per day, then 429 with Retry-After", async () => {
    const user = await createUser();
    const ip = randomIp();
    let failures = 0;
    // Two codes, each burned after 5 tries: 10 failures in all.
    for (let round = 1; round <= 2; round++) {
      await forgot(user.email, ip);
      const code = await codeFromMail(user.email, RESET_SUBJECT, round);
      for (let i = 1; i <= CODE_TRIES; i++, failures++) expect((await reset(user.email, wrong(code, i), undefined, ip)).status).toBe(400);
    }
    expect(failures).toBe(10);
    await forgot(user.email, ip);
    const fresh = await codeFromMail(user.email, RESET_SUBJECT, 3);
    const res = await reset(user.email, fresh, undefined, ip);
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(23 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
  });

  it("a stranger's wrong codes never lock the owner out: a freshly mailed code works at once", async () => {
    const user = await createUser();
    const stranger = randomIp();
    // Ten wrong codes from the stranger (two codes burned) reach the stranger's daily limit...
    for (let round = 1; round <= 2; round++) {
      await forgot(user.email, stranger);
      const code = await codeFromMail(user.email, RESET_SUBJECT, round);
      for (let i = 1; i <= CODE_TRIES; i++) expect((await reset(user.email, wrong(code, i), undefined, stranger)).status).toBe(400);
    }
    expect((await reset(user.email, "000000", undefined, stranger)).status).toBe(429);
    // ...and the owner, with the code from their mailbox, resets at once.
    await forgot(user.email);
    const mine = await codeFromMail(user.email, RESET_SUBJECT, 3);
    expect((await reset(user.email, mine, "owner-new-password-1")).status).toBe(200);
  });

  it("counts the daily limit exactly under concurrency", async () => {
    const user = await withResetCode();
    const ip = randomIp();
    const statuses = (await Promise.all(Array.from({ length: 16 }, (_, i) => reset(user.email, wrong(user.code, i + 1), undefined, ip)))).map((r) => r.status);
    expect(statuses.filter((x) => x === 400)).toHaveLength(10);
    expect(statuses.filter((x) => x === 429)).toHaveLength(6);
  });

  it("does not count a right code as a failure", async () => {
    const user = await createUser();
    const ip = randomIp();
    for (let round = 1; round <= 11; round++) {
      // Only the code-request limits are cleared between rounds; the failure count of this client is kept.
      await db().delete(s.rateLimits).where(like(s.rateLimits.key, `code-request:%`));
      await forgot(user.email, ip);
      const code = await codeFromMail(user.email, RESET_SUBJECT, round);
      expect((await reset(user.email, code, `new-password-${round}`, ip)).status).toBe(200);
    }
  });
});

describe("one-time code generation and storage", () => {
  it("draws 6 digits, zero-padded", () => {
    for (let i = 0; i < 500; i++) expect(generateCode()).toMatch(/^\d{6}$/);
  });

  it("rejects random values above the last multiple of 10^6, so every code is equally likely", () => {
    const limit = Math.floor(2 ** 32 / 1_000_000) * 1_000_000;
    const draws = [2 ** 32 - 1, limit, limit - 1];
    const spy = vi.spyOn(crypto, "getRandomValues").mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
      (array as unknown as Uint32Array)[0] = draws.shift()!;
      return array;
    });
    expect(generateCode()).toBe(String((limit - 1) % 1_000_000).padStart(6, "0"));
    expect(spy).toHaveBeenCalledTimes(3);
  });

  it("stores an HMAC bound to the purpose and the user, never the code", async () => {
    const settings = getSettings(env);
    const hash = await hashCode(settings, "reset-password", "user-1", "123456");
    expect(hash).not.toContain("123456");
    expect(await codeMatches(settings, "reset-password", "user-1", "123456", hash)).toBe(true);
    expect(await codeMatches(settings, "verify-email", "user-1", "123456", hash)).toBe(false);
    expect(await codeMatches(settings, "reset-password", "user-2", "123456", hash)).toBe(false);
    expect(await codeMatches(settings, "reset-password", "user-1", "123457", hash)).toBe(false);
    const otherSecret = { ...settings, authSecret: "a-different-secret-a-different-secret!!" };
    expect(await codeMatches(otherSecret, "reset-password", "user-1", "123456", hash)).toBe(false);
  });
});


/** The reset page (/auth/forget-password) opened without a code asks for one itself, as a plain form too. */
describe("the reset page's \"Send a new code\"", () => {
  const sendCode = (email: string, ip = randomIp()) => {
    const form = new FormData();
    form.set("intent", "send-code");
    form.set("email", email);
    return call("/auth/forget-password", { form, ip });
  };

  it("mails a reset code to a known address and says the same for an unknown one, whose address gets nothing", async () => {
    const user = await createUser();
    const unknown = `${unique("nobody")}@test.example`;
    for (const res of [await sendCode(user.email), await sendCode(unknown)]) {
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("Password reset email sent. Please check your inbox.");
    }
    const code = await codeFromMail(user.email, RESET_SUBJECT);
    expect(code).toMatch(/^\d{6}$/);
    expect(await mailbox(unknown)).toEqual([]);
    // The code it sent resets the password.
    expect((await reset(user.email, code, "set-from-the-page")).status).toBe(200);
    expect((await login({ email: user.email, password: "set-from-the-page" })).status).toBe(200);
  });

  it("refuses an address that is not one, and keeps the forgot-password limit of 5 in 10 minutes per address", async () => {
    const bad = await sendCode("not-an-address");
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Please enter a valid e-mail address.");
    const user = await createUser();
    const ip = randomIp();
    for (let i = 0; i < 5; i++) expect((await sendCode(user.email, ip)).status).toBe(200);
    const sixth = await sendCode(user.email, ip);
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get("retry-after")).toMatch(/^\d+$/);
    // How long to wait, in words: the limit is 5 in 10 minutes, so about 10 minutes.
    expect(await sixth.text()).toMatch(/Too many codes asked for this address\. Please try again in (9|10) minutes\./);
  });
});
