/**
 * Code exercises under /api/exercises (issue "Code exercises graded at the edge"): `{taskId}` accepts the task's id
 * or slug. Thin handlers over worker/services/exercises.ts.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { codeInput, exerciseInput } from "../../app/lib/exercise-schemas";
import { noStore, requireAuth, requireStaffRole, viewerOf } from "../auth/middleware";
import { CODE_LANGUAGES } from "../sandbox/types";
import { checkReference, getExercise, rerunExercise, saveDraft, saveExercise, submitCode } from "../services/exercises";
import { createApi, errorResponse } from "./app";
import { report } from "./report-dto";
import { jsonBody, jsonResponse } from "./users-dto";

const tags = ["Code exercises"];
const key = z.string().min(1).max(120).regex(/^[\p{L}\p{M}\p{N}_-]+$/u, "Invalid id");
const params = z.object({ taskId: key });
const guards = { 400: errorResponse("Invalid id or fields"), 401: errorResponse("Not signed in"), 403: errorResponse("Not allowed for this group"), 404: errorResponse("No such task or exercise") };

const codeTest = z.object({ name: z.string(), call: z.string(), expected: z.string(), points: z.number(), hidden: z.boolean() });
const exerciseDto = z
  .object({
    task: z.object({ _id: z.string(), slug: z.string(), title: z.string(), body: z.string(), dueAt: z.string().nullable(), maxScore: z.number(), allowLate: z.boolean(), lectureSlug: z.string() }),
    group: z.object({ _id: z.string(), slug: z.string(), title: z.string() }),
    language: z.enum(CODE_LANGUAGES),
    starterCode: z.string(),
    timeMs: z.number(),
    memoryMb: z.number(),
    published: z.boolean(),
    isStaff: z.boolean(),
    tests: z.array(codeTest).optional().openapi({ description: "Staff only" }),
    referenceSolution: z.string().optional().openapi({ description: "Staff only" }),
    verifiedAt: z.string().nullable().optional().openapi({ description: "Staff only: when the reference last passed every test" }),
    handIns: z.number().optional().openapi({ description: "Staff only: how many students' code hand-ins the tests graded (what a rerun runs)" }),
    visibleTests: z.array(z.object({ name: z.string(), call: z.string(), expected: z.string(), points: z.number() })).optional(),
    hiddenTests: z.array(z.object({ name: z.string(), points: z.number() })).optional(),
    draft: z.object({ code: z.string(), savedAt: z.string() }).nullable().optional(),
    submission: z
      .object({ code: z.string().nullable(), score: z.number().nullable(), submittedAt: z.string(), late: z.boolean(), gradedByStaff: z.boolean(), feedback: z.string().nullable(), report: report.nullable() })
      .nullable()
      .optional(),
  })
  .openapi("Exercise");

const getRoute = createRoute({
  method: "get",
  path: "/{taskId}",
  tags,
  summary: "The exercise: staff get the tests and the reference; a student the visible tests, hidden tests' names, their draft and last hand-in",
  middleware: [noStore, requireAuth] as const,
  request: { params },
  responses: { 200: jsonResponse("Exercise", exerciseDto), ...guards },
});
const putRoute = createRoute({
  method: "put",
  path: "/{taskId}",
  tags,
  summary: "Staff: write the exercise; the reference solution is run against the tests, and publishing needs every test to pass",
  middleware: [noStore, requireStaffRole] as const,
  request: { params, body: jsonBody(exerciseInput) },
  responses: { 200: jsonResponse("Saved, with the reference's report", exerciseDto.extend({ reference: report })), ...guards, 409: errorResponse("Publishing refused: the reference fails a test (fields.referenceSolution lists them)") },
});
const referenceRoute = createRoute({
  method: "post",
  path: "/{taskId}/reference",
  tags,
  summary: "Staff: run the stored reference solution against every test",
  middleware: [noStore, requireStaffRole] as const,
  request: { params },
  responses: { 200: jsonResponse("The reference's report", report), ...guards },
});
const rerunRoute = createRoute({
  method: "post",
  path: "/{taskId}/rerun",
  tags,
  summary: "Staff: after the tests changed, run them as they are now on every hand-in's code; grades staff gave stay, students whose grade changed are told",
  middleware: [noStore, requireStaffRole] as const,
  request: { params },
  responses: {
    200: jsonResponse("How many hand-ins ran, and how many of their scores changed", z.object({ ran: z.number(), changed: z.number() })),
    ...guards,
    409: errorResponse("No tests yet (no_tests), a draft (not_published), more hand-ins than one run takes (too_many_hand_ins), or a run of this exercise already under way (rerun_running)"),
  },
});
const draftRoute = createRoute({
  method: "put",
  path: "/{taskId}/draft",
  tags,
  summary: "A student's code as they type (saved again on every call)",
  middleware: [noStore, requireAuth] as const,
  request: { params, body: jsonBody(codeInput) },
  responses: { 200: jsonResponse("Saved", z.object({ savedAt: z.string() })), ...guards },
});
const submitRoute = createRoute({
  method: "post",
  path: "/{taskId}/submit",
  tags,
  summary: "A student hands in their code: every test runs on the server; the answer is the score and the report (hidden tests: name and pass/fail only)",
  middleware: [noStore, requireAuth] as const,
  request: { params, body: jsonBody(codeInput) },
  responses: {
    200: jsonResponse("Handed in again", z.object({ created: z.boolean(), score: z.number(), maxScore: z.number(), late: z.boolean(), report })),
    201: jsonResponse("Handed in", z.object({ created: z.boolean(), score: z.number(), maxScore: z.number(), late: z.boolean(), report })),
    ...guards,
    409: errorResponse("Past the due time without late work, or already graded by staff"),
    429: errorResponse("Too many hand-ins in a minute"),
  },
});

export const exercisesApi = createApi()
  .openapi(getRoute, async (c) => c.json(await getExercise(c.var.svc, viewerOf(c), c.req.valid("param").taskId), 200))
  .openapi(putRoute, async (c) => c.json(await saveExercise(c.var.svc, viewerOf(c), c.req.valid("param").taskId, c.req.valid("json")), 200))
  .openapi(referenceRoute, async (c) => c.json(await checkReference(c.var.svc, viewerOf(c), c.req.valid("param").taskId), 200))
  .openapi(rerunRoute, async (c) => c.json(await rerunExercise(c.var.svc, viewerOf(c), c.req.valid("param").taskId), 200))
  .openapi(draftRoute, async (c) => c.json(await saveDraft(c.var.svc, viewerOf(c), c.req.valid("param").taskId, c.req.valid("json").code), 200))
  .openapi(submitRoute, async (c) => {
    const result = await submitCode(c.var.svc, viewerOf(c), c.req.valid("param").taskId, c.req.valid("json").code);
    return result.created ? c.json(result, 201) : c.json(result, 200);
  });
