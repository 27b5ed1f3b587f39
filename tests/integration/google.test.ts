/**
 * Google sign-in end to end against a local stand-in for Google: the Worker's GOOGLE_* endpoint settings point
 * at https://google.test/..., and `fetch` (which the Worker and jose use for the token endpoint and the JWKS) is
 * answered by the stand-in, which signs ID tokens with an RSA key generated here.
 */
import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from "jose";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as s from "../../db/schema";
import { api } from "../../worker/api";
import { getSettings, GOOGLE_DEFAULTS, type Bindings } from "../../worker/env";
import { base64url } from "../../worker/services/ids";
import { call, COOKIE, createUser, login } from "./factories";
import { callHandler, db, unique } from "./helpers";

const BASE = `https://google.test/${unique("idp")}`;
const CLIENT_ID = "cohort-test.apps.googleusercontent.com";
const ISSUER = "https://accounts.google.test";
const google: Bindings = {
  ...env,
  GOOGLE_CLIENT_ID: CLIENT_ID,
  GOOGLE_CLIENT_SECRET: "stand-in-secret",
  GOOGLE_AUTHORIZE_URL: `${BASE}/auth`,
  GOOGLE_TOKEN_URL: `${BASE}/token`,
  GOOGLE_JWKS_URL: `${BASE}/certs`,
  GOOGLE_ISSUER: ISSUER,
};

let signingKey: CryptoKey;
let jwks: { keys: unknown[] };
beforeAll(async () => {
  const pair = await generateKeyPair("RS256", { extractable: true });
  signingKey = pair.privateKey;
  jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: "stand-in-1", alg: "RS256", use: "sig" }] };
});

/** What the stand-in will put into the ID token for an authorization code, and how it will sign it. */
interface Grant {
  challenge: string;
  redirectUri: string;
  claims: JWTPayload;
  key?: CryptoKey | Uint8Array;
  alg?: string;
  tokenStatus?: number;
}
const grants = new Map<string, Grant>();
const tokenRequests: URLSearchParams[] = [];

async function s256(verifier: string) {
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
}

async function standIn(url: URL, init?: RequestInit): Promise<Response> {
  if (url.pathname.endsWith("/certs")) return Response.json(jwks);
  if (url.pathname.endsWith("/token") && init?.method === "POST") {
    const form = new URLSearchParams(String(init.body));
    tokenRequests.push(form);
    const grant = grants.get(form.get("code") ?? "");
    grants.delete(form.get("code") ?? "");
    const valid =
      grant &&
      form.get("grant_type") === "authorization_code" &&
      form.get("client_id") === CLIENT_ID &&
      form.get("client_secret") === "stand-in-secret" &&
      form.get("redirect_uri") === grant.redirectUri &&
      (await s256(form.get("code_verifier") ?? "")) === grant.challenge;
    if (!valid) return Response.json({ error: "invalid_grant" }, { status: 400 });
    if (grant.tokenStatus) return Response.json({ error: "server_error" }, { status: grant.tokenStatus });
    const alg = grant.alg ?? "RS256";
    const idToken = await new SignJWT(grant.claims).setProtectedHeader({ alg, kid: "stand-in-1" }).sign(grant.key ?? signingKey);
    return Response.json({ id_token: idToken, access_token: "stand-in-access", token_type: "Bearer", expires_in: 3599 });
  }
  return new Response("not found", { status: 404 });
}

beforeEach(() => {
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.href.startsWith(BASE)) return standIn(url, init);
    return realFetch(input, init);
  });
});

const get = (url: string, cookie?: string) => callHandler(api, new Request(url, { headers: cookie ? { cookie } : {} }), google);

interface Started {
  state: string;
  nonce: string;
  challenge: string;
  redirectUri: string;
  cookie: string;
}

async function start(): Promise<Started> {
  const res = await get("http://localhost/api/users/google");
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get("location")!);
  const setCookie = res.headers.getSetCookie()[0]!;
  const p = location.searchParams;
  return {
    state: p.get("state")!,
    nonce: p.get("nonce")!,
    challenge: p.get("code_challenge")!,
    redirectUri: p.get("redirect_uri")!,
    cookie: setCookie.split(";")[0]!,
  };
}

function claimsFor(st: Started, over: JWTPayload = {}): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: ISSUER,
    aud: CLIENT_ID,
    sub: unique("google-sub"),
    email: `${unique("g")}@gmail.test`,
    email_verified: true,
    name: "Google Person",
    nonce: st.nonce,
    iat: now,
    exp: now + 3600,
    ...over,
  };
}

