/**
 * Manual override and regrade (issue 21), for a quiz's staff: one attempt answer by answer
 * (GET /api/quizzes/{id}/attempts/{attemptId}), other points for one answer with a note
 * (PUT .../attempts/{attemptId}/answers/{questionId}) and a corrected key that regrades every attempt
 * (PUT /api/quizzes/{id}/questions/{questionId}/key). Thin handlers over worker/services/quiz-regrade.ts.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { answerPointsInput, questionKeyInput } from "../../app/lib/quiz-schemas";
import { idOrSlugParam } from "../../app/lib/schemas";
import { noStore, requireStaffRole, viewerOf } from "../auth/middleware";
import { correctKey, getAttemptForStaff, setAnswerPoints } from "../services/quiz-regrade";
import { createApi, errorResponse } from "./app";
import { jsonBody, jsonResponse } from "./users-dto";

const tags = ["Quizzes (staff)"];
const guards = { 401: errorResponse("Not signed in"), 403: errorResponse("Not this group's instructor or an admin"), 404: errorResponse("No such quiz, attempt or question") };
const id = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, "Invalid id");

const attemptDto = z
  .object({
    quiz: z.object({ _id: z.string(), slug: z.string(), title: z.string(), lectureSlug: z.string(), groupId: z.string() }),
    _id: z.string(),
    number: z.number().int(),
    user: z.object({ _id: z.string(), name: z.string() }),
    score: z.number(),
    maxScore: z.number(),
    submittedAt: z.string().nullable(),
    questions: z.array(
      z.object({
        _id: z.string(),
        text: z.string(),
        type: z.string(),
        options: z.array(z.string()),
        points: z.number(),
        answer: z.unknown(),
        correct: z.array(z.union([z.number(), z.string()])),
        right: z.boolean(),
        earned: z.number(),
        override: z.object({ points: z.number(), note: z.string() }).nullable(),
        tests: z
          .array(z.object({ name: z.string(), passed: z.boolean(), hidden: z.boolean() }))
          .nullable()
          .openapi({ description: "A code answer: each test as judged when this code was run (hidden tests by name too); null otherwise or when not known" }),
      }),
    ),
  })
  .openapi("StaffAttempt");

const getRoute = createRoute({
  method: "get",
  path: "/{id}/attempts/{attemptId}",
  tags,
  summary: "One student's attempt, answer by answer beside the key, with any points staff gave instead",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam.extend({ attemptId: id }) },
  responses: { 200: jsonResponse("The attempt", attemptDto), ...guards },
});

const pointsRoute = createRoute({
  method: "put",
  path: "/{id}/attempts/{attemptId}/answers/{questionId}",
  tags,
  summary: "Give one handed-in answer other points than the key gives (0 to the question's points), with a note the student sees; null points use the key again. The score follows and the student is notified of a changed best score.",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam.extend({ attemptId: id, questionId: id }), body: jsonBody(answerPointsInput) },
  responses: { 200: jsonResponse("The attempt", attemptDto), 400: errorResponse("Points above the question's"), 409: errorResponse("The attempt is still open"), ...guards },
});

const keyRoute = createRoute({
  method: "put",
  path: "/{id}/questions/{questionId}/key",
  tags,
  summary:
    "Correct a question's key (and points) after students answered it; every handed-in attempt is regraded in one batch, and students whose best score changed are notified. A question drawn from the bank is corrected on every paper of the quiz that drew it (attemptId names the copy meant) and in the bank when it is still the question drawn; its points are the draw's",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam.extend({ questionId: id }), body: jsonBody(questionKeyInput) },
  responses: {
    200: jsonResponse("The new key and how many attempts changed", z.object({ question: z.object({ _id: z.string(), correct: z.array(z.union([z.number(), z.string()])), points: z.number() }), regraded: z.number().int(), bank: z.enum(["corrected", "changed", "gone"]).optional() })),
    400: errorResponse("A key that does not fit the question, or a code question"),
    ...guards,
  },
});

export const quizRegradeApi = createApi()
  .openapi(getRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(await getAttemptForStaff(c.var.svc, viewerOf(c), p.id, p.attemptId), 200);
  })
  .openapi(pointsRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(await setAnswerPoints(c.var.svc, viewerOf(c), p.id, p.attemptId, p.questionId, c.req.valid("json")), 200);
  })
  .openapi(keyRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(await correctKey(c.var.svc, viewerOf(c), p.id, p.questionId, c.req.valid("json")), 200);
  });
