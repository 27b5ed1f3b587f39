import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useFetcher, useLoaderData, useNavigation } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { MembershipBadge } from "~/components/groups/badges";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { LogOutIcon, StarSmallIcon } from "~/components/groups/extra-icons";
import { ArrowIcon, BookIcon, CalendarIcon, UserIcon } from "~/components/icons";
import { failureText, type FailureLike } from "~/lib/group-errors";
import { formatDate, useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { attempt, invalid, text, unknownIntent } from "~/lib/group-actions.server";
import { leaveGroupInput } from "~/lib/schemas";
import { requireViewer } from "../../worker/auth/viewer";
import { leaveGroup, withdrawRequest } from "../../worker/services/memberships";
import { listMyGroups, listMyPendingRequests } from "../../worker/services/my-groups";
import { redirect } from "@remix-run/server-runtime";
import { EmptyState } from "~/components/empty-state";
import { RefusalText } from "~/components/form-field";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, metaT(matches)("groups.my.title"));

/**
 * A student's approved and special groups, soonest start first, and the requests still waiting for a decision.
 * Staff do not join groups: they are sent to the groups they run.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(context.svc, request);
  if (viewer.role === "admin") throw redirect("/dashboard/admin/allGroups");
  if (viewer.role === "instructor") throw redirect("/instructor");
  const [groups, pending] = await Promise.all([listMyGroups(context.svc, viewer), listMyPendingRequests(context.svc, viewer)]);
  return {
    pending: pending.map((g) => ({ id: g._id, slug: g.slug, title: g.title, requestedAt: g.requestedAt })),
    groups: groups.map((g) => ({
      id: g._id,
      slug: g.slug,
      title: g.title,
      image: g.imageCourse,
      startDate: g.start_date,
      instructorName: g.instructorName,
      special: g.membershipStatus === "special",
    })),
  };
}

/**
 * Leave a group (POST /api/users/leave-group's service): the membership becomes `left`; or, with
 * `intent=withdraw`, take back a request still waiting (POST /api/users/withdraw-request's).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(context.svc, request);
  const form = await request.formData();
  const parsed = leaveGroupInput.safeParse({ groupSlug: text(form, "groupSlug") });
  if (text(form, "intent") === "withdraw") {
    if (!parsed.success) return invalid("withdraw", parsed.error);
    return attempt("withdraw", () => withdrawRequest(context.svc, viewer, parsed.data), parsed.data.groupSlug);
  }
  if (text(form, "intent") !== "leave") return unknownIntent(text(form, "intent"));
  if (!parsed.success) return invalid("leave", parsed.error);
  return attempt("leave", () => leaveGroup(context.svc, viewer, parsed.data), parsed.data.groupSlug);
}

/**
 * A waiting request's "Withdraw". The row (and this button) leaves the list once the page's data follows, so the
 * focus goes to the page's heading as it is sent (`onSend`), not to nowhere; a refusal is said on the row.
 */
function WithdrawRequest({ slug, title, onSend }: { slug: string; title: string; onSend: (slug: string, title: string) => void }) {
  const { t } = useT();
  const withdrawer = useFetcher<LeaveResult>();
  const busy = withdrawer.state !== "idle";
  const failure = withdrawer.data && !withdrawer.data.ok ? withdrawer.data : null;
  return (
    <withdrawer.Form method="post" className="my-request-withdraw" onSubmit={() => onSend(slug, title)}>
      <input type="hidden" name="intent" value="withdraw" />
      <input type="hidden" name="groupSlug" value={slug} />
      <button type="submit" className="btn btn-ghost btn-sm" disabled={busy} aria-busy={busy}>
        {busy ? t("groups.join.withdrawing") : t("groups.join.withdraw")}
        <span className="visually-hidden"> {title}</span>
      </button>
      {failure ? (
        <RefusalText as="span" className="form-error" attempt={failure}>
          {failureText(t, failure)}
        </RefusalText>
      ) : null}
    </withdrawer.Form>
  );
}

type Group = ReturnType<typeof useLoaderData<typeof loader>>["groups"][number];
type LeaveResult = { ok: true; groupSlug: string } | (FailureLike & { target?: string });

