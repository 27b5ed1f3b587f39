/**
 * Attendance codes come from the server's clock, never from the projector's. A session's code for time window `w`
 * is HMAC-SHA256(key, "<sessionId>:<w>") reduced to 6 digits, with a key derived from AUTH_SECRET, so nothing is
 * stored or written per rotation and every Worker instance computes the same code. A fixed code uses window 0.
 *
 * A check-in is accepted with the code of the current window or the previous one, plus a 2-second margin for a
 * code read off the screen just as it changed: a code sent to an absent friend dies within one window.
 */
import type { Settings } from "../env";

/** Grace after a window ends during which its code still counts (a code typed as the screen changed). */
export const CODE_GRACE_MS = 2_000;

const keys = new Map<string, Promise<CryptoKey>>();

function keyFor(settings: Settings): Promise<CryptoKey> {
  let key = keys.get(settings.authSecret);
  if (!key) {
    key = crypto.subtle.importKey("raw", new TextEncoder().encode(`attendance-code:${settings.authSecret}`), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    keys.set(settings.authSecret, key);
  }
  return key;
}

export interface CodeClock {
  sessionId: string;
  opensAt: number;
  /** 0 or null: one fixed code for the whole session. */
  rotateSeconds: number | null;
}

/** The window a moment falls in (0 for a fixed code). */
export function windowAt(clock: CodeClock, at: number): number {
  if (!clock.rotateSeconds) return 0;
  return Math.max(0, Math.floor((at - clock.opensAt) / (clock.rotateSeconds * 1000)));
}

/** When the window containing `at` ends (null for a fixed code). */
export function windowEndsAt(clock: CodeClock, at: number): number | null {
  if (!clock.rotateSeconds) return null;
  return clock.opensAt + (windowAt(clock, at) + 1) * clock.rotateSeconds * 1000;
}

export async function codeFor(settings: Settings, clock: CodeClock, window: number): Promise<string> {
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await keyFor(settings), new TextEncoder().encode(`${clock.sessionId}:${window}`)));
  const n = ((mac[0]! << 24) | (mac[1]! << 16) | (mac[2]! << 8) | mac[3]!) >>> 0;
  return String(n % 1_000_000).padStart(6, "0");
}

/** The code to show at `at`. */
export function currentCode(settings: Settings, clock: CodeClock, at: number): Promise<string> {
  return codeFor(settings, clock, windowAt(clock, at));
}

export type CodeCheck = "valid" | "expired" | "wrong";

/** Equal-time comparison of two 6-digit strings. */
function same(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length && i < b.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Valid: the code of the current window, the previous one, or a window that ended less than CODE_GRACE_MS before
 * the previous one started being current. Expired: the code of one of the few windows before those.
 */
export async function checkCode(settings: Settings, clock: CodeClock, code: string, at: number): Promise<CodeCheck> {
  const now = windowAt(clock, at);
  const oldestValid = clock.rotateSeconds ? windowAt(clock, at - clock.rotateSeconds * 1000 - CODE_GRACE_MS) : 0;
  for (let w = now; w >= Math.max(0, oldestValid); w--) if (same(await codeFor(settings, clock, w), code)) return "valid";
  for (let w = oldestValid - 1; w >= Math.max(0, oldestValid - 5); w--) if (same(await codeFor(settings, clock, w), code)) return "expired";
  return "wrong";
}
