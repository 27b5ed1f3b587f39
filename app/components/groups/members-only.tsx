import { isRouteErrorResponse, Link, useParams, useRouteError } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ArrowIcon } from "~/components/icons";
import { useT } from "~/lib/i18n";

/**
 * The error screen of a course's inner pages (a lecture, a task, a quiz and its parts). Refused (403) because the
 * reader is not one of the course's members, it says so and leads to the course's home, which shows their request's
 * status and how to join (the course home's own screen); any other error is the one error screen.
 */
export function MembersOnlyBoundary() {
  const error = useRouteError();
  const { slug } = useParams();
  const { t } = useT();
  const code = isRouteErrorResponse(error) ? (error.data as { code?: string } | null)?.code : undefined;
  if (!isRouteErrorResponse(error) || error.status !== 403 || !slug || (code !== "forbidden" && code !== "not_member")) return <GeneralErrorBoundary />;
  return (
    <main id="main" tabIndex={-1} className="error-screen not-member">
      <p className="error-code" aria-hidden="true">
        403
      </p>
      <h1>{t("groups.course.forbiddenTitle")}</h1>
      <p>{t("groups.course.forbidden.page")}</p>
      <div className="error-actions">
        <Link to={`/course/${encodeURIComponent(slug)}`} className="btn btn-primary">
          {t("groups.course.open")}
          <ArrowIcon />
        </Link>
        <Link to="/courses" className="btn btn-ghost">
          {t("course.back")}
        </Link>
      </div>
    </main>
  );
}
