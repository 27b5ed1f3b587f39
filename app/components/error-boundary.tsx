import { isRouteErrorResponse, Link, useLocation, useRouteError } from "@remix-run/react";
import { forwardRef, useEffect, useRef, type ReactNode } from "react";
import { errorWords } from "~/lib/error-words";
import { useT } from "~/lib/i18n";
import { clearReloadMarker, reloadOnce as reloadPage } from "~/lib/reload-once";

/**
 * An error screen's frame: the status drawn large (hidden from screen readers, the title says it), the title, then
 * what the screen says and offers (`children`). The one error screen and the screens of their own (a certificate
 * that does not exist, a course for its members) are all this.
 */
export const ErrorScreen = forwardRef<HTMLElement, { code: number; title: string; className?: string; children: ReactNode }>(function ErrorScreen({ code, title, className, children }, ref) {
  return (
    <main id="main" tabIndex={-1} ref={ref} className={className ? `error-screen ${className}` : "error-screen"}>
      <p className="error-code" aria-hidden="true">
        {code}
      </p>
      <h1>{title}</h1>
      {children}
    </main>
  );
});

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
  const { pathname } = useLocation();

  // An error met after the page had loaded (a form whose request got no answer, say) replaces part of a page the
  // person may have scrolled far down: bring them, and their screen reader, to it.
  useEffect(() => {
    if (document.documentElement.dataset.hydrated !== "true" || !screen.current) return;
    screen.current.focus({ preventScroll: true });
    screen.current.scrollIntoView({ block: "start" });
  }, []);

  useEffect(() => {
    if (!reloadOnce || isResponse) return;
    reloadPage();
  }, [reloadOnce, isResponse]);

  const status = isResponse ? error.status : 500;
  const [title, body] = errorWords(status).map((key) => t(key));
  // A lecture, task or quiz of a course that is gone (deleted, or a stale link): the way back is the course.
  const course = status === 404 ? courseAbove(pathname) : null;

  return (
    <ErrorScreen ref={screen} code={status} title={title ?? ""}>
      <p>{body}</p>
      <div className="error-actions">
        {course ? (
          <Link to={course} className="btn btn-primary">
            {t("course.backToCourse")}
          </Link>
        ) : null}
        <Link to="/" className={course ? "btn btn-ghost" : "btn btn-primary"}>{t("error.backHome")}</Link>
        {status >= 500 ? (
          <button type="button" className="btn btn-ghost" onClick={() => window.location.reload()}>{t("error.retry")}</button>
        ) : null}
      </div>
    </ErrorScreen>
  );
}

/** The course home above an item's address (/course/{slug}/lecture/...), or null anywhere else. */
export function courseAbove(pathname: string): string | null {
  const m = /^\/course\/([^/]+)\/.+/.exec(pathname);
  return m ? `/course/${m[1]}` : null;
}

/**
 * Clears the reload-once marker after a page has rendered successfully, and marks the document as hydrated
 * (`<html data-hydrated>`): browser tests wait for that state instead of for time.
 */
export function useClearReloadMarker() {
  useEffect(() => {
    clearReloadMarker();
    document.documentElement.dataset.hydrated = "true";
  }, []);
}
