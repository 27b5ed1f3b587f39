/**
 * Keyboard focus through a form's submission. The forms here disable their submit button while they are sent (a second
 * click must not send twice), and a browser moves the focus of a button it disables to the page itself: a keyboard or
 * screen-reader user is put back at the top of the page, and a phone's keyboard closes. When the button that sent the
 * form is enabled again and nothing else has taken the focus meanwhile (a form that moves it to its first wrong field
 * keeps that), the focus goes back to the button. A button that goes away with its form (a page that changed) is left.
 */
const GIVE_UP_MS = 60_000;

export function keepFocusThroughSubmits(doc: Document): void {
  doc.addEventListener(
    "submit",
    (event) => {
      const button = (event as SubmitEvent).submitter;
      if (button instanceof HTMLElement && doc.activeElement === button) watch(doc, button);
    },
    true,
  );
}

function watch(doc: Document, button: HTMLElement): void {
  const check = () => {
    if (!button.isConnected) return stop();
    if (button.matches(":disabled")) return;
    // Enabled again: back to it if the focus is on the page itself (the browser moves it there from a disabled button
    // when it next draws the page, so this is judged now, not when it was disabled).
    if (doc.activeElement === null || doc.activeElement === doc.body) button.focus({ preventScroll: true });
    stop();
  };
  const observer = new MutationObserver(check);
  observer.observe(button, { attributes: true, attributeFilter: ["disabled"] });
  const timer = setTimeout(() => stop(), GIVE_UP_MS);
  function stop() {
    observer.disconnect();
    clearTimeout(timer);
  }
}