/** Runs the whole flow: start, consent at the stand-in (with these claims), callback. */
async function signInWithGoogle(over: JWTPayload = {}, grantOver: Partial<Grant> = {}, tamper: (q: URLSearchParams, st: Started) => void = () => {}) {
  const st = await start();
  const code = unique("code");
  const claims = claimsFor(st, over);
  grants.set(code, { challenge: st.challenge, redirectUri: st.redirectUri, claims, ...grantOver });
  const q = new URLSearchParams({ code, state: st.state });
  tamper(q, st);
  const res = await get(`${st.redirectUri}?${q}`, st.cookie);
  return { res, html: await res.text(), claims, st };
}

function postedMessage(html: string): { type: string; accessToken?: string; error?: string } {
  const m = /var message = (\{.*?\});/.exec(html);
  expect(m).not.toBeNull();
  return JSON.parse(m![1]!);
}

describe("GET /api/users/google", () => {
  it("redirects to Google with state, nonce and a PKCE S256 challenge, remembered in a signed cookie", async () => {
    const res = await get("http://localhost/api/users/google");
    expect(res.status).toBe(302);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const location = new URL(res.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(`${BASE}/auth`);
    const p = location.searchParams;
    expect(p.get("client_id")).toBe(CLIENT_ID);
    expect(p.get("redirect_uri")).toBe("http://localhost/api/users/google/callback");
    expect(p.get("response_type")).toBe("code");
    expect(p.get("scope")).toBe("openid email profile");
    expect(p.get("code_challenge_method")).toBe("S256");
    expect(p.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(p.get("state")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(p.get("nonce")).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const [cookie] = res.headers.getSetCookie();
    expect(cookie).toMatch(/^cohort_google=[^;]+; Path=\/api\/users\/google; Max-Age=600; HttpOnly; SameSite=Lax$/);
    // The cookie holds the verifier, which must never appear in the URL.
    expect(location.href).not.toContain(cookie!.split(/[=;]/)[1]!);
  });

  it("answers 404 google_not_configured (never a 5xx) without Google credentials", async () => {
    for (const path of ["/api/users/google", "/api/users/google/callback?code=x&state=y"]) {
      const res = await SELF.fetch(`http://localhost${path}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ code: "google_not_configured", message: "Google sign-in is not set up." });
    }
  });

  it("defaults to Google's real endpoints", () => {
    const settings = getSettings({ ...env, GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "secret" });
    expect(settings.google).toEqual({
      clientId: "id",
      clientSecret: "secret",
      authorizeUrl: "https://accounts.google.com/o/oauth2/v2/auth",
      tokenUrl: "https://oauth2.googleapis.com/token",
      jwksUrl: "https://www.googleapis.com/oauth2/v3/certs",
      issuers: [...GOOGLE_DEFAULTS.issuers],
    });
    expect(getSettings(env).google).toBeNull();
  });
});

describe("GET /api/users/google/callback", () => {
  it("creates a verified account, opens a session and posts the access token to this origin only", async () => {
    const { res, html, claims } = await signInWithGoogle({ name: "Mariam Google" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("cache-control")).toBe("no-store");

    const message = postedMessage(html);
    expect(message).toEqual({ type: "cohort:google", accessToken: expect.any(String) });
    expect(html).toContain(`window.opener.postMessage(message, "http://localhost")`);
    expect(html).toContain("window.close()");
    const nonce = /<script nonce="([^"]+)">/.exec(html)?.[1];
    expect(nonce).toBeDefined();
    expect(res.headers.get("content-security-policy")).toContain(`'nonce-${nonce}'`);
    expect(res.headers.get("cross-origin-opener-policy")).toBe("unsafe-none");

    const cookies = res.headers.getSetCookie();
    expect(cookies.some((c) => /^cohort_google=; .*Max-Age=0/.test(c))).toBe(true);
    expect(cookies.some((c) => new RegExp(`^${COOKIE}=[A-Za-z0-9_-]{43}; Path=/; `).test(c))).toBe(true);

    const [user] = await db().select().from(s.users).where(eq(s.users.email, String(claims.email)));
    expect(user).toMatchObject({ name: "Mariam Google", role: "user", googleSub: claims.sub, passwordHash: null });
    expect(user!.emailVerifiedAt).toBeInstanceOf(Date);

    const profile = await call("/api/users/profile", { token: message.accessToken });
    expect(profile.status).toBe(200);
    expect(await profile.json()).toMatchObject({ _id: user!.id, googleLinked: true, hasPassword: false });

    // PKCE: the token request carried the verifier whose S256 is the challenge (the stand-in checked it).
    expect(tokenRequests.at(-1)!.get("code_verifier")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("signs a returning Google user in to the same account, even after their Google e-mail changed", async () => {
    const sub = unique("returning");
    const first = await signInWithGoogle({ sub });
    const second = await signInWithGoogle({ sub, email: `${unique("changed")}@gmail.test` });
    expect(second.res.status).toBe(200);
    const ids = await db().select({ id: s.users.id }).from(s.users).where(eq(s.users.googleSub, sub));
    expect(ids).toHaveLength(1);
    const me = await call("/api/users/profile", { token: postedMessage(second.html).accessToken });
    expect(((await me.json()) as { email: string }).email).toBe(first.claims.email);
  });

  it("links an existing verified account with the same e-mail, keeping its password and role", async () => {
    const existing = await createUser({ role: "instructor" });
    const { res, claims } = await signInWithGoogle({ email: existing.email.toUpperCase() });
    expect(res.status).toBe(200);
    const [row] = await db().select().from(s.users).where(eq(s.users.id, existing.id));
    expect(row).toMatchObject({ googleSub: claims.sub, role: "instructor" });
    expect((await login(existing)).status).toBe(200);
  });

  it("drops the unproven password of an unverified account with the same e-mail", async () => {
    const squatter = await createUser({ verified: false });
    const { res } = await signInWithGoogle({ email: squatter.email });
    expect(res.status).toBe(200);
    const [row] = await db().select().from(s.users).where(eq(s.users.id, squatter.id));
    expect(row!.passwordHash).toBeNull();
    expect(row!.emailVerifiedAt).toBeInstanceOf(Date);
    expect((await login(squatter)).status).toBe(401);
  });

  it("refuses an e-mail already linked to another Google account", async () => {
    const existing = await createUser({ googleSub: unique("other-sub") });
    const { res, html } = await signInWithGoogle({ email: existing.email });
    expect(res.status).toBe(409);
    expect(postedMessage(html).error).toMatch(/another Google account/);
  });

  const unverifiable = /could not be verified/;
  const refusals: [string, JWTPayload, Partial<Grant>, (q: URLSearchParams, st: Started) => void, RegExp][] = [
    ["a state that does not match", {}, {}, (q) => q.set("state", "forged-state"), /does not match the one we started/],
    ["a missing state", {}, {}, (q) => q.delete("state"), /does not match the one we started/],
    ["a nonce that does not match", { nonce: "another-nonce" }, {}, () => {}, unverifiable],
    ["a token for another audience", { aud: "someone-else.apps.googleusercontent.com" }, {}, () => {}, unverifiable],
    ["an expired token", { exp: Math.floor(Date.now() / 1000) - 60, iat: Math.floor(Date.now() / 1000) - 3700 }, {}, () => {}, unverifiable],
    ["another issuer", { iss: "https://evil.example" }, {}, () => {}, unverifiable],
    ["a token signed with an HMAC secret", {}, { alg: "HS256", key: new TextEncoder().encode("x".repeat(32)) }, () => {}, unverifiable],
    ["an unverified Google e-mail", { email_verified: false }, {}, () => {}, /e-mail address is not verified/],
    ["a refused code exchange", {}, { tokenStatus: 400 }, () => {}, /Google refused/],
    ["a cancelled consent", {}, {}, (q) => {
      q.delete("code");
      q.set("error", "access_denied");
    }, /cancelled/],
  ];
  it.each(refusals)("refuses %s with 400 and opens no session", async (_label, over, grantOver, tamper, reason) => {
    const before = await db().$count(s.sessions);
    const { res, html } = await signInWithGoogle(over, grantOver, tamper);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const message = postedMessage(html);
    expect(message.type).toBe("cohort:google");
    expect(message.error).toMatch(reason);
    // Also shown on the page itself (HTML-escaped) for a popup without an opener.
    expect(html).toContain(`<p>${message.error!.replace(/'/g, "&#39;")}</p>`);
    expect(message).not.toHaveProperty("accessToken");
    expect(res.headers.getSetCookie().some((c) => c.startsWith(`${COOKIE}=`))).toBe(false);
    expect(await db().$count(s.sessions)).toBe(before);
  });

  it("refuses a token signed by a key that is not Google's", async () => {
    const stranger = await generateKeyPair("RS256");
    const { res, html } = await signInWithGoogle({}, { key: stranger.privateKey });
    expect(res.status).toBe(400);
    expect(postedMessage(html).error).toMatch(unverifiable);
  });

  it("refuses a callback without the attempt's cookie (started in another browser)", async () => {
    const st = await start();
    const code = unique("code");
    grants.set(code, { challenge: st.challenge, redirectUri: st.redirectUri, claims: claimsFor(st) });
    const res = await get(`${st.redirectUri}?code=${code}&state=${st.state}`);
    expect(res.status).toBe(400);
    expect(postedMessage(await res.text()).error).toMatch(/took too long or was started elsewhere/);
  });

});
