import { useEffect } from "react";

/** What the server marks as a keyboard stop in rendered Markdown (app/lib/sanitise-html.server.ts), and what this hook has seen. */
const STOPS = 'pre[tabindex="0"], .md-table[tabindex="0"], [data-scroll-stop]';

/**
 * A Markdown code block or table is a Tab stop only while it scrolls. The server makes each one focusable, so that
 * without scripts a keyboard can always scroll one that overflows (WCAG 2.1.1); in the browser, a block that fits its
 * width (a short snippet on a desktop) gives up that stop, which a keyboard user would otherwise land on for
 * nothing, and takes it back when the window narrows or new content arrives. A block that has focus keeps it.
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
