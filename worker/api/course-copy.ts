/**
 * Reusing a course (issue 22): POST /api/groups/{id}/copy (a new draft group from this one) and
 * POST /api/lectures/{id}/copy (one lecture with its work into another group the caller runs).
 */
import { createRoute, z } from "@hono/zod-openapi";
import { copyGroupInput, copyLectureInput } from "../../app/lib/lifecycle-schemas";
import { idOrSlugParam } from "../../app/lib/schemas";
import { noStore, requireStaffRole, viewerOf } from "../auth/middleware";
import { copyGroup, copyLecture } from "../services/course-copy";
import { createApi, errorResponse } from "./app";
import { managedGroupDetailDto } from "./groups-dto";
import { jsonBody, jsonResponse } from "./users-dto";

const copiedDto = z
  .object({ lectures: z.number().int(), tasks: z.number().int(), quizzes: z.number().int(), questions: z.number().int() })
  .openapi("CopiedCounts", { description: "What the copy holds" });

const copyGroupRoute = createRoute({
  method: "post",
  path: "/{id}/copy",
  tags: ["Groups (manage)"],
  summary: "A new draft group from this one: outline, rubrics, question bank, lectures, tasks, exercises and quizzes, unpublished, every date moved so the first lecture falls on startDate at its hour (in the group's time zone). No student data.",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam, body: jsonBody(copyGroupInput) },
  responses: {
    201: jsonResponse("The new group", z.object({ group: managedGroupDetailDto, copied: copiedDto, shiftedDays: z.number().int() }).openapi("GroupCopy")),
    400: errorResponse("Invalid fields"),
    401: errorResponse("Not signed in"),
    403: errorResponse("Not this group's instructor or an admin (or an instructor naming another instructor)"),
    404: errorResponse("No such group"),
    409: errorResponse("No free address for the copy; try again"),
  },
});

const copyLectureRoute = createRoute({
  method: "post",
  path: "/{id}/copy",
  tags: ["Lectures"],
  summary: "Copy a lecture with its tasks and quizzes into a group the caller runs (unpublished, after its lectures); with startsAt the work moves by as much",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam, body: jsonBody(copyLectureInput) },
  responses: {
    201: jsonResponse(
      "The copy",
      z.object({ lecture: z.object({ _id: z.string(), slug: z.string() }), group: z.object({ _id: z.string(), slug: z.string(), title: z.string() }), copied: copiedDto }).openapi("LectureCopy"),
    ),
    400: errorResponse("Invalid fields"),
    401: errorResponse("Not signed in"),
    403: errorResponse("Not staff of the lecture's group and of the target group"),
    404: errorResponse("No such lecture or group"),
  },
});

export const groupCopyApi = createApi().openapi(copyGroupRoute, async (c) => c.json(await copyGroup(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("json")), 201));
export const lectureCopyApi = createApi().openapi(copyLectureRoute, async (c) => c.json(await copyLecture(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("json")), 201));
