import { Link, useLocation } from "@remix-run/react";
import { useEffect } from "react";
import { keepTypedWork, pageChanged, useWaiting, watchTyping } from "~/lib/kept-submission";
import { stayWhenSessionEnds } from "~/lib/session-client";
import { useT } from "~/lib/i18n";

/**
 * The one notice of a form that waits (app/lib/kept-submission.ts): offline, or the session ended. It sits at the
 * bottom of every page, says why nothing went out yet and that the text is kept, and, for an ended session, opens the
 * login page in another tab. The live region is always there, so its words are read when they appear (a live region, not
 * a second `status` role on every page beside the page's own).
 */
export function SubmissionWait() {
  const { t } = useT();
  const waiting = useWaiting();
  const { pathname } = useLocation();
  useEffect(() => {
    stayWhenSessionEnds(keepTypedWork);
    return watchTyping();
  }, []);
  useEffect(() => pageChanged(), [pathname]);
  return (
    <div aria-live="polite" aria-atomic="true" className="submission-wait-region">
      {/* The page's own address, discovered with its links while the page is online: Remix asks the server for the
          routes of a page with parameters before sending its form (lazy route discovery), which offline failed the
          form before it could wait. Never shown, never focused. */}
      <Link to={pathname} hidden tabIndex={-1} aria-hidden="true" prefetch="none" />
      {waiting ? (
        <div className="submission-wait" data-waiting={waiting}>
          <p>{t(waiting === "offline" ? "wait.offline" : waiting === "session" ? "wait.session" : "wait.notSent")}</p>
          {waiting === "session" ? (
            <a href="/auth/login" target="_blank" rel="noopener" className="btn btn-primary btn-sm">
              {t("wait.login")}
            </a>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
