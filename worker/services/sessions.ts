/**
 * Sessions: one row per signed-in device (PRODUCT.md §3 "Sessions").
 *
 * - Opening a session stores the SHA-256 of a random refresh token (the token goes to an httpOnly cookie) and
 *   signs a 15-minute access token naming the session.
 * - Every authenticated request re-reads the session and the user in one joined query, so a revoked session,
 *   a deleted account or a changed role takes effect at once; the role always comes from the database.
 * - A refresh rotates the token atomically and keeps the old hash in `session_rotations`; presenting a rotated
 *   token again means it was copied, so that session is revoked.
 */
import { and, desc, eq, gt, inArray, isNull, lt, ne, or, sql } from "drizzle-orm";
import { sessionRotations, sessions, users, type Role } from "../../db/schema";
import { clearRefreshCookie, refreshCookie, SESSION_TTL_SECONDS, type ClientInfo } from "../auth/cookies";
import { clearViewerHintCookie } from "../auth/viewer-hint";
import { accessTokenFromHeader, hashToken, newRefreshToken, signAccessToken, verifyAccessToken } from "../auth/tokens";
import type { ServiceContext } from "../context";
import { notFound, SESSION_ENDED, unauthorized } from "../http/errors";
import { preparedOnce } from "../../db/prepared";
import { newId } from "./ids";
import { headerFigureColumns, NO_FIGURES, type HeaderFigures } from "./viewer-summary";
import { closeAllSocketsOf, closeSessionSockets } from "./realtime-access";

/** The signed-in person behind a request, as API handlers and Remix loaders see them. */
export interface Viewer {
  userId: string;
  role: Role;
  sessionId: string;
  name: string;
  email: string;
}

export interface OpenedSession {
  sessionId: string;
  accessToken: string;
  /** The Set-Cookie header value carrying the new refresh token. */
  setCookie: string;
}

const SESSION_TTL_MS = SESSION_TTL_SECONDS * 1000;

const viewerColumns = { userId: users.id, role: users.role, sessionId: sessions.id, name: users.name, email: users.email };

const live = (now: number) => and(isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date(now)));

/** Opens a session for a user who has just proven who they are (password, reset code or Google). */
export async function openSession(
  ctx: ServiceContext,
  user: { id: string; role: Role },
  client: ClientInfo,
  fingerprint?: string | null,
): Promise<OpenedSession> {
  const sessionId = newId();
  const token = newRefreshToken();
  const now = Date.now();
  await ctx.db.insert(sessions).values({
    id: sessionId,
    userId: user.id,
    refreshTokenHash: await hashToken(token),
    family: sessionId,
    createdAt: new Date(now),
    lastUsedAt: new Date(now),
    expiresAt: new Date(now + SESSION_TTL_MS),
    userAgent: client.userAgent,
    fingerprint: fingerprint ?? null,
  });
  const accessToken = await signAccessToken(ctx.settings, { userId: user.id, sessionId, role: user.role });
  return { sessionId, accessToken, setCookie: refreshCookie(token, client) };
}

/**
 * The viewer for an API request's Authorization header (raw token or `Bearer <token>`).
 * Throws 401 when the token is missing, invalid or expired, or its session is revoked or gone.
 */
export async function authenticate(ctx: ServiceContext, authorization: string | null | undefined): Promise<Viewer> {
  const token = accessTokenFromHeader(authorization);
  if (!token) throw unauthorized();
  const claims = await verifyAccessToken(ctx.settings, token);
  if (!claims) throw unauthorized(SESSION_ENDED);
  const [row] = await ctx.db
    .select(viewerColumns)
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, claims.sid), live(Date.now())))
    .limit(1);
  if (!row || row.userId !== claims.sub) throw unauthorized(SESSION_ENDED);
  return row;
}

/**
 * The role of `userId` while their session `sessionId` is neither revoked nor expired, else null: realtime admission
 * asks this, so a socket opens with the role its person has now, not the one its ticket was minted under (a ticket
 * lives 60 seconds, and a role changed meanwhile closed that person's sockets already).
 */
export async function liveSessionRole(db: ServiceContext["db"], sessionId: string, userId: string): Promise<Role | null> {
  const [row] = await db
    .select({ role: users.role })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), live(Date.now())))
    .limit(1);
  return row?.role ?? null;
}

/**
 * How long a page request may still present the token a refresh just replaced. A page's loader or action that
 * left the browser while a refresh was in flight carries the old cookie; without this it would find nobody
 * signed in and send a signed-in person to the login page. Page reads only: `refresh` still treats a rotated
 * token as copied and revokes the session.
 */
export const PAGE_READ_GRACE_MS = 30_000;

