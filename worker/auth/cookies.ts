/**
 * The refresh-token cookie. httpOnly (scripts never see it), SameSite=Lax (sent on top-level navigations, so
 * server-rendered pages know the user, but not on cross-site POSTs), Path=/ (pages and the API share it).
 * It is Secure everywhere except plain-http localhost, where browsers would drop a Secure cookie; there the
 * `__Host-` prefix (which requires Secure) is left off too.
 */

export const REFRESH_COOKIE = "__Host-cohort_refresh";
export const REFRESH_COOKIE_INSECURE = "cohort_refresh";
/** Sessions (and the cookie) last 30 days from their last refresh. */
export const SESSION_TTL_SECONDS = 30 * 24 * 60 * 60;

/** What a service needs to know about the caller's device to open or close a session. */
export interface ClientInfo {
  userAgent: string | null;
  /** False only for http://localhost (development), where cookies cannot be Secure. */
  secure: boolean;
}

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export function isSecureOrigin(url: URL): boolean {
  return !(url.protocol === "http:" && LOCAL_HOSTS.has(url.hostname));
}

export function clientInfo(request: Request): ClientInfo {
  return {
    userAgent: request.headers.get("user-agent")?.slice(0, 300) ?? null,
    secure: isSecureOrigin(new URL(request.url)),
  };
}

function cookieName(secure: boolean): string {
  return secure ? REFRESH_COOKIE : REFRESH_COOKIE_INSECURE;
}

/** Builds one Set-Cookie header value. */
export function serializeCookie(
  name: string,
  value: string,
  opts: { secure: boolean; maxAge: number; path?: string },
): string {
  const parts = [`${name}=${value}`, `Path=${opts.path ?? "/"}`, `Max-Age=${opts.maxAge}`, "HttpOnly", "SameSite=Lax"];
  if (opts.secure) parts.push("Secure");
  return parts.join("; ");
}

export function refreshCookie(token: string, client: ClientInfo): string {
  return serializeCookie(cookieName(client.secure), token, { secure: client.secure, maxAge: SESSION_TTL_SECONDS });
}

export function clearRefreshCookie(client: ClientInfo): string {
  return serializeCookie(cookieName(client.secure), "", { secure: client.secure, maxAge: 0 });
}

/** One cookie's value from a request, or null. */
export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return value.length > 0 ? value : null;
    }
  }
  return null;
}

/** The refresh token the browser sent, if any (the cookie name depends on the origin, see above). */
export function refreshTokenFrom(request: Request): string | null {
  const value = readCookie(request, cookieName(isSecureOrigin(new URL(request.url))));
  // Tokens are base64url; anything else is not ours and is ignored rather than looked up.
  return value && /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null;
}
