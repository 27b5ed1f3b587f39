import { useEffect } from "react";

/**
 * The boxes that scroll: Markdown's code blocks and tables as the server marks them (app/lib/sanitise-html.server.ts),
 * and the app's own (a staff table's box, a code box, the chat's message list) marked `data-scroll-stop`.
 */
const STOPS = 'pre[tabindex="0"], .md-table[tabindex="0"], [data-scroll-stop]';

/**
 * A box that scrolls is a Tab stop only while its content is larger than it. The server makes each one focusable, so
 * that without scripts a keyboard can always scroll one that overflows (WCAG 2.1.1); in the browser, a box whose
 * content fits (a short snippet or a narrow table on a desktop) gives up that stop, which a keyboard user would
 * otherwise land on for nothing, and takes it back when the window narrows or new content arrives. A box that has
 * focus keeps it.
 */
export function useScrollStops() {
  useEffect(() => {
    let frame = 0;
    const fit = () => {
      frame = 0;
      for (const el of document.querySelectorAll<HTMLElement>(STOPS)) {
        el.dataset.scrollStop = "";
        const scrolls = el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
        if (scrolls) el.tabIndex = 0;
        else if (el !== document.activeElement) el.removeAttribute("tabindex");
      }
    };
    const later = () => {
      if (!frame) frame = requestAnimationFrame(fit);
    };
    fit();
    const added = new MutationObserver(later);
    added.observe(document.body, { childList: true, subtree: true });
    window.addEventListener("resize", later);
    return () => {
      cancelAnimationFrame(frame);
      added.disconnect();
      window.removeEventListener("resize", later);
    };
  }, []);
}
