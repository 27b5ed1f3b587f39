import { useNavigate } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { GoogleIcon } from "~/components/icons";
import type { MessageKey } from "~/i18n/en";
import { useT } from "~/lib/i18n";
import { roleFromToken, roleHome, setAccessToken, takeRedirect } from "~/lib/session-client";

const POPUP = { width: 500, height: 640 };

/** The shape the callback page posts: `{type: "cohort:google", accessToken}` or `{type: "cohort:google", error}`. */
function readMessage(data: unknown): { accessToken: string } | { error: string } | null {
  if (!data || typeof data !== "object" || (data as { type?: unknown }).type !== "cohort:google") return null;
  const { accessToken, error } = data as { accessToken?: unknown; error?: unknown };
  if (typeof accessToken === "string" && accessToken.length > 0) return { accessToken };
  if (typeof error === "string") return { error };
  return null;
}

/**
 * "Continue with Google" (PRODUCT.md §3): opens /api/users/google in a popup; the callback page posts the
 * access token back to this window. Messages are accepted only from this site's own origin and only in
 * the expected shape. The token stays in memory (session-client); the refresh cookie was set by the popup,
 * so the next page already knows the person. Without Google settings the button is disabled and says why.
 */
export function GoogleSignIn({ enabled }: { enabled: boolean }) {
  const { t } = useT();
  const navigate = useNavigate();
  const [waiting, setWaiting] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<MessageKey | null>(null);
  const popupRef = useRef<Window | null>(null);

  useEffect(() => {
    if (!enabled) return;
    function onMessage(event: MessageEvent) {
      if (event.origin !== window.location.origin) return;
      const message = readMessage(event.data);
      if (!message) return;
      setWaiting(false);
      popupRef.current = null;
      if ("error" in message) {
        setError("auth.google.failed");
        return;
      }
      const role = roleFromToken(message.accessToken) ?? "user";
      setAccessToken(message.accessToken, role);
      setDone(true);
      // A student without a stored page goes through the login page's loader, which (signed in now) sends them to
      // their course or My Courses, as the form does (app/lib/after-login.server.ts).
      navigate(role === "user" ? (takeRedirect() ?? "/auth/login") : roleHome(role));
    }
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [enabled, navigate]);

  // The person may close the popup without finishing; the button becomes usable again.
  useEffect(() => {
    if (!waiting) return;
    const timer = window.setInterval(() => {
      if (popupRef.current?.closed) {
        popupRef.current = null;
        setWaiting(false);
      }
    }, 500);
    return () => window.clearInterval(timer);
  }, [waiting]);

  function start() {
    setError(null);
    const left = Math.max(0, window.screenX + (window.outerWidth - POPUP.width) / 2);
    const top = Math.max(0, window.screenY + (window.outerHeight - POPUP.height) / 2);
    const popup = window.open("/api/users/google", "cohort-google", `popup,width=${POPUP.width},height=${POPUP.height},left=${left},top=${top}`);
    if (!popup) {
      setError("auth.google.popupBlocked");
      return;
    }
    popupRef.current = popup;
    popup.focus();
    setWaiting(true);
  }

  return (
    <div className="google-signin">
      <button
        type="button"
        className="btn btn-outline btn-lg btn-block google-button"
        onClick={start}
        disabled={!enabled || waiting || done}
        aria-describedby={!enabled ? "google-off" : error ? "google-error" : undefined}
      >
        <GoogleIcon />
        {waiting ? t("auth.google.waiting") : t("auth.google.button")}
      </button>
      {!enabled ? (
        <p id="google-off" className="field-hint field-hint-block google-note">
          {t("auth.google.off")}
        </p>
      ) : null}
      <div role="status" className="google-status">
        {done ? <p className="form-success">{t("auth.login.success")}</p> : null}
      </div>
      {error ? (
        <p id="google-error" className="field-error" role="alert">
          {t(error)}
        </p>
      ) : null}
    </div>
  );
}
