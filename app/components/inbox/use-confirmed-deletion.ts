import { useEffect, useRef, useState } from "react";
import { focusInListAfter } from "~/components/confirm-dialog";

/**
 * An inbox's "delete after confirming" (contact messages, feedback): the item the dialog asks about and its place in
 * the list. Once the deletion is done the dialog closes and `said(item)` is announced; the dialog's `returnFocusTo`
 * puts the keyboard on the item that took its place (else the list's summary), not on the page.
 */
export function useConfirmedDeletion<T>(deleter: { state: string; data?: { ok: boolean } }, said: (item: T) => void) {
  const [confirming, setConfirming] = useState<T | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const summaryRef = useRef<HTMLParagraphElement>(null);
  const place = useRef(0);
  const now = useRef({ confirming, said });
  now.current = { confirming, said };
  useEffect(() => {
    if (deleter.state !== "idle" || !deleter.data?.ok) return;
    if (now.current.confirming) now.current.said(now.current.confirming);
    setConfirming(null);
  }, [deleter.state, deleter.data]);
  return {
    confirming,
    listRef,
    summaryRef,
    /** Opens the dialog about `item`, the `index`th of the list shown. */
    ask: (item: T, index: number) => {
      place.current = index;
      setConfirming(item);
    },
    close: () => setConfirming(null),
    returnFocusTo: focusInListAfter(listRef, place.current, ".inbox-item-name", summaryRef),
  };
}
