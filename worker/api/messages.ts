/** Group chat over HTTP: GET /api/messages/group/{id}, POST /api/messages, DELETE /api/messages/{id}. */
import { createRoute } from "@hono/zod-openapi";
import { idOrSlugParam, messageIdParam, messagePageQuery, sendMessageInput } from "../../app/lib/schemas";
import { noStore, requireAuth, viewerOf } from "../auth/middleware";
import { deleteMessage, listMessages, sendMessage } from "../services/messages";
import { createApi, errorResponse } from "./app";
import { chatMessageDto, chatPageDto, sentMessageDto } from "./inbox-dto";
import { jsonBody, jsonResponse } from "./users-dto";

const tags = ["Messages"];
const guards = { 401: errorResponse("Not signed in"), 403: errorResponse("Not a member or staff of this group") };

const listRoute = createRoute({
  method: "get",
  path: "/group/{id}",
  tags,
  summary: "A group's chat, newest first (?before=<id>&limit=, default 50, at most 100)",
  middleware: [noStore, requireAuth] as const,
  request: { params: idOrSlugParam, query: messagePageQuery },
  responses: { 200: jsonResponse("One page of messages", chatPageDto), 400: errorResponse("Invalid query"), ...guards, 404: errorResponse("No such group") },
});

const sendRoute = createRoute({
  method: "post",
  path: "/",
  tags,
  summary: "Post a message to a group's chat; the same clientId again in the same group returns the stored message (200)",
  middleware: [noStore, requireAuth] as const,
  request: { body: jsonBody(sendMessageInput) },
  responses: {
    201: jsonResponse("Stored, then broadcast to the group's room", sentMessageDto),
    200: jsonResponse("Already stored under this clientId; nothing new was sent", sentMessageDto),
    400: errorResponse("Empty or too long text, bad clientId, or a reply to a message of another group"),
    ...guards,
    404: errorResponse("No such group"),
    429: errorResponse("Too many messages; see Retry-After"),
  },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/{id}",
  tags,
  summary: "Delete a message (its author or the group's staff); the deletion is broadcast",
  middleware: [noStore, requireAuth] as const,
  request: { params: messageIdParam },
  responses: {
    200: jsonResponse("The message as a tombstone (text removed, deletedAt set)", chatMessageDto),
    400: errorResponse("Malformed id"),
    401: errorResponse("Not signed in"),
    403: errorResponse("Neither the author nor the group's staff, or no longer in the group"),
    404: errorResponse("No such message"),
  },
});

export const messagesApi = createApi()
  .openapi(listRoute, async (c) => c.json(await listMessages(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("query")), 200))
  .openapi(sendRoute, async (c) => {
    const { message, created } = await sendMessage(c.var.svc, viewerOf(c), c.req.valid("json"));
    return created ? c.json({ message }, 201) : c.json({ message }, 200);
  })
  .openapi(deleteRoute, async (c) => c.json(await deleteMessage(c.var.svc, viewerOf(c), c.req.valid("param").id), 200));
