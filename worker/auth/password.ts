/**
 * Password hashing: PBKDF2-SHA256 through WebCrypto, per-user salt, a secret pepper.
 * 100,000 iterations is the most Cloudflare's production runtime allows (local workerd has no cap,
 * so a higher number would pass every local test and break login in production).
 * Stored format: `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>`, so it can be upgraded on login.
 */
export const PBKDF2_ITERATIONS = 100_000;
export const PBKDF2_MAX_ITERATIONS = 100_000;
const SALT_BYTES = 16;
const HASH_BITS = 256;

const enc = new TextEncoder();

function b64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}
function unb64(s: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
}

async function peppered(password: string, pepper: string): Promise<ArrayBuffer> {
  const key = await crypto.subtle.importKey("raw", enc.encode(pepper), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return crypto.subtle.sign("HMAC", key, enc.encode(password));
}

async function derive(password: string, pepper: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const material = await crypto.subtle.importKey("raw", await peppered(password, pepper), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, material, HASH_BITS);
  return new Uint8Array(bits);
}

export async function hashPassword(password: string, pepper: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, pepper, salt, PBKDF2_ITERATIONS);
  return `pbkdf2-sha256$${PBKDF2_ITERATIONS}$${b64(salt)}$${b64(hash)}`;
}

/** Constant-time comparison of two byte strings of equal length. */
function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

export interface VerifyResult {
  ok: boolean;
  /** True when the stored hash uses older parameters and should be replaced after a successful login. */
  needsRehash: boolean;
}

export async function verifyPassword(password: string, stored: string, pepper: string): Promise<VerifyResult> {
  const [scheme, iter, salt, hash] = stored.split("$");
  const iterations = Number(iter);
  if (scheme !== "pbkdf2-sha256" || !salt || !hash || !Number.isInteger(iterations) || iterations < 1 || iterations > PBKDF2_MAX_ITERATIONS) {
    return { ok: false, needsRehash: false };
  }
  const actual = await derive(password, pepper, unb64(salt), iterations);
  const ok = equal(actual, unb64(hash));
  return { ok, needsRehash: ok && iterations !== PBKDF2_ITERATIONS };
}

/** A fixed hash to verify against when the e-mail is unknown, so both paths cost the same time. */
export async function dummyVerify(password: string, pepper: string): Promise<void> {
  await derive(password, pepper, new Uint8Array(SALT_BYTES), PBKDF2_ITERATIONS);
}
