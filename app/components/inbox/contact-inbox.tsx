import { Link, useFetcher } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { ConfirmDialog, focusInListAfter } from "~/components/confirm-dialog";
import { focusIfLost, useLeavesWithFocus } from "~/lib/focus";
import { useConfirmedDeletion } from "./use-confirmed-deletion";
import { initials } from "~/components/groups/format";
import { TimeAgo } from "~/components/groups/time-ago";
import { InboxIcon, MailIcon } from "~/components/icons";
import { EnvelopeOpenIcon, TrashIcon } from "~/components/realtime-icons";
import type { MessageKey } from "~/i18n/en";
import { useT } from "~/lib/i18n";
import type { ContactMessageFrameBody, ServerFrame } from "~/lib/realtime-protocol";
import { LiveIndicator } from "./live-indicator";
import { useFreshIds } from "./use-fresh-ids";
import { useStaffInbox } from "./use-staff-inbox";
import { EmptyState } from "~/components/empty-state";
import { isolate } from "~/lib/bidi";
import { RefusalText } from "~/components/form-field";

type Message = ContactMessageFrameBody;
type Status = "all" | "unread" | "read";

export interface ContactInboxProps {
  messages: Message[];
  total: number;
  unread: number;
  page: number;
  pageSize: number;
  status: Status;
}

const FILTERS: { value: Status; key: MessageKey }[] = [
  { value: "all", key: "contactInbox.filter.all" },
  { value: "unread", key: "contactInbox.filter.unread" },
  { value: "read", key: "contactInbox.filter.read" },
];

const matches = (m: Message, status: Status) => status === "all" || (status === "unread" ? !m.readAt : !!m.readAt);
const byNewest = (a: Message, b: Message) => b.createdAt.localeCompare(a.createdAt) || b._id.localeCompare(a._id);
const hrefFor = (status: Status, page: number) => `?${new URLSearchParams({ ...(status !== "all" ? { status } : {}), ...(page > 1 ? { page: String(page) } : {}) })}`;

/** The list as this page shows it: one page of one filter, with the counts beside it. */
interface View {
  items: Message[];
  total: number;
  unread: number;
}

/** Applies one live frame to the view of page `page` of filter `status` (new messages land on page 1 only). */
function applyFrame(view: View, frame: ServerFrame, page: number, status: Status): View {
  switch (frame.type) {
    case "contact.created": {
      const m = frame.message;
      const fits = page === 1 && matches(m, status) && !view.items.some((x) => x._id === m._id);
      return { items: fits ? [m, ...view.items] : view.items, total: view.total + (matches(m, status) ? 1 : 0), unread: frame.unread };
    }
    case "contact.updated": {
      const m = frame.message;
      const held = view.items.some((x) => x._id === m._id);
      if (held && !matches(m, status)) return { items: view.items.filter((x) => x._id !== m._id), total: view.total - 1, unread: frame.unread };
      return { ...view, items: held ? view.items.map((x) => (x._id === m._id ? m : x)) : view.items, unread: frame.unread };
    }
    case "contact.deleted": {
      const held = view.items.some((x) => x._id === frame._id);
      return { items: view.items.filter((x) => x._id !== frame._id), total: view.total - (held ? 1 : 0), unread: frame.unread };
    }
    default:
      return view;
  }
}

/**
 * The admins' contact inbox (PRODUCT.md §3 "Admin messages"). The page's loader gives one page; the staff-inbox
 * room (admins' connections only) then adds new messages at the top (highlighted and announced) and applies
 * reads and deletions made by any admin. Each (re)connection reads a fresh page, so nothing sent while the
 * socket was down is missed.
 */
