/** A group's students, for its staff: GET /api/groups/{id}/students, PUT /api/groups/{id}/students/{userId}. */
import { createRoute, z } from "@hono/zod-openapi";
import { groupStudentsQuery, idOrSlugParam, quizTimeInput, studentStatusInput } from "../../app/lib/schemas";
import { noStore, requireStaffRole, viewerOf } from "../auth/middleware";
import { listGroupStudents, setQuizTime, setStudentStatus } from "../services/students";
import { createApi, errorResponse } from "./app";
import { groupStudentDto } from "./groups-dto";
import { jsonBody, jsonResponse } from "./users-dto";

const tags = ["Groups (staff)"];
const guards = { 401: errorResponse("Not signed in"), 403: errorResponse("Not this group's instructor or an admin") };

const listRoute = createRoute({
  method: "get",
  path: "/{id}/students",
  tags,
  summary: "The group's students with their status (members by default; ?status= one status or all; ?search= name or e-mail)",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam, query: groupStudentsQuery },
  responses: { 200: jsonResponse("Students by name", z.array(groupStudentDto)), 400: errorResponse("Invalid query"), ...guards, 404: errorResponse("No such group") },
});

const statusRoute = createRoute({
  method: "put",
  path: "/{id}/students/{userId}",
  tags,
  summary: "Switch a member between approved and special, remove them (their chat sockets close), or restore a removed student",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam.extend({ userId: idOrSlugParam.shape.id }), body: jsonBody(studentStatusInput) },
  responses: {
    200: jsonResponse("The student's membership", groupStudentDto),
    400: errorResponse("Invalid status"),
    ...guards,
    404: errorResponse("No such group, or the student has no membership in it"),
    409: errorResponse("Not allowed from the current status (pending, left, rejected), or the group is full"),
  },
});

const quizTimeRoute = createRoute({
  method: "put",
  path: "/{id}/students/{userId}/quiz-time",
  tags,
  summary: "An accommodation: the member's time on every timed quiz of the group (1, 1.25, 1.5, 2 or 3 times each quiz's duration), from their next attempt",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam.extend({ userId: idOrSlugParam.shape.id }), body: jsonBody(quizTimeInput) },
  responses: {
    200: jsonResponse("The student's membership", groupStudentDto),
    400: errorResponse("Not one of the multipliers"),
    ...guards,
    404: errorResponse("No such group, or the student has no membership in it"),
    409: errorResponse("Not a member (pending, left, rejected or removed)"),
  },
});

export const groupsStudentsApi = createApi()
  .openapi(listRoute, async (c) => c.json(await listGroupStudents(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("query")), 200))
  .openapi(statusRoute, async (c) => {
    const { id, userId } = c.req.valid("param");
    return c.json(await setStudentStatus(c.var.svc, viewerOf(c), id, userId, c.req.valid("json")), 200);
  })
  .openapi(quizTimeRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(await setQuizTime(c.var.svc, viewerOf(c), p.id, p.userId, c.req.valid("json")), 200);
  });
