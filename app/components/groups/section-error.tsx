import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { useT } from "~/lib/i18n";
import { AlertIcon } from "../icons";

/**
 * The error boundary of a page that renders inside another page's <main> (a group's tabs): the same words as
 * the general error screen, as a block in place of the tab's content instead of a second <main>.
 */
export function SectionErrorBoundary() {
  const error = useRouteError();
  const { t } = useT();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const [title, body] =
    status === 404
      ? [t("error.notFound.title"), t("error.notFound.body")]
      : status === 403
        ? [t("error.forbidden.title"), t("error.forbidden.body")]
        : [t("error.generic.title"), t("error.generic.body")];
  return (
    <section className="section-error" role="alert">
      <span className="empty-icon" aria-hidden="true">
        <AlertIcon />
      </span>
      <h2 className="empty-title">{title}</h2>
      <p>{body}</p>
      {status >= 500 ? (
        <button type="button" className="btn btn-outline" onClick={() => window.location.reload()}>
          {t("error.retry")}
        </button>
      ) : null}
    </section>
  );
}
