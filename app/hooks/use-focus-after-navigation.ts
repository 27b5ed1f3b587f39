import { useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * After the app moves to another page (a link, a form that leads elsewhere), the focus goes to the new page's main
 * content (`#main`, every page's `<main tabIndex={-1}>`), so a keyboard user continues from the content and a screen
 * reader says where they are. Only when the focus was lost with the old page: a page that places it itself (its own
 * effects run before this one, the root's) keeps its choice. The first page load is the browser's; a change of query
 * or hash on the same page (a filter, a tab) is not a new page.
 */
export function useFocusAfterNavigation() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const active = document.activeElement;
    if (active && active !== document.body) return;
    document.getElementById("main")?.focus({ preventScroll: true });
  }, [pathname]);
}