/**
 * The viewer behind a refresh token, without rotating it (server-rendered pages read it on every navigation).
 * The current token, or one rotated away less than PAGE_READ_GRACE_MS ago, of a live session.
 */
export async function viewerFromRefreshToken(ctx: ServiceContext, token: string | null): Promise<Viewer | null> {
  if (!token) return null;
  // The root, layout and page loaders of one page all ask: one read per request.
  return ctx.memo(`viewer:${token}`, () => sessionOf(ctx, token).then((read) => read?.viewer ?? null));
}

/** The header's figures of the viewer behind `token`, from the same read as the viewer (no statement of their own). */
export async function viewerHeaderFigures(ctx: ServiceContext, token: string | null): Promise<HeaderFigures> {
  if (!token) return NO_FIGURES;
  return (await sessionOf(ctx, token))?.figures ?? NO_FIGURES;
}

function sessionOf(ctx: ServiceContext, token: string): Promise<SessionRead | null> {
  return ctx.memo(`session:${token}`, () => readSession(ctx, token));
}

/**
 * Pages of this request that ask for the viewer of `token` get `viewer` without reading it (worker/pages.ts: a page
 * started on its viewer hint, or rendered again for the viewer the session named); `read`, when given, is the
 * session read whose figures the header shows.
 */
export function assumeViewer(ctx: ServiceContext, token: string, viewer: Viewer | null | Promise<Viewer | null>, read?: Promise<SessionRead | null>): void {
  ctx.remember(`viewer:${token}`, viewer);
  if (read) ctx.remember(`session:${token}`, read);
}

/** A live session's viewer and their header's figures, read in one statement. */
export interface SessionRead {
  viewer: Viewer;
  figures: HeaderFigures;
}

/** The session of a refresh token as the database says now (not remembered: what a hint is checked against). */
export async function readSession(ctx: ServiceContext, token: string): Promise<SessionRead | null> {
  const hash = await hashToken(token);
  const now = Date.now();
  // Every signed-in page runs it: built once per isolate (db/prepared.ts), its values given here.
  const query = preparedOnce(ctx, "sessions.readSession", (db) => {
    const justRotated = db
      .select({ id: sessionRotations.sessionId })
      .from(sessionRotations)
      .where(and(eq(sessionRotations.tokenHash, sql.placeholder("hash")), gt(sessionRotations.rotatedAt, sql.placeholder("rotatedAfter"))));
    return db
      .select({ ...viewerColumns, ...headerFigureColumns(db, users.id) })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          or(eq(sessions.refreshTokenHash, sql.placeholder("hash")), inArray(sessions.id, justRotated)),
          // live(now), with the time as a named parameter of the prepared statement.
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, sql.placeholder("now")),
        ),
      )
      .limit(1);
  });
  // Placeholders are not encoded by their column: the times go as the milliseconds the columns store.
  const [row] = await query.all({ hash, rotatedAfter: now - PAGE_READ_GRACE_MS, now });
  if (!row) return null;
  const { hasCourses, unreadNotifications, ...viewer } = row;
  return { viewer, figures: { hasCourses: hasCourses === 1, unreadNotifications } };
}

/**
 * Exchanges a refresh token for a new access token and a new refresh token (POST /api/users/refresh-token).
 * The record of the old hash, the rotation and the read of the user's current role run as one batch
 * (one transaction), so two requests with the same token cannot both succeed.
 */
export async function refresh(
  ctx: ServiceContext,
  token: string | null,
  client: ClientInfo,
): Promise<{ accessToken: string; role: Role; setCookie: string }> {
  if (!token) throw unauthorized(SESSION_ENDED);
  const oldHash = await hashToken(token);
  const next = newRefreshToken();
  const newHash = await hashToken(next);
  const now = Date.now();
  const presented = and(eq(sessions.refreshTokenHash, oldHash), live(now));
  const [, , , [current]] = await ctx.db.batch([
    ctx.db.insert(sessionRotations).select(
      ctx.db
        .select({
          tokenHash: sql<string>`${oldHash}`.as("token_hash"),
          sessionId: sessions.id,
          rotatedAt: sql<Date>`${now}`.as("rotated_at"),
        })
        .from(sessions)
        .where(presented),
    ),
    // A rotated token older than a cookie's lifetime cannot come from a browser any more: forget it.
    ctx.db
      .delete(sessionRotations)
      .where(and(lt(sessionRotations.rotatedAt, new Date(now - SESSION_TTL_MS)), inArray(sessionRotations.sessionId, ctx.db.select({ id: sessions.id }).from(sessions).where(presented)))),
    ctx.db
      .update(sessions)
      .set({ refreshTokenHash: newHash, lastUsedAt: new Date(now), expiresAt: new Date(now + SESSION_TTL_MS) })
      .where(presented),
    // Distinct column names only: D1 batches return rows as objects, where two "id" columns would collide.
    ctx.db
      .select({ sessionId: sessions.id, userId: sessions.userId, role: users.role })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.refreshTokenHash, newHash)),
  ]);
  if (!current) {
    await revokeIfReused(ctx, oldHash);
    throw unauthorized(SESSION_ENDED);
  }
  const accessToken = await signAccessToken(ctx.settings, { userId: current.userId, sessionId: current.sessionId, role: current.role });
  return { accessToken, role: current.role, setCookie: refreshCookie(next, client) };
}

