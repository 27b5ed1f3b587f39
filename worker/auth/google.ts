/**
 * Google sign-in, the OAuth 2.0 authorization-code flow with PKCE (S256), state and nonce.
 *
 * The start request keeps `state`, the PKCE verifier and the nonce in a signed, 10-minute, httpOnly cookie
 * scoped to /api/users/google (no database row for abandoned attempts). The callback checks the state against
 * that cookie, exchanges the code (with the verifier) at Google's token endpoint and verifies the ID token with
 * jose against Google's published keys: signature, RS256 only, issuer, audience (our client id), expiry and nonce.
 * The endpoints are settings (worker/env.ts) so the tests can point them at a local stand-in.
 */
import { createRemoteJWKSet, jwtVerify, SignJWT } from "jose";
import { z } from "zod";
import type { GoogleSettings, Settings } from "../env";
import { AppError } from "../http/errors";
import { base64url } from "../services/ids";
import { isSecureOrigin, serializeCookie } from "./cookies";
import { derivedKey, hasAlgorithm } from "./tokens";

export const GOOGLE_STATE_COOKIE = "cohort_google";
export const GOOGLE_CALLBACK_PATH = "/api/users/google/callback";
const STATE_COOKIE_PATH = "/api/users/google";
const STATE_TTL_SECONDS = 600;
const STATE_AUDIENCE = "cohort-google-state";

/** 404 (not a 5xx: a missing setting is a state, not a failure) when Google credentials are not configured. */
export function requireGoogle(settings: Settings): GoogleSettings {
  if (!settings.google) throw new AppError(404, "google_not_configured", "Google sign-in is not set up.");
  return settings.google;
}

const fail = (message: string) => new AppError(400, "google_failed", message);

const random = () => base64url(crypto.getRandomValues(new Uint8Array(32)));

async function s256(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
}

const redirectUri = (requestUrl: URL) => `${requestUrl.origin}${GOOGLE_CALLBACK_PATH}`;

/** GET /api/users/google: where to send the browser, and the cookie that remembers this attempt. */
export async function startGoogleSignIn(settings: Settings, requestUrl: URL): Promise<{ location: string; setCookie: string }> {
  const google = requireGoogle(settings);
  const state = random();
  const verifier = random();
  const nonce = random();
  const cookie = await new SignJWT({ state, verifier, nonce })
    .setProtectedHeader({ alg: "HS256" })
    .setAudience(STATE_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${STATE_TTL_SECONDS}s`)
    .sign(derivedKey(settings, "google-state"));
  const url = new URL(google.authorizeUrl);
  url.search = new URLSearchParams({
    client_id: google.clientId,
    redirect_uri: redirectUri(requestUrl),
    response_type: "code",
    scope: "openid email profile",
    state,
    nonce,
    code_challenge: await s256(verifier),
    code_challenge_method: "S256",
    prompt: "select_account",
  }).toString();
  return {
    location: url.toString(),
    setCookie: serializeCookie(GOOGLE_STATE_COOKIE, cookie, { secure: isSecureOrigin(requestUrl), maxAge: STATE_TTL_SECONDS, path: STATE_COOKIE_PATH }),
  };
}

/** Clears the attempt cookie (the callback always does: an attempt is used once). */
export function clearGoogleStateCookie(requestUrl: URL): string {
  return serializeCookie(GOOGLE_STATE_COOKIE, "", { secure: isSecureOrigin(requestUrl), maxAge: 0, path: STATE_COOKIE_PATH });
}

export interface GoogleIdentity {
  sub: string;
  email: string;
  name: string | null;
}

export interface GoogleCallbackParams {
  code?: string;
  state?: string;
  error?: string;
}

const stateClaims = z.object({ state: z.string().min(1), verifier: z.string().min(43), nonce: z.string().min(1) });
const tokenResponse = z.object({ id_token: z.string().min(1) });
const idTokenClaims = z.object({
  sub: z.string().min(1),
  email: z.email(),
  // Google sends a boolean; some libraries have seen the string "true".
  email_verified: z.union([z.boolean(), z.literal("true").transform(() => true), z.literal("false").transform(() => false)]),
  nonce: z.string(),
  name: z.string().optional(),
});

const jwksByUrl = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
function jwks(url: string) {
  let set = jwksByUrl.get(url);
  if (!set) {
    set = createRemoteJWKSet(new URL(url));
    jwksByUrl.set(url, set);
  }
  return set;
}

function sameString(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** GET /api/users/google/callback: the Google identity behind a completed attempt, or 400 `google_failed`. */
export async function completeGoogleSignIn(
  settings: Settings,
  requestUrl: URL,
  stateCookie: string | null,
  params: GoogleCallbackParams,
): Promise<GoogleIdentity> {
  const google = requireGoogle(settings);
  if (params.error) throw fail("Google sign-in was cancelled.");
  const attempt = await readState(settings, stateCookie);
  if (!params.state || !sameString(params.state, attempt.state)) throw fail("This Google sign-in does not match the one we started. Please try again.");
  if (!params.code) throw fail("Google did not send an authorization code. Please try again.");

  const idToken = await exchangeCode(google, params.code, attempt.verifier, redirectUri(requestUrl));
  let payload: unknown;
  try {
    if (!hasAlgorithm(idToken, "RS256")) throw fail("unexpected algorithm");
    ({ payload } = await jwtVerify(idToken, jwks(google.jwksUrl), {
      algorithms: ["RS256"],
      issuer: google.issuers,
      audience: google.clientId,
    }));
  } catch {
    throw fail("Google's answer could not be verified. Please try again.");
  }
  const claims = idTokenClaims.safeParse(payload);
  if (!claims.success || !sameString(claims.data.nonce, attempt.nonce)) throw fail("Google's answer could not be verified. Please try again.");
  if (!claims.data.email_verified) throw fail("Your Google e-mail address is not verified.");
  return { sub: claims.data.sub, email: claims.data.email.toLowerCase(), name: claims.data.name?.trim() || null };
}

async function readState(settings: Settings, cookie: string | null): Promise<z.infer<typeof stateClaims>> {
  const expired = fail("Your Google sign-in took too long or was started elsewhere. Please try again.");
  if (!cookie || !hasAlgorithm(cookie, "HS256")) throw expired;
  try {
    const { payload } = await jwtVerify(cookie, derivedKey(settings, "google-state"), { algorithms: ["HS256"], audience: STATE_AUDIENCE });
    const parsed = stateClaims.safeParse(payload);
    if (!parsed.success) throw expired;
    return parsed.data;
  } catch {
    throw expired;
  }
}

async function exchangeCode(google: GoogleSettings, code: string, verifier: string, redirect: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(google.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        client_id: google.clientId,
        client_secret: google.clientSecret,
        redirect_uri: redirect,
      }),
    });
  } catch {
    throw fail("Google could not be reached. Please try again.");
  }
  const body = tokenResponse.safeParse(await res.json().catch(() => null));
  if (!res.ok || !body.success) throw fail("Google refused the sign-in. Please try again.");
  return body.data.id_token;
}
