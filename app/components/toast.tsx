import { useCallback, useEffect, useRef, useState } from "react";
import { useT } from "~/lib/i18n";
import { AlertIcon, CheckIcon, CloseIcon } from "./icons";

export interface Toast {
  id: number;
  kind: "success" | "error";
  text: string;
}

const TOAST_MS = 6_000;

/**
 * A tiny toast state: `show(kind, text)` replaces whatever is showing (an old failure must not linger
 * next to a new success) and the toast leaves by itself after a few seconds.
 */
export function useToasts() {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((x) => x.id !== id)), []);
  const show = useCallback((kind: Toast["kind"], text: string) => {
    const id = nextId.current++;
    setToasts([{ id, kind, text }]);
  }, []);
  return { toasts, show, dismiss };
}

/**
 * The toast area at the top centre. The live region is always in the page (so screen readers are
 * listening before the first toast arrives); each toast is dismissible and leaves by itself.
 */
export function ToastRegion({ toasts, onDismiss }: { toasts: Toast[]; onDismiss: (id: number) => void }) {
  return (
    <div className="toast-region" role="status" aria-live="polite" aria-atomic="false">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} onDismiss={onDismiss} />
      ))}
    </div>
  );
}

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: (id: number) => void }) {
  const { t } = useT();
  useEffect(() => {
    const timer = window.setTimeout(() => onDismiss(toast.id), TOAST_MS);
    return () => window.clearTimeout(timer);
  }, [toast.id, onDismiss]);
  return (
    <div className={`toast toast-${toast.kind}`} data-kind={toast.kind}>
      <span className="toast-icon" aria-hidden="true">{toast.kind === "success" ? <CheckIcon /> : <AlertIcon />}</span>
      <p className="toast-text">{toast.text}</p>
      <button type="button" className="toast-close" onClick={() => onDismiss(toast.id)} aria-label={t("common.close")}>
        <CloseIcon />
      </button>
    </div>
  );
}
