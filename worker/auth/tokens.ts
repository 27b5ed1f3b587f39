/**
 * Access tokens (short-lived JWTs) and refresh tokens (random strings stored only as hashes).
 *
 * The access token carries `sub`, `sid` (session id), `role` and `exp` in seconds (platform-spec §3); it is
 * verified with the algorithm, issuer and audience pinned. The role inside it is a hint for the client only:
 * every authenticated request re-reads the session and the user's current role from the database.
 */
import { decodeProtectedHeader, jwtVerify, SignJWT } from "jose";
import { z } from "zod";
import type { Settings } from "../env";
import { base64url } from "../services/ids";

/** 15 minutes. The spec's client keeps its own 3-minute expiry marker and refreshes well before this. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const ISSUER = "cohort";
const AUDIENCE = "cohort-api";
const ALGORITHM = "HS256";
const REFRESH_TOKEN_BYTES = 32;

const enc = new TextEncoder();

/** Each token kind gets its own key, derived from AUTH_SECRET, so one kind can never pass for another. */
export function derivedKey(settings: Settings, purpose: string): Uint8Array<ArrayBuffer> {
  return enc.encode(`${purpose}:${settings.authSecret}`);
}

const accessClaims = z.object({
  sub: z.string().min(1),
  sid: z.string().min(1),
  role: z.enum(["admin", "instructor", "user"]),
  exp: z.number(),
});
export type AccessClaims = z.infer<typeof accessClaims>;

export async function signAccessToken(
  settings: Settings,
  who: { userId: string; sessionId: string; role: AccessClaims["role"] },
): Promise<string> {
  return new SignJWT({ sid: who.sessionId, role: who.role })
    .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
    .setSubject(who.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
    .sign(derivedKey(settings, "access"));
}

/**
 * True when a compact JWT's header names exactly `alg`. Checked before jose verifies the token: jose refuses
 * other algorithms too, but it rejects a promise before anything awaits it, which workerd reports as an
 * unhandled rejection.
 */
export function hasAlgorithm(token: string, alg: string): boolean {
  // Same for a segment that is not valid base64url (a length of 4n+1 can never be): refuse it here.
  if (!token.split(".").every((part) => /^[A-Za-z0-9_-]*$/.test(part) && part.length % 4 !== 1)) return false;
  try {
    return decodeProtectedHeader(token).alg === alg;
  } catch {
    return false;
  }
}

/** The token's claims when its signature, algorithm, issuer, audience and expiry all check out; otherwise null. */
export async function verifyAccessToken(settings: Settings, token: string): Promise<AccessClaims | null> {
  if (!hasAlgorithm(token, ALGORITHM)) return null;
  try {
    const { payload } = await jwtVerify(token, derivedKey(settings, "access"), {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      audience: AUDIENCE,
    });
    const claims = accessClaims.safeParse(payload);
    return claims.success ? claims.data : null;
  } catch {
    return null;
  }
}

/** The access token from an Authorization header: raw (as the original client sends it) or `Bearer <token>`. */
export function accessTokenFromHeader(header: string | null | undefined): string | null {
  if (!header) return null;
  const token = header.replace(/^Bearer\s+/i, "").trim();
  return token.length > 0 ? token : null;
}

/** A fresh refresh token: 32 random bytes, base64url. */
export function newRefreshToken(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(REFRESH_TOKEN_BYTES)));
}

/** SHA-256 of a high-entropy token, base64url: what the database stores instead of the token. */
export async function hashToken(token: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", enc.encode(token))));
}
