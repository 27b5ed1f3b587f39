import { Link } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { useIsoLayoutEffect } from "~/hooks/use-iso-layout-effect";
import { ChatIcon } from "~/components/icons";
import { ArrowDownIcon, ExpandIcon } from "~/components/realtime-icons";
import { useHydrated } from "~/hooks/use-hydrated";
import { useViewer } from "~/hooks/use-viewer";
import type { MessageKey } from "~/i18n/en";
import { useT } from "~/lib/i18n";
import type { RoomStatus } from "~/lib/use-room";
import { dayKey, dayLabel, snippet } from "./chat-format";
import { ChatComposer } from "./chat-composer";
import { ChatMessageItem, type Author } from "./chat-message-item";
import type { ChatMessage, PendingMessage } from "./chat-state";
import { useGroupChat, type ChatPage } from "./use-group-chat";

export interface GroupChatPanelProps {
  /** The group's id: also the name of its realtime room (`/parties/group-room/{groupId}`). */
  groupId: string;
  /** The group's slug, for links (e.g. /instructor/group/{slug}/messages). */
  groupSlug: string;
  /** The newest page from the route's loader (`listMessages`); without it the panel reads it over HTTP. */
  initial?: ChatPage;
  /** Whether the viewer may delete anyone's message (the group's staff); defaults to "is an admin". */
  canModerate?: boolean;
  /** Fill the screen's height (the instructor's messages page) instead of a fixed-height box. */
  fill?: boolean;
  /** The group's course has ended (archived): its history is read, and nothing is written (the server refuses it). */
  ended?: boolean;
}

/** How close to the bottom (px) still counts as "at the bottom" for auto-scrolling. */
const BOTTOM_SLACK = 48;
/** Lines by the same author closer than this share one header. */
const CONTINUE_MS = 5 * 60_000;

const STATUS_TEXT: Record<RoomStatus | "syncing", MessageKey> = {
  connecting: "chat.status.connecting",
  syncing: "chat.status.connecting",
  open: "chat.status.live",
  reconnecting: "chat.status.reconnecting",
  closed: "chat.status.closed",
};

/** Every label the status badge can show, each once (connecting and syncing say the same). */
const STATUS_LABELS = [...new Set(Object.values(STATUS_TEXT))];

type Row = { kind: "day"; key: string; label: string } | { kind: "message"; message: ChatMessage } | { kind: "pending"; pending: PendingMessage };

/**
 * The group chat (PRODUCT.md §3 "Messages"), mounted on the member's course home (/course/{slug}), the staff
 * group overview (/dashboard/admin/group/{slug}) and the instructor's /instructor/group/{slug}/messages.
 * Delivery follows ADR 0007 (see use-group-chat.ts). The list scrolls itself only when the reader is at the
 * bottom; otherwise a "new messages" button appears. New messages from others are announced politely.
 */
export function GroupChatPanel({ groupId, groupSlug, initial, canModerate, fill = false, ended = false }: GroupChatPanelProps) {
  const { viewer } = useViewer();
  if (!viewer) return null;
  return <ChatPanel groupId={groupId} groupSlug={groupSlug} initial={initial} canModerate={canModerate ?? viewer.role === "admin"} fill={fill} ended={ended} viewer={viewer} />;
}

