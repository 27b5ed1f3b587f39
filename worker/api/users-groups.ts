/**
 * Joining and leaving groups, under /api/users as the spec names them: POST /api/users/joinGroupRequest,
 * POST /api/users/leave-group, POST /api/users/withdraw-request; and the admins' instructor picker, GET /api/users/instructors.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { joinGroupInput, leaveGroupInput } from "../../app/lib/schemas";
import { requireAuth, viewerOf } from "../auth/middleware";
import { listInstructors } from "../services/groups-admin";
import { leaveGroup, requestToJoin, withdrawRequest } from "../services/memberships";
import { createApi, errorResponse } from "./app";
import { instructorDto, joinResultDto, leaveResultDto, withdrawResultDto } from "./groups-dto";
import { jsonBody, jsonResponse } from "./users-dto";

const tags = ["Membership"];
const signedOut = errorResponse("Not signed in");

const joinRoute = createRoute({
  method: "post",
  path: "/joinGroupRequest",
  tags,
  summary: "Ask to join a published group (students); re-asking after rejected, left or removed re-opens the request",
  middleware: [requireAuth] as const,
  request: { body: jsonBody(joinGroupInput) },
  responses: {
    201: jsonResponse("The pending request", joinResultDto),
    400: errorResponse("Invalid fields"),
    401: signedOut,
    403: errorResponse("Staff cannot join groups"),
    404: errorResponse("No such published group"),
    409: errorResponse("already_requested, already_member, group_closed (archived) or group_full"),
  },
});

const leaveRoute = createRoute({
  method: "post",
  path: "/leave-group",
  tags,
  summary: "Leave a group one is an approved or special member of; one's chat sockets in it close",
  middleware: [requireAuth] as const,
  request: { body: jsonBody(leaveGroupInput) },
  responses: {
    200: jsonResponse("Left", leaveResultDto),
    400: errorResponse("Invalid fields"),
    401: signedOut,
    404: errorResponse("No such group, or never a member (not_member)"),
    409: errorResponse("not_member: pending, rejected, left or removed"),
  },
});

const withdrawRoute = createRoute({
  method: "post",
  path: "/withdraw-request",
  tags,
  summary: "Take back one's pending request to join a group (deleted: one may ask again later)",
  middleware: [requireAuth] as const,
  request: { body: jsonBody(leaveGroupInput) },
  responses: {
    200: jsonResponse("Withdrawn", withdrawResultDto),
    400: errorResponse("Invalid fields"),
    401: signedOut,
    404: errorResponse("No such group"),
    409: errorResponse("not_pending: no request of one's own is waiting for this group"),
  },
});

const instructorsRoute = createRoute({
  method: "get",
  path: "/instructors",
  tags: ["Groups (staff)"],
  summary: "Every instructor, for assigning one to a group (admins)",
  middleware: [requireAuth] as const,
  responses: { 200: jsonResponse("Instructors by name", z.array(instructorDto)), 401: signedOut, 403: errorResponse("Not an admin") },
});

export const usersGroupsApi = createApi()
  .openapi(joinRoute, async (c) => c.json(await requestToJoin(c.var.svc, viewerOf(c), c.req.valid("json")), 201))
  .openapi(leaveRoute, async (c) => c.json(await leaveGroup(c.var.svc, viewerOf(c), c.req.valid("json")), 200))
  .openapi(withdrawRoute, async (c) => c.json(await withdrawRequest(c.var.svc, viewerOf(c), c.req.valid("json")), 200))
  .openapi(instructorsRoute, async (c) => c.json(await listInstructors(c.var.svc, viewerOf(c)), 200));
