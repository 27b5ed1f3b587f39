import { useId, useState } from "react";
import { initials } from "~/components/groups/format";
import { linkify } from "~/lib/linkify";
import { AlertIcon } from "~/components/icons";
import { ClockIcon, ReplyIcon, TrashIcon } from "~/components/realtime-icons";
import type { MessageKey } from "~/i18n/en";
import { useT } from "~/lib/i18n";
import { formatFull, formatTime, snippet, type ZoneOption } from "./chat-format";
import type { ChatMessage, PendingMessage } from "./chat-state";

export interface Author {
  name: string;
  role: "admin" | "instructor" | "user" | null;
}

/**
 * A message this long (in characters or lines) opens folded to its first lines with "Show more": one message at the
 * 2,000-character limit would otherwise fill two or three screens of a phone. Judged on the text, so the server's
 * render and the browser's agree.
 */
const FOLD_CHARS = 600;
const FOLD_LINES = 10;
const folds = (text: string) => text.length > FOLD_CHARS || text.split("\n").length > FOLD_LINES;

const ROLE_BADGE: Record<"admin" | "instructor", MessageKey> = { admin: "chat.role.admin", instructor: "chat.role.instructor" };

const FAILURE: Record<string, MessageKey> = {
  rate_limited: "chat.failed.rateLimited",
  invalid_input: "chat.failed.invalid",
  unauthorized: "chat.failed.session",
  forbidden: "chat.failed.forbidden",
  not_found: "chat.failed.forbidden",
  course_ended: "chat.failed.ended",
};

export interface ChatItemProps {
  /** A stored message, or one of ours on its way. */
  message: ChatMessage | null;
  pending?: PendingMessage;
  author: Author;
  own: boolean;
  /** Same author as the line above, a few minutes apart: no avatar or name. */
  continued: boolean;
  quoted: { author: string; text: string | null } | null | undefined;
  zone: ZoneOption;
  canDelete: boolean;
  onReply?: () => void;
  onDelete?: () => void;
  onQuoteClick?: () => void;
  onRetry?: () => void;
  onDiscard?: () => void;
}

/** One line of the chat: author and role badge, time, the quoted message, the text in its own direction. */
export function ChatMessageItem({ message, pending, author, own, continued, quoted, zone, canDelete, onReply, onDelete, onQuoteClick, onRetry, onDiscard }: ChatItemProps) {
  const { t, lang } = useT();
  const createdAt = message?.createdAt ?? pending!.createdAt;
  const deleted = !!message?.deletedAt;
  const text = message ? message.text : pending!.text;
  // Acknowledged (the ack carries the id) is sent, even before the stored copy arrives.
  const state = pending && pending.id === undefined ? pending.state : "sent";
  const badge = author.role === "admin" || author.role === "instructor" ? ROLE_BADGE[author.role] : null;

  return (
    <li
      id={message ? `chat-msg-${message.id}` : `chat-pending-${pending!.clientId}`}
      className="chat-msg"
      data-own={own || undefined}
      data-continued={continued || undefined}
      data-state={state}
      data-deleted={deleted || undefined}
      data-message-id={message?.id}
    >
      <span className="chat-avatar" aria-hidden="true" data-role={author.role ?? undefined}>
        {initials(author.name)}
      </span>
      <div className="chat-bubble">
        <p className={continued ? "chat-meta visually-hidden" : "chat-meta"}>
          {/* One's own name is not shown (the bubble's side says it) but still read by screen readers. */}
          <span className={own ? "chat-author visually-hidden" : "chat-author"}>{author.name}</span>
          {badge ? (
            <span className="badge chat-role" data-role={author.role}>
              {t(badge)}
            </span>
          ) : null}
          <time dateTime={createdAt} title={formatFull(createdAt, lang, zone)} className="chat-time">
            {formatTime(createdAt, lang, zone)}
          </time>
        </p>
        {quoted !== undefined && !deleted ? <Quote quoted={quoted} onClick={onQuoteClick} /> : null}
        {deleted ? (
          <p className="chat-text chat-text-deleted">{t("chat.deleted")}</p>
        ) : (
          <MessageText text={text} />
        )}
        {pending && state !== "sent" ? (
          <p className="chat-pending" role={pending.state === "failed" ? "alert" : undefined}>
            {pending.state === "sending" ? (
              <>
                <ClockIcon />
                {t("chat.sending")}
              </>
            ) : (
              <>
                <AlertIcon />
                {t(FAILURE[pending.error ?? ""] ?? "chat.failed.generic")}
                <button type="button" className="chat-link-button" onClick={onRetry}>
                  {t("chat.retry")}
                </button>
                <button type="button" className="chat-link-button" onClick={onDiscard}>
                  {t("chat.discard")}
                </button>
              </>
            )}
          </p>
        ) : null}
      </div>
      {message && !deleted && (onReply || canDelete) ? (
        <div className="chat-actions">
          {onReply ? (
            <button type="button" className="chat-action" onClick={onReply} aria-label={t("chat.replyTo", { name: author.name })} title={t("chat.reply")}>
              <ReplyIcon />
            </button>
          ) : null}
          {canDelete ? (
            <button type="button" className="chat-action chat-action-danger" onClick={onDelete} aria-label={t("chat.deleteFrom", { name: author.name })} title={t("chat.delete")}>
              <TrashIcon />
            </button>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

/** The text in its own direction; a long one folded until opened (and foldable again). */
function MessageText({ text }: { text: string }) {
  const { t } = useT();
  const id = useId();
  const [open, setOpen] = useState(false);
  const long = folds(text);
  return (
    <>
      <p id={`${id}-text`} className="chat-text" dir="auto" data-folded={(long && !open) || undefined}>
        <LinkedText text={text} />
      </p>
      {long ? (
        <button type="button" className="chat-link-button chat-fold" aria-expanded={open} aria-controls={`${id}-text`} onClick={() => setOpen((o) => !o)}>
          {t(open ? "chat.showLess" : "chat.showMore")}
        </button>
      ) : null}
    </>
  );
}

function Quote({ quoted, onClick }: { quoted: { author: string; text: string | null } | null; onClick?: () => void }) {
  const { t } = useT();
  if (!quoted) return <p className="chat-quote chat-quote-missing">{t("chat.quoteEarlier")}</p>;
  const body = (
    <>
      <span className="visually-hidden">{t("chat.inReplyTo")} </span>
      <span className="chat-quote-author">{quoted.author}</span>
      <span className="chat-quote-text" dir="auto">
        {quoted.text === null ? t("chat.deleted") : snippet(quoted.text)}
      </span>
    </>
  );
  return onClick ? (
    <button type="button" className="chat-quote" onClick={onClick} title={t("chat.quoteGoTo")}>
      {body}
    </button>
  ) : (
    <p className="chat-quote">{body}</p>
  );
}

/** The message text with its http(s) links clickable; they open in a new tab and pass no referrer or rank. */
function LinkedText({ text }: { text: string }) {
  return (
    <>
      {linkify(text).map((part, i) =>
        part.kind === "link" ? (
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer nofollow" className="chat-link" dir="ltr">
            {part.text}
          </a>
        ) : (
          part.text
        ),
      )}
    </>
  );
}
