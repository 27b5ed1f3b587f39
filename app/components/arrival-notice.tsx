import { useLocation } from "@remix-run/react";
import type { MessageKey } from "~/i18n/en";
import { useT } from "~/lib/i18n";
import { CheckIcon } from "./icons";

/** What a form that leaves its page did, said on the page it goes to (router state: gone on a reload). */
export interface Arrival {
  kind: "task" | "quiz";
  done: "created" | "deleted";
  title: string;
}

/** `navigate(listPath, arrivalState(...))`: the list then says what was done. */
export const arrivalState = (arrival: Arrival) => ({ state: { arrival } });

/** The notice of what was just done on the page before (a task or quiz created or deleted), if anything. */
export function ArrivalNotice() {
  const { t } = useT();
  const arrival = (useLocation().state as { arrival?: Arrival } | null)?.arrival;
  if (!arrival) return null;
  return (
    <p className="notice-success" role="status">
      <CheckIcon />
      <span>{t(`arrival.${arrival.kind}.${arrival.done}` as MessageKey, { title: arrival.title })}</span>
    </p>
  );
}
