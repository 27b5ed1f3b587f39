/**
 * The gate in front of every Remix action (a POST, PUT, PATCH or DELETE to a page or resource route). Remix
 * itself answers 500 to a body that is not a form and throws its own error on a foreign Origin, and it parses a
 * body of any size. Checking here, once, means no action can forget it:
 *
 * - Origin must be this site (403), the same rule as the API's cookie-only endpoints;
 * - the body must be `application/x-www-form-urlencoded` or `multipart/form-data` with a boundary (415);
 * - it may be at most 64 KB, like API bodies, or the course-image limit on the two forms that upload one, or 2 MB on
 *   the pages that post course work: the staff areas and a student's answers and code (worker/api/body-limits.ts) (413);
 *   the task page takes a file only from someone who may hand one in to that task, up to the task's own limit,
 *   decided before a byte of the body is read (anyone else has the forms' 64 KB; ADR 0042);
 * - it must parse as a form (400: a truncated multipart body, a broken boundary).
 *
 * The body is read once, within the limit, and handed to Remix as a fresh request, so an action's own
 * `request.formData()` cannot fail afterwards.
 */
import { COURSE_IMAGE } from "../../app/lib/schemas";
import type { Settings } from "../env";
import { FOREIGN_ORIGIN_MESSAGE, isOwnOrigin } from "./origin";
import { MAX_FILE_MB } from "../../app/lib/hand-in-files";
import { WORK_BODY_BYTES, WORK_PAGE_PATH } from "../api/body-limits";

/** The page that shows a refused submission with the site's normal error screen (app/routes/_public.request-refused.tsx). */
export const REFUSED_PAGE_PATH = "/request-refused";

/** The same limit as API bodies (worker/api/index.ts). */
export const MAX_PAGE_BODY_BYTES = 64 * 1024;
/** Room for the multipart framing and the other fields beside an image of the largest allowed size. */
const UPLOAD_BODY_BYTES = COURSE_IMAGE.maxBytes + 32 * 1024;
/** Pages whose form may carry a course image (the group form: new group, group settings). */
const UPLOAD_PAGES = [/^\/dashboard\/admin\/newGroup\/?$/, /^\/dashboard\/admin\/group\/[^/]+\/update\/?$/];
/** The task page, whose form may carry a file hand-in (issue 21): its group, lecture and task, as the address names them. */
const HAND_IN_PAGE = /^\/course\/([^/]+)\/lecture\/([^/]+)\/Add-Task\/([^/]+?)\/?$/;
/** Room for the multipart framing and the form's other fields (notes, the CSRF value) beside the file. */
export const HAND_IN_FRAMING_BYTES = 64 * 1024;

/**
 * Whether the caller may hand a file in to the task page's task, asked before the body is read: the task's own limit
 * in bytes (the file alone) for a member of its group when the task takes files; null for anyone else, who gets the
 * forms' limit (their action says why, on a small form); a refusal when the size the request declares is above the
 * task's limit. `declaredBytes` is that size less the framing, or null when the request does not say.
 */
export type HandInAllowance = (keys: { group: string; lecture: string; task: string }, declaredBytes: number | null) => Promise<Limit | Refusal | null>;

export interface Refusal {
  status: 400 | 403 | 405 | 413 | 415;
  code: string;
  message: string;
}

/**
 * A form sent to a page that takes none (no action). Remix answers it with a 405 whose data names the page's route
 * module ("You made a POST request to ... but did not provide an action for route ..."); the Worker answers this
 * instead, as it answers every refused submission.
 */
export const NO_FORM_HERE: Refusal = { status: 405, code: "method_not_allowed", message: "This page does not take forms." };

export type Checked = { ok: true; request: Request<unknown, IncomingRequestCfProperties> } | { ok: false; refusal: Refusal };

const refuse = (status: Refusal["status"], code: string, message: string): Checked => ({ ok: false, refusal: { status, code, message } });

/** True for requests that run an action rather than a loader. */
export function isSubmission(request: Request): boolean {
  return request.method !== "GET" && request.method !== "HEAD" && request.method !== "OPTIONS";
}

