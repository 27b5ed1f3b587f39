/**
 * Security headers for every response the Worker makes. Static files get the same set from
 * public/_headers (served without running the Worker); tests check both.
 */
export function contentSecurityPolicy(nonce?: string): string {
  return [
    "default-src 'self'",
    // Pages carry a per-request nonce on Remix's inline scripts; everything else is same-origin.
    nonce ? `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'` : "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    "connect-src 'self' ws: wss:",
    "frame-src https://accounts.google.com",
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

export function withSecurityHeaders(response: Response, nonce?: string): Response {
  // A websocket upgrade response cannot be re-wrapped; it carries no document anyway.
  if (response.status === 101 || response.webSocket) return response;
  const res = new Response(response.body, response);
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) {
    if (!res.headers.has(k)) res.headers.set(k, v);
  }
  if (nonce) res.headers.set("Content-Security-Policy", contentSecurityPolicy(nonce));
  return res;
}
