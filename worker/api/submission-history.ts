/**
 * A hand-in's history and private conversation (issue 21), for its student and the group's staff:
 * GET .../submissions/{submissionId}/versions, GET and POST .../submissions/{submissionId}/comments, under
 * /api/lectures/{lectureId}/tasks/{taskId}. Thin handlers over worker/services/submission-history.ts.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { submissionCommentInput } from "../../app/lib/task-schemas";
import { noStore, requireAuth, viewerOf } from "../auth/middleware";
import { addComment, listComments, listVersions } from "../services/submission-history";
import { createApi, errorResponse } from "./app";
import { jsonBody, jsonResponse } from "./users-dto";

const tags = ["Tasks and submissions"];
const guards = { 401: errorResponse("Not signed in"), 404: errorResponse("No such submission, or not the caller's and not their group's") };
const key = z.string().min(1).max(120).regex(/^[\p{L}\p{M}\p{N}_-]+$/u, "Invalid id");
const params = z.object({ lectureId: key, taskId: key, submissionId: key });

const versionDto = z.object({ number: z.number().int(), link: z.string(), notes: z.string().nullable(), code: z.string().nullable(), submittedAt: z.string(), late: z.boolean() }).openapi("SubmissionVersion");
const commentDto = z
  .object({ _id: z.string(), author: z.object({ _id: z.string().nullable(), name: z.string(), staff: z.boolean() }), body: z.string(), createdAt: z.string() })
  .openapi("SubmissionComment");

const versionsRoute = createRoute({
  method: "get",
  path: "/{lectureId}/tasks/{taskId}/submissions/{submissionId}/versions",
  tags,
  summary: "Every version of a hand-in, the first first (its student and the group's staff)",
  middleware: [noStore, requireAuth] as const,
  request: { params },
  responses: { 200: jsonResponse("Versions", z.array(versionDto)), ...guards },
});

const commentsRoute = createRoute({
  method: "get",
  path: "/{lectureId}/tasks/{taskId}/submissions/{submissionId}/comments",
  tags,
  summary: "The private conversation about a hand-in, oldest first (its student and the group's staff)",
  middleware: [noStore, requireAuth] as const,
  request: { params },
  responses: { 200: jsonResponse("Messages", z.array(commentDto)), ...guards },
});

const addRoute = createRoute({
  method: "post",
  path: "/{lectureId}/tasks/{taskId}/submissions/{submissionId}/comments",
  tags,
  summary: "Write in a hand-in's private conversation; the student, or the group's instructor and the admins, are notified",
  middleware: [noStore, requireAuth] as const,
  request: { params, body: jsonBody(submissionCommentInput) },
  responses: { 201: jsonResponse("The message", commentDto), 400: errorResponse("Empty or too long"), ...guards },
});

export const submissionHistoryApi = createApi()
  .openapi(versionsRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(await listVersions(c.var.svc, viewerOf(c), p.lectureId, p.taskId, p.submissionId), 200);
  })
  .openapi(commentsRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(await listComments(c.var.svc, viewerOf(c), p.lectureId, p.taskId, p.submissionId), 200);
  })
  .openapi(addRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(await addComment(c.var.svc, viewerOf(c), p.lectureId, p.taskId, p.submissionId, c.req.valid("json")), 201);
  });
