import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { hashPassword, PBKDF2_ITERATIONS, verifyPassword } from "../../worker/auth/password";
import { getSettings } from "../../worker/env";
import { addMember, COOKIE, call, createGroup, createUser, login, refreshTokenSet, signIn, type ErrorBody, type TestUser } from "./factories";
import { db, randomIp, unique } from "./helpers";

const pepper = () => getSettings(env).passwordPepper;
const storedHash = async (id: string) => (await db().select({ h: s.users.passwordHash }).from(s.users).where(eq(s.users.id, id)))[0]!.h;

/** A hash in the stored format with another iteration count, as an older release would have written it. */
async function legacyHash(password: string, iterations: number): Promise<string> {
  const enc = new TextEncoder();
  const hmac = await crypto.subtle.importKey("raw", enc.encode(pepper()), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const material = await crypto.subtle.importKey("raw", await crypto.subtle.sign("HMAC", hmac, enc.encode(password)), "PBKDF2", false, ["deriveBits"]);
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const bits = new Uint8Array(await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, material, 256));
  const b64 = (b: Uint8Array) => btoa(String.fromCharCode(...b));
  return `pbkdf2-sha256$${iterations}$${b64(salt)}$${b64(bits)}`;
}

describe("password hashing", () => {
  it("uses exactly 100,000 PBKDF2 iterations: Cloudflare's production runtime refuses more", async () => {
    expect(PBKDF2_ITERATIONS).toBeLessThanOrEqual(100_000);
    expect(PBKDF2_ITERATIONS).toBe(100_000);
    const hash = await hashPassword("some-password", pepper());
    expect(hash.split("$")[1]).toBe("100000");
    expect(await verifyPassword("some-password", hash, pepper())).toEqual({ ok: true, needsRehash: false });
    expect(await verifyPassword("other-password", hash, pepper())).toEqual({ ok: false, needsRehash: false });
  });

  it("refuses stored hashes above the cap instead of running them", async () => {
    const hash = (await hashPassword("some-password", pepper())).replace("$100000$", "$200000$");
    expect(await verifyPassword("some-password", hash, pepper())).toEqual({ ok: false, needsRehash: false });
  });
});