export function ContactInbox({ messages, total, unread, page, pageSize, status }: ContactInboxProps) {
  const { t } = useT();
  const [view, setView] = useState<View>({ items: messages, total, unread });
  const [announce, setAnnounce] = useState("");
  const { fresh, markFresh } = useFreshIds();
  const deleter = useFetcher<{ ok: boolean; id: string }>();

  // A new page from the loader (navigation, or the revalidation after a change) is the truth again.
  useEffect(() => setView({ items: messages, total, unread }), [messages, total, unread]);

  const live = useStaffInbox<Pick<ContactInboxProps, "messages" | "total" | "unread">>({
    snapshotPath: `/api/contact-messages?${new URLSearchParams({ status, page: String(page), pageSize: String(pageSize) })}`,
    onFrame: (frame) => {
      setView((v) => applyFrame(v, frame, page, status));
      if (frame.type === "contact.created" && page === 1 && matches(frame.message, status)) {
        markFresh(frame.message._id);
        setAnnounce(t("contactInbox.arrived", { name: frame.message.name }));
      }
    },
    onSnapshot: (snap, since) => setView(since.reduce((v, f) => applyFrame(v, f, page, status), { items: snap.messages, total: snap.total, unread: snap.unread })),
  });

  // A deletion on its way hides its row at once.
  const deletingId = deleter.state !== "idle" ? String(deleter.formData?.get("id") ?? "") : null;
  const shown = useMemo(() => view.items.filter((m) => m._id !== deletingId).sort(byNewest), [view.items, deletingId]);
  const pageCount = Math.max(1, Math.ceil(view.total / pageSize));
  const unreadCount = view.unread;

  // A deletion done: said, and the keyboard goes on from the one that took its place.
  const { confirming, ask, close, listRef, summaryRef, returnFocusTo } = useConfirmedDeletion<Message>(deleter, (item) => setAnnounce(t("contactInbox.deleted", { name: item.name })));

  const confirmDelete = () => {
    if (!confirming) return;
    deleter.submit({ intent: "delete", id: confirming._id }, { method: "post" });
  };

  return (
    <div className="inbox-screen">
      <div className="inbox-bar">
        <nav className="segmented" aria-label={t("contactInbox.filter")}>
          {FILTERS.map((f) => (
            <Link key={f.value} to={hrefFor(f.value, 1)} className="segmented-link" aria-current={f.value === status ? "page" : undefined} preventScrollReset>
              {t(f.key)}
              {f.value === "unread" && unreadCount > 0 ? <span className="count-pill">{unreadCount}</span> : null}
            </Link>
          ))}
        </nav>
        <LiveIndicator status={live} />
      </div>
      <p ref={summaryRef} tabIndex={-1} className="list-summary">
        <span data-testid="contact-unread">{t("contactInbox.unreadCount", { count: unreadCount })}</span>
        <span aria-hidden="true"> · </span>
        <span>{t("contactInbox.total", { count: view.total })}</span>
      </p>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announce}
      </p>

      {shown.length === 0 ? (
        <EmptyState icon={<InboxIcon />} title={t(`contactInbox.empty.${status}.title`)} body={t(`contactInbox.empty.${status}.body`)} />
      ) : (
        <ol ref={listRef} className="inbox-list" role="list">
          {shown.map((m, i) => (
            <ContactRow
              key={m._id}
              message={m}
              fresh={fresh.has(m._id)}
              onDelete={() => ask(m, i)}
              // Marked read in the unread list (or unread in the read one), the row goes with its focused button: the
              // keyboard goes on from the message now in its place, or the summary when none is left.
              onLeft={() => focusIfLost(focusInListAfter(listRef, i, ".inbox-item-name", summaryRef))}
            />
          ))}
        </ol>
      )}

      {pageCount > 1 ? (
        <nav className="inbox-pager" aria-label={t("contactInbox.pager")}>
          {page > 1 ? (
            <Link to={hrefFor(status, page - 1)} className="btn btn-outline btn-sm" rel="prev">
              {t("common.previous")}
            </Link>
          ) : null}
          <span className="inbox-pager-count">{t("contactInbox.page", { page, count: pageCount })}</span>
          {page < pageCount ? (
            <Link to={hrefFor(status, page + 1)} className="btn btn-outline btn-sm" rel="next">
              {t("common.next")}
            </Link>
          ) : null}
        </nav>
      ) : null}

      <ConfirmDialog
        danger
        open={confirming !== null}
        title={t("contactInbox.deleteTitle")}
        confirmLabel={t("contactInbox.delete")}
        busyLabel={t("contactInbox.deleting")}
        busy={deleter.state !== "idle"}
        error={deleter.state === "idle" && deleter.data && !deleter.data.ok ? t("contactInbox.failed") : null}
        onConfirm={confirmDelete}
        onClose={close}
        returnFocusTo={returnFocusTo}
      >
        <p>{t("contactInbox.deleteBody", { name: isolate(confirming?.name ?? "") })}</p>
      </ConfirmDialog>
    </div>
  );
}

