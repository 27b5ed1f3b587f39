/**
 * The browser's side of a session (platform-spec §3, §4, ADR 6). Client-only: every function touches
 * `window`, so call them from effects and event handlers, never while rendering on the server.
 *
 * - The access token lives in this module's memory only (never in storage a script could read later).
 *   Pages do not need it: they know the user from the httpOnly refresh cookie. Widgets that call the API
 *   (realtime tickets, notifications) use `apiFetch`, which obtains a token on first use.
 * - localStorage keeps what the spec keeps: `role` and `tokenExpiration` (the moment the token is treated as
 *   stale: login or refresh time + 180000 ms), plus the device id `fingerprint`.
 * - sessionStorage `redirect` is the page to return to after signing in.
 */
import type { Role } from "./permissions";
import { safeRedirectPath } from "./safe-redirect";

/** Spec §9: the local expiry marker is login or refresh time plus 3 minutes. */
export const TOKEN_MARKER_MS = 180_000;

const ROLE_KEY = "role";
const EXPIRY_KEY = "tokenExpiration";
const REDIRECT_KEY = "redirect";
const FINGERPRINT_KEY = "fingerprint";
const REFRESH_PATH = "/api/users/refresh-token";
/** Web Locks name: refreshes rotate the cookie, so tabs must take turns (a copied token ends the session). */
const REFRESH_LOCK = "cohort:refresh-token";

let accessToken: string | null = null;
/** A refresh's outcome: a token, or none because the server refused it (`refused`) or could not be reached. */
type Refreshed = { token: string; refused: false } | { token: null; refused: boolean };
let inFlight: Promise<Refreshed> | null = null;

const ROLES: readonly Role[] = ["admin", "instructor", "user"];
const isRole = (v: unknown): v is Role => typeof v === "string" && (ROLES as readonly string[]).includes(v);

/** Storage can throw (privacy modes, quotas); a session must not break because of it. */
function tryStorage<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

/** Where each role lands after signing in (spec §2 "After login"); users go to `/` unless a redirect is stored. */
export function roleHome(role: Role): string {
  return role === "admin" ? "/dashboard" : role === "instructor" ? "/instructor" : "/";
}

/** The `role` claim of an access token (a hint for navigation only; the server always re-reads the role). */
export function roleFromToken(token: string): Role | null {
  const payload = token.split(".")[1];
  if (!payload) return null;
  try {
    const json = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/"))) as { role?: unknown };
    return isRole(json.role) ? json.role : null;
  } catch {
    return null;
  }
}

/**
 * True while the person is ending their own session (deleting their account). Requests answered 401 meanwhile (the
 * notifications bell's, say) are expected then: they must not send the person to log in while the page they asked
 * for (home) is loading.
 */
let ending = false;

/** The person is ending their own session (true), or is not after all (false: the server refused). */
export function endingSession(value: boolean): void {
  ending = value;
}

/** Keeps a fresh access token in memory and writes the role and the 3-minute expiry marker. */
export function setAccessToken(token: string, role: Role | null = roleFromToken(token)): void {
  accessToken = token;
  ending = false;
  tryStorage(() => {
    localStorage.setItem(EXPIRY_KEY, String(Date.now() + TOKEN_MARKER_MS));
    if (role) localStorage.setItem(ROLE_KEY, role);
  }, undefined);
}

/** Records the signed-in role (the root layout calls this with the server's answer on every render). */
export function rememberRole(role: Role): void {
  tryStorage(() => localStorage.setItem(ROLE_KEY, role), undefined);
}

/** The role stored at the last sign-in or refresh, if any. */
export function storedRole(): Role | null {
  const value = tryStorage(() => localStorage.getItem(ROLE_KEY), null);
  return isRole(value) ? value : null;
}

/** Forgets the token and the local markers (logout, a failed refresh, a page that finds nobody signed in). */
export function clearSession(): void {
  accessToken = null;
  tryStorage(() => {
    localStorage.removeItem(ROLE_KEY);
    localStorage.removeItem(EXPIRY_KEY);
  }, undefined);
}

function markerExpired(): boolean {
  const at = Number(tryStorage(() => localStorage.getItem(EXPIRY_KEY), null));
  return !Number.isFinite(at) || Date.now() >= at;
}

async function requestRefresh(): Promise<string | null> {
  // keepalive: leaving the page must not cancel a refresh the server may already have performed. A cancelled
  // one would lose the rotated cookie, and the next page's refresh with the old token would count as reuse and
  // end the session (widgets such as the notifications bell refresh as every page loads).
  const res = await fetch(REFRESH_PATH, { method: "POST", credentials: "same-origin", keepalive: true, headers: { accept: "application/json" } });
  if (!res.ok) return null;
  const body = (await res.json().catch(() => null)) as { accessToken?: unknown; role?: unknown } | null;
  if (!body || typeof body.accessToken !== "string") return null;
  setAccessToken(body.accessToken, isRole(body.role) ? body.role : null);
  return body.accessToken;
}

/**
 * Exchanges the refresh cookie for a new access token (POST /api/users/refresh-token) and stores it.
 * One refresh at a time: callers in this tab share the request in flight, and tabs queue on a Web Lock.
 * Resolves to null when there is no valid session (the local markers are cleared then).
 */
export async function refreshAccessToken(): Promise<string | null> {
  return (await refresh()).token;
}