describe("POST /api/users/login", () => {
  it("answers an access token and sets the httpOnly refresh cookie", async () => {
    const user = await createUser({ role: "instructor" });
    const res = await login({ email: user.email.toUpperCase(), password: user.password }, { headers: { "user-agent": "Firefox test" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as { message: string; accessToken: string; role: string; user: unknown };
    expect(body).toEqual({
      message: "Login Successfully",
      accessToken: expect.any(String),
      role: "instructor",
      user: { _id: user.id, name: user.name, email: user.email, role: "instructor" },
    });

    expect(decodeProtectedHeader(body.accessToken).alg).toBe("HS256");
    const claims = decodeJwt(body.accessToken);
    expect(claims).toMatchObject({ sub: user.id, role: "instructor", iss: "cohort", aud: "cohort-api" });
    const nowSeconds = Math.floor(Date.now() / 1000);
    expect(claims.exp).toBeGreaterThan(nowSeconds + 14 * 60);
    expect(claims.exp).toBeLessThanOrEqual(nowSeconds + 15 * 60 + 1);

    const [cookie] = res.headers.getSetCookie();
    expect(cookie).toMatch(new RegExp(`^${COOKIE}=[A-Za-z0-9_-]{43}; `));
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/;");
    expect(cookie).toContain(`Max-Age=${30 * 24 * 3600}`);
    expect(cookie).not.toContain("Secure"); // plain-http localhost only

    const [session] = await db().select().from(s.sessions).where(eq(s.sessions.id, String(claims.sid)));
    expect(session).toMatchObject({ userId: user.id, userAgent: "Firefox test", revokedAt: null });
    expect(session!.refreshTokenHash).not.toBe(refreshTokenSet(res));
  });

  it("sets a Secure __Host- cookie on https", async () => {
    const user = await createUser();
    const secure = await SELF.fetch("https://cohort.example/api/users/login", {
      method: "POST",
      headers: { "content-type": "application/json", "cf-connecting-ip": randomIp() },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    expect(secure.status).toBe(200);
    const [cookie] = secure.headers.getSetCookie();
    expect(cookie).toMatch(/^__Host-cohort_refresh=/);
    expect(cookie).toContain("; Secure");
  });

  it("answers a wrong password and an unknown e-mail identically", async () => {
    const user = await createUser();
    const wrong = await login({ email: user.email, password: "not-the-password" });
    const unknown = await login({ email: `${unique("nobody")}@test.example`, password: "not-the-password" });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: "The email or password is incorrect", code: "invalid_credentials" });
      expect(res.headers.getSetCookie()).toEqual([]);
    }
  });

  it("refuses an account without a password (Google-only) like a wrong password", async () => {
    const user = await createUser({ password: null, googleSub: unique("sub") });
    const res = await login({ email: user.email, password: "anything-at-all" });
    expect(res.status).toBe(401);
  });

  it("answers 403 email_not_verified for an unverified account, but only with the right password", async () => {
    const user = await createUser({ verified: false });
    expect((await login({ email: user.email, password: "not-the-password" })).status).toBe(401);
    const res = await login(user);
    expect(res.status).toBe(403);
    const body = (await res.json()) as ErrorBody;
    expect(body.code).toBe("email_not_verified");
    expect(body.message).toMatch(/verify your e-mail/);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it("requires both fields", async () => {
    const res = await call("/api/users/login", { body: { email: "" } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as ErrorBody;
    expect(body.code).toBe("validation_failed");
    expect(Object.keys(body.fields ?? {}).sort()).toEqual(["email", "password"]);
  });

  it("upgrades a hash with other parameters on login", async () => {
    const user = await createUser();
    await db().update(s.users).set({ passwordHash: await legacyHash(user.password, 1_000) }).where(eq(s.users.id, user.id));
    expect((await login(user)).status).toBe(200);
    const upgraded = await storedHash(user.id);
    expect(upgraded).toMatch(/^pbkdf2-sha256\$100000\$/);
    expect((await login(user)).status).toBe(200);
  });
});

describe("login limits", () => {
  it("refuses an account from a client after 10 wrong passwords in 15 minutes, even with the right one, with Retry-After", async () => {
    const user = await createUser();
    const ip = randomIp();
    for (let i = 0; i < 10; i++) expect((await login({ email: user.email, password: `wrong-password-${i}` }, { ip })).status).toBe(401);
    for (const attempt of [{ email: user.email, password: "wrong-again-1" }, user]) {
      const res = await login(attempt, { ip });
      expect(res.status).toBe(429);
      const retryAfter = Number(res.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(14 * 60);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      expect(((await res.json()) as ErrorBody).code).toBe("rate_limited");
    }
  });

  it("does not let strangers lock the owner out: 10 wrong passwords from 10 addresses leave the owner's login working", async () => {
    const user = await createUser();
    for (let i = 0; i < 10; i++) expect((await login({ email: user.email, password: `stranger-${i}` }, { ip: randomIp() })).status).toBe(401);
    const stranger = randomIp();
    for (let i = 0; i < 10; i++) expect((await login({ email: user.email, password: `stranger-again-${i}` }, { ip: stranger })).status).toBe(401);
    expect((await login(user, { ip: stranger })).status).toBe(429);
    // The owner, from their own address, is not affected by any of it.
    expect((await login(user, { ip: randomIp() })).status).toBe(200);
  });

  it("does not count successful logins", async () => {
    const user = await createUser();
    const ip = randomIp();
    for (let i = 0; i < 12; i++) expect((await login(user, { ip })).status).toBe(200);
  });

  it("counts exactly under concurrency: parallel wrong passwords get exactly 10 tries", async () => {
    const user = await createUser();
    const ip = randomIp();
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => login({ email: user.email, password: `parallel-wrong-${i}` }, { ip })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((x) => x === 401)).toHaveLength(10);
    expect(statuses.filter((x) => x === 429)).toHaveLength(6);
  });

  it("limits failures per IP across accounts: 50 in 15 minutes", async () => {
    const ip = randomIp();
    const results = await Promise.all(
      Array.from({ length: 53 }, (_, i) => login({ email: `${unique(`ip${i}`)}@test.example`, password: "wrong-password" }, { ip })),
    );
    expect(results.filter((r) => r.status === 401)).toHaveLength(50);
    const limited = results.filter((r) => r.status === 429);
    expect(limited).toHaveLength(3);
    expect(Number(limited[0]!.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

/**
 * Issue 20: after signing in, a student is sent to their course (when they have exactly one) or to My Courses,
 * never to the sales page; staff to their areas; a safe redirectTo still wins. The same rule answers a signed-in
 * visitor of the login page. The login page reached from a signed-out QR scan says that signing in finishes it.
 */
describe("where the login page sends people", () => {
  const formLogin = (user: { email: string; password: string }, redirectTo?: string) =>
    SELF.fetch("http://localhost/auth/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost", "cf-connecting-ip": randomIp(), accept: "text/html" },
      body: new URLSearchParams({ intent: "login", email: user.email, password: user.password, ...(redirectTo === undefined ? {} : { redirectTo }) }).toString(),
      redirect: "manual",
    });
  const landing = async (user: { email: string; password: string }, redirectTo?: string) => {
    const res = await formLogin(user, redirectTo);
    expect(res.status).toBe(302);
    return res.headers.get("location");
  };
  const signedInVisit = async (user: TestUser, redirectTo?: string) => {
    const session = await signIn(user);
    const q = redirectTo === undefined ? "" : `?${new URLSearchParams({ redirectTo })}`;
    const res = await SELF.fetch(`http://localhost/auth/login${q}`, { headers: { cookie: session.cookie }, redirect: "manual" });
    expect(res.status).toBe(302);
    return res.headers.get("location");
  };

  it("sends a student with no group to My Courses, not to the landing page", async () => {
    const student = await createUser();
    expect(await landing(student)).toBe("/my-courses");
    // A stored "/" (the landing page) is not a destination either.
    expect(await landing(student, "/")).toBe("/my-courses");
    expect(await signedInVisit(student)).toBe("/my-courses");
  });

  it("sends a student with exactly one course straight to it, its slug encoded (an Arabic slug too)", async () => {
    const student = await createUser();
    const group = await createGroup();
    const slug = `الخطافات-${group.slug}`;
    await db().update(s.groups).set({ slug }).where(eq(s.groups.id, group.id));
    await addMember(student, group, "special");
    // A pending request elsewhere is not a course.
    await addMember(student, await createGroup(), "pending");
    await addMember(student, await createGroup(), "left");
    const course = `/course/${encodeURIComponent(slug)}`;
    expect(await landing(student)).toBe(course);
    expect(await signedInVisit(student)).toBe(course);
  });

  it("sends a student with two courses, or only a draft one, to My Courses", async () => {
    const two = await createUser();
    await addMember(two, await createGroup(), "approved");
    await addMember(two, await createGroup(), "approved");
    expect(await landing(two)).toBe("/my-courses");
    const draft = await createUser();
    await addMember(draft, await createGroup({ status: "draft" }), "approved");
    expect(await landing(draft)).toBe("/my-courses");
  });

  it("keeps a safe redirectTo for a student, and sends staff to their areas", async () => {
    const student = await createUser();
    await addMember(student, await createGroup(), "approved");
    expect(await landing(student, "/content/some-course")).toBe("/content/some-course");
    expect(await landing(student, "//evil.example/x")).not.toContain("evil");
    expect(await landing(await createUser({ role: "instructor" }))).toBe("/instructor");
    expect(await landing(await createUser({ role: "admin" }))).toBe("/dashboard");
    expect(await signedInVisit(await createUser({ role: "admin" }), "/")).toBe("/dashboard");
  });

  it("says, in both languages, that signing in finishes a check-in begun by a QR scan", async () => {
    const back = `/attend/week-1?${new URLSearchParams({ pending: "p123" })}`;
    const page = async (redirectTo: string, lang?: "ar") => {
      const res = await SELF.fetch(`http://localhost/auth/login?${new URLSearchParams({ redirectTo })}`, { headers: lang ? { cookie: `lang=${lang}` } : {} });
      expect(res.status).toBe(200);
      return res.text();
    };
    const en = await page(back);
    expect(en).toContain("Your attendance code was accepted. Log in to finish checking in to the lecture.");
    expect(en).toMatch(/aria-describedby="login-check-in"/);
    expect(await page(back, "ar")).toContain("قُبل رمز الحضور. سجّل الدخول لإتمام تسجيل حضورك في المحاضرة.");
    // Any other redirect says nothing of the kind.
    expect(await page("/attend/week-1")).not.toContain("login-check-in");
    expect(await page("/my-courses")).not.toContain("login-check-in");
  });
});
