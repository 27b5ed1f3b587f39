import { useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from "react";
import { useT } from "~/lib/i18n";
import { AlertIcon } from "../icons";

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** The confirm button's label while the work runs ("Leaving..."). */
  busyLabel: string;
  busy?: boolean;
  /** A failure to show inside the dialog (it stays open so the person can try again or cancel). */
  error?: string | null;
  onConfirm: () => void;
  onClose: () => void;
  /** Where focus goes when the element that opened the dialog is gone (its row was removed). */
  returnFocusTo?: RefObject<HTMLElement>;
}

/**
 * A modal confirmation for something that cannot be undone silently (leave a group, remove a student, delete
 * an outline item). A native <dialog> opened with showModal(): the rest of the page is inert, Escape closes it,
 * focus starts on "Cancel" (the safe choice) and returns to the element that opened it.
 */
export function ConfirmDialog({ open, title, children, confirmLabel, busyLabel, busy = false, error, onConfirm, onClose, returnFocusTo }: ConfirmDialogProps) {
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
      cancelRef.current?.focus();
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
      // The opener may be gone (its row was removed with the work the dialog confirmed).
      if (back?.isConnected) back.focus();
      else returnFocusTo?.current?.focus();
      onClose();
    };
    dialog.addEventListener("close", onNativeClose);
    return () => dialog.removeEventListener("close", onNativeClose);
  }, [onClose, returnFocusTo]);

  return (
    <dialog
      ref={ref}
      className="gdialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(e) => {
        if (busy) e.preventDefault();
      }}
      onClick={(e) => {
        // A click on the backdrop (the dialog element itself, outside its panel) cancels.
        if (e.target === ref.current && !busy) ref.current.close();
      }}
    >
      <div className="gdialog-panel">
        <span className="gdialog-icon" aria-hidden="true">
          <AlertIcon />
        </span>
        <h2 id={titleId} className="gdialog-title">
          {title}
        </h2>
        <div id={bodyId} className="gdialog-body">
          {children}
        </div>
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="gdialog-actions">
          <button ref={cancelRef} type="button" className="btn btn-ghost" onClick={() => ref.current?.close()} disabled={busy}>
            {t("groups.cancel")}
          </button>
          <button type="button" className="btn btn-destructive" onClick={onConfirm} disabled={busy} aria-busy={busy}>
            {busy ? <span className="spinner spinner-sm" aria-hidden="true" /> : null}
            {busy ? busyLabel : confirmLabel}
          </button>
        </div>
      </div>
    </dialog>
  );
}

/**
 * A button for something a page's action does that cannot be undone (delete this task, this quiz): it opens a
 * ConfirmDialog in the page's language, and confirming posts `intent` to the page's action. The dialog stays open,
 * busy, until the action has answered; what follows (a redirect, an error under the form) is the page's.
 */
export function ConfirmedIntentButton({ intent, label, icon, title, body, confirmLabel, busyLabel }: { intent: string; label: string; icon?: ReactNode; title: string; body: string; confirmLabel: string; busyLabel: string }) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const [open, setOpen] = useState(false);
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const wasBusy = useRef(false);
  useEffect(() => {
    if (wasBusy.current && !busy) setOpen(false);
    wasBusy.current = busy;
  }, [busy]);
  return (
    <>
      <button type="button" className="btn btn-ghost btn-destructive-ghost" onClick={() => setOpen(true)}>
        {icon}
        {label}
      </button>
      <ConfirmDialog open={open} title={title} confirmLabel={confirmLabel} busyLabel={busyLabel} busy={busy} onConfirm={() => submit({ intent }, { method: "post" })} onClose={() => setOpen(false)}>
        <p>{body}</p>
      </ConfirmDialog>
    </>
  );
}
