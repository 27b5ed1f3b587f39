/**
 * Moves focus to a message that replaced or joined a form (a success screen, a notice) and brings it into
 * view: after a long form on a phone the page may be scrolled far below it. Client-only (call from effects).
 */
export function revealAndFocus(el: HTMLElement | null): void {
  if (!el) return;
  el.focus({ preventScroll: true });
  el.scrollIntoView({ block: "center" });
}
