/** The e-mail requests inbox: GET /api/membership-requests, PUT /api/membership-requests/{id}. */
import { createRoute, z } from "@hono/zod-openapi";
import { membershipDecisionInput, membershipRequestsQuery } from "../../app/lib/schemas";
import { noStore, requireStaffRole, viewerOf } from "../auth/middleware";
import { decideMembershipRequest, listMembershipRequests } from "../services/membership-requests";
import { createApi, errorResponse } from "./app";
import { membershipRequestDto } from "./groups-dto";
import { jsonBody, jsonResponse } from "./users-dto";

const tags = ["Membership requests"];

const listRoute = createRoute({
  method: "get",
  path: "/",
  tags,
  summary: "Join requests of the groups the caller runs (admins: all), newest first; pending unless ?status=",
  middleware: [noStore, requireStaffRole] as const,
  request: { query: membershipRequestsQuery },
  responses: {
    200: jsonResponse("Requests, newest first", z.array(membershipRequestDto)),
    400: errorResponse("Invalid query"),
    401: errorResponse("Not signed in"),
    403: errorResponse("Not staff, or not staff of ?groupId"),
    404: errorResponse("No such group"),
  },
});

const decideRoute = createRoute({
  method: "put",
  path: "/{id}",
  tags,
  summary: "Approve, approve as special, or reject a pending request; the student is e-mailed and notified",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: z.object({ id: z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, "Invalid id") }), body: jsonBody(membershipDecisionInput) },
  responses: {
    200: jsonResponse("The decided request", membershipRequestDto),
    400: errorResponse("Invalid decision"),
    401: errorResponse("Not signed in"),
    403: errorResponse("Not this group's instructor or an admin"),
    404: errorResponse("No such request"),
    409: errorResponse("already_decided, or group_full: no seat left for an approval"),
  },
});

export const membershipRequestsApi = createApi()
  .openapi(listRoute, async (c) => c.json(await listMembershipRequests(c.var.svc, viewerOf(c), c.req.valid("query")), 200))
  .openapi(decideRoute, async (c) => c.json(await decideMembershipRequest(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("json")), 200));
