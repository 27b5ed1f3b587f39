import type { ClientActionFunctionArgs } from "@remix-run/react";
import { useSyncExternalStore } from "react";
import { refreshAccessToken } from "./session-client";

/**
 * What was typed is never lost to a dropped connection or an ended session (ADR 73).
 *
 * Every page with a form sends it through `clientAction` (below, re-exported by each route that has an action). It
 * sends as Remix would, except in two cases where that used to throw the page away with the text in it:
 * - **offline**: the browser says it has no connection, so the form is not sent; it waits, still "sending", until the
 *   connection is back, then goes out once. (A request that failed while the browser believed it was online may have
 *   reached the server: it is not sent again, and fails as before.)
 * - **the session has ended** (a logout in another tab, a password changed elsewhere): the server's answer is the way
 *   to the login page. The page stays; the form waits while the reader signs in again in another tab, and once this
 *   tab finds the session back (when it is looked at again) it answers "not sent, send it
 *   again" (`session_ended`): the form's text is all still there. (Remix sends a form's body once, so the waiting
 *   form cannot be sent again by itself; answering before the session is back would have Remix reload the page's
 *   data, which goes to the login page.)
 * Meanwhile one notice at the bottom of the page says why (`useWaiting` in `SubmissionWait`). The same notice
 * replaces the jump to the login page that the page's own widgets make when they find the session gone, while
 * anything was typed on the page (`keepTypedWork`).
 */
export type Waiting = "offline" | "session" | "resend" | null;

let waiting: Waiting = null;
const listeners = new Set<() => void>();
function setWaiting(next: Waiting) {
  if (waiting === next) return;
  waiting = next;
  for (const l of listeners) l();
}

/** Why the page's sending waits now, for the notice. */
export function useWaiting(): Waiting {
  return useSyncExternalStore(
    (l) => (listeners.add(l), () => listeners.delete(l)),
    () => waiting,
    () => null,
  );
}

function online(): Promise<void> {
  return new Promise((resolve) => window.addEventListener("online", () => resolve(), { once: true }));
}

/**
 * Resolves once this tab's session works again, checked each time the tab is looked at again (the reader comes back
 * from the tab where they signed in). Not on a timer: each check while signed out is a refused refresh, which the
 * browser's console reports.
 */
function sessionBack(): Promise<void> {
  return new Promise((resolve) => {
    let done = false;
    const check = async () => {
      if (done || document.visibilityState === "hidden") return;
      if (await refreshAccessToken()) {
        done = true;
        window.removeEventListener("focus", onLook);
        document.removeEventListener("visibilitychange", onLook);
        resolve();
      }
    };
    const onLook = () => void check();
    window.addEventListener("focus", onLook);
    document.addEventListener("visibilitychange", onLook);
  });
}

const isLoginRedirect = (e: unknown) =>
  e instanceof Response && e.status >= 300 && e.status < 400 && (e.headers.get("Location") ?? "").startsWith("/auth/login");

/** Every page's form, sent as Remix sends it unless the connection or the session is missing (see above). */
export async function clientAction({ serverAction }: ClientActionFunctionArgs) {
  if (!navigator.onLine) {
    setWaiting("offline");
    await online();
  }
  setWaiting(null);
  try {
    return await serverAction();
  } catch (e) {
    if (isLoginRedirect(e)) {
      setWaiting("session");
      await sessionBack();
      setWaiting("resend");
      return { ok: false, code: "session_ended", message: "Not sent: the session had ended. Send it again." };
    }
    // Anything else as before: a connection lost while sending may have reached the server, so it is not sent again.
    throw e;
  }
}

/** Set when something is typed into a field of a form on this page; cleared by the next page (`pageChanged`). */
let typed = false;

/** Listens for typing in the page's forms (search boxes aside): what a sudden jump to the login page would lose. */
export function watchTyping(): () => void {
  const onInput = (e: Event) => {
    const field = e.target;
    if (field instanceof HTMLElement && field.closest("form") && !(field instanceof HTMLInputElement && field.type === "search")) typed = true;
  };
  document.addEventListener("input", onInput, true);
  return () => document.removeEventListener("input", onInput, true);
}

export function pageChanged(): void {
  typed = false;
  if (waiting === "resend") setWaiting(null);
}

/**
 * Asked by the session client before it leaves for the login page because the session ended: true when the page
 * holds typed work, in which case the page stays and the notice says the session ended (the form's own sending then
 * waits for it, above).
 */
export function keepTypedWork(): boolean {
  if (!typed) return false;
  // Each widget that finds the session gone asks: one wait for the session is enough.
  if (waiting === "session") return true;
  setWaiting("session");
  void sessionBack().then(() => {
    if (waiting === "session") setWaiting(null);
  });
  return true;
}
