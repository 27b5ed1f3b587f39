import type { Settings } from "../env";

/**
 * True when a request's Origin header names this site: the origin it was sent to, or PUBLIC_ORIGIN (the two
 * differ behind a proxy or in `npm run dev`). A missing Origin is not this site: every browser sends one on
 * POST, fetch and websocket upgrades, so only scripts omit it.
 */
export function isOwnOrigin(request: Request, settings: Settings): boolean {
  const origin = request.headers.get("origin");
  return !!origin && (origin === new URL(request.url).origin || origin === settings.publicOrigin);
}

export const FOREIGN_ORIGIN_MESSAGE = "This request must come from the Cohort site itself.";
