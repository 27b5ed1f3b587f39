/** The signed-in person's notifications: GET /api/notifications, PUT /api/notifications/{id}/read, PUT /api/notifications/read-all. */
import { createRoute } from "@hono/zod-openapi";
import { idOrSlugParam, notificationsQuery } from "../../app/lib/schemas";
import { noStore, requireAuth, viewerOf } from "../auth/middleware";
import { listNotifications, markAllNotificationsRead, markNotificationRead } from "../services/notifications";
import { createApi, errorResponse } from "./app";
import { notificationPageDto, notificationReadDto, notificationsReadDto } from "./inbox-dto";
import { jsonResponse } from "./users-dto";

const tags = ["Notifications"];

const listRoute = createRoute({
  method: "get",
  path: "/",
  tags,
  summary: "The caller's notifications, newest first, with the unread count (?before=<id>&limit=, default 20)",
  middleware: [noStore, requireAuth] as const,
  request: { query: notificationsQuery },
  responses: {
    200: jsonResponse("One page and the unread count", notificationPageDto),
    400: errorResponse("Invalid query"),
    401: errorResponse("Not signed in"),
    404: errorResponse("`before` names no notification of the caller"),
  },
});

const readAllRoute = createRoute({
  method: "put",
  path: "/read-all",
  tags,
  summary: "Mark every notification of the caller read; their other tabs are told",
  middleware: [noStore, requireAuth] as const,
  responses: { 200: jsonResponse("How many changed, and the unread count", notificationsReadDto), 401: errorResponse("Not signed in") },
});

const readRoute = createRoute({
  method: "put",
  path: "/{id}/read",
  tags,
  summary: "Mark one of the caller's notifications read; their other tabs are told",
  middleware: [noStore, requireAuth] as const,
  request: { params: idOrSlugParam },
  responses: {
    200: jsonResponse("The notification and the unread count", notificationReadDto),
    400: errorResponse("Malformed id"),
    401: errorResponse("Not signed in"),
    404: errorResponse("No such notification of the caller"),
  },
});

export const notificationsApi = createApi()
  .openapi(listRoute, async (c) => c.json(await listNotifications(c.var.svc, viewerOf(c), c.req.valid("query")), 200))
  .openapi(readAllRoute, async (c) => c.json(await markAllNotificationsRead(c.var.svc, viewerOf(c)), 200))
  .openapi(readRoute, async (c) => c.json(await markNotificationRead(c.var.svc, viewerOf(c), c.req.valid("param").id), 200));
