/**
 * Server-only glue between the group screens' loaders/actions and the services: expected service failures
 * (AppError) become action results the page can show, or HTTP responses for loaders (403, 404).
 * Pages translate `code` and field names with app/lib/group-errors.ts.
 */
import { data } from "@remix-run/server-runtime";
import { humanIssue } from "../../worker/http/human-issue";
import { toLatinDigits } from "./digits";
import type { ZodError } from "zod";
import { AppError } from "../../worker/http/errors";
import { notFoundResponse } from "./not-found.server";

export interface ActionFailure {
  ok: false;
  intent: string;
  code: string;
  /** The service's English message: shown only when the page has no translation for `code`. */
  message: string;
  /** Fields that failed, with the service's English message (the page shows its own words per field). */
  fields?: Record<string, string>;
  /** The record the intent was about (a request, a student, an outline item), when there is one. */
  target?: string;
}

/** Runs one service call for an action: its result with `ok: true`, or an `ActionFailure` with the error's status. */
export async function attempt<T extends object>(intent: string, work: () => Promise<T>, target?: string) {
  try {
    const result = await work();
    return data({ ...result, ok: true as const, intent, target });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const failure: ActionFailure = { ok: false, intent, code: err.code, message: err.message, fields: err.fields, target };
    return data(failure, { status: err.status });
  }
}

/**
 * A resource route's answer (a route without a screen, posted to by a fetcher): Remix's own for its client's data
 * request, which reads the status from it; plain JSON with the status it meant for anyone else (a form posted without
 * the app's scripts, a script), where Remix would send the data with 200.
 */
export function resourceAnswer(context: { dataRequest: boolean }, answer: { data: unknown; init: ResponseInit | null }) {
  return context.dataRequest ? answer : Response.json(answer.data, { ...answer.init, headers: { "Cache-Control": "private, no-store" } });
}

/** A 400 result for input that did not pass its schema, one English message per field. */
export function invalid(intent: string, error: ZodError, target?: string) {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    // A rule without words of its own is said as the API says it ("title must be ..."), never in Zod's words.
    fields[key] ??= humanIssue(issue);
  }
  const failure: ActionFailure = { ok: false, intent, code: "validation_failed", message: "Please check the highlighted fields.", fields, target };
  return data(failure, { status: 400 });
}

/** A 400 result for an intent the route does not know. */
export function unknownIntent(intent: string) {
  const failure: ActionFailure = { ok: false, intent, code: "bad_request", message: "Unknown action." };
  return data(failure, { status: 400 });
}

/**
 * For loaders: a service's 404 becomes the route's 404 page and its 403 a 403 page (with the service's
 * code); anything else is rethrown unchanged.
 */
export async function orHttpError<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof AppError && err.status === 404) throw notFoundResponse();
    if (err instanceof AppError && err.status === 403) throw data({ code: err.code, message: err.message }, { status: 403 });
    throw err;
  }
}

/**
 * Several reads of one page started together (their statements reach D1 in one call), answered as if they had
 * been awaited one after another: the first failure in argument order is the one thrown, so a page refuses
 * (403, 404) for the same reason whichever read happened to fail first.
 */
export async function allInOrder<T extends readonly unknown[]>(...work: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(work);
  const values = settled.map((r) => {
    if (r.status === "rejected") throw r.reason;
    return r.value;
  });
  return values as unknown as T;
}

/** A form field as a trimmed string ("" when missing or a file). */
/**
 * A number typed in a form field (Arabic-Indic digits read as Western), in plain decimal notation only: "0x10",
 * "1e1" or "Infinity", which `Number()` would take, are NaN, which every schema refuses.
 */
export function formNumber(value: string): number {
  const latin = toLatinDigits(value.trim());
  return /^-?\d+(\.\d+)?$/.test(latin) ? Number(latin) : Number.NaN;
}

/**
 * A field as sent, untrimmed (a Markdown body, feedback): "" when absent or when a file was posted in its place, which
 * `String()` would have stored as the words "[object File]".
 */
export function rawText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

export function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
}

/** A form's JSON field (editors send structured values as one JSON field); null when missing or not JSON. */
export function jsonField(form: FormData, name: string): unknown {
  const value = form.get(name);
  if (typeof value !== "string" || value.trim() === "") return null;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}
