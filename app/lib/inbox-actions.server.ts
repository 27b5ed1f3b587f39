/**
 * Server-only glue for the admins' inboxes (contact messages, feedback): one service call per form intent,
 * answered as `{ ok: true, intent, id }` or, for an expected failure (AppError), `{ ok: false, intent, id, code }`
 * with the error's status. Anything else is a bug and is rethrown.
 */
import { data } from "@remix-run/server-runtime";
import { AppError } from "../../worker/http/errors";

export type InboxActionResult = { ok: true; intent: string; id: string } | { ok: false; intent: string; id: string; code: string };

export async function inboxAction(intent: string, id: string, work: () => Promise<unknown>) {
  try {
    await work();
    return data<InboxActionResult>({ ok: true, intent, id });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return data<InboxActionResult>({ ok: false, intent, id, code: err.code }, { status: err.status });
  }
}

/** A refused form (unknown intent or a missing id). */
export function badInboxForm(intent: string, id: string) {
  return data<InboxActionResult>({ ok: false, intent, id, code: "bad_request" }, { status: 400 });
}

/** A form field as a trimmed string ("" when missing or a file). */
export function field(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
}
