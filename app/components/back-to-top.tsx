import { useEffect, useRef, useState } from "react";
import { useT } from "~/lib/i18n";
import { ArrowUpIcon } from "./icons";

/** Back-to-top threshold (spec §9). */
export const BACK_TO_TOP_AFTER_PX = 500;

/** Space kept between a focused control and the button (px). */
const CLEARANCE_PX = 8;

/**
 * Appears once the page is scrolled more than 500 px; takes the visitor (and the focus) back to the top. A control
 * the keyboard reaches under the button is scrolled up clear of it (WCAG 2.4.11): the browser scrolls a focused
 * control into view only when it is off screen, and on a phone the button sits over full-width rows and buttons.
 */
export function BackToTop() {
  const { t } = useT();
  const [visible, setVisible] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const update = () => setVisible(window.scrollY > BACK_TO_TOP_AFTER_PX);
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, []);

  useEffect(() => {
    if (!visible) return;
    const clear = (e: FocusEvent) => {
      const button = buttonRef.current;
      const target = e.target;
      if (!button || !(target instanceof Element) || target === button) return;
      // The keyboard's focus only: a click or tap lands where it was aimed, and scrolling between its press and its
      // release would lose it (the press focuses the control, the release then falls elsewhere).
      if (!target.matches(":focus-visible")) return;
      // A control the keyboard reaches, not a region the page focuses itself (the next page's <main> after a link
      // followed by the keyboard, a heading after an action): moving the page for those scrolled the next page down.
      if (target instanceof HTMLElement && target.tabIndex < 0) return;
      const under = button.getBoundingClientRect();
      const focused = target.getBoundingClientRect();
      const overlaps = focused.bottom > under.top && focused.top < under.bottom && focused.right > under.left && focused.left < under.right;
      if (overlaps) window.scrollBy({ top: focused.bottom - under.top + CLEARANCE_PX, behavior: "instant" });
    };
    document.addEventListener("focusin", clear);
    return () => document.removeEventListener("focusin", clear);
  }, [visible]);

  if (!visible) return null;
  return (
    <button
      ref={buttonRef}
      type="button"
      className="back-to-top"
      aria-label={t("common.backToTop")}
      title={t("common.backToTop")}
      onClick={() => {
        const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
        window.scrollTo({ top: 0, behavior: reduce ? "auto" : "smooth" });
        document.getElementById("top")?.focus({ preventScroll: true });
      }}
    >
      <ArrowUpIcon />
    </button>
  );
}
