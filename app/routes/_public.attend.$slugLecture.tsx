import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { data, redirect } from "@remix-run/server-runtime";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { AlertIcon } from "~/components/icons";
import type { MessageKey } from "~/i18n/en";
import { toLatinDigits } from "~/lib/digits";
import { useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { lecturePath } from "~/lib/paths";
import { getViewer } from "../../worker/auth/viewer";
import { AppError } from "../../worker/http/errors";
import { attend, redeemPendingCheckin, scanCode } from "../../worker/services/attendance";
import { ensureBrowser } from "../../worker/services/attendance-client";
import { findLecture } from "../../worker/services/lectures";

/** The loader's refusal headers (Retry-After, the browser cookie, no-store) reach the document response. */
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, metaT(matches)("attendance.scanTitle"));

const ERRORS: Record<string, MessageKey> = {
  attendance_closed: "attendance.error.closed",
  course_ended: "groups.error.courseEnded",
  invalid_code: "attendance.error.scan",
  marked_absent: "attendance.error.markedAbsent",
  conflict: "attendance.error.pendingUsed",
  forbidden: "attendance.error.notMember",
  not_found: "attendance.error.noLecture",
  rate_limited: "attendance.error.tooMany",
  validation_failed: "attendance.error.scan",
};

/**
 * The QR code on the projector opens /attend/{slugLecture}?code=NNNNNN on a phone. Signed in, the student is checked
 * in at once. Signed out, the code is judged now (the time of the scan) and a pending check-in, valid for 5 minutes,
 * is stored for this browser (its HttpOnly cookie; ADR 0018); the login page comes back here with ?pending={id},
 * where it is redeemed once, in this browser only: no second scan. Every code tried here counts against the same
 * limits as the API; a refusal is this page with the refusal's status (429 with Retry-After past a limit).
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const slug = params.slugLecture ?? "";
  const code = toLatinDigits(url.searchParams.get("code") ?? "").replace(/\D/g, "");
  const pending = url.searchParams.get("pending");
  const viewer = await getViewer(context.svc, request);
  const browser = ensureBrowser(request);
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (browser.setCookie) headers.append("Set-Cookie", browser.setCookie);
  try {
    if (pending) {
      if (!viewer) throw redirect(`/auth/login?${new URLSearchParams({ redirectTo: `${url.pathname}${url.search}` })}`, { headers });
      const done = await redeemPendingCheckin(context.svc, viewer, { id: pending, browser: browser.existing });
      throw redirect(`${lecturePath(done.lecture.groupSlug, done.lecture.slug)}${done.checkedIn ? "?checkedIn=1" : ""}`, { headers });
    }
    // No code at all (the address typed, or a link shared without it) is not a code that stopped working.
    if (!/^\d{6}$/.test(code)) return data({ error: (code === "" ? "attendance.error.noCode" : "attendance.error.scan") as MessageKey, retryAfter: null as number | null }, { status: 400, headers });
    if (!viewer) {
      const { pendingId } = await scanCode(context.svc, slug, code, { browser: browser.id });
      const back = `/attend/${encodeURIComponent(slug)}?${new URLSearchParams({ pending: pendingId })}`;
      throw redirect(`/auth/login?${new URLSearchParams({ redirectTo: back })}`, { headers });
    }
    await attend(context.svc, viewer, { slugLec: slug, code }, Date.now(), { browser: browser.id });
    const lecture = await findLecture(context.svc, viewer, slug);
    throw redirect(lecture ? `${lecturePath(lecture.groupSlug, lecture.slug)}?checkedIn=1` : "/my-courses", { headers });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const retryAfter = err.status === 429 && err.retryAfterSeconds ? err.retryAfterSeconds : null;
    if (retryAfter) headers.set("Retry-After", String(retryAfter));
    return data({ error: ERRORS[err.code] ?? ("attendance.error.scan" as MessageKey), retryAfter }, { status: err.status, headers });
  }
}

export default function AttendByScan() {
  const { t } = useT();
  const { error, retryAfter } = useLoaderData<typeof loader>();
  return (
    <main id="main" tabIndex={-1} className="page page-attend">
      <div className="container">
        <div className="card attend-card" role="alert">
          <span className="attend-icon" aria-hidden="true">
            <AlertIcon />
          </span>
          <h1 className="block-title">{t(retryAfter ? "attendance.tooManyTitle" : "attendance.scanFailed")}</h1>
          <p>{t(error)}</p>
          {retryAfter ? <p className="muted">{t("attendance.retryIn", { seconds: retryAfter })}</p> : null}
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
