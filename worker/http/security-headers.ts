/**
 * Security headers for every response the Worker makes. Static files get the same set from
 * public/_headers (served without running the Worker); tests check both.
 */
import { VIDEO_FRAME_ORIGINS } from "../../app/lib/video-embed";
import { base64url } from "../services/ids";

/** The websocket origin of a site origin (`https://x` -> `wss://x`), for pages' realtime connections. */
function socketOrigin(origin: string): string {
  return origin.replace(/^http/, "ws");
}

/** What a page's inline scripts are trusted by (a per-request nonce, or the hashes of a cached page's scripts). */
export interface PageScripts {
  nonce?: string;
  /** `'sha256-...'` sources, one per inline script (worker/http/page-cache.ts). */
  hashes?: string[];
  /** The site's origin, so that the page may open websockets to its own site and nowhere else. */
  origin?: string;
}

/**
 * The policy of every answer. Pages name how their inline scripts are trusted: a per-request nonce when rendered for
 * one visitor, or the SHA-256 of each inline script when the page is cached for everyone (a nonce shared by every
 * visitor would be no nonce). Either way 'strict-dynamic' lets only those scripts load the rest; the origin is given
 * so that the page may open websockets to its own site (CSP 'self' does not cover ws: in every browser).
 */
export function contentSecurityPolicy({ nonce, hashes, origin }: PageScripts = {}): string {
  const trusted = nonce ? [`'nonce-${nonce}'`] : (hashes ?? []);
  return [
    "default-src 'self'",
    // Pages trust their own inline scripts (by nonce or by hash) and what those load; everything else is same-origin.
    nonce || hashes ? `script-src 'self' ${[...trusted, "'strict-dynamic'"].join(" ")}` : "script-src 'self'",
    // Workers only from the site itself (without it, worker-src falls back to script-src, whose 'strict-dynamic'
    // ignores 'self'): the code exercise's test runner is one.
    "worker-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    origin ? `connect-src 'self' ${socketOrigin(origin)}` : "connect-src 'self'",
    // Google sign-in, the lecture page's video players (privacy-enhanced YouTube, Vimeo) and the grader's preview of a
    // PDF hand-in ('self': served sandboxed and nosniff, worker/api/hand-in-files.ts): nothing else is framed.
    `frame-src 'self' https://accounts.google.com ${VIDEO_FRAME_ORIGINS.join(" ")}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self' https://accounts.google.com",
    "object-src 'none'",
  ].join("; ");
}

export const SECURITY_HEADERS: Record<string, string> = {
  "Content-Security-Policy": contentSecurityPolicy(),
  "Strict-Transport-Security": "max-age=31536000; includeSubDomains",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
  "Cross-Origin-Opener-Policy": "same-origin-allow-popups",
};

const CSP = "Content-Security-Policy";
const OTHER_HEADERS = Object.entries(SECURITY_HEADERS).filter(([name]) => name !== CSP);

/**
 * Adds the security headers to a copy of the response. A page passes how its scripts are trusted (or a finished
 * `policy`, as the page cache does); a response with a policy of its own keeps it (a hand-in's file: sandboxed,
 * worker/http/hand-in-file.ts). `also` adds the caller's own headers to the same copy (a page's cookie and cache
 * rules), so an answer is copied once.
 */
export function withSecurityHeaders(response: Response, scripts?: PageScripts | { policy: string }, also?: (headers: Headers) => void): Response {
  // A websocket upgrade response cannot be re-wrapped; it carries no document anyway.
  if (response.status === 101 || response.webSocket) return response;
  const res = new Response(response.body, response);
  const headers = res.headers;
  also?.(headers);
  for (const [k, v] of OTHER_HEADERS) {
    if (!headers.has(k)) headers.set(k, v);
  }
  if (!headers.has(CSP)) headers.set(CSP, !scripts ? SECURITY_HEADERS[CSP]! : "policy" in scripts ? scripts.policy : contentSecurityPolicy(scripts));
  return res;
}

/**
 * The nonce of one page's inline scripts: 16 random bytes, never used twice. They are drawn from a buffer filled 64
 * nonces at a time, since each call into the runtime's random source costs more than the bytes themselves. Nothing
 * is awaited, so requests the isolate serves at once never share one.
 */
const NONCE_BYTES = 16;
const NONCES_PER_FILL = 64;
let randomBytes = new Uint8Array(0);
let nextNonceAt = 0;

export function pageNonce(): string {
  if (nextNonceAt + NONCE_BYTES > randomBytes.length) {
    randomBytes = crypto.getRandomValues(new Uint8Array(NONCE_BYTES * NONCES_PER_FILL));
    nextNonceAt = 0;
  }
  const bytes = randomBytes.subarray(nextNonceAt, nextNonceAt + NONCE_BYTES);
  nextNonceAt += NONCE_BYTES;
  return base64url(bytes);
}
