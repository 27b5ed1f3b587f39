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

/** The page's region for a refusal said again (root.tsx): assertive, read whole, out of sight. */
export const SAID_AGAIN_ID = "said-again";
/** How long the region keeps what it said, so that it is not found later by reading the page. */
const SAID_FOR_MS = 8_000;
let sayTimer = 0;
let clearTimer = 0;

/**
 * Puts the keyboard on a field that was refused (by the form's own check or by the server). A screen reader says a
 * field's label and its error as the field takes the focus; a field that already has it (Enter pressed in it, twice
 * with the same mistake) takes nothing new, and its error, shown again or shown for the first time, would be said by
 * nobody. So when the field is already focused, its error (the texts it is described by, less its hints) is said
 * through the page's assertive region, once the render that writes it has run. Client-only.
 */
export function focusRefused(el: HTMLElement | null | undefined, options?: FocusOptions): void {
  if (!el) return;
  if (document.activeElement !== el) {
    el.focus(options);
    return;
  }
  const region = document.getElementById(SAID_AGAIN_ID);
  if (!region) return;
  window.clearTimeout(sayTimer);
  window.clearTimeout(clearTimer);
  // Emptied first: the same words written over themselves would not be a change the screen reader hears.
  region.textContent = "";
  sayTimer = window.setTimeout(() => {
    if (!el.isConnected) return;
    region.textContent = refusalOf(el);
    clearTimer = window.setTimeout(() => (region.textContent = ""), SAID_FOR_MS);
  }, 100);
}

/** What a field's error says: the elements it is described by, less its hints (`.field-hint`). */
function refusalOf(el: HTMLElement): string {
  const ids = (el.getAttribute("aria-describedby") ?? "").split(/\s+/).filter(Boolean);
  return ids
    .map((id) => document.getElementById(id))
    .filter((d): d is HTMLElement => d !== null && !d.classList.contains("field-hint"))
    .map((d) => d.textContent?.trim() ?? "")
    .filter(Boolean)
    .join(" ");
}
