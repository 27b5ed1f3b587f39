/** GET /api/students/{id}: a student's details and memberships, for staff (instructors: their own groups only). */
import { createRoute } from "@hono/zod-openapi";
import { idOrSlugParam } from "../../app/lib/schemas";
import { noStore, requireStaffRole, viewerOf } from "../auth/middleware";
import { getStudent } from "../services/students";
import { createApi, errorResponse } from "./app";
import { studentDto } from "./groups-dto";
import { jsonResponse } from "./users-dto";

const oneRoute = createRoute({
  method: "get",
  path: "/{id}",
  tags: ["Students (staff)"],
  summary: "A student by id or slug with their memberships (an instructor sees only memberships in their groups)",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam },
  responses: {
    200: jsonResponse("The student", studentDto),
    401: errorResponse("Not signed in"),
    403: errorResponse("Not staff, or (instructors) the student is in none of the caller's groups"),
    404: errorResponse("No such student"),
  },
});

export const studentsApi = createApi().openapi(oneRoute, async (c) => c.json(await getStudent(c.var.svc, viewerOf(c), c.req.valid("param").id), 200));
