import { useRef, type RefObject } from "react";
import { useIsoLayoutEffect } from "~/hooks/use-iso-layout-effect";

/**
 * Moves focus to a message that replaced or joined a form (a success screen, a notice) and brings it into
 * view: after a long form on a phone the page may be scrolled far below it. Client-only (call from effects).
 */
export function revealAndFocus(el: HTMLElement | null): void {
  if (!el) return;
  el.focus({ preventScroll: true });
  el.scrollIntoView({ block: "center" });
}

/**
 * After an action whose control went away (a form that closed, a row deleted, a button that disappears), puts the
 * focus on `el` when it was lost to the page (the body), on the next frame, once React has rendered the change.
 * A focus the person moved meanwhile is left where it is. Client-only.
 */
export function focusIfLost(el: () => HTMLElement | null): void {
  const rescue = () => {
    const active = document.activeElement;
    if (active && active !== document.body) return;
    el()?.focus({ preventScroll: false });
  };
  // Once React has rendered the change, and again a moment later: a dialog closing meanwhile gives the focus back to
  // its opener, which may be the control that went away.
  requestAnimationFrame(rescue);
  window.setTimeout(rescue, 150);
}

/**
 * Calls `left` when the element of `ref` leaves the page while it holds the keyboard's focus: a row that goes from a
 * list (marked read in a list of unread ones) with its button focused. Read in a layout effect's cleanup, which runs
 * before React removes the element, so the focus is still inside it.
 */
export function useLeavesWithFocus(ref: RefObject<HTMLElement | null>, left: () => void): void {
  const latest = useRef(left);
  latest.current = left;
  useIsoLayoutEffect(
    () => () => {
      if (ref.current?.contains(document.activeElement)) latest.current();
    },
    [ref],
  );
}
