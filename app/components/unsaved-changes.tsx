import { useBeforeUnload, useBlocker } from "@remix-run/react";
import { useCallback, useEffect, useRef, type RefObject } from "react";
import { useT } from "~/lib/i18n";
import { ConfirmDialog } from "./confirm-dialog";

/**
 * Asks before leaving an editor whose changes are not saved. `form`: the editor's form; typing, picking or ticking
 * anything in it counts as a change. `saved`: a value that is new each time a save succeeds (the action's answer),
 * after which nothing is unsaved until the next change. Leaving for another page of the app asks in the app's own
 * dialog (Cancel, or Leave without saving); reloading or closing the tab gets the browser's own question. Sending the
 * form itself (to the same page) never asks. `dirty` instead of `form`: the editor says itself whether anything is
 * unsaved (the grader, which keeps a draft per student).
 */
export function UnsavedChanges({ form, saved, dirty }: { form?: RefObject<HTMLElement>; saved?: unknown; dirty?: () => boolean }) {
  const { t } = useT();
  const changed = useRef(false);
  const lastSaved = useRef<unknown>(saved);
  // Read at render, before any effect of the editor runs (one that moves on to the list once a save succeeded).
  if (saved !== lastSaved.current) {
    lastSaved.current = saved;
    if (saved) changed.current = false;
  }
  const isDirty = useRef(dirty);
  isDirty.current = dirty;
  const unsaved = () => (isDirty.current ? isDirty.current() : changed.current);
  useEffect(() => {
    const area = form?.current;
    if (!area) return;
    const touch = () => {
      changed.current = true;
    };
    area.addEventListener("input", touch);
    area.addEventListener("change", touch);
    return () => {
      area.removeEventListener("input", touch);
      area.removeEventListener("change", touch);
    };
  }, [form]);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => unsaved() && currentLocation.pathname !== nextLocation.pathname);
  useBeforeUnload(
    useCallback((event: BeforeUnloadEvent) => {
      if (!unsaved()) return;
      event.preventDefault();
      // Older browsers ask only when a value is set.
      event.returnValue = "";
    }, []),
  );
  return (
    <ConfirmDialog
      open={blocker.state === "blocked"}
      title={t("unsaved.title")}
      confirmLabel={t("unsaved.leave")}
      danger
      onConfirm={() => {
        changed.current = false;
        blocker.proceed?.();
      }}
      onClose={() => {
        if (blocker.state === "blocked") blocker.reset();
      }}
    >
      <p>{t("unsaved.body")}</p>
    </ConfirmDialog>
  );
}