/** A token that was already rotated away has been copied: the session it belonged to is revoked. */
async function revokeIfReused(ctx: ServiceContext, tokenHash: string): Promise<void> {
  const revoked = await ctx.db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(
      and(
        isNull(sessions.revokedAt),
        eq(sessions.id, sql`(SELECT session_id FROM session_rotations WHERE token_hash = ${tokenHash})`),
      ),
    )
    .returning(revokedColumns);
  closeSessionSockets(ctx, revoked);
}

const revokedColumns = { userId: sessions.userId, sessionId: sessions.id };

/** Signs this device out: revokes the session behind the refresh token (if any) and clears the cookie. */
/**
 * What a browser is sent when its session ends here (logout, a deleted account): the refresh cookie and the viewer
 * hint (a signed name and e-mail the next person at this browser must not carry), both cleared.
 */
export function signedOutCookies(client: ClientInfo): string[] {
  return [clearRefreshCookie(client), clearViewerHintCookie(client.secure)];
}

/**
 * Signs this device out: the session of the refresh cookie (a browser), and the session a valid access token in
 * `authorization` names (an API client that keeps no cookie), usually the same one.
 */
export async function logout(ctx: ServiceContext, token: string | null, client: ClientInfo, authorization: string | null = null): Promise<{ setCookies: string[] }> {
  const access = accessTokenFromHeader(authorization);
  const claims = access ? await verifyAccessToken(ctx.settings, access) : null;
  const bySession = claims ? { userId: claims.sub, sessionId: claims.sid } : null;
  if (token || bySession) {
    const named = [
      token ? eq(sessions.refreshTokenHash, await hashToken(token)) : undefined,
      bySession ? and(eq(sessions.id, bySession.sessionId), eq(sessions.userId, bySession.userId)) : undefined,
    ];
    const revoked = await ctx.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(or(...named), isNull(sessions.revokedAt)))
      .returning(revokedColumns);
    closeSessionSockets(ctx, revoked);
  }
  return { setCookies: signedOutCookies(client) };
}

/**
 * Revokes every session of a user, or every one but `exceptSessionId` (password change keeps the current device),
 * and closes the sockets those sessions opened.
 */
export async function revokeAllSessions(ctx: ServiceContext, userId: string, exceptSessionId?: string): Promise<void> {
  const revoked = await ctx.db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), exceptSessionId ? ne(sessions.id, exceptSessionId) : undefined))
    .returning(revokedColumns);
  // Without an exception (password reset, account deletion) every socket of the user closes, whatever session opened it.
  if (exceptSessionId) closeSessionSockets(ctx, revoked);
  else closeAllSocketsOf(ctx, userId, SESSION_ENDED);
}

export interface DeviceSession {
  id: string;
  userAgent: string | null;
  createdAt: string;
  lastUsedAt: string;
  /** True for the session making this request. */
  current: boolean;
}

/** The viewer's signed-in devices, most recently used first (GET /api/users/sessions). */
export async function listSessions(ctx: ServiceContext, viewer: Viewer): Promise<DeviceSession[]> {
  const rows = await ctx.db
    .select({ id: sessions.id, userAgent: sessions.userAgent, createdAt: sessions.createdAt, lastUsedAt: sessions.lastUsedAt })
    .from(sessions)
    .where(and(eq(sessions.userId, viewer.userId), live(Date.now())))
    .orderBy(desc(sessions.lastUsedAt), desc(sessions.createdAt));
  return rows.map((r) => ({
    id: r.id,
    userAgent: r.userAgent,
    createdAt: r.createdAt.toISOString(),
    lastUsedAt: r.lastUsedAt.toISOString(),
    current: r.id === viewer.sessionId,
  }));
}

/** Signs one of the viewer's own devices out. Another person's session is "not found", never revealed. */
export async function revokeSession(ctx: ServiceContext, viewer: Viewer, sessionId: string): Promise<{ message: string }> {
  const revoked = await ctx.db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, viewer.userId), isNull(sessions.revokedAt)))
    .returning(revokedColumns);
  if (revoked.length === 0) throw notFound("No such session.");
  closeSessionSockets(ctx, revoked);
  return { message: "The device was signed out." };
}
