import { Form, Link, useFetcher, useFetchers, useLocation, useNavigation, useSubmit } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { MessageKey } from "~/i18n/en";
import { failureText, type FailureLike } from "~/lib/group-errors";
import { useViewer } from "~/hooks/use-viewer";
import { useT } from "~/lib/i18n";
import type { MembershipRequestFrameBody, ServerFrame } from "~/lib/realtime-protocol";
import type { RoomStatus } from "~/lib/use-room";
import { useStaffInbox } from "../inbox/use-staff-inbox";
import { focusIfLost } from "~/lib/focus";
import { CheckIcon, CloseIcon, InboxIcon, MailIcon, PhoneIcon, UsersIcon } from "../icons";
import { StarSmallIcon } from "./extra-icons";
import { initials } from "./format";
import { TimeAgo } from "./time-ago";
import { EmptyState } from "~/components/empty-state";
import { ConfirmDialog, useCloseWhenDone } from "~/components/confirm-dialog";
import { DeliberateSelect } from "~/components/deliberate-select";
import { RefusalText } from "~/components/form-field";

export interface InboxGroup {
  id: string;
  slug: string;
  title: string;
  pendingCount: number;
}

export interface JoinRequestsInboxProps {
  requests: MembershipRequestFrameBody[];
  groups: InboxGroup[];
  /** The group filter (slug), "" for every group. */
  group: string;
  /** Where a group's name links to in this area. */
  groupHref: (slug: string) => string;
}

type Decision = "approved" | "special" | "rejected";
type Result = ({ ok: true; decided: { _id: string; status: string } } | FailureLike) & { intent: string; target?: string };

const STATUS_TEXT: Record<RoomStatus, MessageKey> = {
  connecting: "groups.live.connecting",
  open: "groups.live.open",
  reconnecting: "groups.live.reconnecting",
  closed: "groups.live.closed",
};

const byNewest = (a: MembershipRequestFrameBody, b: MembershipRequestFrameBody) => b.createdAt.localeCompare(a.createdAt) || b._id.localeCompare(a._id);

/**
 * The join-request inbox (admins: every group; instructors: their own): pending requests newest first, each
 * with Approve, Approve as special and Reject. It listens to the staff-inbox room: a new request appears at the
 * top (highlighted and announced), a request decided anywhere leaves the list, and after every (re)connection
 * a fresh snapshot is read (useStaffInbox) so nothing sent meanwhile is missed. A decision hides its request at once and
 * brings it back with the reason if the server refuses (already decided, group full).
 */
