/** Scheduled publishing (issue 22): PUT /api/schedule/{kind}/{id}. */
import { createRoute, z } from "@hono/zod-openapi";
import { SCHEDULE_KINDS, scheduleInput } from "../../app/lib/lifecycle-schemas";
import { noStore, requireStaffRole, viewerOf } from "../auth/middleware";
import { setSchedule } from "../services/schedule";
import { createApi, errorResponse } from "./app";
import { jsonBody, jsonResponse } from "./users-dto";

const params = z.object({
  kind: z.enum(SCHEDULE_KINDS, "The kind is lecture, task or quiz.").openapi({ param: { name: "kind", in: "path" } }),
  id: z.string().trim().min(1).max(120).regex(/^[\p{L}\p{M}\p{N}_-]+$/u, "Invalid id").openapi({ param: { name: "id", in: "path" }, description: "The lecture's, task's or quiz's id or slug" }),
});

const route = createRoute({
  method: "put",
  path: "/{kind}/{id}",
  tags: ["Scheduling"],
  summary:
    "Publish at a set time: a draft lecture or quiz is published, or a task shown to students, by the server at publishAt, and the members are told then. null takes a lecture's or quiz's schedule off (it stays a draft) and shows a scheduled task now.",
  middleware: [noStore, requireStaffRole] as const,
  request: { params, body: jsonBody(scheduleInput) },
  responses: {
    200: jsonResponse(
      "The schedule",
      z.object({ kind: z.enum(SCHEDULE_KINDS), _id: z.string(), slug: z.string(), publishAt: z.string().nullable(), published: z.boolean() }).openapi("Schedule"),
    ),
    400: errorResponse("A time in the past, or invalid fields"),
    401: errorResponse("Not signed in"),
    403: errorResponse("Not this group's instructor or an admin"),
    404: errorResponse("No such lecture, task or quiz"),
    409: errorResponse("Already published (lecture, quiz), already shown or handed in (task), or the group is archived (group_archived)"),
  },
});

export const scheduleApi = createApi().openapi(route, async (c) => {
  const p = c.req.valid("param");
  return c.json(await setSchedule(c.var.svc, viewerOf(c), p.kind, p.id, c.req.valid("json").publishAt), 200);
});
