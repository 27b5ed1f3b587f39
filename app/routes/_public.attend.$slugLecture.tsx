import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { redirect } from "@remix-run/server-runtime";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { AlertIcon } from "~/components/icons";
import type { MessageKey } from "~/i18n/en";
import { useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { getViewer } from "../../worker/auth/viewer";
import { AppError } from "../../worker/http/errors";
import { attend, redeemPendingCheckin, scanCode } from "../../worker/services/attendance";
import { findLecture } from "../../worker/services/lectures";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, metaT(matches)("attendance.scanTitle"));

const ERRORS: Record<string, MessageKey> = {
  attendance_closed: "attendance.error.closed",
  invalid_code: "attendance.error.scan",
  forbidden: "attendance.error.notMember",
  not_found: "attendance.error.noLecture",
  rate_limited: "attendance.error.tooMany",
  validation_failed: "attendance.error.scan",
};

/**
 * The QR code on the projector opens /attend/{slugLecture}?code=NNNNNN on a phone. Signed in, the student is checked
 * in at once. Signed out, the code is judged now (the time of the scan) and a signed pending check-in, valid for
 * 5 minutes, rides through the login page and back here (?pending=...), where it is redeemed: no second scan.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const slug = params.slugLecture ?? "";
  const code = (url.searchParams.get("code") ?? "").replace(/\D/g, "");
  const pending = url.searchParams.get("pending");
  const viewer = await getViewer(context.svc, request);
  try {
    if (pending) {
      if (!viewer) throw redirect(`/auth/login?${new URLSearchParams({ redirectTo: `${url.pathname}${url.search}` })}`);
      const done = await redeemPendingCheckin(context.svc, viewer, pending);
      throw redirect(`/course/${done.lecture.groupSlug}/lecture/${done.lecture.slug}?checkedIn=1`);
    }
    if (!/^\d{6}$/.test(code)) return { error: "attendance.error.scan" as MessageKey, slug };
    if (!viewer) {
      const { token } = await scanCode(context.svc, slug, code);
      throw redirect(`/auth/login?${new URLSearchParams({ redirectTo: `/attend/${encodeURIComponent(slug)}?${new URLSearchParams({ pending: token })}` })}`);
    }
    await attend(context.svc, viewer, { slugLec: slug, code });
    const lecture = await findLecture(context.svc, viewer, slug);
    throw redirect(lecture ? `/course/${lecture.groupSlug}/lecture/${lecture.slug}?checkedIn=1` : "/my-courses");
  } catch (err) {
    if (err instanceof AppError) return { error: ERRORS[err.code] ?? ("attendance.error.scan" as MessageKey), slug };
    throw err;
  }
}

export default function AttendByScan() {
  const { t } = useT();
  const { error } = useLoaderData<typeof loader>();
  return (
    <main id="main" tabIndex={-1} className="page page-attend">
      <div className="container">
        <div className="card attend-card" role="alert">
          <span className="attend-icon" aria-hidden="true">
            <AlertIcon />
          </span>
          <h1 className="block-title">{t("attendance.scanFailed")}</h1>
          <p>{t(error)}</p>
          <Link to="/my-courses" className="btn btn-primary">
            {t("nav.myCourses")}
          </Link>
        </div>
      </div>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
