/**
 * Who a check-in comes from, beyond the account (ADR 0018): the browser (a random id in an HttpOnly cookie that
 * outlives sign-outs and account switches) and the client address. Both are stored only as keyed hashes: enough to
 * see that two check-ins share one, never the cookie or the address itself. The browser cookie is also what a
 * signed-out QR scan's pending check-in belongs to.
 */
import { isSecureOrigin, readCookie, serializeCookie } from "../auth/cookies";
import { derivedKey } from "../auth/tokens";
import type { Settings } from "../env";
import { base64url } from "./ids";

export const BROWSER_COOKIE = "__Host-cohort_browser";
export const BROWSER_COOKIE_INSECURE = "cohort_browser";
/** A year: the cookie names the browser, not a sign-in. */
export const BROWSER_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

/** What a check-in knows of its client besides the viewer and the address (ServiceContext.ip). */
export interface CheckinClient {
  /** The browser cookie's value, or null (an API client without cookies). */
  browser: string | null;
}

const BROWSER_ID = /^[A-Za-z0-9_-]{43}$/;

/** The browser cookie a request carries (null when absent or not ours). */
export function browserOf(request: Request): string | null {
  const secure = isSecureOrigin(new URL(request.url));
  const value = readCookie(request, secure ? BROWSER_COOKIE : BROWSER_COOKIE_INSECURE);
  return value && BROWSER_ID.test(value) ? value : null;
}

/**
 * The request's browser id, minting one when it has none: `setCookie` is then the Set-Cookie value to send with the
 * response (HttpOnly, SameSite=Lax, Secure with the `__Host-` prefix except on http://localhost).
 */
export function ensureBrowser(request: Request): { id: string; existing: string | null; setCookie: string | null } {
  const existing = browserOf(request);
  if (existing) return { id: existing, existing, setCookie: null };
  const id = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const secure = isSecureOrigin(new URL(request.url));
  return { id, existing: null, setCookie: serializeCookie(secure ? BROWSER_COOKIE : BROWSER_COOKIE_INSECURE, id, { secure, maxAge: BROWSER_COOKIE_MAX_AGE }) };
}

const keys = new Map<string, Promise<CryptoKey>>();

/** HMAC-SHA256 of `value` under a key derived from AUTH_SECRET for `purpose`, as 32 hex characters. */
export async function keyedHash(settings: Settings, purpose: "browser" | "address" | "pending", value: string): Promise<string> {
  const id = `${purpose}:${settings.authSecret}`;
  let key = keys.get(id);
  if (!key) {
    key = crypto.subtle.importKey("raw", derivedKey(settings, `attendance-${purpose}`), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    keys.set(id, key);
  }
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await key, new TextEncoder().encode(value)));
  return Array.from(mac.slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
}
