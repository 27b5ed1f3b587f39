import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { errorWords } from "~/lib/error-words";
import { useT } from "~/lib/i18n";

const RELOAD_KEY = "cohort:reloaded-after-error";


/**
 * The one error screen. Route errors (404, 403, ...) get their own words; a render error in the browser
 * reloads the page once (a stale bundle after a deploy is the usual cause), and shows this screen if it
 * happens again.
 */
export function GeneralErrorBoundary({ reloadOnce = false }: { reloadOnce?: boolean }) {
  const error = useRouteError();
  const { t } = useT();
  const isResponse = isRouteErrorResponse(error);
  const screen = useRef<HTMLElement>(null);

  // An error met after the page had loaded (a form whose request got no answer, say) replaces part of a page the
  // person may have scrolled far down: bring them, and their screen reader, to it.
  useEffect(() => {
    if (document.documentElement.dataset.hydrated !== "true" || !screen.current) return;
    screen.current.focus({ preventScroll: true });
    screen.current.scrollIntoView({ block: "start" });
  }, []);

  useEffect(() => {
    if (!reloadOnce || isResponse) return;
    if (sessionStorage.getItem(RELOAD_KEY) !== "1") {
      sessionStorage.setItem(RELOAD_KEY, "1");
      window.location.reload();
    }
  }, [reloadOnce, isResponse]);

  const status = isResponse ? error.status : 500;
  const [title, body] = errorWords(status).map((key) => t(key));

  return (
    <main id="main" tabIndex={-1} ref={screen} className="error-screen">
      <p className="error-code" aria-hidden="true">{status}</p>
      <h1>{title}</h1>
      <p>{body}</p>
      <div className="error-actions">
        <Link to="/" className="btn btn-primary">{t("error.backHome")}</Link>
        {status >= 500 ? (
          <button type="button" className="btn btn-ghost" onClick={() => window.location.reload()}>{t("error.retry")}</button>
        ) : null}
      </div>
    </main>
  );
}

/**
 * Clears the reload-once marker after a page has rendered successfully, and marks the document as hydrated
 * (`<html data-hydrated>`): browser tests wait for that state instead of for time.
 */
export function useClearReloadMarker() {
  useEffect(() => {
    sessionStorage.removeItem(RELOAD_KEY);
    document.documentElement.dataset.hydrated = "true";
  }, []);
}