function refresh(): Promise<Refreshed> {
  inFlight ??= (async (): Promise<Refreshed> => {
    try {
      const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
      const token = locks ? await locks.request(REFRESH_LOCK, requestRefresh) : await requestRefresh();
      if (token) return { token, refused: false };
      clearSession();
      return { token: null, refused: true };
    } catch {
      // No answer (offline): the session may well be alive.
      return { token: null, refused: false };
    } finally {
      inFlight = null;
    }
  })();
  return inFlight;
}

/** Pages anyone may see: a session that ended there reloads the page signed out instead of asking to log in. */
const PRIVATE_AREAS = /^\/(profile|my-courses|course\/|dashboard|instructor)(\/|$|\?)?/;

/** Asked before leaving for the login page: true keeps the page, which holds typed work (kept-submission.ts). */
let stayOnEnd: (() => boolean) | null = null;
export function stayWhenSessionEnds(guard: () => boolean): void {
  stayOnEnd = guard;
}

function toLogin(): void {
  clearSession();
  if (ending) return;
  if (stayOnEnd?.()) return;
  const here = `${window.location.pathname}${window.location.search}`;
  if (!PRIVATE_AREAS.test(window.location.pathname)) {
    window.location.reload();
    return;
  }
  window.location.assign(`/auth/login?${new URLSearchParams({ redirectTo: here })}`);
}

/**
 * `fetch` for our own API as the signed-in user: sends the raw access token in `Authorization` (spec §7),
 * getting one first when there is none in memory or the 3-minute marker has passed. On a 401 it refreshes
 * once and retries once; if that fails too, the local markers are cleared and the browser goes to
 * `/auth/login?redirectTo=<this page>`. The last response is returned either way, so callers can read errors.
 *
 * @example
 * const res = await apiFetch("/api/realtime/ticket", { method: "POST", body: JSON.stringify({ party, room }) });
 */
export async function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  // A session its person is ending answers nothing any more: not even asked (no 401 in the console).
  if (ending) return new Response(null, { status: 401 });
  const send = (token: string | null) => {
    const headers = new Headers(init.headers);
    if (token) headers.set("Authorization", token);
    if (init.body && typeof init.body === "string" && !headers.has("content-type")) headers.set("content-type", "application/json");
    return fetch(path, { ...init, headers, credentials: "same-origin" });
  };
  const { token, refused } = accessToken && !markerExpired() ? { token: accessToken, refused: false } : await refresh();
  if (!token) {
    // The session has ended (the refresh was refused): logged out, as a 401 after a refresh would leave it. The call
    // itself is not sent: every caller needs a signed-in person, so it could only be refused too (one more 401 in
    // the console). Without an answer (offline) it is sent as it is and fails as any request does then.
    if (refused) {
      toLogin();
      return new Response(null, { status: 401 });
    }
    const res = await send(null);
    if (res.status === 401) toLogin();
    return res;
  }
  const first = await send(token);
  if (first.status !== 401) return first;
  const { token: renewed, refused: ended } = await refresh();
  if (!renewed) {
    if (ended) toLogin();
    return first;
  }
  const second = await send(renewed);
  if (second.status === 401) toLogin();
  return second;
}

/** Remembers where to return after signing in (sessionStorage `redirect`). Only same-site paths are kept. */
export function rememberRedirect(path: string): void {
  const safe = safeRedirectPath(path, "");
  if (!safe || safe.startsWith("/auth/")) return;
  tryStorage(() => sessionStorage.setItem(REDIRECT_KEY, safe), undefined);
}

/**
 * `path` carrying the page to come back to (`redirectTo`) when there is one: sign-up, verification and Log in hand it
 * on in their addresses too, so a visitor who asked for a seat comes back to that course after signing up even where
 * the tab's session storage is gone (a new tab, a browser that clears it).
 */
export function withRedirect(path: string, to: string | null | undefined): string {
  const safe = safeRedirectPath(to ?? "", "");
  if (!safe || safe.startsWith("/auth/")) return path;
  return `${path}${path.includes("?") ? "&" : "?"}${new URLSearchParams({ redirectTo: safe })}`;
}

/**
 * The page a sign-up or verification screen hands on: its address's `redirectTo` (kept in session storage too, as Log
 * in keeps it), else the one stored earlier in this tab, else "". Client-only (call from effects).
 */
export function carriedRedirect(): string {
  const to = new URLSearchParams(window.location.search).get("redirectTo");
  if (to) rememberRedirect(to);
  return to || peekRedirect() || "";
}

/** The stored redirect, without removing it. */
export function peekRedirect(): string | null {
  return safeRedirectPath(tryStorage(() => sessionStorage.getItem(REDIRECT_KEY), null), "") || null;
}

/** The stored redirect, removed first (spec §4: "entry cleared first"). */
export function takeRedirect(): string | null {
  const value = peekRedirect();
  tryStorage(() => sessionStorage.removeItem(REDIRECT_KEY), undefined);
  return value;
}

/** This browser's device id (localStorage `fingerprint`), sent with login and registration. Made once. */
export function deviceFingerprint(): string {
  return tryStorage(() => {
    let id = localStorage.getItem(FINGERPRINT_KEY);
    if (!id) {
      id = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
      localStorage.setItem(FINGERPRINT_KEY, id);
    }
    return id;
  }, "");
}