export function JoinRequestsInbox({ requests, groups, group, groupHref }: JoinRequestsInboxProps) {
  const { t } = useT();
  const { viewer } = useViewer();
  const navigation = useNavigation();
  const location = useLocation();
  const submit = useSubmit();
  const fetchers = useFetchers();
  const [live, setLive] = useState<MembershipRequestFrameBody[]>([]);
  /** The newest snapshot read over the API after a (re)connection; until then, the loader's list. */
  const [snapshot, setSnapshot] = useState<MembershipRequestFrameBody[] | null>(null);
  useEffect(() => setSnapshot(null), [requests]);
  /** Requests decided since this page loaded: id → when (a later re-request of the same id shows again). */
  const [gone, setGone] = useState<Map<string, string>>(() => new Map());
  const [fresh, setFresh] = useState<Set<string>>(() => new Set());
  const [announce, setAnnounce] = useState("");
  const shownRef = useRef<MembershipRequestFrameBody[]>([]);

  const mark = useCallback((id: string, at: string) => setGone((m) => new Map(m).set(id, at)), []);

  const onFrame = useCallback(
    (frame: ServerFrame) => {
      if (frame.type === "membership.requested") {
        const r = frame.request;
        if (r.status !== "pending" || (group && r.group.slug !== group)) return;
        setLive((list) => [r, ...list.filter((x) => x._id !== r._id)]);
        setGone((m) => {
          if (!m.has(r._id)) return m;
          const next = new Map(m);
          next.delete(r._id);
          return next;
        });
        setFresh((s) => new Set(s).add(r._id));
        window.setTimeout(() => setFresh((s) => {
          const next = new Set(s);
          next.delete(r._id);
          return next;
        }), 6000);
        setAnnounce(t("groups.requests.arrived", { name: r.user.name, group: r.group.title }));
      } else if (frame.type === "membership.decided") {
        const d = frame.decision;
        const known = shownRef.current.find((r) => r._id === d._id);
        mark(d._id, d.decidedAt);
        if (!known) return;
        // The viewer's own decision is confirmed here too (its card is gone by the time its answer arrives).
        const params = { name: known.user.name, group: known.group.title, by: d.decidedBy.name };
        if (d.status === "withdrawn") setAnnounce(t("groups.requests.withdrawn", params));
        else setAnnounce(d.decidedBy._id === viewer?.userId ? t(DECISION_DONE[d.status], params) : t("groups.requests.decidedElsewhere", params));
      }
    },
    [group, mark, t, viewer?.userId],
  );

  // Frames sent while the socket was down (or before it first opened) are gone: a fresh snapshot of the pending
  // list is read on every (re)connection, and dropped if one of this page's own decisions was under way meanwhile.
  const snapshotPath = `/api/membership-requests?${new URLSearchParams({ status: "pending", pageSize: "100", ...(group ? { groupId: group } : {}) })}`;
  const status = useStaffInbox<MembershipRequestFrameBody[]>({
    snapshotPath,
    onFrame,
    onSnapshot: (fresh, framesSince) => {
      setSnapshot(fresh);
      setLive([]);
      framesSince.forEach(onFrame);
    },
  });

  // Decisions on their way: those requests are hidden at once.
  const deciding = new Set(
    fetchers.filter((f) => f.state !== "idle" && f.formData?.get("intent") === "decide").map((f) => String(f.formData?.get("id"))),
  );

  // A decided card goes (hidden at once, then removed) with the button that had the focus: the focus moves on to the
  // next request's name, or to the count when none is left, not to the page.
  const listRef = useRef<HTMLUListElement>(null);
  const countRef = useRef<HTMLParagraphElement>(null);
  const focusInList = useRef(false);
  const nextRequest = () => listRef.current?.querySelector<HTMLElement>("li:not([hidden]) .request-name") ?? null;
  useEffect(() => {
    if (!focusInList.current) return;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected && !active.closest("li[hidden]")) return;
    const next = nextRequest();
    (next ?? countRef.current)?.focus();
    // On the count, the keyboard has left the list. (Not when the focus could not move: a card's reject dialog still
    // open makes the page behind it inert, and the card's removal hands the focus on instead, afterDecision below.)
    if (!next && document.activeElement === countRef.current) focusInList.current = false;
  });
  // A card decided through its dialog goes with the dialog (removed while open: no focus comes back from it), after
  // the render above: the same place once the page has drawn it.
  const afterDecision = () => {
    if (focusInList.current) focusIfLost(() => nextRequest() ?? countRef.current);
  };
  const shown = useMemo(() => {
    const all = new Map<string, MembershipRequestFrameBody>();
    for (const r of live) all.set(r._id, r);
    for (const r of snapshot ?? requests) all.set(r._id, r);
    return [...all.values()].filter((r) => !(gone.get(r._id) && gone.get(r._id)! >= r.createdAt)).sort(byNewest);
  }, [live, requests, snapshot, gone]);
  shownRef.current = shown;
  const visibleCount = shown.filter((r) => !deciding.has(r._id)).length;
  const loading = navigation.state === "loading" && navigation.location.pathname === location.pathname;

  return (
    <div className="group-section inbox">
      <Form method="get" className="gfilter-bar inbox-filter" key={group}>
        <div className="field">
          <label htmlFor="inbox-group">{t("groups.requests.group")}</label>
          <DeliberateSelect id="inbox-group" name="group" value={group} onCommit={(_, select) => submit(select.form)}>
            <option value="">{t("groups.requests.allGroups")}</option>
            {groups.map((g) => (
              <option key={g.id} value={g.slug} dir="auto">
                {g.pendingCount > 0 ? t("groups.requests.groupOption", { title: g.title, count: g.pendingCount }) : g.title}
              </option>
            ))}
          </DeliberateSelect>
        </div>
        <noscript>
          <button type="submit" className="btn btn-outline">
            {t("groups.filter.apply")}
          </button>
        </noscript>
      </Form>

      <div className="inbox-summary">
        <p ref={countRef} tabIndex={-1} className="gresult-count">
          {loading ? t("common.loading") : t("groups.requests.count", { count: visibleCount })}
        </p>
        <p className="live-status" data-status={status}>
          <span className="live-dot" aria-hidden="true" />
          {t(STATUS_TEXT[status])}
        </p>
      </div>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announce}
      </p>

      {visibleCount === 0 ? (
        <EmptyState icon={<InboxIcon />} title={t("groups.requests.empty.title")} body={group ? t("groups.requests.empty.group") : t("groups.requests.empty.body")} />
      ) : null}
      <ul
        ref={listRef}
        role="list"
        className="request-list"
        aria-busy={loading}
        onFocus={() => (focusInList.current = true)}
        onBlur={(e) => {
          if (e.relatedTarget && !e.currentTarget.contains(e.relatedTarget)) focusInList.current = false;
        }}
      >
        {shown.map((r) => (
          <RequestCard
            key={r._id}
            request={r}
            hidden={deciding.has(r._id)}
            fresh={fresh.has(r._id)}
            groupHref={groupHref(r.group.slug)}
            onDecided={(text) => setAnnounce(text)}
            onGone={(at) => {
              mark(r._id, at);
              afterDecision();
            }}
          />
        ))}
      </ul>
    </div>
  );
}

const DECISION_DONE: Record<Decision, MessageKey> = {
  approved: "groups.requests.approvedDone",
  special: "groups.requests.specialDone",
  rejected: "groups.requests.rejectedDone",
};

