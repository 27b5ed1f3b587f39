import { useLocation, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { clearSession, rememberRole, takeRedirect } from "~/lib/session-client";
import type { ClientViewer } from "./use-viewer";

/**
 * Keeps the browser's session markers in step with the server's answer (the cookie is the truth):
 * signed in → the role marker is written; signed out → the token and markers are cleared.
 * Once signed in (outside the auth screens) the stored `redirect` entry is used up: a user on the landing
 * page is taken there (platform-spec §4 "Landing load"; staff were already sent to their area by the
 * landing loader), anywhere else it is simply cleared because the person has arrived.
 */
export function useSessionSync(viewer: ClientViewer | null) {
  const location = useLocation();
  const navigate = useNavigate();
  const role = viewer?.role ?? null;

  useEffect(() => {
    if (!role) {
      clearSession();
      return;
    }
    rememberRole(role);
    if (location.pathname.startsWith("/auth/")) return;
    const stored = takeRedirect();
    if (stored && role === "user" && location.pathname === "/" && stored !== "/") navigate(stored, { replace: true });
  }, [role, location.pathname, navigate]);
}
