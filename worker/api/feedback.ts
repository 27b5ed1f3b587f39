/**
 * Feedback: the public list (GET /api/feedback), sharing one's own (POST /api/feedback, GET /api/feedback/mine)
 * and the admins' moderation (GET /api/feedback/all, PUT and DELETE /api/feedback/{id}).
 */
import { createRoute, z } from "@hono/zod-openapi";
import { feedbackModerationInput, idOrSlugParam, shareFeedbackInput } from "../../app/lib/schemas";
import { noStore, requireAuth, requireRole, viewerOf } from "../auth/middleware";
import { deleteFeedback, listAllFeedback, listMyFeedback, listPublicFeedback, moderateFeedback, shareFeedback } from "../services/feedback";
import { createApi, errorResponse } from "./app";
import { feedbackDto } from "./dto";
import { feedbackRecordDto, sharedFeedbackDto } from "./inbox-dto";
import { jsonBody, jsonResponse, messageDto } from "./users-dto";

const tags = ["Feedback"];
const adminTags = ["Feedback (admin)"];
const adminGuards = { 401: errorResponse("Not signed in"), 403: errorResponse("Not an admin") };
const adminOnly = requireRole("admin");

const list = createRoute({
  method: "get",
  path: "/",
  tags,
  summary: "Public student feedback (no e-mail addresses, no hidden records), newest first",
  responses: { 200: { description: "Visible feedback", content: { "application/json": { schema: z.array(feedbackDto) } } } },
});

const share = createRoute({
  method: "post",
  path: "/",
  tags,
  summary: "Share (or edit) the caller's feedback about a group they are a student of: one per student and group",
  middleware: [noStore, requireAuth] as const,
  request: { body: jsonBody(shareFeedbackInput) },
  responses: {
    201: jsonResponse("Created; the admins are notified", sharedFeedbackDto),
    200: jsonResponse("The caller's existing feedback for that group was updated", sharedFeedbackDto),
    400: errorResponse("Missing or invalid fields"),
    401: errorResponse("Not signed in"),
    403: errorResponse("Not an approved or special member of that group"),
    404: errorResponse("No such group"),
  },
});

const mine = createRoute({
  method: "get",
  path: "/mine",
  tags,
  summary: "The caller's own feedback records (to prefill the form)",
  middleware: [noStore, requireAuth] as const,
  responses: { 200: jsonResponse("The caller's records, newest first", z.array(feedbackRecordDto)), 401: errorResponse("Not signed in") },
});

const all = createRoute({
  method: "get",
  path: "/all",
  tags: adminTags,
  summary: "Every feedback record, hidden ones and e-mail addresses included, newest first",
  middleware: [noStore, adminOnly] as const,
  responses: { 200: jsonResponse("Every record", z.array(feedbackRecordDto)), ...adminGuards },
});

const moderate = createRoute({
  method: "put",
  path: "/{id}",
  tags: adminTags,
  summary: "Hide a feedback record from the public list, or show it again",
  middleware: [noStore, adminOnly] as const,
  request: { params: idOrSlugParam, body: jsonBody(feedbackModerationInput) },
  responses: { 200: jsonResponse("The record", feedbackRecordDto), 400: errorResponse("hidden must be true or false"), ...adminGuards, 404: errorResponse("No such feedback") },
});

const remove = createRoute({
  method: "delete",
  path: "/{id}",
  tags: adminTags,
  summary: "Delete a feedback record",
  middleware: [noStore, adminOnly] as const,
  request: { params: idOrSlugParam },
  responses: { 200: jsonResponse("Deleted", messageDto), 400: errorResponse("Malformed id"), ...adminGuards, 404: errorResponse("No such feedback") },
});

export const feedbackApi = createApi()
  .openapi(list, async (c) => c.json(await listPublicFeedback(c.var.svc), 200))
  .openapi(share, async (c) => {
    const { feedback, created } = await shareFeedback(c.var.svc, viewerOf(c), c.req.valid("json"));
    return created ? c.json({ feedback }, 201) : c.json({ feedback }, 200);
  })
  .openapi(mine, async (c) => c.json(await listMyFeedback(c.var.svc, viewerOf(c)), 200))
  .openapi(all, async (c) => c.json(await listAllFeedback(c.var.svc, viewerOf(c)), 200))
  .openapi(moderate, async (c) => c.json(await moderateFeedback(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("json")), 200))
  .openapi(remove, async (c) => c.json(await deleteFeedback(c.var.svc, viewerOf(c), c.req.valid("param").id), 200));
