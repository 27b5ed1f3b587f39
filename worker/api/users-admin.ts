/** Admins' user management: GET /api/users, DELETE /api/users, PUT /api/users/{id}/role. */
import { createRoute, z } from "@hono/zod-openapi";
import { changeRoleInput, idOrSlugParam, listUsersQuery } from "../../app/lib/schemas";
import { requireRole, viewerOf } from "../auth/middleware";
import { AppError } from "../http/errors";
import { changeRole, deleteUser, listUsers } from "../services/users";
import { createApi, errorResponse } from "./app";
import { jsonBody, jsonResponse, messageDto, userDto, userPageDto } from "./users-dto";

const tags = ["Users (admin)"];
const guards = { 401: errorResponse("Not signed in"), 403: errorResponse("Not an admin") };
const adminOnly = requireRole("admin");

const listRoute = createRoute({
  method: "get",
  path: "/",
  tags,
  summary: "Search and page through users",
  middleware: [adminOnly] as const,
  request: { query: listUsersQuery },
  responses: { 200: jsonResponse("One page of users, newest first", userPageDto), 400: errorResponse("Invalid query"), ...guards },
});

const userIdField = z.string().min(1).max(120).regex(/^[\p{L}\p{M}\p{N}_-]+$/u, "Invalid id");

const deleteRoute = createRoute({
  method: "delete",
  path: "/",
  tags,
  summary: "Delete a user (by id or slug, in the body as userId or in the query as ?id=)",
  middleware: [adminOnly] as const,
  request: {
    query: z.object({ id: userIdField.optional() }),
    body: { required: false, content: { "application/json": { schema: z.object({ userId: userIdField.optional() }) } } },
  },
  responses: {
    200: jsonResponse("Deleted", messageDto),
    400: errorResponse("No user given"),
    ...guards,
    404: errorResponse("No such user"),
    409: errorResponse("last_admin: the last admin cannot be deleted; runs_groups: an instructor who runs groups is not deleted before they are given to another"),
  },
});

const roleRoute = createRoute({
  method: "put",
  path: "/{id}/role",
  tags,
  summary: "Change a user's role (takes effect on their next request)",
  middleware: [adminOnly] as const,
  request: { params: idOrSlugParam, body: jsonBody(changeRoleInput) },
  responses: {
    200: jsonResponse("The updated user", userDto),
    400: errorResponse("Invalid role"),
    ...guards,
    404: errorResponse("No such user"),
    409: errorResponse("last_admin: the last admin cannot be demoted; runs_groups: an instructor who runs groups keeps the role until they are given to another"),
  },
});

export const usersAdminApi = createApi()
  .openapi(listRoute, async (c) => c.json(await listUsers(c.var.svc, viewerOf(c), c.req.valid("query")), 200))
  .openapi(deleteRoute, async (c) => {
    const target = c.req.valid("json").userId ?? c.req.valid("query").id;
    if (!target) throw new AppError(400, "validation_failed", "Which user? Send userId.", { userId: "Which user? Send userId." });
    return c.json(await deleteUser(c.var.svc, viewerOf(c), target), 200);
  })
  .openapi(roleRoute, async (c) => c.json(await changeRole(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("json")), 200));
