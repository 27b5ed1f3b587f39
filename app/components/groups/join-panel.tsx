import { Link, useFetcher } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import { useT } from "~/lib/i18n";
import { failureText, fieldText, type FailureLike } from "~/lib/group-errors";
import type { Role } from "~/lib/permissions";
import { ArrowIcon, CheckIcon, SettingsIcon } from "../icons";
import type { MembershipStatus } from "./badges";
import { ClockIcon } from "./extra-icons";
import { RefusalText } from "~/components/form-field";

export interface JoinPanelProps {
  slug: string;
  /** The viewer's role, or null for a visitor. */
  role: Role | null;
  /** The viewer's membership status in this group (null: never asked). */
  status: MembershipStatus | null;
  /** Where staff who run this group manage it (null: they don't run it). */
  manageHref: string | null;
  /** The request message's length limit (from the shared schema). */
  messageMax: number;
}

type JoinResult = { ok: true; intent: string } | (FailureLike & { intent: string });

/**
 * The course page's join spot (`.enrol-actions`, data-slot="join"): what the viewer can do about this group,
 * from their status. Visitors log in first (and come back here); students ask to join with an optional note,
 * see their pending request, open the course once they are members, or ask again after a rejection; staff
 * get a link to manage the group. A full or closed group (the service's 409) says so instead of the button.
 */
