import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { derivedKey, signAccessToken } from "../../worker/auth/tokens";
import { getSettings } from "../../worker/env";
import { call, COOKIE, createUser, login, refreshTokenSet, signIn, type ErrorBody, type SignedIn } from "./factories";
import { db } from "./helpers";

const settings = () => getSettings(env);
const profile = (token: string) => call("/api/users/profile", { token });
const refreshWith = (cookie: string | undefined, origin?: string | null) => call("/api/users/refresh-token", { method: "POST", cookie, origin });
const sessionRow = async (id: string) => (await db().select().from(s.sessions).where(eq(s.sessions.id, id)))[0]!;

describe("access tokens", () => {
  it("are accepted raw (as the original client sends them) and with a Bearer prefix", async () => {
    const me = await signIn(await createUser());
    expect((await profile(me.accessToken)).status).toBe(200);
    expect((await profile(`Bearer ${me.accessToken}`)).status).toBe(200);
  });

  it.each([
    ["garbage", async () => "not-a-jwt"],
    ["a token signed with another key", async (me: SignedIn) =>
      new SignJWT({ sid: me.sessionId, role: "user" }).setProtectedHeader({ alg: "HS256" }).setSubject(me.user.id).setIssuer("cohort").setAudience("cohort-api").setExpirationTime("5m").sign(new TextEncoder().encode("another-secret-another-secret-another"))],
    ["a token for another audience", async (me: SignedIn) =>
      new SignJWT({ sid: me.sessionId, role: "user" }).setProtectedHeader({ alg: "HS256" }).setSubject(me.user.id).setIssuer("cohort").setAudience("cohort-realtime").setExpirationTime("5m").sign(derivedKey(settings(), "access"))],
    ["a token from another issuer", async (me: SignedIn) =>
      new SignJWT({ sid: me.sessionId, role: "user" }).setProtectedHeader({ alg: "HS256" }).setSubject(me.user.id).setIssuer("someone-else").setAudience("cohort-api").setExpirationTime("5m").sign(derivedKey(settings(), "access"))],
    ["an expired token", async (me: SignedIn) =>
      new SignJWT({ sid: me.sessionId, role: "user" }).setProtectedHeader({ alg: "HS256" }).setSubject(me.user.id).setIssuer("cohort").setAudience("cohort-api").setExpirationTime(Math.floor(Date.now() / 1000) - 5).sign(derivedKey(settings(), "access"))],
    ["an unsigned (alg none) token", async (me: SignedIn) => {
      const b64 = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
      return `${b64({ alg: "none", typ: "JWT" })}.${b64({ sub: me.user.id, sid: me.sessionId, role: "admin", iss: "cohort", aud: "cohort-api", exp: Math.floor(Date.now() / 1000) + 300 })}.`;
    }],
    ["a token naming another user's session", async (me: SignedIn) => {
      const other = await signIn(await createUser());
      return signAccessToken(settings(), { userId: me.user.id, sessionId: other.sessionId, role: "user" });
    }],
  ])("refuse %s with 401", async (_label, make) => {
    const me = await signIn(await createUser());
    const res = await profile(await make(me));
    expect(res.status).toBe(401);
    expect(((await res.json()) as ErrorBody).code).toBe("unauthorized");
  });

  it("take the role from the database, not from the token", async () => {
    const student = await signIn(await createUser());
    const claimsAdmin = await signAccessToken(settings(), { userId: student.user.id, sessionId: student.sessionId, role: "admin" });
    expect((await call("/api/users", { token: claimsAdmin })).status).toBe(403);

    await db().update(s.users).set({ role: "admin" }).where(eq(s.users.id, student.user.id));
    // The token still says "user"; the promotion counts at once.
    expect((await call("/api/users", { token: student.accessToken })).status).toBe(200);
  });

  it("stop working the moment the session is revoked or the account deleted", async () => {
    const a = await signIn(await createUser());
    await db().update(s.sessions).set({ revokedAt: new Date() }).where(eq(s.sessions.id, a.sessionId));
    expect((await profile(a.accessToken)).status).toBe(401);

    const b = await signIn(await createUser());
    await db().delete(s.users).where(eq(s.users.id, b.user.id));
    expect((await profile(b.accessToken)).status).toBe(401);
  });
});

