import { isRouteErrorResponse, Link, useParams, useRouteError } from "@remix-run/react";
import type { ReactNode } from "react";
import { ErrorScreen, GeneralErrorBoundary } from "~/components/error-boundary";
import { ArrowIcon } from "~/components/icons";
import { useT } from "~/lib/i18n";

/**
 * "This course is for its members" (403): what a course's pages show someone who is not one of its members. The
 * course home says where their request stands and how to join (`status`, `body`, `action`); its inner pages lead to
 * the course home. Both end with the way back to the catalogue.
 */
export function MembersOnlyScreen({ status, body, action }: { status?: ReactNode; body: string; action: { to: string; label: string; arrow?: boolean } }) {
  const { t } = useT();
  return (
    <ErrorScreen code={403} title={t("groups.course.forbiddenTitle")} className="not-member">
      {status}
      <p>{body}</p>
      <div className="error-actions">
        <Link to={action.to} className="btn btn-primary">
          {action.label}
          {action.arrow ? <ArrowIcon /> : null}
        </Link>
        <Link to="/courses" className="btn btn-ghost">
          {t("course.back")}
        </Link>
      </div>
    </ErrorScreen>
  );
}

/**
 * The error screen of a course's inner pages (a lecture, a task, a quiz and its parts). Refused (403) because the
 * reader is not one of the course's members, it says so and leads to the course's home, which shows their request's
 * status and how to join; any other error is the one error screen.
 */
export function MembersOnlyBoundary() {
  const error = useRouteError();
  const { slug } = useParams();
  const { t } = useT();
  const code = isRouteErrorResponse(error) ? (error.data as { code?: string } | null)?.code : undefined;
  if (!isRouteErrorResponse(error) || error.status !== 403 || !slug || (code !== "forbidden" && code !== "not_member")) return <GeneralErrorBoundary />;
  return <MembersOnlyScreen body={t("groups.course.forbidden.page")} action={{ to: `/course/${encodeURIComponent(slug)}`, label: t("groups.course.open"), arrow: true }} />;
}
