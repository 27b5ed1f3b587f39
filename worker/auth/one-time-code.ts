/**
 * 6-digit one-time codes (e-mail verification, password reset): generated without modulo bias and stored
 * only as an HMAC-SHA256 under a key derived from AUTH_SECRET, bound to the user and the purpose, so a leaked
 * table reveals no usable code and a hash cannot be moved to another account.
 */
import type { Settings } from "../env";
import { base64url, fromBase64url } from "../services/ids";
import { derivedKey } from "./tokens";

const RANGE = 1_000_000;
/** The largest multiple of 10^6 below 2^32: values at or above it are drawn again, so every code is equally likely. */
const UNBIASED_LIMIT = Math.floor(2 ** 32 / RANGE) * RANGE;

export function generateCode(): string {
  const buf = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(buf);
    if (buf[0]! < UNBIASED_LIMIT) return String(buf[0]! % RANGE).padStart(6, "0");
  }
}

const keys = new Map<string, Promise<CryptoKey>>();

function hmacKey(settings: Settings): Promise<CryptoKey> {
  let key = keys.get(settings.authSecret);
  if (!key) {
    key = crypto.subtle.importKey("raw", derivedKey(settings, "one-time-code"), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    keys.set(settings.authSecret, key);
  }
  return key;
}

const message = (purpose: string, userId: string, code: string) => new TextEncoder().encode(`${purpose}:${userId}:${code}`);

export async function hashCode(settings: Settings, purpose: string, userId: string, code: string): Promise<string> {
  const sig = await crypto.subtle.sign("HMAC", await hmacKey(settings), message(purpose, userId, code));
  return base64url(new Uint8Array(sig));
}

/** Constant-time check of a candidate code against a stored hash (WebCrypto's HMAC verify). */
export async function codeMatches(settings: Settings, purpose: string, userId: string, code: string, stored: string): Promise<boolean> {
  let sig: Uint8Array<ArrayBuffer>;
  try {
    sig = fromBase64url(stored);
  } catch {
    return false;
  }
  return crypto.subtle.verify("HMAC", await hmacKey(settings), sig, message(purpose, userId, code));
}