describe("POST /api/users/refresh-token", () => {
  it("answers a new access token and rotates the refresh cookie", async () => {
    const me = await signIn(await createUser({ role: "instructor" }));
    const before = await sessionRow(me.sessionId);
    const res = await refreshWith(me.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as { accessToken: string; role: string };
    expect(body).toEqual({ accessToken: expect.any(String), role: "instructor" });
    expect((await profile(body.accessToken)).status).toBe(200);

    const next = refreshTokenSet(res);
    expect(next).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(next).not.toBe(me.refreshToken);
    const after = await sessionRow(me.sessionId);
    expect(after.refreshTokenHash).not.toBe(before.refreshTokenHash);
    expect(after.lastUsedAt.getTime()).toBeGreaterThanOrEqual(before.lastUsedAt.getTime());
    const rotations = await db().select().from(s.sessionRotations).where(eq(s.sessionRotations.sessionId, me.sessionId));
    expect(rotations.map((r) => r.tokenHash)).toEqual([before.refreshTokenHash]);

    // The new cookie works in turn.
    expect((await refreshWith(`${COOKIE}=${next}`)).status).toBe(200);
  });

  it("revokes the session when a rotated (old) token is presented again", async () => {
    const me = await signIn(await createUser());
    const first = await refreshWith(me.cookie);
    const current = `${COOKIE}=${refreshTokenSet(first)}`;
    const { accessToken } = (await first.json()) as { accessToken: string };

    const replay = await refreshWith(me.cookie);
    expect(replay.status).toBe(401);
    expect((await sessionRow(me.sessionId)).revokedAt).toBeInstanceOf(Date);
    // Everything of that session is dead now, including the legitimate newest token.
    expect((await refreshWith(current)).status).toBe(401);
    expect((await profile(accessToken)).status).toBe(401);
  });

  it("forgets rotated tokens older than the cookie's lifetime", async () => {
    const me = await signIn(await createUser());
    const first = await refreshWith(me.cookie);
    const rotations = () => db().select().from(s.sessionRotations).where(eq(s.sessionRotations.sessionId, me.sessionId));
    expect(await rotations()).toHaveLength(1);
    await db().update(s.sessionRotations).set({ rotatedAt: new Date(Date.now() - 31 * 24 * 3600_000) }).where(eq(s.sessionRotations.sessionId, me.sessionId));
    expect((await refreshWith(`${COOKIE}=${refreshTokenSet(first)}`)).status).toBe(200);
    const left = await rotations();
    expect(left).toHaveLength(1);
    expect(left[0]!.rotatedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it("lets only one of two parallel refreshes with the same token win", async () => {
    const me = await signIn(await createUser());
    const results = await Promise.all([refreshWith(me.cookie), refreshWith(me.cookie), refreshWith(me.cookie)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401]);
    // The losers presented a token that had just been rotated away: treated as reuse.
    expect((await sessionRow(me.sessionId)).revokedAt).toBeInstanceOf(Date);
  });

  it("answers the current role after a role change", async () => {
    const me = await signIn(await createUser());
    await db().update(s.users).set({ role: "instructor" }).where(eq(s.users.id, me.user.id));
    const res = await refreshWith(me.cookie);
    expect(((await res.json()) as { role: string }).role).toBe("instructor");
  });

  it.each([
    ["no cookie", undefined],
    ["an unknown token", `${COOKIE}=${"x".repeat(43)}`],
    ["a malformed cookie", `${COOKIE}=not base64!`],
  ])("answers 401 for %s", async (_label, cookie) => {
    const res = await refreshWith(cookie);
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it("answers 401 for an expired session", async () => {
    const me = await signIn(await createUser());
    await db().update(s.sessions).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(s.sessions.id, me.sessionId));
    expect((await refreshWith(me.cookie)).status).toBe(401);
  });

  it.each([
    ["another site's Origin", "https://evil.example"],
    ["no Origin", null],
  ])("refuses %s with 403 and leaves the session alone", async (_label, origin) => {
    const me = await signIn(await createUser());
    const res = await refreshWith(me.cookie, origin);
    expect(res.status).toBe(403);
    expect(((await res.json()) as ErrorBody).code).toBe("forbidden");
    expect((await refreshWith(me.cookie)).status).toBe(200);
  });

  it("accepts the configured PUBLIC_ORIGIN", async () => {
    const me = await signIn(await createUser());
    expect((await refreshWith(me.cookie, getSettings(env).publicOrigin)).status).toBe(200);
  });
});

describe("POST /api/users/logout", () => {
  it("revokes this session and clears the cookie", async () => {
    const me = await signIn(await createUser());
    const other = await signIn(me.user);
    const res = await call("/api/users/logout", { method: "POST", cookie: me.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const [cleared] = res.headers.getSetCookie();
    expect(cleared).toMatch(new RegExp(`^${COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax$`));

    expect((await profile(me.accessToken)).status).toBe(401);
    expect((await refreshWith(me.cookie)).status).toBe(401);
    // The same person's other device stays signed in.
    expect((await profile(other.accessToken)).status).toBe(200);
  });

  it("answers 200 without a cookie", async () => {
    expect((await call("/api/users/logout", { method: "POST" })).status).toBe(200);
  });

  it("signs out an API client that keeps no cookie by its access token, and only that session", async () => {
    const me = await signIn(await createUser());
    const other = await signIn(me.user);
    const res = await call("/api/users/logout", { method: "POST", token: me.accessToken });
    expect(res.status).toBe(200);
    expect((await profile(me.accessToken)).status).toBe(401);
    expect((await refreshWith(me.cookie)).status).toBe(401);
    expect((await profile(other.accessToken)).status).toBe(200);
  });

  it("signs out an API client that sends no Origin (curl, a phone app) by its access token", async () => {
    const me = await signIn(await createUser());
    const res = await call("/api/users/logout", { method: "POST", token: `Bearer ${me.accessToken}`, origin: null });
    expect(res.status).toBe(200);
    expect((await profile(me.accessToken)).status).toBe(401);
  });

  it("without an Origin, still refuses to act on the refresh cookie (another site's form could send it)", async () => {
    const me = await signIn(await createUser());
    const res = await call("/api/users/logout", { method: "POST", cookie: me.cookie, token: `Bearer ${me.accessToken}`, origin: null });
    expect(res.status).toBe(403);
    expect((await profile(me.accessToken)).status).toBe(200);
    expect((await call("/api/users/logout", { method: "POST", token: `Bearer ${me.accessToken}`, origin: "https://evil.example" })).status).toBe(403);
    expect((await profile(me.accessToken)).status).toBe(200);
  });

  it("ends no session for an access token that does not verify", async () => {
    const me = await signIn(await createUser());
    const [head, body] = me.accessToken.split(".");
    const forged = `${head}.${body}.${"A".repeat(43)}`;
    expect((await call("/api/users/logout", { method: "POST", token: forged })).status).toBe(200);
    expect((await profile(me.accessToken)).status).toBe(200);
  });

  it("refuses another site's Origin", async () => {
    const me = await signIn(await createUser());
    expect((await call("/api/users/logout", { method: "POST", cookie: me.cookie, origin: "https://evil.example" })).status).toBe(403);
    expect((await profile(me.accessToken)).status).toBe(200);
  });
});

describe("devices: GET /api/users/sessions and DELETE /api/users/sessions/{id}", () => {
  it("lists the caller's live sessions, marking the current one", async () => {
    const user = await createUser();
    const phone = await signIn(user, "Phone browser");
    const laptop = await signIn(user, "Laptop browser");
    const gone = await signIn(user, "Old tablet");
    await db().update(s.sessions).set({ revokedAt: new Date() }).where(eq(s.sessions.id, gone.sessionId));
    await signIn(await createUser(), "Someone else");

    const res = await call("/api/users/sessions", { token: laptop.accessToken });
    expect(res.status).toBe(200);
    const list = (await res.json()) as { id: string; userAgent: string; createdAt: string; lastUsedAt: string; current: boolean }[];
    expect(list.map((x) => x.id).sort()).toEqual([phone.sessionId, laptop.sessionId].sort());
    expect(list.find((x) => x.id === laptop.sessionId)).toEqual({
      id: laptop.sessionId,
      userAgent: "Laptop browser",
      createdAt: expect.any(String),
      lastUsedAt: expect.any(String),
      current: true,
    });
    expect(list.find((x) => x.id === phone.sessionId)?.current).toBe(false);
  });

  it("signs one of the caller's devices out", async () => {
    const user = await createUser();
    const phone = await signIn(user);
    const laptop = await signIn(user);
    const res = await call(`/api/users/sessions/${phone.sessionId}`, { method: "DELETE", token: laptop.accessToken });
    expect(res.status).toBe(200);
    expect((await profile(phone.accessToken)).status).toBe(401);
    expect((await refreshWith(phone.cookie)).status).toBe(401);
    expect((await profile(laptop.accessToken)).status).toBe(200);
  });

  it("answers 404 for another person's session and leaves it alone", async () => {
    const mine = await signIn(await createUser());
    const theirs = await signIn(await createUser());
    const res = await call(`/api/users/sessions/${theirs.sessionId}`, { method: "DELETE", token: mine.accessToken });
    expect(res.status).toBe(404);
    expect((await profile(theirs.accessToken)).status).toBe(200);
    expect((await call("/api/users/sessions/no-such-session", { method: "DELETE", token: mine.accessToken })).status).toBe(404);
  });
});

describe("login then refresh, end to end", () => {
  it("works with the cookie the login set", async () => {
    const user = await createUser();
    const res = await login(user);
    const cookie = `${COOKIE}=${refreshTokenSet(res)}`;
    const refreshed = await refreshWith(cookie);
    expect(refreshed.status).toBe(200);
  });
});
