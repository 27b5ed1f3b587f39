/**
 * One reload, not a loop: a page from before a new version of the site can name files that are gone (a script chunk,
 * the dictionary), and a fresh copy of the page names the current ones. The marker lives for the tab's session and is
 * cleared once a page has hydrated (root.tsx), so the next such page may reload again.
 */
const RELOAD_KEY = "cohort:reloaded-after-error";

/** Reloads the page unless this tab already did since its last hydrated page; says whether it did. */
export function reloadOnce(): boolean {
  try {
    if (sessionStorage.getItem(RELOAD_KEY) === "1") return false;
    sessionStorage.setItem(RELOAD_KEY, "1");
  } catch {
    // Storage refused (a private window's rules): no way to tell a second time from the first, so no reload.
    return false;
  }
  window.location.reload();
  return true;
}

/** A page has hydrated: the next page that cannot load may reload once again. */
export function clearReloadMarker(): void {
  try {
    sessionStorage.removeItem(RELOAD_KEY);
  } catch {
    // Nothing was stored.
  }
}
