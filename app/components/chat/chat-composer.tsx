import { forwardRef, useEffect, useId, useState, type KeyboardEvent } from "react";
import { CloseIcon } from "~/components/icons";
import { ReplyIcon, SendIcon } from "~/components/realtime-icons";
import { CHAT_TEXT_MAX } from "~/lib/chat-limits";
import { useT } from "~/lib/i18n";
import { hasVisibleText } from "~/lib/text";
import { snippet } from "./chat-format";

export interface ComposerProps {
  /** The message being answered, if any. */
  replying: { author: string; text: string } | null;
  onCancelReply: () => void;
  onSend: (text: string) => void;
  disabled: boolean;
}

/** Counter turns to a warning this close to the limit. */
const NEAR_LIMIT = 100;

/** A touch screen without a mouse: a phone's keyboard has no Shift+Enter, so there Enter starts a new line. */
const TOUCH_ONLY = "(hover: none) and (pointer: coarse)";

/**
 * Whether the device types on a touch screen's keyboard (false while rendered on the server and before hydration:
 * the box behaves as on a computer until the page knows better).
 */
function useTouchKeyboard(): boolean {
  const [touch, setTouch] = useState(false);
  useEffect(() => {
    const query = window.matchMedia(TOUCH_ONLY);
    setTouch(query.matches);
    const changed = () => setTouch(query.matches);
    query.addEventListener("change", changed);
    return () => query.removeEventListener("change", changed);
  }, []);
  return touch;
}

/**
 * The message box. On a computer Enter sends and Shift+Enter starts a new line; on a touch screen (no Shift+Enter on
 * its keyboard) Enter starts a new line and the Send button sends. An input method composing text keeps Enter;
 * Escape drops the reply. The counter is tied to the box (read when it gets focus), not announced per key.
 */
export const ChatComposer = forwardRef<HTMLTextAreaElement, ComposerProps>(function ChatComposer({ replying, onCancelReply, onSend, disabled }, ref) {
  const { t } = useT();
  const [text, setText] = useState("");
  const id = useId();
  const touch = useTouchKeyboard();
  // Empty as the server judges it: a zero-width space or a blank-looking letter is no message (app/lib/text.ts).
  const empty = !hasVisibleText(text);

  const submit = () => {
    if (empty || disabled) return;
    onSend(text.trim());
    setText("");
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing && !touch) {
      e.preventDefault();
      submit();
    } else if (e.key === "Escape" && replying) {
      e.preventDefault();
      onCancelReply();
    }
  };

  return (
    <form
      className="chat-composer"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
        // Sent with the button (a tap on a phone): the box keeps the focus, and the phone its keyboard, for the next
        // message (the button disables itself once the box is empty, which would drop the focus to the page).
        e.currentTarget.querySelector("textarea")?.focus();
      }}
    >
      {replying ? (
        <div className="chat-replying">
          <ReplyIcon />
          <p id={`${id}-replying`}>
            <span className="chat-replying-label">{t("chat.replyingTo", { name: replying.author })}</span>
            <span className="chat-replying-text" dir="auto">
              {snippet(replying.text, 90)}
            </span>
          </p>
          <button type="button" className="chat-action" onClick={onCancelReply} aria-label={t("chat.cancelReply")}>
            <CloseIcon />
          </button>
        </div>
      ) : null}
      <div className="chat-composer-row">
        <label htmlFor={`${id}-text`} className="visually-hidden">
          {t("chat.messageLabel")}
        </label>
        <textarea
          ref={ref}
          id={`${id}-text`}
          className="chat-input"
          rows={2}
          dir="auto"
          maxLength={CHAT_TEXT_MAX}
          placeholder={t("chat.placeholder")}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          aria-describedby={replying ? `${id}-replying ${id}-hint ${id}-count` : `${id}-hint ${id}-count`}
        />
        <button type="submit" className="btn btn-primary chat-send" disabled={empty || disabled}>
          <SendIcon />
          <span className="chat-send-label">{t("chat.send")}</span>
        </button>
      </div>
      <div className="chat-composer-foot">
        <span id={`${id}-hint`} className="chat-hint">
          {t(touch ? "chat.hintTouch" : "chat.hint")}
        </span>
        <span id={`${id}-count`} className="field-hint chat-count" data-near={CHAT_TEXT_MAX - text.length <= NEAR_LIMIT || undefined}>
          <span aria-hidden="true">{t("chat.count", { count: text.length, max: CHAT_TEXT_MAX })}</span>
          <span className="visually-hidden">{t("chat.countLabel", { count: text.length, max: CHAT_TEXT_MAX })}</span>
        </span>
      </div>
    </form>
  );
});