function ChatPanel({
  groupId,
  groupSlug,
  initial,
  canModerate,
  fill,
  ended,
  viewer,
}: Required<Omit<GroupChatPanelProps, "initial">> & { initial?: ChatPage; viewer: { userId: string; role: string; name: string } }) {
  const { t, lang } = useT();
  const hydrated = useHydrated();
  const zone = useMemo(() => (hydrated ? {} : { timeZone: "UTC" }), [hydrated]);
  const [now, setNow] = useState<number | null>(null);
  const [announce, setAnnounce] = useState("");
  const [unseen, setUnseen] = useState(0);
  const [replyTo, setReplyTo] = useState<number | null>(null);
  const [confirming, setConfirming] = useState<number | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const atBottom = useRef(true);
  const stick = useRef(true);
  const anchor = useRef<number | null>(null);

  useEffect(() => setNow(Date.now()), []);

  const onIncoming = useCallback(
    (m: ChatMessage) => {
      setAnnounce(t("chat.announce", { name: m.author?.name ?? t("chat.formerMember"), text: snippet(m.text, 140) }));
      if (!atBottom.current) setUnseen((n) => n + 1);
    },
    [t],
  );

  const chat = useGroupChat(groupId, viewer.userId, initial, { onIncoming });
  const byId = useMemo(() => new Map(chat.messages.map((m) => [m.id, m])), [chat.messages]);

  const authorOf = (m: ChatMessage | null): Author =>
    m?.author ? { name: m.author.name, role: m.author.role } : m ? { name: t("chat.formerMember"), role: null } : { name: viewer.name, role: viewer.role as Author["role"] };

  const rows = useMemo(() => {
    const out: Row[] = [];
    let lastDay = "";
    const addDay = (iso: string) => {
      const key = dayKey(iso, zone);
      if (key === lastDay) return;
      lastDay = key;
      out.push({ kind: "day", key, label: dayLabel(iso, lang, zone, now, { today: t("chat.today"), yesterday: t("chat.yesterday") }) });
    };
    for (const m of chat.messages) {
      addDay(m.createdAt);
      out.push({ kind: "message", message: m });
    }
    for (const p of chat.pending) {
      addDay(p.createdAt);
      out.push({ kind: "pending", pending: p });
    }
    return out;
  }, [chat.messages, chat.pending, zone, lang, now, t]);

  // Keep the reader where they were: at the bottom when they were there (or just sent), in place when older
  // messages were added above.
  const lastKey = `${chat.messages.at(-1)?.id ?? 0}:${chat.pending.length}:${chat.phase}`;
  useIsoLayoutEffect(() => {
    const box = scrollRef.current;
    if (!box) return;
    if (anchor.current !== null) {
      box.scrollTop = box.scrollHeight - anchor.current;
      anchor.current = null;
      return;
    }
    if (atBottom.current || stick.current) {
      box.scrollTop = box.scrollHeight;
      stick.current = false;
    }
  }, [lastKey, chat.messages.length]);

  // The list gets shorter when the composer grows (a reply's bar, a longer message) or the window does: a reader at
  // the bottom stays there, so the newest message is not left half hidden under the composer.
  useEffect(() => {
    const box = scrollRef.current;
    if (!box || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      if (atBottom.current) box.scrollTop = box.scrollHeight;
    });
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  // The message being answered stays in view above the reply's bar.
  useIsoLayoutEffect(() => {
    if (replyTo === null) return;
    scrollRef.current?.querySelector<HTMLElement>(`[data-message-id="${replyTo}"]`)?.scrollIntoView({ block: "nearest" });
  }, [replyTo]);

  const onScroll = () => {
    const box = scrollRef.current;
    if (!box) return;
    atBottom.current = box.scrollHeight - box.scrollTop - box.clientHeight <= BOTTOM_SLACK;
    if (atBottom.current && unseen > 0) setUnseen(0);
  };

  const toBottom = () => {
    const box = scrollRef.current;
    if (box) box.scrollTo({ top: box.scrollHeight, behavior: "smooth" });
    setUnseen(0);
  };

  const loadOlder = () => {
    const box = scrollRef.current;
    if (box) anchor.current = box.scrollHeight - box.scrollTop;
    void chat.loadOlder().then(() => {
      // Nothing was added (a failure): forget the anchor so the next change scrolls normally.
      window.requestAnimationFrame(() => {
        anchor.current = null;
      });
    });
  };

  const send = (text: string) => {
    stick.current = true;
    chat.send(text, replyTo);
    setReplyTo(null);
  };

  const goTo = (id: number) => {
    const el = document.getElementById(`chat-msg-${id}`);
    if (!el) return;
    el.scrollIntoView({ block: "center", behavior: "smooth" });
    el.classList.add("chat-msg-flash");
    window.setTimeout(() => el.classList.remove("chat-msg-flash"), 1600);
  };

  const confirmDelete = async () => {
    if (confirming === null) return;
    setDeleting(true);
    setDeleteError(null);
    const failure = await chat.remove(confirming);
    setDeleting(false);
    if (failure) setDeleteError(t(failure === "forbidden" ? "chat.deleteForbidden" : "chat.deleteFailed"));
    else {
      setConfirming(null);
      // Said, as a new message is: the message in the list now reads as deleted.
      setAnnounce(t("chat.deletedDone"));
    }
  };

  const replying = replyTo !== null ? byId.get(replyTo) : undefined;
  const status: RoomStatus | "syncing" = chat.status === "open" && !chat.synced ? "syncing" : chat.status;
  const titleId = `chat-title-${groupId}`;
  const showFullLink = !fill && canModerate && viewer.role === "instructor";

  let previous: { authorId: string | null; at: number } | null = null;
  return (
    <div className="chat-panel" data-fill={fill || undefined} role="region" aria-labelledby={titleId}>
      <div className="chat-head">
        <h2 id={titleId} className="chat-title">
          <ChatIcon />
          {t("chat.title")}
        </h2>
        <div className="chat-head-side">
          {showFullLink ? (
            <Link to={`/instructor/group/${groupSlug}/messages`} className="btn btn-ghost btn-sm">
              <ExpandIcon />
              {t("chat.openFull")}
            </Link>
          ) : null}
          <p className="chat-status" data-status={status}>
            <span className="chat-status-dot" aria-hidden="true" />
            {/* Every label in one cell, only the current one seen: the badge is as wide as its widest label, so the
                head does not wrap differently and move the history when "Connecting…" becomes "Live" (Arabic, 375 px). */}
            <span className="chat-status-labels">
              {STATUS_LABELS.map((key) => {
                const shown = key === STATUS_TEXT[status];
                return (
                  <span key={key} data-shown={shown || undefined} aria-hidden={shown ? undefined : true}>
                    {t(key)}
                  </span>
                );
              })}
            </span>
          </p>
        </div>
      </div>

      <div className="chat-body">
        <div ref={scrollRef} className="chat-scroll" onScroll={onScroll} role="region" tabIndex={0} data-scroll-stop="" aria-label={t("chat.historyLabel")}>
          {chat.phase === "ready" && chat.hasOlder ? (
            <div className="chat-older">
              <button type="button" className="btn btn-outline btn-sm" onClick={loadOlder} disabled={chat.loadingOlder} aria-busy={chat.loadingOlder}>
                {chat.loadingOlder ? <span className="spinner spinner-sm" aria-hidden="true" /> : null}
                {chat.loadingOlder ? t("common.loading") : t("chat.loadOlder")}
              </button>
              {chat.olderFailed ? (
                <p className="field-error" role="alert">
                  {t("chat.olderFailed")}
                </p>
              ) : null}
            </div>
          ) : chat.phase === "ready" && chat.messages.length > 0 ? (
            <p className="chat-start">{t("chat.start")}</p>
          ) : null}

          {chat.phase === "loading" ? (
            <div className="chat-state">
              <span className="spinner" aria-hidden="true" />
              <p>{t("common.loading")}</p>
            </div>
          ) : chat.phase === "error" ? (
            <div className="chat-state" role="alert">
              <p>{t("chat.loadFailed")}</p>
              <button type="button" className="btn btn-outline btn-sm" onClick={chat.reload}>
                {t("chat.tryAgain")}
              </button>
            </div>
          ) : rows.length === 0 ? (
            <div className="chat-state chat-empty">
              <span className="empty-icon" aria-hidden="true">
                <ChatIcon />
              </span>
              <p className="empty-title">{t("chat.empty.title")}</p>
              <p>{t("chat.empty.body")}</p>
            </div>
          ) : (
            <ol className="chat-list" role="list">
              {rows.map((row) => {
                if (row.kind === "day") {
                  previous = null;
                  return (
                    <li key={`day-${row.key}`} className="chat-day">
                      <span>{row.label}</span>
                    </li>
                  );
                }
                const message = row.kind === "message" ? row.message : null;
                const pending = row.kind === "pending" ? row.pending : undefined;
                const author = authorOf(message);
                const authorId = message ? (message.author?._id ?? null) : viewer.userId;
                const at = Date.parse(message?.createdAt ?? pending!.createdAt);
                const continued = !!previous && previous.authorId === authorId && authorId !== null && at - previous.at < CONTINUE_MS;
                previous = { authorId, at };
                const own = authorId === viewer.userId;
                const replyId = message ? message.replyTo : pending!.replyTo;
                const target = replyId !== null ? byId.get(replyId) : undefined;
                const quoted = replyId === null ? undefined : target ? { author: authorOf(target).name, text: target.deletedAt ? null : target.text } : null;
                return (
                  <ChatMessageItem
                    key={message ? `m-${message.id}` : `p-${pending!.clientId}`}
                    message={message}
                    pending={pending}
                    author={author}
                    own={own}
                    continued={continued}
                    quoted={quoted}
                    zone={zone}
                    canDelete={!!message && (own || canModerate)}
                    onReply={
                      message && chat.status !== "closed"
                        ? () => {
                            setReplyTo(message.id);
                            inputRef.current?.focus();
                          }
                        : undefined
                    }
                    onDelete={
                      message
                        ? () => {
                            setDeleteError(null);
                            setConfirming(message.id);
                          }
                        : undefined
                    }
                    onQuoteClick={target ? () => goTo(target.id) : undefined}
                    onRetry={pending ? () => chat.retry(pending.clientId) : undefined}
                    onDiscard={pending ? () => chat.discard(pending.clientId) : undefined}
                  />
                );
              })}
            </ol>
          )}
        </div>
        {unseen > 0 ? (
          <button type="button" className="chat-new-pill" onClick={toBottom}>
            <ArrowDownIcon />
            {t("chat.newMessages", { count: unseen })}
          </button>
        ) : null}
      </div>

      {chat.status === "closed" ? (
        <p className="chat-closed" role="alert">
          {t(chat.ended === "session" ? "chat.closedNote.session" : chat.ended === "replaced" ? "chat.closedNote.replaced" : "chat.closedNote")}
        </p>
      ) : null}
      {ended ? (
        <p className="chat-ended" role="note">
          {t("chat.ended")}
        </p>
      ) : (
        <ChatComposer
          ref={inputRef}
          replying={replying && !replying.deletedAt ? { author: authorOf(replying).name, text: replying.text } : null}
          onCancelReply={() => setReplyTo(null)}
          onSend={send}
          disabled={chat.status === "closed" || chat.phase !== "ready"}
        />
      )}
      <p className="visually-hidden" role="status" aria-live="polite">
        {announce}
      </p>

      <ConfirmDialog
        danger
        open={confirming !== null}
        title={t("chat.deleteTitle")}
        confirmLabel={t("chat.delete")}
        busyLabel={t("chat.deleting")}
        busy={deleting}
        error={deleteError}
        onConfirm={() => void confirmDelete()}
        onClose={() => setConfirming(null)}
        returnFocusTo={inputRef}
      >
        <p>{t("chat.deleteBody")}</p>
      </ConfirmDialog>
    </div>
  );
}
