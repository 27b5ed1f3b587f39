/** The admins' inbox of contact-form messages: GET /api/contact-messages, PUT /{id}/read, DELETE /{id}. */
import { createRoute } from "@hono/zod-openapi";
import { contactMessagesQuery, contactReadInput, idOrSlugParam } from "../../app/lib/schemas";
import { noStore, requireRole, viewerOf } from "../auth/middleware";
import { deleteContactMessage, listContactMessages, setContactMessageRead } from "../services/contact";
import { createApi, errorResponse } from "./app";
import { contactDeletedDto, contactPageDto, contactReadDto } from "./inbox-dto";
import { jsonBody, jsonResponse } from "./users-dto";

const tags = ["Contact messages (admin)"];
const guards = { 401: errorResponse("Not signed in"), 403: errorResponse("Not an admin") };
const adminOnly = requireRole("admin");

const listRoute = createRoute({
  method: "get",
  path: "/",
  tags,
  summary: "Contact messages, newest first (?status=unread|read|all&page=&pageSize=), with the unread count",
  middleware: [noStore, adminOnly] as const,
  request: { query: contactMessagesQuery },
  responses: { 200: jsonResponse("One page", contactPageDto), 400: errorResponse("Invalid query"), ...guards },
});

const readRoute = createRoute({
  method: "put",
  path: "/{id}/read",
  tags,
  summary: "Mark a contact message read or unread; every admin's inbox follows live",
  middleware: [noStore, adminOnly] as const,
  request: { params: idOrSlugParam, body: jsonBody(contactReadInput) },
  responses: { 200: jsonResponse("The message and the unread count", contactReadDto), 400: errorResponse("read must be true or false"), ...guards, 404: errorResponse("No such message") },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/{id}",
  tags,
  summary: "Delete a contact message; every admin's inbox follows live",
  middleware: [noStore, adminOnly] as const,
  request: { params: idOrSlugParam },
  responses: { 200: jsonResponse("Deleted", contactDeletedDto), 400: errorResponse("Malformed id"), ...guards, 404: errorResponse("No such message") },
});

export const contactMessagesApi = createApi()
  .openapi(listRoute, async (c) => c.json(await listContactMessages(c.var.svc, viewerOf(c), c.req.valid("query")), 200))
  .openapi(readRoute, async (c) => c.json(await setContactMessageRead(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("json")), 200))
  .openapi(deleteRoute, async (c) => c.json(await deleteContactMessage(c.var.svc, viewerOf(c), c.req.valid("param").id), 200));
