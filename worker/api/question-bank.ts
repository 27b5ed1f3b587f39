/**
 * A group's question bank, for its staff (issue 21): GET and POST /api/groups/{id}/question-bank, PUT and DELETE
 * /api/groups/{id}/question-bank/{questionId}. Quizzes draw from it with `draws` (POST/PUT /api/quizzes).
 */
import { createRoute, z } from "@hono/zod-openapi";
import { bankQuestionInput } from "../../app/lib/quiz-schemas";
import { idOrSlugParam } from "../../app/lib/schemas";
import { noStore, requireStaffRole, viewerOf } from "../auth/middleware";
import { addBankQuestion, deleteBankQuestion, listBank, updateBankQuestion } from "../services/question-bank";
import { createApi, errorResponse } from "./app";
import { jsonBody, jsonResponse, messageDto } from "./users-dto";

const tags = ["Quizzes (staff)"];
const guards = { 401: errorResponse("Not signed in"), 403: errorResponse("Not this group's instructor or an admin"), 404: errorResponse("No such group or bank question") };
const params = idOrSlugParam.extend({ questionId: z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, "Invalid id") });

const bankQuestionDto = z
  .object({
    _id: z.string(),
    text: z.string(),
    type: z.string(),
    options: z.array(z.string()),
    correct: z.array(z.union([z.number(), z.string()])),
    points: z.number(),
    tags: z.array(z.string()),
    updatedAt: z.string(),
  })
  .openapi("BankQuestion");

const listRoute = createRoute({
  method: "get",
  path: "/{id}/question-bank",
  tags,
  summary: "The group's question bank, and how many questions each tag has",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam },
  responses: { 200: jsonResponse("The bank", z.object({ questions: z.array(bankQuestionDto), tags: z.record(z.string(), z.number()) })), ...guards },
});

const addRoute = createRoute({
  method: "post",
  path: "/{id}/question-bank",
  tags,
  summary: "Add a question to the bank: { question (as in a quiz; no code questions), tags (1 to 10) }",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam, body: jsonBody(bankQuestionInput) },
  responses: { 201: jsonResponse("The question", bankQuestionDto), 400: errorResponse("Invalid question or tags"), ...guards },
});

const updateRoute = createRoute({
  method: "put",
  path: "/{id}/question-bank/{questionId}",
  tags,
  summary: "Edit a bank question; attempts that already drew it keep the copy they were given",
  middleware: [noStore, requireStaffRole] as const,
  request: { params, body: jsonBody(bankQuestionInput) },
  responses: { 200: jsonResponse("The question", bankQuestionDto), 400: errorResponse("Invalid question or tags"), ...guards },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/{id}/question-bank/{questionId}",
  tags,
  summary: "Delete a bank question (attempts that drew it keep their copy)",
  middleware: [noStore, requireStaffRole] as const,
  request: { params },
  responses: { 200: jsonResponse("Deleted", messageDto), ...guards },
});

export const questionBankApi = createApi()
  .openapi(listRoute, async (c) => c.json(await listBank(c.var.svc, viewerOf(c), c.req.valid("param").id), 200))
  .openapi(addRoute, async (c) => c.json(await addBankQuestion(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("json")), 201))
  .openapi(updateRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(await updateBankQuestion(c.var.svc, viewerOf(c), p.id, p.questionId, c.req.valid("json")), 200);
  })
  .openapi(deleteRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(await deleteBankQuestion(c.var.svc, viewerOf(c), p.id, p.questionId), 200);
  });
