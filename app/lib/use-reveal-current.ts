import { useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";

/** Scrolls `row` sideways (never the page) until `item` is in view with a little room. Measured on screen: both directions. */
function reveal(row: HTMLElement, item: HTMLElement) {
  if (row.scrollWidth <= row.clientWidth) return;
  const box = row.getBoundingClientRect();
  const at = item.getBoundingClientRect();
  const margin = 16;
  if (at.right > box.right) row.scrollLeft += at.right - box.right + margin;
  else if (at.left < box.left) row.scrollLeft -= box.left - at.left + margin;
}

/**
 * For a row of links that scrolls sideways on phones: after each navigation, scrolls the row so the current link
 * (`aria-current="page"`) is in view; and whenever a link of the row takes focus (Tab), so is that one: the
 * browser's own scrolling left the last link half under the screen's edge.
 */
export function useRevealCurrent<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const { pathname } = useLocation();
  useEffect(() => {
    const row = ref.current;
    const current = row?.querySelector<HTMLElement>('[aria-current="page"]');
    if (row && current) reveal(row, current);
  }, [pathname]);
  useEffect(() => {
    const row = ref.current;
    if (!row) return;
    const onFocus = (event: FocusEvent) => {
      if (event.target instanceof HTMLElement) reveal(row, event.target);
    };
    row.addEventListener("focusin", onFocus);
    return () => row.removeEventListener("focusin", onFocus);
  }, []);
  return ref;
}