export default function MyCourses() {
  const { t, lang } = useT();
  const { groups, pending } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const fetcher = useFetcher<LeaveResult>();
  const [leaving, setLeaving] = useState<Group | null>(null);
  const [announce, setAnnounce] = useState("");
  const headingRef = useRef<HTMLHeadingElement>(null);
  const handled = useRef<unknown>(null);

  const busy = fetcher.state !== "idle";
  const result = fetcher.data;
  // Requests being withdrawn, said withdrawn once they leave the list.
  const withdrawing = useRef(new Map<string, string>());
  const sendWithdrawal = useCallback((slug: string, title: string) => {
    withdrawing.current.set(slug, title);
    headingRef.current?.focus();
  }, []);
  useEffect(() => {
    for (const [slug, title] of withdrawing.current) {
      if (pending.some((r) => r.slug === slug)) continue;
      withdrawing.current.delete(slug);
      setAnnounce(t("groups.my.withdrawn", { title }));
    }
  }, [pending, t]);
  // The group being left disappears at once; it comes back only if leaving failed.
  const pendingSlug = busy ? String(fetcher.formData?.get("groupSlug") ?? "") : null;
  const visible = groups.filter((g) => g.slug !== pendingSlug);

  useEffect(() => {
    if (!result || handled.current === result || fetcher.state !== "idle") return;
    handled.current = result;
    if (result.ok) {
      const title = groups.find((g) => g.slug === result.groupSlug)?.title ?? leaving?.title ?? "";
      setAnnounce(t("groups.my.left", { title }));
      setLeaving(null);
    }
  }, [result, fetcher.state, groups, leaving, t]);

  const closeDialog = useCallback(() => setLeaving(null), []);
  const failure = result && !result.ok && !busy ? result : null;

  return (
    <main id="main" tabIndex={-1} className="page page-my-courses">
      <div className="page-band page-band-compact">
        <div className="container">
          <h1 ref={headingRef} tabIndex={-1} className="page-title">
            {t("groups.my.title")}
          </h1>
          <p className="page-lead">{t("groups.my.lead")}</p>
        </div>
      </div>
      <div className="container my-courses" aria-busy={navigation.state === "loading"}>
        <p className="visually-hidden" role="status" aria-live="polite">
          {announce}
        </p>
        {visible.length === 0 ? (
          <EmptyState icon={<BookIcon />} title={t("groups.my.empty.title")} body={t("groups.my.empty.body")}>
            <Link to="/courses" className="btn btn-primary">
              {t("cta.primary")}
              <ArrowIcon />
            </Link>
          </EmptyState>
        ) : (
          <ul role="list" className="card-grid">
            {visible.map((g) => (
              <li key={g.id}>
                <MyCourseCard group={g} onLeave={() => setLeaving(g)} />
              </li>
            ))}
          </ul>
        )}
      </div>
      {pending.length > 0 ? (
        <section className="container my-requests" aria-labelledby="my-requests-title">
          <h2 id="my-requests-title" className="block-title">
            {t("groups.my.pending.title")}
          </h2>
          <ul role="list" className="my-requests-list">
            {pending.map((r) => (
              <li key={r.id} className="my-request">
                <Link to={`/content/${r.slug}`} className="my-request-title" dir="auto">
                  {r.title}
                </Link>
                <MembershipBadge status="pending" />
                <span className="my-request-date">{t("groups.my.pending.since", { date: formatDate(r.requestedAt, lang) })}</span>
                <WithdrawRequest slug={r.slug} title={r.title} onSend={sendWithdrawal} />
              </li>
            ))}
          </ul>
          <p className="my-requests-note">{t("groups.my.pending.note")}</p>
        </section>
      ) : null}
      <ConfirmDialog
        danger
        open={leaving !== null && (!busy || pendingSlug === leaving.slug)}
        title={t("groups.my.leaveTitle", { title: leaving?.title ?? "" })}
        confirmLabel={t("groups.my.leaveConfirm")}
        busyLabel={t("groups.my.leaving")}
        busy={busy}
        error={failure ? failureText(t, failure) : null}
        onConfirm={() => leaving && fetcher.submit({ intent: "leave", groupSlug: leaving.slug }, { method: "post" })}
        onClose={closeDialog}
        returnFocusTo={headingRef}
      >
        <p>{t("groups.my.leaveBody")}</p>
      </ConfirmDialog>
    </main>
  );
}

function MyCourseCard({ group, onLeave }: { group: Group; onLeave: () => void }) {
  const { t, lang } = useT();
  const titleId = `my-${group.id}`;
  return (
    <article className="card course-card my-course-card" aria-labelledby={titleId}>
      <div className="course-card-media">
        {group.image ? (
          <img src={group.image} alt="" width={640} height={360} loading="lazy" decoding="async" />
        ) : (
          <div className="course-card-fallback" aria-hidden="true">
            <BookIcon />
          </div>
        )}
        {group.special ? (
          <span className="badge badge-amber my-course-special">
            <StarSmallIcon />
            {t("groups.membership.special")}
          </span>
        ) : null}
      </div>
      <div className="course-card-body">
        <p className="course-date">
          <CalendarIcon />
          <span className="visually-hidden">{t("courses.startDate")} </span>
          {group.startDate ? <time dateTime={group.startDate}>{formatDate(group.startDate, lang)}</time> : t("courses.comingSoon")}
        </p>
        <h2 id={titleId} className="course-title user-text">
          {group.title}
        </h2>
        <p className="course-instructor">
          <UserIcon />
          <span>
            {t("courses.instructor")}
            {group.instructorName}
          </span>
        </p>
        <div className="course-card-actions my-course-actions">
          <Link to={`/course/${group.slug}`} className="btn btn-primary" prefetch="intent">
            {t("groups.my.open")}
            <ArrowIcon />
          </Link>
          <button type="button" className="btn btn-ghost" onClick={onLeave}>
            <LogOutIcon className="icon-flip" />
            {t("groups.my.leave")}
            <span className="visually-hidden"> {group.title}</span>
          </button>
        </div>
      </div>
    </article>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