function RequestCard({
  request: r,
  hidden,
  fresh,
  groupHref,
  onDecided,
  onGone,
}: {
  request: MembershipRequestFrameBody;
  hidden: boolean;
  fresh: boolean;
  groupHref: string;
  onDecided: (text: string) => void;
  onGone: (at: string) => void;
}) {
  const { t } = useT();
  const fetcher = useFetcher<Result>();
  const handled = useRef<unknown>(null);
  const result = fetcher.data;
  const failure = result && !result.ok && fetcher.state === "idle" ? result : null;
  const titleId = `request-${r._id}`;

  useEffect(() => {
    if (!result || fetcher.state !== "idle" || handled.current === result) return;
    handled.current = result;
    if (result.ok) {
      onGone(new Date().toISOString());
      const decision = result.decided.status as Decision;
      onDecided(t(DECISION_DONE[decision] ?? "groups.requests.approvedDone", { name: r.user.name, group: r.group.title }));
    } else {
      onDecided(t("groups.requests.failed", { name: r.user.name, reason: failureText(t, result) }));
      // Decided by someone else meanwhile: it no longer belongs here.
      if (result.code === "already_decided" || result.code === "not_found") onGone(new Date().toISOString());
    }
  }, [result, fetcher.state, onDecided, onGone, r.user.name, r.group.title, t]);

  const decide = (decision: Decision) => fetcher.submit({ intent: "decide", id: r._id, decision }, { method: "post" });
  // Rejecting e-mails the student at once: it is asked for first (approving can be undone by removing the student).
  const [confirmingReject, setConfirmingReject] = useState(false);
  const closeReject = useCallback(() => setConfirmingReject(false), []);
  const rejecting = fetcher.state !== "idle" && fetcher.formData?.get("decision") === "rejected";
  // Answered: rejected (the card goes) or refused (the card says why).
  useCloseWhenDone(rejecting, closeReject);

  return (
    <li className="card request-card" data-fresh={fresh || undefined} hidden={hidden} aria-labelledby={titleId}>
      <div className="request-head">
        <span className="avatar" aria-hidden="true">
          {initials(r.user.name)}
        </span>
        <div className="request-who">
          <h2 id={titleId} className="request-name" tabIndex={-1}>
            {r.user.name}
            {fresh ? <span className="badge badge-amber request-new">{t("groups.requests.new")}</span> : null}
          </h2>
          <p className="request-group">
            <UsersIcon />
            <span>
              {t("groups.requests.wantsToJoin")}{" "}
              <Link to={groupHref} className="user-text">
                {r.group.title}
              </Link>
            </span>
          </p>
        </div>
        <p className="request-time muted">
          <TimeAgo iso={r.createdAt} />
        </p>
      </div>
      <ul role="list" className="contact-lines">
        <li>
          <MailIcon />
          <span className="visually-hidden">{t("groups.requests.email")}: </span>
          <a href={`mailto:${r.user.email}`} dir="ltr">
            {r.user.email}
          </a>
        </li>
        <li>
          <PhoneIcon />
          <span className="visually-hidden">{t("groups.students.phone")}: </span>
          {r.user.phone_number ? (
            <a href={`tel:${r.user.phone_number}`} dir="ltr">
              {r.user.phone_number}
            </a>
          ) : (
            <span className="muted">{t("groups.requests.noPhone")}</span>
          )}
        </li>
      </ul>
      {r.requestMessage ? (
        <blockquote className="request-message user-text">
          <span className="visually-hidden">{t("groups.requests.message")}: </span>
          {r.requestMessage}
        </blockquote>
      ) : null}
      {failure ? (
        <RefusalText className="form-error" attempt={failure}>
          {failureText(t, failure)}
        </RefusalText>
      ) : null}
      <div className="request-actions" role="group" aria-label={t("groups.requests.decideFor", { name: r.user.name })}>
        <button type="button" className="btn btn-primary btn-sm" onClick={() => decide("approved")} disabled={fetcher.state !== "idle"}>
          <CheckIcon />
          {t("groups.requests.approve")}
        </button>
        <button type="button" className="btn btn-outline btn-sm" onClick={() => decide("special")} disabled={fetcher.state !== "idle"}>
          <StarSmallIcon />
          {t("groups.requests.approveSpecial")}
        </button>
        <button type="button" className="btn btn-ghost btn-sm btn-destructive-ghost" onClick={() => setConfirmingReject(true)} disabled={fetcher.state !== "idle"}>
          <CloseIcon />
          {t("groups.requests.reject")}
        </button>
      </div>
      <ConfirmDialog
        danger
        open={confirmingReject}
        title={t("groups.requests.rejectTitle", { name: r.user.name, group: r.group.title })}
        confirmLabel={t("groups.requests.rejectConfirm")}
        busyLabel={t("groups.requests.rejecting")}
        busy={rejecting}
        onConfirm={() => decide("rejected")}
        onClose={closeReject}
      >
        <p>{t("groups.requests.rejectBody", { name: r.user.name })}</p>
      </ConfirmDialog>
    </li>
  );
}
