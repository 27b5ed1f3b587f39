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

const jars = new WeakMap<Request, Map<string, string>>();

/**
 * A request's cookies, parsed once: a page request asks for them from several places (the session, the viewer hint,
 * the D1 bookmark, each loader that needs the viewer), and each asked the runtime for the header and split it again.
 * The first of two cookies of one name is the one read, as browsers send the most specific first.
 */
function cookiesOf(request: Request): Map<string, string> {
  let jar = jars.get(request);
  if (jar) return jar;
  jar = new Map();
  const header = request.headers.get("cookie");
  if (header) {
    for (const part of header.split(";")) {
      const eq = part.indexOf("=");
      if (eq < 0) continue;
      const name = part.slice(0, eq).trim();
      if (!jar.has(name)) jar.set(name, part.slice(eq + 1).trim());
    }
  }
  jars.set(request, jar);
  return jar;
}

/**
 * Whether the request carries a session cookie under either name, whatever its value: read by the same parser as the
 * session itself (names trimmed), so that no spelling the session would accept looks anonymous to the shared cache.
 */
export function hasSessionCookie(request: Request): boolean {
  const jar = cookiesOf(request);
  return jar.has(REFRESH_COOKIE) || jar.has(REFRESH_COOKIE_INSECURE);
}

/** One cookie's value from a request, or null (also when it is empty). */
export function readCookie(request: Request, name: string): string | null {
  return cookiesOf(request).get(name) || null;
}

const tokens = new WeakMap<Request, string | null>();

/** The refresh token the browser sent, if any (the cookie name depends on the origin, see above). */
export function refreshTokenFrom(request: Request): string | null {
  let token = tokens.get(request);
  if (token !== undefined) return token;
  const value = readCookie(request, cookieName(isSecureOrigin(new URL(request.url))));
  // Tokens are base64url; anything else is not ours and is ignored rather than looked up.
  token = value && /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null;
  tokens.set(request, token);
  return token;
}
