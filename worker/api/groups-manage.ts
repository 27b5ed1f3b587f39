/** Staff group management: GET /api/groups/manage, GET /api/groups/manage/{id}, POST /api/groups, PUT /api/groups/{id}. */
import { createRoute } from "@hono/zod-openapi";
import { createGroupInput, idOrSlugParam, manageGroupsQuery, updateGroupInput } from "../../app/lib/schemas";
import { noStore, refuseFirst, requireStaffRole, viewerOf } from "../auth/middleware";
import { createGroup, getManagedGroup, listManagedGroups, requireGroupCreator, updateGroup } from "../services/groups-admin";
import { createApi, errorResponse } from "./app";
import { managedGroupDetailDto, managedGroupPageDto } from "./groups-dto";
import { jsonBody, jsonResponse } from "./users-dto";

const tags = ["Groups (staff)"];
const signedOut = errorResponse("Not signed in");

const listRoute = createRoute({
  method: "get",
  path: "/manage",
  tags,
  summary: "Groups the caller runs (admins: every group), with member and pending counts; search, status filter, paging",
  middleware: [noStore, requireStaffRole] as const,
  request: { query: manageGroupsQuery },
  responses: { 200: jsonResponse("One page of groups, newest first", managedGroupPageDto), 400: errorResponse("Invalid query"), 401: signedOut, 403: errorResponse("Not staff") },
});

const oneRoute = createRoute({
  method: "get",
  path: "/manage/{id}",
  tags,
  summary: "One group the caller runs, whatever its status, with its outline",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam },
  responses: {
    200: jsonResponse("The group", managedGroupDetailDto),
    401: signedOut,
    403: errorResponse("Not this group's instructor or an admin"),
    404: errorResponse("No such group"),
  },
});

const newGroupRoute = createRoute({
  method: "post",
  path: "/",
  tags,
  summary: "Create a group (admins); the slug is made from the title and never changes",
  middleware: [noStore, refuseFirst(requireGroupCreator)] as const,
  request: { body: jsonBody(createGroupInput) },
  responses: {
    201: jsonResponse("The new group", managedGroupDetailDto),
    400: errorResponse("Invalid fields, or instructorId is not an instructor"),
    401: signedOut,
    403: errorResponse("Not an admin"),
  },
});

const updateRoute = createRoute({
  method: "put",
  path: "/{id}",
  tags,
  summary: "Edit a group: admins every field; its instructor all but the instructor and archiving",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam, body: jsonBody(updateGroupInput) },
  responses: {
    200: jsonResponse("The updated group", managedGroupDetailDto),
    400: errorResponse("Invalid fields"),
    401: signedOut,
    403: errorResponse("Not allowed to run this group, or to change that field"),
    404: errorResponse("No such group"),
    409: errorResponse("capacity_below_members: fewer seats than members; has_members: a group with members does not go back to draft"),
  },
});

export const groupsManageApi = createApi()
  .openapi(listRoute, async (c) => c.json(await listManagedGroups(c.var.svc, viewerOf(c), c.req.valid("query")), 200))
  .openapi(oneRoute, async (c) => c.json(await getManagedGroup(c.var.svc, viewerOf(c), c.req.valid("param").id), 200))
  .openapi(newGroupRoute, async (c) => c.json(await createGroup(c.var.svc, viewerOf(c), c.req.valid("json")), 201))
  .openapi(updateRoute, async (c) => c.json(await updateGroup(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("json")), 200));
