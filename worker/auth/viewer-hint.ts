/**
 * Who a signed-in browser said it was last time (issue 23, ADR 0030).
 *
 * A page knows its viewer from the refresh cookie: one D1 read (the session and the user) before anything that
 * depends on the viewer can start, so every signed-in page paid a round trip for it alone. After a page has read
 * its viewer, its answer carries this signed cookie naming them (user, session, role, name, e-mail). On the next
 * page the loaders start at once as that viewer, while the session is read in the same call to D1 as their reads;
 * the page is sent only if the session names exactly the same viewer. Otherwise (signed out elsewhere, role or name
 * changed, another account on this browser) the speculative answer is thrown away unsent and the page is rendered
 * again for the viewer the session names. So the hint decides nothing: it only lets the reads start early.
 *
 * Signed (HMAC, its own key derived from AUTH_SECRET) so that nobody can make a page start as someone else: a GET
 * loader may do idempotent work for its viewer (store a lecture's rendered HTML, close an attempt past its
 * deadline), and that work must only ever be done for a viewer this server named to this browser. httpOnly and
 * SameSite=Lax like the refresh cookie; it is only read alongside a refresh cookie.
 */
import { jwtVerify, SignJWT } from "jose";
import { z } from "zod";
import type { Settings } from "../env";
import type { Viewer } from "../services/sessions";
import { hasAlgorithm, derivedKey } from "./tokens";
import { isSecureOrigin, readCookie, serializeCookie, SESSION_TTL_SECONDS } from "./cookies";

export const VIEWER_HINT_COOKIE = "__Host-cohort_who";
export const VIEWER_HINT_COOKIE_INSECURE = "cohort_who";
const ALGORITHM = "HS256";
const AUDIENCE = "cohort-viewer-hint";

const claims = z.object({
  sub: z.string().min(1),
  sid: z.string().min(1),
  role: z.enum(["admin", "instructor", "user"]),
  name: z.string(),
  email: z.string(),
});

function cookieName(url: URL): string {
  return isSecureOrigin(url) ? VIEWER_HINT_COOKIE : VIEWER_HINT_COOKIE_INSECURE;
}

/**
 * Hints this isolate has verified, by their exact text: a browser sends the same one with every page, and checking
 * the signature again costs more than the rest of reading it (a profile: 0.7 ms a page). Kept with the secret that
 * verified them and their expiry; bounded, oldest out first.
 */
const verified = new Map<string, { secret: string; expiresAt: number; viewer: Viewer }>();
const VERIFIED_MAX = 2000;

/** The viewer the request's hint names, when its signature checks out; otherwise null. */
export async function viewerHint(request: Request, settings: Settings): Promise<Viewer | null> {
  const token = readCookie(request, cookieName(new URL(request.url)));
  if (!token || token.length > 2000) return null;
  const known = verified.get(token);
  if (known && known.secret === settings.authSecret && known.expiresAt > Date.now()) return { ...known.viewer };
  if (!hasAlgorithm(token, ALGORITHM)) return null;
  try {
    const { payload } = await jwtVerify(token, derivedKey(settings, "viewer-hint"), { algorithms: [ALGORITHM], audience: AUDIENCE });
    const parsed = claims.safeParse(payload);
    if (!parsed.success) return null;
    const { sub, sid, role, name, email } = parsed.data;
    const viewer: Viewer = { userId: sub, sessionId: sid, role, name, email };
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
    verified.set(token, { secret: settings.authSecret, expiresAt: (payload.exp ?? 0) * 1000, viewer });
    return { ...viewer };
  } catch {
    return null;
  }
}

/** True when two readings name the same viewer in every field a page may use. */
export function sameViewer(a: Viewer | null, b: Viewer | null): boolean {
  if (!a || !b) return false;
  return a.userId === b.userId && a.sessionId === b.sessionId && a.role === b.role && a.name === b.name && a.email === b.email;
}

/** The Set-Cookie value that removes the hint (signing out, a session that ended); `secure` as `isSecureOrigin`. */
export function clearViewerHintCookie(secure: boolean): string {
  return serializeCookie(secure ? VIEWER_HINT_COOKIE : VIEWER_HINT_COOKIE_INSECURE, "", { secure, maxAge: 0 });
}

/** The Set-Cookie value naming `viewer` (null: clears the hint). Lives as long as a session may. */
export async function viewerHintCookie(url: URL, settings: Settings, viewer: Viewer | null): Promise<string> {
  const secure = isSecureOrigin(url);
  if (!viewer) return clearViewerHintCookie(secure);
  const token = await new SignJWT({ sid: viewer.sessionId, role: viewer.role, name: viewer.name, email: viewer.email })
    .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
    .setSubject(viewer.userId)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${SESSION_TTL_SECONDS}s`)
    .sign(derivedKey(settings, "viewer-hint"));
  return serializeCookie(cookieName(url), token, { secure, maxAge: SESSION_TTL_SECONDS });
}

/** Whether the request carries a hint cookie at all (valid or not): a stale one is cleared. */
export function hasViewerHint(request: Request): boolean {
  return readCookie(request, cookieName(new URL(request.url))) !== null;
}
