/** A group's public course outline, for its staff: /api/groups/{id}/content[/order|/{contentId}]. */
import { createRoute, z } from "@hono/zod-openapi";
import { courseContentInput, courseContentOrderInput, idOrSlugParam, updateCourseContentInput } from "../../app/lib/schemas";
import { noStore, requireStaffRole, viewerOf } from "../auth/middleware";
import { addGroupContent, deleteGroupContent, listGroupContent, reorderGroupContent, updateGroupContent } from "../services/course-content";
import { createApi, errorResponse } from "./app";
import { courseContentDto } from "./dto";
import { jsonBody, jsonResponse, messageDto } from "./users-dto";

const tags = ["Groups (staff)"];
const guards = { 401: errorResponse("Not signed in"), 403: errorResponse("Not this group's instructor or an admin"), 404: errorResponse("No such group or item") };
const itemParams = idOrSlugParam.extend({ contentId: z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, "Invalid id") });

const listRoute = createRoute({
  method: "get",
  path: "/{id}/content",
  tags,
  summary: "The group's outline in order",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam },
  responses: { 200: jsonResponse("Items in order", z.array(courseContentDto)), ...guards },
});

const addRoute = createRoute({
  method: "post",
  path: "/{id}/content",
  tags,
  summary: "Add an item at the end of the outline",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam, body: jsonBody(courseContentInput) },
  responses: { 201: jsonResponse("The new item", courseContentDto), 400: errorResponse("Invalid fields"), ...guards },
});

const orderRoute = createRoute({
  method: "put",
  path: "/{id}/content/order",
  tags,
  summary: "Reorder the outline: every item id, in the new order (one atomic batch)",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam, body: jsonBody(courseContentOrderInput) },
  responses: { 200: jsonResponse("Items in their new order", z.array(courseContentDto)), 400: errorResponse("Invalid list"), ...guards, 409: errorResponse("The list does not name every item exactly once") },
});

const updateRoute = createRoute({
  method: "put",
  path: "/{id}/content/{contentId}",
  tags,
  summary: "Edit an item's title and/or body",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: itemParams, body: jsonBody(updateCourseContentInput) },
  responses: { 200: jsonResponse("The item", courseContentDto), 400: errorResponse("Invalid fields"), ...guards },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/{id}/content/{contentId}",
  tags,
  summary: "Remove an item from the outline",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: itemParams },
  responses: { 200: jsonResponse("Removed", messageDto), ...guards },
});

export const groupsContentApi = createApi()
  .openapi(listRoute, async (c) => c.json(await listGroupContent(c.var.svc, viewerOf(c), c.req.valid("param").id), 200))
  .openapi(addRoute, async (c) => c.json(await addGroupContent(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("json")), 201))
  .openapi(orderRoute, async (c) => c.json(await reorderGroupContent(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("json")), 200))
  .openapi(updateRoute, async (c) => {
    const { id, contentId } = c.req.valid("param");
    return c.json(await updateGroupContent(c.var.svc, viewerOf(c), id, contentId, c.req.valid("json")), 200);
  })
  .openapi(deleteRoute, async (c) => {
    const { id, contentId } = c.req.valid("param");
    return c.json(await deleteGroupContent(c.var.svc, viewerOf(c), id, contentId), 200);
  });
