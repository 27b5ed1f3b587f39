import { useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from "react";
import { focusIfLost } from "~/lib/focus";
import { useT } from "~/lib/i18n";
import { AlertIcon } from "./icons";

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  /** The confirm button's label while the work runs ("Deleting..."); the confirm label when not given. */
  busyLabel?: string;
  busy?: boolean;
  /** Something that cannot be undone (delete, remove, leave): a red confirm button and a warning sign. */
  danger?: boolean;
  /** A failure to show inside the dialog (it stays open so the person can try again or cancel). */
  error?: string | null;
  /** What confirming does. Or `form`: */
  onConfirm?: () => void;
  /** The id of a form that the confirm button submits, so the dialog can carry fields of that form (a password). */
  form?: string;
  onClose: () => void;
  /**
   * Where focus goes when the element that opened the dialog cannot take it back (its row was removed or hidden, or
   * the button is disabled now): an element, or a function asked once the page has drawn what the work changed
   * (`focusInListAfter` for a list that lost an item).
   */
  returnFocusTo?: RefObject<HTMLElement | null> | (() => HTMLElement | null | undefined);
}

/** Whether focus can land on `el` now: in the page, not inside something hidden or inert, not disabled, drawn. */
function canTakeFocus(el: HTMLElement | null | undefined): el is HTMLElement {
  return !!el && el.isConnected && !el.closest("[hidden], [inert]") && !el.matches(":disabled") && el.getClientRects().length > 0;
}

/**
 * A `returnFocusTo` for a dialog that removes one item of a list: `target` (a selector) in the item now at the removed
 * one's place (the next one moved up), else in the new last item, else `fallback` (the list's count or heading).
 */
export function focusInListAfter(list: RefObject<HTMLElement | null>, index: number, target: string, fallback?: RefObject<HTMLElement | null>): () => HTMLElement | null {
  return () => {
    const items = [...(list.current?.querySelectorAll<HTMLElement>(`:scope > li:not([hidden]) ${target}`) ?? [])];
    return items[Math.min(index, items.length - 1)] ?? fallback?.current ?? null;
  };
}

/**
 * The one confirmation of the app, a native <dialog> opened with showModal(): the rest of the page is inert, Tab stays
 * inside, Escape or a click on the backdrop cancels (not while the work runs), focus starts on the dialog's first field
 * if it has one and on "Cancel" (the safe choice) if not, and returns to the element that opened it. In the page's
 * language, unlike the browser's own `confirm()`.
 */
export function ConfirmDialog({ open, title, children, confirmLabel, busyLabel, busy = false, danger = false, error, onConfirm, form, onClose, returnFocusTo }: ConfirmDialogProps) {
  const { t } = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      (dialog.querySelector<HTMLElement>(".confirm-body :is(input, select, textarea):not([type=hidden])") ?? cancelRef.current)?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const onNativeClose = () => {
      const back = opener.current;
      opener.current = null;
      onClose();
      if (canTakeFocus(back)) return back.focus();
      // The opener is gone, hidden or disabled (its row went with the work the dialog confirmed, or a busy button): once
      // the page has drawn the change, it again if it is back, else the place the dialog was given.
      focusIfLost(() => (canTakeFocus(back) ? back : typeof returnFocusTo === "function" ? (returnFocusTo() ?? null) : (returnFocusTo?.current ?? null)));
    };
    dialog.addEventListener("close", onNativeClose);
    return () => dialog.removeEventListener("close", onNativeClose);
  }, [onClose, returnFocusTo]);

  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      aria-labelledby={titleId}
      aria-describedby={children ? bodyId : undefined}
      onCancel={(e) => {
        if (busy) e.preventDefault();
      }}
      onClick={(e) => {
        // A click on the backdrop (the dialog element itself, outside its panel) cancels.
        if (e.target === ref.current && !busy) ref.current.close();
      }}
    >
      <div className="confirm-panel">
        {danger ? (
          <span className="confirm-icon" aria-hidden="true">
            <AlertIcon />
          </span>
        ) : null}
        <h2 id={titleId} className="confirm-title">
          {title}
        </h2>
        {children ? (
          <div id={bodyId} className="confirm-body">
            {children}
          </div>
        ) : null}
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="confirm-actions">
          <button ref={cancelRef} type="button" className="btn btn-ghost" onClick={() => ref.current?.close()} disabled={busy}>
            {t("common.cancel")}
          </button>
          {/* While the work runs the button is aria-disabled, not disabled: it keeps the focus (a disabled button drops it to
              the page, and a screen reader hears nothing until the dialog closes) and says what is happening. A form's
              button stays disabled: Enter in its fields would otherwise submit the form again. */}
          <button
            type={form ? "submit" : "button"}
            form={form}
            className={danger ? "btn btn-danger" : "btn btn-primary"}
            onClick={(e) => {
              if (busy) return e.preventDefault();
              if (!form) onConfirm?.();
            }}
            disabled={busy && !!form}
            aria-disabled={(busy && !form) || undefined}
            aria-busy={busy}
          >
            {busy ? <span className="spinner spinner-sm" aria-hidden="true" /> : null}
            {busy ? (busyLabel ?? confirmLabel) : confirmLabel}
          </button>
        </div>
      </div>
    </dialog>
  );
}

/** Closes a dialog (`close`) once the work its confirm started is over: `busy` went from true back to false. */
export function useCloseWhenDone(busy: boolean, close: () => void) {
  const wasBusy = useRef(false);
  const closeRef = useRef(close);
  closeRef.current = close;
  useEffect(() => {
    if (wasBusy.current && !busy) closeRef.current();
    wasBusy.current = busy;
  }, [busy]);
}

/**
 * A button for something a page's action does that cannot be undone (delete this task, this quiz): it opens the
 * ConfirmDialog, and confirming posts `intent` to the page's action. The dialog stays open, busy, until the action has
 * answered; what follows (a redirect, an error under the form) is the page's.
 */
export function ConfirmedIntentButton({ intent, label, title, body, confirmLabel, busyLabel }: { intent: string; label: string; title: string; body: string; confirmLabel: string; busyLabel: string }) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const [open, setOpen] = useState(false);
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  useCloseWhenDone(busy, () => setOpen(false));
  return (
    <>
      <button type="button" className="btn btn-ghost btn-destructive-ghost" onClick={() => setOpen(true)}>
        {label}
      </button>
      <ConfirmDialog open={open} title={title} confirmLabel={confirmLabel} busyLabel={busyLabel} busy={busy} danger onConfirm={() => submit({ intent }, { method: "post" })} onClose={() => setOpen(false)}>
        <p>{body}</p>
      </ConfirmDialog>
    </>
  );
}
