import { useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * For a row of links that scrolls sideways on phones: after each navigation, scrolls the row (never the page) so
 * the current link (`aria-current="page"`) is in view. Works in both directions: the distance is measured on screen.
 */
export function useRevealCurrent<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const { pathname } = useLocation();
  useEffect(() => {
    const row = ref.current;
    const current = row?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!row || !current || row.scrollWidth <= row.clientWidth) return;
    const box = row.getBoundingClientRect();
    const item = current.getBoundingClientRect();
    const margin = 16;
    if (item.right > box.right) row.scrollLeft += item.right - box.right + margin;
    else if (item.left < box.left) row.scrollLeft -= box.left - item.left + margin;
  }, [pathname]);
  return ref;
}
