import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { createServiceContext } from "../context";
import { AppError } from "../http/errors";
import type { ApiEnv } from "./app";
import { commentBankApi } from "./comment-bank";
import { lectureCopyApi } from "./course-copy";
import { scheduleApi } from "./schedule";
import { certificatesApi } from "./certificates";
import { contactApi } from "./contact";
import { contactMessagesApi } from "./contact-messages";
import { devApi } from "./dev";
import { renderApiReference } from "./docs";
import { exercisesApi } from "./exercises";
import { quizExtensionsApi, taskExtensionsApi } from "./extensions";
import { quizRegradeApi } from "./quiz-regrade";
import { submissionHistoryApi } from "./submission-history";
import { HAND_IN_UPLOAD_PATH, handInFilesApi } from "./hand-in-files";
import { feedbackApi } from "./feedback";
import { groupsApi } from "./groups";
import { healthApi } from "./health";
import { attendanceApi, lecturesApi } from "./lectures";
import { progressApi } from "./progress";
import { quizzesApi } from "./quizzes";
import { tasksApi } from "./tasks";
import { membershipRequestsApi } from "./membership-requests";
import { messagesApi } from "./messages";
import { notificationsApi } from "./notifications";
import { realtimeApi } from "./realtime";
import { studentsApi } from "./students";
import { COURSE_IMAGE_UPLOAD_PATH, uploadsApi } from "./uploads";
import { userApi } from "./user";
import { usersApi } from "./users";

/** Request bodies above this are refused with 413 before they are read. */
export const MAX_BODY_BYTES = 64 * 1024;

const api = new OpenAPIHono<ApiEnv>().basePath("/api");

api.use("*", async (c, next) => {
  c.set("svc", createServiceContext(c.env, c.executionCtx, c.req.raw));
  await next();
});
const generalBodyLimit = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw new AppError(413, "payload_too_large", `Request bodies are limited to ${MAX_BODY_BYTES / 1024} KB.`);
  },
});
// Course images have their own, larger limit on their one route (uploads.ts).
// File hand-ins likewise (hand-in-files.ts).
api.use("*", (c, next) => (c.req.path === COURSE_IMAGE_UPLOAD_PATH || HAND_IN_UPLOAD_PATH.test(c.req.path) ? next() : generalBodyLimit(c, next)));
api.route("/health", healthApi);
// Before /groups and /users: its paths (/groups/{id}/progress, /users/groups/{id}/progress) sit under both.
api.route("/", progressApi);
api.route("/groups", groupsApi);
api.route("/feedback", feedbackApi);
api.route("/contact", contactApi);
api.route("/dev", devApi);
api.route("/users", usersApi);
api.route("/user", userApi);
api.route("/realtime", realtimeApi);
api.route("/messages", messagesApi);
api.route("/notifications", notificationsApi);
api.route("/contact-messages", contactMessagesApi);
api.route("/membership-requests", membershipRequestsApi);
api.route("/students", studentsApi);
api.route("/uploads", uploadsApi);
api.route("/lectures", lecturesApi);
api.route("/lectures", tasksApi);
api.route("/lectures", taskExtensionsApi);
api.route("/lectures", submissionHistoryApi);
api.route("/lectures", handInFilesApi);
api.route("/lectures", lectureCopyApi);
api.route("/attendance", attendanceApi);
api.route("/comment-bank", commentBankApi);
api.route("/quizzes", quizExtensionsApi);
api.route("/quizzes", quizRegradeApi);
api.route("/quizzes", quizzesApi);
api.route("/exercises", exercisesApi);
api.route("/schedule", scheduleApi);
api.route("/certificates", certificatesApi);

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
  const doc = api.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "Cohort API", version: "1.0.0" } });
  return c.html(renderApiReference(doc as Parameters<typeof renderApiReference>[0]));
});

api.notFound((c) => c.json({ message: "No such API route.", code: "not_found" }, 404));

api.onError((err, c) => {
  if (err instanceof AppError) {
    if (err.retryAfterSeconds) c.header("Retry-After", String(err.retryAfterSeconds));
    return c.json(err.toJSON(), err.status);
  }
  if (err instanceof HTTPException) {
    const status = err.status >= 500 ? 500 : err.status;
    return c.json({ message: err.message || "Bad request", code: status === 404 ? "not_found" : "bad_request" }, status);
  }
  console.error("Unhandled API error", err);
  return c.json({ message: "An error occurred on the server. Please try again later", code: "internal_error" }, 500);
});

export { api };
