/** The grader's comment bank (issue 21): GET and POST /api/comment-bank, DELETE /api/comment-bank/{id}. Staff only. */
import { createRoute, z } from "@hono/zod-openapi";
import { commentSnippetInput } from "../../app/lib/task-schemas";
import { noStore, requireStaffRole, viewerOf } from "../auth/middleware";
import { addSnippet, deleteSnippet, listSnippets } from "../services/comment-bank";
import { createApi, errorResponse } from "./app";
import { jsonBody, jsonResponse, messageDto } from "./users-dto";

const tags = ["Tasks and submissions"];
const guards = { 401: errorResponse("Not signed in"), 403: errorResponse("Not an instructor or admin") };
const snippetDto = z.object({ _id: z.string(), text: z.string(), createdAt: z.string() }).openapi("CommentSnippet");

const listRoute = createRoute({
  method: "get",
  path: "/",
  tags,
  summary: "The caller's feedback snippets, oldest first (the grader inserts the first nine with Alt+1 to Alt+9)",
  middleware: [noStore, requireStaffRole] as const,
  responses: { 200: jsonResponse("Snippets", z.array(snippetDto)), ...guards },
});

const addRoute = createRoute({
  method: "post",
  path: "/",
  tags,
  summary: "Keep a feedback snippet (at most 50, 2,000 characters each)",
  middleware: [noStore, requireStaffRole] as const,
  request: { body: jsonBody(commentSnippetInput) },
  responses: { 201: jsonResponse("The snippet", snippetDto), 400: errorResponse("Empty or too long"), 409: errorResponse("The bank is full"), ...guards },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/{id}",
  tags,
  summary: "Delete one of the caller's snippets",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: z.object({ id: z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, "Invalid id") }) },
  responses: { 200: jsonResponse("Deleted", messageDto), 404: errorResponse("No such snippet of the caller's"), ...guards },
});

export const commentBankApi = createApi()
  .openapi(listRoute, async (c) => c.json(await listSnippets(c.var.svc, viewerOf(c)), 200))
  .openapi(addRoute, async (c) => c.json(await addSnippet(c.var.svc, viewerOf(c), c.req.valid("json")), 201))
  .openapi(deleteRoute, async (c) => c.json(await deleteSnippet(c.var.svc, viewerOf(c), c.req.valid("param").id), 200));