/** The most a body may be, and the words of its refusal when it is more. */
export interface Limit {
  bytes: number;
  tooLarge: Refusal;
}

const formLimit = (bytes: number): Limit => ({ bytes, tooLarge: { status: 413, code: "payload_too_large", message: `Forms are limited to ${Math.round(bytes / 1024)} KB.` } });

function decoded(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * The most this submission's body may be. Only a task page's body that may be larger than the forms' limit asks who
 * is posting (one read): every other form, a text hand-in among them, is decided by its address alone.
 */
async function bodyLimitFor(pathname: string, declared: number | null, handInAllowance?: HandInAllowance): Promise<Limit | Refusal> {
  const path = pathname.replace(/\.data$/, "");
  const handIn = HAND_IN_PAGE.exec(path);
  if (handIn && handInAllowance && (declared === null || declared > MAX_PAGE_BODY_BYTES)) {
    const [group, lecture, task] = [decoded(handIn[1]!), decoded(handIn[2]!), decoded(handIn[3]!)];
    const allowed = group === null || lecture === null || task === null ? null : await handInAllowance({ group, lecture, task }, declared === null ? null : Math.max(0, declared - HAND_IN_FRAMING_BYTES));
    if (allowed && "status" in allowed) return allowed;
    if (allowed) return { bytes: Math.min(allowed.bytes, MAX_FILE_MB.max * 1024 * 1024) + HAND_IN_FRAMING_BYTES, tooLarge: allowed.tooLarge };
  }
  if (UPLOAD_PAGES.some((p) => p.test(path))) return formLimit(UPLOAD_BODY_BYTES);
  return formLimit(WORK_PAGE_PATH.test(path) ? WORK_BODY_BYTES : MAX_PAGE_BODY_BYTES);
}

function acceptedType(contentType: string | null): "urlencoded" | "multipart" | null {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/x-www-form-urlencoded") return "urlencoded";
  if (type === "multipart/form-data" && /;\s*boundary=("[^"]+"|[^\s;]+)/i.test(contentType ?? "")) return "multipart";
  return null;
}

/** Reads at most `limit` bytes of the body; null when it is longer. */
async function readLimited(body: ReadableStream<Uint8Array> | null, limit: number): Promise<ArrayBuffer | null> {
  if (!body) return new ArrayBuffer(0);
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    parts.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.byteLength;
  }
  return all.buffer;
}

export async function checkPageSubmission(request: Request, settings: Settings, handInAllowance?: HandInAllowance): Promise<Checked> {
  if (!isOwnOrigin(request, settings)) return refuse(403, "forbidden", FOREIGN_ORIGIN_MESSAGE);
  const type = acceptedType(request.headers.get("content-type"));
  if (!type) return refuse(415, "unsupported_media_type", "Send this page's form as a form (URL-encoded or multipart).");
  const length = request.headers.get("content-length");
  const declared = length !== null && /^\d+$/.test(length.trim()) ? Number(length) : null;
  const limit = await bodyLimitFor(new URL(request.url).pathname, declared, type === "multipart" ? handInAllowance : undefined);
  if ("status" in limit) return { ok: false, refusal: limit };
  // A file hand-in's limit is the task's, and so are the words of its refusal, declared or found while reading.
  if (declared !== null && declared > limit.bytes) return { ok: false, refusal: limit.tooLarge };
  const body = await readLimited(request.body, limit.bytes);
  if (!body) return { ok: false, refusal: limit.tooLarge };
  // Remix compares Origin with Host again and throws (a 500) when they differ or Host is missing; the Origin is
  // known to be this site here, so Host is set to match it.
  const headers = new Headers(request.headers);
  headers.set("host", new URL(request.headers.get("origin")!).host);
  const copy = new Request(request.url, { method: request.method, headers, body }) as Request<unknown, IncomingRequestCfProperties>;
  try {
    await copy.clone().formData();
  } catch {
    return refuse(400, "bad_request", "The form could not be read. Please send it again.");
  }
  return { ok: true, request: copy };
}
