import { Form, Link, useFetcher, useLocation, useNavigation, useSubmit } from "@remix-run/react";
import { SEARCH_MAX } from "~/lib/list-query";
import { useCallback, useEffect, useRef, useState } from "react";
import type { MessageKey } from "~/i18n/en";
import { failureText, type FailureLike } from "~/lib/group-errors";
import { formatShortDate, useT } from "~/lib/i18n";
import { QUIZ_TIME_MULTIPLIERS } from "~/lib/quiz-time";
import { CheckIcon, InboxIcon, SearchIcon, UsersIcon } from "../icons";
import { MembershipBadge, type MembershipStatus } from "./badges";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { StarSmallIcon } from "./extra-icons";
import { EmptyState } from "~/components/empty-state";
import { DeliberateSelect } from "~/components/deliberate-select";
import { focusIfLost } from "~/lib/focus";
import { RefusalText } from "~/components/form-field";

export interface GroupStudent {
  _id: string;
  status: MembershipStatus;
  requestedAt: string;
  decidedAt: string | null;
  /** The day they first joined (kept when their terms change). */
  joinedAt: string | null;
  /** The member's time on timed quizzes, as a multiple of each quiz's duration (an accommodation). */
  quizTimeMultiplier: number;
  user: { _id: string; name: string; email: string; phone_number: string | null; slug: string };
}

export interface StudentsScreenProps {
  group: { slug: string; title: string; capacity: number | null; memberCount: number };
  search: string;
  status: string;
  students: GroupStudent[];
  /** The student's page in this area. */
  studentHref: (studentSlug: string) => string;
  /** The join-requests inbox of this area, filtered to this group. */
  inboxHref: string;
}

type Result = ({ ok: true; student: GroupStudent } | FailureLike) & { intent: string; target?: string };

const FILTERS: { value: string; key: MessageKey }[] = [
  { value: "members", key: "groups.students.filter.members" },
  { value: "approved", key: "groups.membership.approved" },
  { value: "special", key: "groups.membership.special" },
  { value: "pending", key: "groups.membership.pending" },
  { value: "removed", key: "groups.membership.removed" },
  { value: "left", key: "groups.membership.left" },
  { value: "rejected", key: "groups.membership.rejected" },
  { value: "all", key: "groups.students.filter.all" },
];

/**
 * A group's students for its staff (admin and instructor pages share it): search by name or e-mail, filter by
 * status, switch a member between approved and special, remove one after a confirmation, or restore a removed
 * student. Each row posts its own change; results are announced politely and errors show on the row.
 */
