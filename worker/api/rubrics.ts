/**
 * A group's rubrics, for its staff: GET and POST /api/groups/{id}/rubrics, PUT and DELETE
 * /api/groups/{id}/rubrics/{rubricId}. A task takes one with `rubricId` (PUT /api/lectures/.../tasks/{taskId}).
 */
import { createRoute, z } from "@hono/zod-openapi";
import { rubricInput } from "../../app/lib/rubric-schemas";
import { idOrSlugParam } from "../../app/lib/schemas";
import { noStore, requireStaffRole, viewerOf } from "../auth/middleware";
import { createRubric, deleteRubric, listRubrics, updateRubric } from "../services/rubrics";
import { createApi, errorResponse } from "./app";
import { jsonBody, jsonResponse, messageDto } from "./users-dto";

const tags = ["Rubrics"];
const guards = { 401: errorResponse("Not signed in"), 403: errorResponse("Not this group's instructor or an admin"), 404: errorResponse("No such group or rubric") };
const rubricParams = idOrSlugParam.extend({ rubricId: z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, "Invalid id") });

const level = z.object({ title: z.string(), description: z.string(), points: z.number().int() });
export const rubricDto = z
  .object({
    _id: z.string(),
    title: z.string(),
    criteria: z.array(z.object({ id: z.string(), title: z.string(), description: z.string(), levels: z.array(level) })),
    total: z.number().int().openapi({ description: "The best level of every criterion added up: the maximum score of a task that carries the rubric" }),
    tasks: z.array(z.object({ _id: z.string(), slug: z.string(), title: z.string() })).openapi({ description: "The group's tasks that carry it" }),
    updatedAt: z.string(),
  })
  .openapi("Rubric");

const listRoute = createRoute({
  method: "get",
  path: "/{id}/rubrics",
  tags,
  summary: "The group's rubrics by title, each with the tasks that carry it",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam },
  responses: { 200: jsonResponse("Rubrics", z.array(rubricDto)), ...guards },
});

const createRubricRoute = createRoute({
  method: "post",
  path: "/{id}/rubrics",
  tags,
  summary: "A new rubric: criteria (1 to 20), each with 2 to 8 levels of title, description and points",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam, body: jsonBody(rubricInput) },
  responses: { 201: jsonResponse("The rubric", rubricDto), 400: errorResponse("Invalid fields"), ...guards },
});

const updateRoute = createRoute({
  method: "put",
  path: "/{id}/rubrics/{rubricId}",
  tags,
  summary: "Edit a rubric; the tasks that carry it take its new total as their maximum",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: rubricParams, body: jsonBody(rubricInput) },
  responses: {
    200: jsonResponse("The rubric", rubricDto),
    400: errorResponse("Invalid fields"),
    ...guards,
    409: errorResponse("rubric_in_use: work was graded with it, so only its words may change"),
  },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/{id}/rubrics/{rubricId}",
  tags,
  summary: "Delete a rubric; tasks that carried it keep their maximum score and grades keep the filled rubric",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: rubricParams },
  responses: { 200: jsonResponse("Deleted", messageDto), ...guards },
});

export const rubricsApi = createApi()
  .openapi(listRoute, async (c) => c.json(await listRubrics(c.var.svc, viewerOf(c), c.req.valid("param").id), 200))
  .openapi(createRubricRoute, async (c) => c.json(await createRubric(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("json")), 201))
  .openapi(updateRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(await updateRubric(c.var.svc, viewerOf(c), p.id, p.rubricId, c.req.valid("json")), 200);
  })
  .openapi(deleteRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(await deleteRubric(c.var.svc, viewerOf(c), p.id, p.rubricId), 200);
  });
