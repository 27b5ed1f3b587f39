/**
 * Keyboard focus through a control that disables itself while it works. The forms here disable their submit button
 * while they are sent (a second click must not send twice), and pickers that save at once disable themselves while
 * saving; a browser moves the focus of a control it disables to the page itself, so a keyboard or screen-reader user
 * is put back at the top of the page, and a phone's keyboard closes. When such a control is enabled again and the
 * page itself still has the focus (nothing else took it meanwhile: a form that moved it to its first wrong field
 * keeps that), the focus goes back to it. A control that goes away (a page that changed) is left.
 */
export function keepFocusThroughDisabling(doc: Document): void {
  // The control that last had the focus: the browser may already have moved it to the page when the change is seen.
  let last: Element | null = null;
  doc.addEventListener("focusin", (event) => {
    last = event.target instanceof Element ? event.target : null;
  });
  const pageHasFocus = () => doc.activeElement === null || doc.activeElement === doc.body;
  const disabledWhileFocused = new WeakSet<Element>();
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      const el = record.target;
      if (!(el instanceof HTMLElement)) continue;
      if (el.hasAttribute("disabled")) {
        if (doc.activeElement === el || (last === el && pageHasFocus())) disabledWhileFocused.add(el);
      } else if (disabledWhileFocused.has(el)) {
        disabledWhileFocused.delete(el);
        if (el.isConnected && pageHasFocus()) el.focus({ preventScroll: true });
      }
    }
  });
  observer.observe(doc.documentElement, { attributes: true, attributeFilter: ["disabled"], subtree: true });
}
