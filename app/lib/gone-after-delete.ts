import type { ShouldRevalidateFunction } from "@remix-run/react";

/**
 * An editor page whose own action deleted its item (a task, a quiz) is not loaded again after that action: its loader
 * can only answer "not found" (a 404 in the browser's console, and under load a moment of the not-found screen) while
 * the page leaves for its list with the notice "deleted". Every other action revalidates as Remix would.
 */
export const notAfterOwnDelete: ShouldRevalidateFunction = ({ actionResult, formAction, currentUrl, defaultShouldRevalidate }) => {
  const deleted = typeof actionResult === "object" && actionResult !== null && (actionResult as { ok?: unknown }).ok === true && (actionResult as { intent?: unknown }).intent === "delete";
  const ownAction = formAction === undefined || new URL(formAction, currentUrl).pathname === currentUrl.pathname;
  return deleted && ownAction ? false : defaultShouldRevalidate;
};
