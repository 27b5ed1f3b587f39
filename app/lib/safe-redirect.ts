/**
 * The one redirect-safety rule, used by every place that sends a person to a path it was given (login's
 * `redirectTo`, the language switch, the stored redirect in the browser, the guards). Client-safe.
 *
 * Browsers strip tabs, CR and LF from URLs and treat `\` like `/`, so `/\tevil.example` or `/%09/evil.example`
 * can become `//evil.example` (another site). A target is accepted only when, after percent-decoding, it is a plain
 * path on this site: one leading `/`, no second `/` or `\` right after it, and no control, whitespace or
 * invisible formatting characters anywhere, and the path it resolves to (dot segments removed) is one as well.
 * Anything else gives `fallback`.
 */
const UNSAFE_CHARS = /[\u0000-\u0020\u007f-\u00a0\u00ad\u061c\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff\\]/;
const MAX_REDIRECT_LENGTH = 2048;
const PROBE_ORIGIN = "http://cohort.invalid";

function decodedFully(value: string): string | null {
  let current = value;
  // A value may be encoded more than once (`%2509`); decode until it stops changing (bounded).
  for (let i = 0; i < 3; i++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) return current;
    current = next;
  }
  return null;
}

export function safeRedirectPath(to: unknown, fallback = "/"): string {
  if (typeof to !== "string" || to.length === 0 || to.length > MAX_REDIRECT_LENGTH) return fallback;
  const decoded = decodedFully(to);
  if (decoded === null) return fallback;
  for (const candidate of [to, decoded]) {
    if (!candidate.startsWith("/") || candidate.startsWith("//") || UNSAFE_CHARS.test(candidate)) return fallback;
  }
  let url: URL;
  try {
    url = new URL(to, PROBE_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PROBE_ORIGIN) return fallback;
  // Dot segments are resolved by the parse: `/.//evil.example` and `/x/..//evil.example` come out as
  // `//evil.example`, another site once a browser reads it. The answer itself must be a plain path too.
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith("//") ? fallback : path;
}
