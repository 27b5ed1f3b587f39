import { useMatches } from "@remix-run/react";

/** The refused-submission screen's route (worker/pages.ts serves it at the address that was posted to). */
export const REFUSED_ROUTE_ID = "routes/_public.request-refused";

/**
 * Whether this screen is sent without its scripts: the refused-submission screen, served at the address that was
 * posted to with the refusal page's data, would fail to hydrate there (root.tsx). Widgets that need a script (the
 * menu button, the notifications bell) take their no-script form on it.
 */
export function useScriptless(): boolean {
  return useMatches().some((m) => m.id === REFUSED_ROUTE_ID);
}
