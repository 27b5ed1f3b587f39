import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState, type RefObject } from "react";
import { focusIfLost, focusRefused } from "./focus";

/**
 * For a list with one inline editor open at a time (`editing`: "new", an item's id, or null when closed). The button
 * that opens it hides or is disabled while it is open, so focus would fall to the page's start when it closes: instead
 * it goes back to that button (marked `data-opens-editor` with the same value), or to `fallback` inside `scope` (the
 * list's title) when the item is gone.
 */
export function useFocusBackFromEditor(editing: string | null, scope: RefObject<HTMLElement>, fallback: string) {
  const openedBy = useRef<string | null>(null);
  useEffect(() => {
    if (editing !== null) {
      openedBy.current = editing;
      return;
    }
    const from = openedBy.current;
    openedBy.current = null;
    if (from === null) return;
    const area = scope.current;
    (area?.querySelector<HTMLElement>(`[data-opens-editor="${CSS.escape(from)}"]`) ?? area?.querySelector<HTMLElement>(fallback))?.focus();
  }, [editing, scope, fallback]);
}

/** An inline editor's first field, or its title (give a title `tabIndex={-1}`): focused when the editor opens, so Tab continues inside it. */
export function useFocusOnOpen<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => ref.current?.focus(), []);
  return ref;
}

/**
 * A staff list of items with one inline editor at a time and a confirmed delete (the question bank, the rubrics):
 * which item is being edited ("new", an item's id, or null) and that item, the item asked to be deleted (cleared once
 * its delete succeeds), the fetcher that deletes, and the section's ref, to which focus returns when the editor closes
 * (`useFocusBackFromEditor`, falling back to `titleSelector`).
 */
export function useListEditor<T extends { _id: string }, R extends { ok: boolean }>(items: T[], titleSelector: string) {
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const remover = useFetcher<R>();
  const sectionRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (remover.state === "idle" && remover.data?.ok) {
      setDeleting(null);
      // The deleted item's button went with it: the list's title takes the focus the dialog gives back to nothing.
      focusIfLost(() => sectionRef.current?.querySelector<HTMLElement>(titleSelector) ?? null);
    }
  }, [remover.state, remover.data, titleSelector]);
  const current = editing && editing !== "new" ? (items.find((item) => item._id === editing) ?? null) : null;
  useFocusBackFromEditor(editing, sectionRef, titleSelector);
  return { editing, setEditing, current, deleting, setDeleting, remover, sectionRef };
}

/**
 * After a save the server refused (`failure`: a new value each time), the first field it named (`aria-invalid`), or
 * else the first error message, is brought into view, and a field takes focus: on a long editor the error may sit far
 * above the button that was pressed, which otherwise seems to do nothing. `settled`: the page's navigation is idle (the
 * router restores the scroll position when the submission's navigation ends, after the answer has arrived).
 */
export function useFocusFirstProblem(scope: RefObject<HTMLElement>, failure: unknown, settled: boolean) {
  const shown = useRef<unknown>(null);
  useEffect(() => {
    if (!failure || !settled || shown.current === failure) return;
    shown.current = failure;
    const area = scope.current;
    const target = area?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? area?.querySelector<HTMLElement>(".form-error");
    if (!target) return;
    target.scrollIntoView({ block: "center" });
    if (target.matches("input, select, textarea")) focusRefused(target, { preventScroll: true });
  }, [scope, failure, settled]);
}
