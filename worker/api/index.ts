/**
 * The API under /api: one `OpenAPIHono` sub-app per resource, mounted in the order below (it decides which route
 * answers where paths overlap).
 *
 * Each resource's module (its routes, zod schemas and services) is imported when a request first needs it, not when
 * the Worker starts (docs/decisions/0025-lean-cold-start.md): a request to /api/<segment>/... is answered by an app
 * built from the mounts whose routes sit under `<segment>`, with the same middleware, error handling and route order
 * as the whole API. Anything else (the OpenAPI document, the reference page, a segment no
 * mount has) is answered by the whole API, built from every mount.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { wellFormedDeep } from "../../app/lib/text";
import { HTTPException } from "hono/http-exception";
import { getPath } from "hono/utils/url";
import { createServiceContext } from "../context";
import type { Bindings } from "../env";
import { AppError, REMOVED_MEANWHILE } from "../http/errors";
import { isForeignKeyViolation } from "../services/ids";
import type { ApiEnv } from "./app";
import { COURSE_IMAGE_UPLOAD_PATH, HAND_IN_UPLOAD_PATH, MAX_BODY_BYTES, WORK_API_PATH, WORK_BODY_BYTES } from "./body-limits";

export { MAX_BODY_BYTES };

type SubApi = OpenAPIHono<ApiEnv, any, any>;

/**
 * Where each sub-app is mounted, and how to load it. A sub-app mounted at "/" names the segments its routes sit
 * under (`under`): it goes into those segments' apps only (it adds no middleware of its own; tests/integration/
 * api-parts.test.ts checks that every part has all of its segment's routes and middleware).
 */
interface Mount {
  path: string;
  under?: readonly string[];
  load: () => Promise<SubApi>;
}
const MOUNTS: readonly Mount[] = [
  { path: "/health", load: () => import("./health").then((m) => m.healthApi) },
  // Before /groups and /users: its paths (/groups/{id}/progress, /users/groups/{id}/progress) sit under both.
  { path: "/", under: ["groups", "users"], load: () => import("./progress").then((m) => m.progressApi) },
  { path: "/groups", load: () => import("./groups").then((m) => m.groupsApi) },
  { path: "/feedback", load: () => import("./feedback").then((m) => m.feedbackApi) },
  { path: "/contact", load: () => import("./contact").then((m) => m.contactApi) },
  { path: "/dev", load: () => import("./dev").then((m) => m.devApi) },
  { path: "/users", load: () => import("./users").then((m) => m.usersApi) },
  { path: "/user", load: () => import("./user").then((m) => m.userApi) },
  { path: "/realtime", load: () => import("./realtime").then((m) => m.realtimeApi) },
  { path: "/messages", load: () => import("./messages").then((m) => m.messagesApi) },
  { path: "/notifications", load: () => import("./notifications").then((m) => m.notificationsApi) },
  { path: "/contact-messages", load: () => import("./contact-messages").then((m) => m.contactMessagesApi) },
  { path: "/membership-requests", load: () => import("./membership-requests").then((m) => m.membershipRequestsApi) },
  { path: "/students", load: () => import("./students").then((m) => m.studentsApi) },
  { path: "/uploads", load: () => import("./uploads").then((m) => m.uploadsApi) },
  { path: "/lectures", load: () => import("./lectures").then((m) => m.lecturesApi) },
  { path: "/lectures", load: () => import("./tasks").then((m) => m.tasksApi) },
  { path: "/lectures", load: () => import("./extensions").then((m) => m.taskExtensionsApi) },
  { path: "/lectures", load: () => import("./submission-history").then((m) => m.submissionHistoryApi) },
  { path: "/lectures", load: () => import("./hand-in-files").then((m) => m.handInFilesApi) },
  { path: "/lectures", load: () => import("./course-copy").then((m) => m.lectureCopyApi) },
  { path: "/attendance", load: () => import("./lectures").then((m) => m.attendanceApi) },
  { path: "/comment-bank", load: () => import("./comment-bank").then((m) => m.commentBankApi) },
  { path: "/quizzes", load: () => import("./extensions").then((m) => m.quizExtensionsApi) },
  { path: "/quizzes", load: () => import("./quiz-regrade").then((m) => m.quizRegradeApi) },
  { path: "/quizzes", load: () => import("./quizzes").then((m) => m.quizzesApi) },
  { path: "/exercises", load: () => import("./exercises").then((m) => m.exercisesApi) },
  { path: "/schedule", load: () => import("./schedule").then((m) => m.scheduleApi) },
  { path: "/certificates", load: () => import("./certificates").then((m) => m.certificatesApi) },
];

/** The segments whose paths a mount's routes sit under. */
const segmentsOf = (m: Mount) => (m.path === "/" ? (m.under ?? []) : [m.path.split("/")[1]!]);
/** The segments that have an app of their own. */
const SEGMENTS = new Set(MOUNTS.flatMap(segmentsOf));

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
/** Only an escape can put half a surrogate pair in JSON (raw UTF-8 cannot encode one): bodies without one pass as sent. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

/** The JSON text with every string (keys too) well formed; text that is not JSON is left for the route to refuse. */
function wellFormedJson(text: string): string {
  try {
    return JSON.stringify(wellFormedDeep(JSON.parse(text)));
  } catch {
    return text;
  }
}

const generalBodyLimit = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw new AppError(413, "payload_too_large", `Request bodies are limited to ${MAX_BODY_BYTES / 1024} KB.`);
  },
});

const workBodyLimit = bodyLimit({
  maxSize: WORK_BODY_BYTES,
  onError: () => {
    throw new AppError(413, "payload_too_large", `Request bodies are limited to ${WORK_BODY_BYTES / 1024} KB here.`);
  },
});

