/**
 * Announcements (issue 22): GET and POST /api/groups/{id}/announcements, DELETE
 * /api/groups/{id}/announcements/{announcementId}, POST /api/groups/{id}/announcements/{announcementId}/dismiss.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { announcementInput } from "../../app/lib/lifecycle-schemas";
import { idOrSlugParam } from "../../app/lib/schemas";
import { noStore, requireAuth, requireStaffRole, viewerOf } from "../auth/middleware";
import { deleteAnnouncement, dismissAnnouncement, listAnnouncements, postAnnouncement } from "../services/announcements";
import { createApi, errorResponse } from "./app";
import { jsonBody, jsonResponse, messageDto } from "./users-dto";

const tags = ["Announcements"];
const params = idOrSlugParam.extend({ announcementId: z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, "Invalid id") });

export const announcementDto = z
  .object({
    _id: z.string(),
    title: z.string(),
    body: z.string().openapi({ description: "Markdown, as written" }),
    bodyHtml: z.string().openapi({ description: "The Markdown rendered and sanitised when it was posted" }),
    author: z.string().nullable(),
    createdAt: z.string(),
    expiresAt: z.string().nullable().openapi({ description: "When it stops being pinned; null: until each member dismisses it" }),
    dismissed: z.number().int().optional().openapi({ description: "Staff only: members who dismissed it" }),
  })
  .openapi("Announcement");

const listRoute = createRoute({
  method: "get",
  path: "/{id}/announcements",
  tags,
  summary: "Staff: every announcement of the group, newest first, with dismissal counts. Members: those still pinned for them.",
  middleware: [noStore, requireAuth] as const,
  request: { params: idOrSlugParam },
  responses: { 200: jsonResponse("Announcements", z.array(announcementDto)), 401: errorResponse("Not signed in"), 403: errorResponse("Not a member or staff of the group"), 404: errorResponse("No such group") },
});

const postRoute = createRoute({
  method: "post",
  path: "/{id}/announcements",
  tags,
  summary: "Post an announcement (Markdown): every member gets it live in the bell, by e-mail in their language, and pinned on the course home",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam, body: jsonBody(announcementInput) },
  responses: {
    201: jsonResponse("The announcement", announcementDto),
    400: errorResponse("Invalid fields"),
    401: errorResponse("Not signed in"),
    403: errorResponse("Not this group's instructor or an admin"),
    404: errorResponse("No such group"),
  },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/{id}/announcements/{announcementId}",
  tags,
  summary: "Delete an announcement (it is no longer pinned for anyone)",
  middleware: [noStore, requireStaffRole] as const,
  request: { params },
  responses: { 200: jsonResponse("Deleted", messageDto), 401: errorResponse("Not signed in"), 403: errorResponse("Not this group's instructor or an admin"), 404: errorResponse("No such announcement in this group") },
});

const dismissRoute = createRoute({
  method: "post",
  path: "/{id}/announcements/{announcementId}/dismiss",
  tags,
  summary: "A member unpins an announcement for themselves",
  middleware: [noStore, requireAuth] as const,
  request: { params },
  responses: { 200: jsonResponse("Dismissed", messageDto), 401: errorResponse("Not signed in"), 403: errorResponse("Not a member of the group"), 404: errorResponse("No such announcement in this group") },
});

export const announcementsApi = createApi()
  .openapi(listRoute, async (c) => c.json(await listAnnouncements(c.var.svc, viewerOf(c), c.req.valid("param").id), 200))
  .openapi(postRoute, async (c) => c.json(await postAnnouncement(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("json")), 201))
  .openapi(deleteRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(await deleteAnnouncement(c.var.svc, viewerOf(c), p.id, p.announcementId), 200);
  })
  .openapi(dismissRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(await dismissAnnouncement(c.var.svc, viewerOf(c), p.id, p.announcementId), 200);
  });