export function JoinPanel({ slug, role, status, manageHref, messageMax }: JoinPanelProps) {
  const { t } = useT();
  const fetcher = useFetcher<JoinResult>();
  const [formOpen, setFormOpen] = useState(false);
  const [message, setMessage] = useState("");
  const [announce, setAnnounce] = useState("");
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const openerRef = useRef<HTMLButtonElement>(null);
  const formId = useId();
  const noteId = useId();
  const handled = useRef<unknown>(null);
  // After a request is sent the form (and its button, which had the focus) gives way to the pending note: the focus
  // goes there, not to the page.
  const sentRef = useRef(false);
  const pendingRef = useRef<HTMLParagraphElement>(null);

  // Taking a pending request back: the panel then offers the request again, with the focus on its button.
  const withdrawer = useFetcher<JoinResult>();
  const withdrawing = withdrawer.state !== "idle";
  const withdrawHandled = useRef<unknown>(null);
  useEffect(() => {
    const done = withdrawer.data;
    if (!done || withdrawHandled.current === done || withdrawer.state !== "idle") return;
    // Withdrawn: once the page's data says so too (its request button is then on the page) the focus goes there.
    if (done.ok && status === "pending") return;
    withdrawHandled.current = done;
    if (done.ok) {
      setAnnounce(t("groups.join.withdrawn"));
      openerRef.current?.focus();
    }
  }, [withdrawer.data, withdrawer.state, status, t]);

  const sending = fetcher.state !== "idle";
  const result = fetcher.data;
  const failure = result && !result.ok ? result : null;
  // A full or closed group, or a request that another tab already sent, replaces the button until reload.
  const blocked = failure && (failure.code === "group_full" || failure.code === "group_closed") ? failure.code : null;

  useEffect(() => {
    if (!result || handled.current === result) return;
    handled.current = result;
    if (result.ok) {
      sentRef.current = true;
      setFormOpen(false);
      setMessage("");
      setAnnounce(t("groups.join.sent"));
    } else {
      // A refusal shown in the form's own alert is said there; the others (a full or closed group, the message's own
      // field) are said here, once.
      const inAlert = !(result.code === "group_full" || result.code === "group_closed" || result.fields?.message);
      setAnnounce(inAlert ? "" : failureText(t, result));
    }
  }, [result, t]);

  // Approved (or turned away) while the page is open: the panel changes by itself, and says so.
  const before = useRef(status);
  useEffect(() => {
    if (before.current === "pending" && status && status !== "pending") {
      setAnnounce(status === "approved" ? t("groups.join.member") : status === "special" ? t("groups.join.memberSpecial") : status === "rejected" ? t("groups.join.rejectedNote") : "");
    }
    before.current = status;
  }, [status, t]);

  // Opened: the keyboard goes to the message. Cancelled: back to the button that opened it, once it is drawn again.
  const cancelledRef = useRef(false);
  useEffect(() => {
    if (formOpen) textareaRef.current?.focus();
    else if (cancelledRef.current) {
      cancelledRef.current = false;
      openerRef.current?.focus();
    }
  }, [formOpen]);

  useEffect(() => {
    if (status !== "pending" || !sentRef.current) return;
    sentRef.current = false;
    pendingRef.current?.focus();
  }, [status]);

  const close = () => {
    cancelledRef.current = true;
    setFormOpen(false);
  };

  let body: React.ReactNode;
  if (!role) {
    body = (
      <>
        <p className="enrol-note">{t("course.enrolNote")}</p>
        <Link to={`/auth/login?${new URLSearchParams({ redirectTo: `/content/${slug}` })}`} className="btn btn-primary btn-block">
          {t("course.loginToJoin")}
        </Link>
      </>
    );
  } else if (role !== "user") {
    body = manageHref ? (
      <>
        <p className="enrol-note">{t("groups.join.staffNote")}</p>
        <Link to={manageHref} className="btn btn-primary btn-block">
          <SettingsIcon />
          {t("groups.join.manage")}
        </Link>
      </>
    ) : (
      <p className="enrol-note">{t("groups.join.staffOther")}</p>
    );
  } else if (status === "approved" || status === "special") {
    body = (
      <>
        <p className="enrol-note enrol-note-strong">
          <CheckIcon />
          {status === "special" ? t("groups.join.memberSpecial") : t("groups.join.member")}
        </p>
        <Link to={`/course/${slug}`} className="btn btn-primary btn-block">
          {t("groups.join.open")}
          <ArrowIcon />
        </Link>
      </>
    );
  } else if (status === "pending") {
    const withdrawFailure = withdrawer.data && !withdrawer.data.ok ? withdrawer.data : null;
    body = (
      <>
        <button type="button" className="btn btn-primary btn-block" disabled aria-describedby={noteId}>
          <ClockIcon />
          {t("groups.join.pending")}
        </button>
        <p id={noteId} ref={pendingRef} tabIndex={-1} className="enrol-note">
          {t("groups.join.pendingNote")}
        </p>
        {/* Taken back at once (they may ask again): no dialog for something that undoes itself with one click. */}
        <withdrawer.Form method="post" action={`/content/${slug}?index`}>
          <input type="hidden" name="intent" value="withdraw" />
          <button type="submit" className="btn btn-ghost btn-sm" disabled={withdrawing} aria-busy={withdrawing}>
            {withdrawing ? t("groups.join.withdrawing") : t("groups.join.withdraw")}
          </button>
        </withdrawer.Form>
        {withdrawFailure ? (
          <RefusalText className="form-error" attempt={withdrawFailure}>
            {failureText(t, withdrawFailure)}
          </RefusalText>
        ) : null}
      </>
    );
  } else if (blocked) {
    body = (
      <>
        <button type="button" className="btn btn-primary btn-block" disabled aria-describedby={noteId}>
          {blocked === "group_full" ? t("groups.join.full") : t("groups.join.closed")}
        </button>
        <p id={noteId} className="enrol-note">
          {blocked === "group_full" ? t("groups.join.fullNote") : t("groups.join.closedNote")}
        </p>
      </>
    );
  } else {
    const again = status === "rejected";
    const messageError = fieldText(t, failure, "message");
    body = (
      <>
        <p className="enrol-note">
          {again ? t("groups.join.rejectedNote") : status === "left" || status === "removed" ? t("groups.join.againNote") : t("groups.join.note")}
        </p>
        {formOpen ? (
          <fetcher.Form
            method="post"
            action={`/content/${slug}?index`}
            className="join-form"
            id={formId}
            onKeyDown={(e) => {
              if (e.key === "Escape" && !sending) {
                e.preventDefault();
                close();
              }
            }}
          >
            <input type="hidden" name="intent" value="join" />
            <div className="field">
              <label htmlFor={`${formId}-message`}>{t("groups.join.messageLabel")}</label>
              <textarea
                ref={textareaRef}
                id={`${formId}-message`}
                name="message"
                rows={4}
                maxLength={messageMax}
                value={message}
                onChange={(e) => setMessage(e.target.value)}
                aria-describedby={messageError ? `${formId}-error ${formId}-count` : `${formId}-count`}
                aria-invalid={messageError ? true : undefined}
                placeholder={t("groups.join.messagePlaceholder")}
                dir="auto"
              />
              <div className="field-foot">
                {messageError ? (
                  <span id={`${formId}-error`} className="field-error">
                    {messageError}
                  </span>
                ) : (
                  <span />
                )}
                <span id={`${formId}-count`} className="field-hint">
                  {t("contact.count", { count: message.length, max: messageMax })}
                </span>
              </div>
            </div>
            {failure && !messageError ? (
              <RefusalText className="form-error" attempt={failure}>
                {failureText(t, failure)}
              </RefusalText>
            ) : null}
            <div className="join-form-actions">
              <button
                type="submit"
                className="btn btn-primary"
                disabled={sending}
                aria-busy={sending}
                onClick={(e) => {
                  // A double click on "Request to join" lands its second click here, where that button was: it must
                  // not send the request before the optional message could be written.
                  if (e.detail > 1) e.preventDefault();
                }}
              >
                {sending ? <span className="spinner spinner-sm" aria-hidden="true" /> : null}
                {sending ? t("common.sending") : t("groups.join.send")}
              </button>
              <button type="button" className="btn btn-ghost" onClick={close} disabled={sending}>
                {t("groups.cancel")}
              </button>
            </div>
          </fetcher.Form>
        ) : (
          <button
            ref={openerRef}
            type="button"
            className="btn btn-primary btn-block"
            aria-expanded={false}
            onClick={() => setFormOpen(true)}
          >
            {again ? t("groups.join.requestAgain") : t("groups.join.request")}
          </button>
        )}
      </>
    );
  }

  return (
    <div className="enrol-actions" data-slot="join" data-status={status ?? "none"}>
      {body}
      <p className="visually-hidden" role="status" aria-live="polite">
        {announce}
      </p>
    </div>
  );
}