export function StudentsScreen({ group, search, status, students, studentHref, inboxHref }: StudentsScreenProps) {
  const { t } = useT();
  const navigation = useNavigation();
  const location = useLocation();
  const submit = useSubmit();
  const [announce, setAnnounce] = useState("");
  const tableRef = useRef<HTMLDivElement>(null);
  const countRef = useRef<HTMLParagraphElement>(null);
  const loading = navigation.state === "loading" && navigation.location.pathname === location.pathname;
  const filtered = search !== "" || status !== "members";
  // A removal whose row leaves the list (the members filter no longer holds them): the row, its dialog and its
  // answer go in one render, before the row can say so. The screen says it and keeps the keyboard in the table.
  const removing = useRef<{ id: string; name: string } | null>(null);
  const onRemoving = useCallback((who: { id: string; name: string } | null) => (removing.current = who), []);
  useEffect(() => {
    const who = removing.current;
    if (!who || students.some((s) => s._id === who.id)) return;
    removing.current = null;
    setAnnounce(t("groups.students.nowRemoved", { name: who.name }));
    focusIfLost(() => tableRef.current ?? countRef.current);
  }, [students, t]);

  return (
    <div className="group-section students-screen">
      <Form method="get" className="gfilter-bar" role="search" aria-label={t("groups.students.filters")} key={`${search}|${status}`}>
        <div className="field gfilter-search">
          <label htmlFor="students-search">{t("groups.students.search")}</label>
          <div className="ginput-icon">
            <SearchIcon />
            <input id="students-search" type="search" name="search" defaultValue={search} maxLength={SEARCH_MAX} placeholder={t("groups.students.searchPlaceholder")} />
          </div>
        </div>
        <div className="field">
          <label htmlFor="students-status">{t("groups.students.status")}</label>
          <DeliberateSelect id="students-status" name="status" value={status} onCommit={(_, select) => submit(select.form)}>
            {FILTERS.map((f) => (
              <option key={f.value} value={f.value}>
                {t(f.key)}
              </option>
            ))}
          </DeliberateSelect>
        </div>
        <button type="submit" className="btn btn-outline">
          {t("groups.filter.apply")}
        </button>
        {filtered ? (
          <Link to={location.pathname} className="btn btn-ghost">
            {t("groups.filter.clear")}
          </Link>
        ) : null}
      </Form>

      <div className="students-summary">
        <p ref={countRef} tabIndex={-1} className="gresult-count" aria-live="polite">
          {loading ? t("common.loading") : t("groups.students.count", { count: students.length })}
        </p>
        <p className="muted">
          {group.capacity
            ? t("groups.students.seats", { count: group.memberCount, capacity: group.capacity })
            : t("teach.group.members", { count: group.memberCount })}
        </p>
      </div>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announce}
      </p>

      {students.length === 0 ? (
        <EmptyState icon={<UsersIcon />} title={filtered ? t("groups.students.noMatch.title") : t("groups.students.empty.title")} body={filtered ? t("groups.students.noMatch.body") : t("groups.students.empty.body")}>
          {filtered ? (
            <Link to={location.pathname} className="btn btn-outline">
              {t("groups.filter.clear")}
            </Link>
          ) : (
            <Link to={inboxHref} className="btn btn-outline">
              <InboxIcon />
              {t("groups.students.openInbox")}
            </Link>
          )}
        </EmptyState>
      ) : (
        <div ref={tableRef} tabIndex={-1} className="gtable-wrap" aria-busy={loading} data-loading={loading}>
          <table className="gtable students-table">
            <caption className="visually-hidden">{t("groups.students.caption", { title: group.title })}</caption>
            <thead>
              <tr>
                <th scope="col">{t("groups.students.name")}</th>
                <th scope="col">{t("groups.students.status")}</th>
                <th scope="col">{t("groups.students.since")}</th>
                <th scope="col">{t("groups.students.quizTime")}</th>
                <th scope="col">
                  <span className="visually-hidden">{t("groups.students.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {students.map((s) => (
                <StudentRow key={s._id} student={s} href={studentHref(s.user.slug)} inboxHref={inboxHref} onAnnounce={setAnnounce} onRemoving={onRemoving} focusFallback={tableRef} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function StudentRow({
  student,
  href,
  inboxHref,
  onAnnounce,
  onRemoving,
  focusFallback,
}: {
  student: GroupStudent;
  href: string;
  inboxHref: string;
  onAnnounce: (text: string) => void;
  /** A removal sent (the screen speaks for a row that leaves the list), or answered here (null). */
  onRemoving: (who: { id: string; name: string } | null) => void;
  focusFallback: React.RefObject<HTMLElement>;
}) {
  const { t, lang } = useT();
  const fetcher = useFetcher<Result>();
  const [confirming, setConfirming] = useState(false);
  const handled = useRef<unknown>(null);
  const actions = useRef<HTMLDivElement>(null);
  const busy = fetcher.state !== "idle";
  const asked = busy ? (String(fetcher.formData?.get("status") ?? "") as MembershipStatus) : null;
  const shown: MembershipStatus = asked ?? student.status;
  const result = fetcher.data;
  const failure = result && !result.ok && !busy ? result : null;
  const name = student.user.name;

  useEffect(() => {
    if (!result || busy || handled.current === result) return;
    handled.current = result;
    onRemoving(null);
    if (result.ok) {
      setConfirming(false);
      const key: MessageKey =
        result.student.status === "special" ? "groups.students.nowSpecial" : result.student.status === "removed" ? "groups.students.nowRemoved" : "groups.students.nowApproved";
      onAnnounce(t(key, { name }));
      // The button pressed made way for its opposite (Make special, Make regular, Restore): the keyboard goes on from
      // the row's first action, or from the table when the row left the list (a filter it no longer matches).
      focusIfLost(() => actions.current?.querySelector<HTMLElement>("button, a") ?? focusFallback.current);
    } else {
      onAnnounce(failureText(t, result));
    }
  }, [result, busy, name, onAnnounce, onRemoving, t, focusFallback]);

  const change = (status: "approved" | "special" | "removed") => {
    if (status === "removed") onRemoving({ id: student._id, name });
    fetcher.submit({ intent: "status", userId: student.user._id, status }, { method: "post" });
  };
  const closeConfirm = useCallback(() => setConfirming(false), []);
  // A member since the day they joined (a switch to a special seat and back keeps it); a pending request since it was
  // asked; anyone else since the last decision.
  const member = student.status === "approved" || student.status === "special";
  const since = student.status === "pending" ? student.requestedAt : ((member ? student.joinedAt : null) ?? student.decidedAt ?? student.requestedAt);

  return (
    <tr data-status={shown} aria-busy={busy}>
      <th scope="row" data-label={t("groups.students.name")}>
        <Link to={href} className="row-link">
          {name}
        </Link>
        {/* How to reach them, under their name: one column less, so the table fits beside the staff menu. */}
        <a href={`mailto:${student.user.email}`} className="row-sub" dir="ltr">
          {student.user.email}
        </a>
        {student.user.phone_number ? (
          <a href={`tel:${student.user.phone_number}`} dir="ltr" className="row-sub" aria-label={`${t("groups.students.phone")} ${student.user.phone_number}`}>
            {student.user.phone_number}
          </a>
        ) : null}
      </th>
      <td data-label={t("groups.students.status")}>
        <MembershipBadge status={shown} />
      </td>
      <td data-label={t("groups.students.since")}>
        <time dateTime={since} className="nowrap">
          {formatShortDate(since, lang)}
        </time>
      </td>
      <td data-label={t("groups.students.quizTime")}>
        {student.status === "approved" || student.status === "special" ? <QuizTime student={student} onAnnounce={onAnnounce} /> : <span className="muted">—</span>}
      </td>
      <td className="row-actions">
        <div ref={actions} className="row-actions-inner">
          {student.status === "approved" ? (
            <button type="button" className="btn btn-outline btn-sm" disabled={busy} onClick={() => change("special")}>
              <StarSmallIcon />
              {t("groups.students.makeSpecial")}
              <span className="visually-hidden"> {name}</span>
            </button>
          ) : null}
          {student.status === "special" ? (
            <button type="button" className="btn btn-outline btn-sm" disabled={busy} onClick={() => change("approved")}>
              <CheckIcon />
              {t("groups.students.makeRegular")}
              <span className="visually-hidden"> {name}</span>
            </button>
          ) : null}
          {student.status === "approved" || student.status === "special" ? (
            <button type="button" className="btn btn-ghost btn-sm btn-destructive-ghost" disabled={busy} onClick={() => setConfirming(true)}>
              {t("groups.students.remove")}
              <span className="visually-hidden"> {name}</span>
            </button>
          ) : null}
          {student.status === "removed" ? (
            <button type="button" className="btn btn-outline btn-sm" disabled={busy} onClick={() => change("approved")}>
              {t("groups.students.restore")}
              <span className="visually-hidden"> {name}</span>
            </button>
          ) : null}
          {student.status === "pending" ? (
            <Link to={inboxHref} className="btn btn-ghost btn-sm">
              <InboxIcon />
              {t("groups.students.decide")}
            </Link>
          ) : null}
          {student.status === "left" || student.status === "rejected" ? <span className="muted row-note">{t("groups.students.mustAsk")}</span> : null}
        </div>
        {failure && !confirming ? (
          <RefusalText className="field-error row-error" attempt={failure}>
            {failureText(t, failure)}
          </RefusalText>
        ) : null}
        <ConfirmDialog
          danger
          open={confirming}
          title={t("groups.students.removeTitle", { name })}
          confirmLabel={t("groups.students.removeConfirm")}
          busyLabel={t("groups.students.removing")}
          busy={busy}
          error={failure ? failureText(t, failure) : null}
          onConfirm={() => change("removed")}
          onClose={closeConfirm}
          returnFocusTo={focusFallback}
        >
          <p>{t("groups.students.removeBody", { name })}</p>
        </ConfirmDialog>
      </td>
    </tr>
  );
}

/**
 * An accommodation: the member's time on every timed quiz of the group (1× to 3× each quiz's duration). Saved when
 * chosen; said to screen readers through the screen's status line.
 */
function QuizTime({ student, onAnnounce }: { student: GroupStudent; onAnnounce: (text: string) => void }) {
  const { t } = useT();
  const fetcher = useFetcher<Result>();
  const handled = useRef<unknown>(null);
  const busy = fetcher.state !== "idle";
  const asked = busy ? Number(fetcher.formData?.get("timeMultiplier")) : null;
  const value = asked ?? student.quizTimeMultiplier;
  const result = fetcher.data;
  const name = student.user.name;
  useEffect(() => {
    if (!result || busy || handled.current === result) return;
    handled.current = result;
    onAnnounce(result.ok ? t("groups.students.quizTimeSaved", { name, times: result.student.quizTimeMultiplier }) : failureText(t, result));
  }, [result, busy, name, onAnnounce, t]);
  return (
    <>
      <DeliberateSelect
        className="quiz-time-select"
        aria-label={t("groups.students.quizTimeFor", { name })}
        value={String(value)}
        disabled={busy}
        onCommit={(timeMultiplier) => fetcher.submit({ intent: "quizTime", userId: student.user._id, timeMultiplier }, { method: "post" })}
      >
        {QUIZ_TIME_MULTIPLIERS.map((m) => (
          <option key={m} value={String(m)}>
            {t("groups.students.quizTimeOption", { times: m })}
          </option>
        ))}
      </DeliberateSelect>
      {result && !result.ok && !busy ? (
        <RefusalText className="field-error row-error" attempt={result}>
          {failureText(t, result)}
        </RefusalText>
      ) : null}
    </>
  );
}