/** Long messages are clamped until expanded. */
const LONG = 280;

function ContactRow({ message: m, fresh, onDelete, onLeft }: { message: Message; fresh: boolean; onDelete: () => void; onLeft: () => void }) {
  const { t } = useT();
  const rowRef = useRef<HTMLLIElement>(null);
  useLeavesWithFocus(rowRef, onLeft);
  const reader = useFetcher<{ ok: boolean }>();
  const [expanded, setExpanded] = useState(false);
  // The click shows at once; the server's answer (and the live frame) confirm it.
  const read = reader.state !== "idle" ? reader.formData?.get("read") === "true" : !!m.readAt;
  const long = m.message.length > LONG || m.message.split("\n").length > 4;
  const bodyId = `contact-body-${m._id}`;
  const mailto = `mailto:${m.email}?subject=${encodeURIComponent(t("contactInbox.replySubject"))}`;

  return (
    <li ref={rowRef} className="card inbox-item" data-unread={!read || undefined} data-fresh={fresh || undefined} data-pending={reader.state !== "idle" || undefined} data-id={m._id}>
      <div className="inbox-item-head">
        <span className="avatar avatar-sm" aria-hidden="true">
          {initials(m.name)}
        </span>
        <div className="inbox-item-who">
          <p className="inbox-item-name" tabIndex={-1}>
            <span className="user-text">{m.name}</span>
            {fresh ? <span className="badge badge-amber">{t("contactInbox.new")}</span> : null}
            {!read ? <span className="badge inbox-unread-badge">{t("contactInbox.unread")}</span> : null}
          </p>
          <a href={`mailto:${m.email}`} className="inbox-item-email" dir="ltr">
            {m.email}
          </a>
        </div>
        <span className="inbox-item-time">
          <TimeAgo iso={m.createdAt} />
        </span>
      </div>
      <p id={bodyId} className="inbox-item-body" dir="auto" data-clamped={long && !expanded ? true : undefined}>
        {m.message}
      </p>
      <div className="inbox-item-actions">
        {long ? (
          <button type="button" className="btn btn-ghost btn-sm" aria-expanded={expanded} aria-controls={bodyId} onClick={() => setExpanded((v) => !v)}>
            {expanded ? t("contactInbox.collapse") : t("contactInbox.expand")}
          </button>
        ) : null}
        <reader.Form method="post" className="inline-form">
          <input type="hidden" name="intent" value="read" />
          <input type="hidden" name="id" value={m._id} />
          <input type="hidden" name="read" value={read ? "false" : "true"} />
          <button type="submit" className="btn btn-ghost btn-sm">
            {read ? <MailIcon /> : <EnvelopeOpenIcon />}
            {read ? t("contactInbox.markUnread") : t("contactInbox.markRead")}
          </button>
        </reader.Form>
        <a href={mailto} className="btn btn-outline btn-sm">
          <MailIcon />
          {t("contactInbox.reply")}
        </a>
        <button type="button" className="btn btn-ghost btn-sm btn-danger-text" onClick={onDelete} aria-label={t("contactInbox.deleteLabel", { name: m.name })}>
          <TrashIcon />
          {t("contactInbox.delete")}
        </button>
      </div>
      {reader.state === "idle" && reader.data && !reader.data.ok ? (
        <RefusalText className="field-error" attempt={reader.data}>
          {t("contactInbox.failed")}
        </RefusalText>
      ) : null}
    </li>
  );
}