/** An API app with `mounts` (in MOUNTS order), and with the OpenAPI document and reference page when `docs`. */
async function buildApi(mounts: readonly Mount[], docs: boolean): Promise<OpenAPIHono<ApiEnv>> {
  const subApps = await Promise.all(mounts.map((m) => m.load()));
  const api = new OpenAPIHono<ApiEnv>().basePath("/api");
  api.use("*", async (c, next) => {
    c.set("svc", createServiceContext(c.env, c.executionCtx, c.req.raw));
    await next();
  });
  // Course images have their own, larger limit on their one route (uploads.ts).
  // File hand-ins likewise (hand-in-files.ts).
  api.use("*", (c, next) =>
    c.req.path === COURSE_IMAGE_UPLOAD_PATH || HAND_IN_UPLOAD_PATH.test(c.req.path) ? next() : WORK_API_PATH.test(c.req.path) ? workBodyLimit(c, next) : generalBodyLimit(c, next),
  );
  // A JSON body can carry half a surrogate pair (a `\ud800` escape; raw UTF-8 cannot): D1 would store it as
  // replacement characters of its own, so a field would read back differently from what the API answered. Every
  // string of a JSON body is made well formed once, here, before any route reads it (ADR 42).
  api.use("*", async (c, next) => {
    if (c.req.raw.body && JSON_TYPE.test(c.req.header("content-type") ?? "")) {
      const text = await c.req.raw.text();
      c.req.raw = new Request(c.req.raw, { body: SURROGATE_ESCAPE.test(text) ? wellFormedJson(text) : text });
    }
    await next();
  });
  mounts.forEach((m, i) => api.route(m.path, subApps[i]!));

  if (docs) {
    api.doc31("/openapi.json", (c) => ({
      openapi: "3.1.0",
      info: {
        title: "Cohort API",
        version: "1.0.0",
        description: "The API behind Cohort. JSON in, JSON out; every error is `{ message, code, fields? }`.",
      },
      servers: [{ url: new URL(c.req.url).origin }],
    }));
    api.get("/docs", async (c) => {
      const { renderApiReference } = await import("./docs");
      const doc = api.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "Cohort API", version: "1.0.0" } });
      return c.html(renderApiReference(doc as Parameters<typeof renderApiReference>[0]));
    });
  }

  api.notFound((c) => c.json({ message: "No such API route.", code: "not_found" }, 404));

  api.onError((err, c) => {
    if (err instanceof AppError) {
      if (err.retryAfterSeconds) c.header("Retry-After", String(err.retryAfterSeconds));
      return c.json(err.toJSON(), err.status);
    }
    if (err instanceof HTTPException) {
      const status = err.status >= 500 ? 500 : err.status;
      return c.json({ message: readerMessage(c.req.path, status, err.message), code: status === 404 ? "not_found" : "bad_request" }, status);
    }
    // A write that pointed at something deleted meanwhile (services name the common ones; this is the rest).
    if (isForeignKeyViolation(err)) return c.json({ message: REMOVED_MEANWHILE, code: "conflict" }, 409);
    console.error("Unhandled API error", err);
    return c.json({ message: "An error occurred on the server. Please try again later", code: "internal_error" }, 500);
  });
  return api;
}

/**
 * A body Hono could not read, in words a person can act on: its own messages name parser internals ("No boundary
 * string in Content-Type header ... See RFC 7578") or only a status ("Unsupported Media Type").
 */
function readerMessage(path: string, status: number, raw: string): string {
  const upload = path === COURSE_IMAGE_UPLOAD_PATH || HAND_IN_UPLOAD_PATH.test(path);
  if (status === 415) return upload ? "Send the file as a form (multipart/form-data), as a browser's file field does." : "Send the body as JSON, with the header Content-Type: application/json.";
  if (/^Malformed JSON/i.test(raw)) return "The body is not valid JSON.";
  if (/^Malformed FormData/i.test(raw)) return "The form could not be read: send the file as multipart/form-data, as a browser's file field does.";
  return raw || "Bad request";
}

const apps = new Map<string, Promise<OpenAPIHono<ApiEnv>>>();

/** Builds an app once per isolate; a failed build is not kept, so the next request tries again. */
function memo(key: string, build: () => Promise<OpenAPIHono<ApiEnv>>): Promise<OpenAPIHono<ApiEnv>> {
  let app = apps.get(key);
  if (!app) {
    app = build();
    apps.set(key, app);
    app.catch(() => apps.delete(key));
  }
  return app;
}

/** The whole API: every mount, the OpenAPI document (/api/openapi.json) and the reference page (/api/docs). */
export function fullApi(): Promise<OpenAPIHono<ApiEnv>> {
  return memo("", () => buildApi(MOUNTS, true));
}

/**
 * The app for the API path `path` (as Hono reads it from the URL): the mounts of its first segment, or the whole API
 * when no mount has that segment.
 */
export function apiFor(path: string): Promise<OpenAPIHono<ApiEnv>> {
  const segment = path.startsWith("/api/") ? path.split("/")[2]! : "";
  if (!SEGMENTS.has(segment)) return fullApi();
  return memo(segment, () => buildApi(MOUNTS.filter((m) => segmentsOf(m).includes(segment)), false));
}

/** The Worker's (and the tests') entry to the API. */
export const api = {
  async fetch(request: Request, env: Bindings, ctx: ExecutionContext): Promise<Response> {
    return (await apiFor(getPath(request))).fetch(request, env, ctx);
  },
};
