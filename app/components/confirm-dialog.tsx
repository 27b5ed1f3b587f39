import { useEffect, useRef, type ReactNode } from "react";
import { useT } from "~/lib/i18n";

/**
 * A modal confirmation (native <dialog>: focus moves in, Tab stays inside, Escape cancels, focus returns to
 * the button that opened it). The confirm button submits the form given by `form` (its id), so the dialog can
 * carry extra fields (a password) as part of that form.
 */
export function ConfirmDialog({
  open,
  onClose,
  title,
  children,
  confirmLabel,
  form,
  busy,
  danger,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  form: string;
  busy?: boolean;
  danger?: boolean;
}) {
  const { t } = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = `${form}-dialog-title`;
  const bodyId = `${form}-dialog-body`;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog ref={ref} className="confirm-dialog" aria-labelledby={titleId} aria-describedby={children ? bodyId : undefined} onClose={onClose} onCancel={onClose}>
      <h2 id={titleId} className="confirm-title">
        {title}
      </h2>
      <div id={bodyId} className="confirm-body">
        {children}
      </div>
      <div className="confirm-actions">
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          {t("common.cancel")}
        </button>
        <button type="submit" form={form} className={danger ? "btn btn-danger" : "btn btn-primary"} disabled={busy}>
          {busy ? <span className="spinner spinner-sm" aria-hidden="true" /> : null}
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
