/**
 * Extensions (issue 21), for a group's staff: a task's per-student due times under
 * /api/lectures/{lectureId}/tasks/{taskId}/extensions, and a quiz's per-student close, minutes and attempts under
 * /api/quizzes/{id}/extensions. Thin handlers over worker/services/extensions.ts.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { quizExtensionInput, taskExtensionInput } from "../../app/lib/extension-schemas";
import { idOrSlugParam } from "../../app/lib/schemas";
import { noStore, requireStaffRole, viewerOf } from "../auth/middleware";
import { listQuizExtensions, listTaskExtensions, removeQuizExtension, removeTaskExtension, setQuizExtensions, setTaskExtensions } from "../services/extensions";
import { createApi, errorResponse } from "./app";
import { jsonBody, jsonResponse, messageDto } from "./users-dto";

const tags = ["Extensions"];
const guards = { 401: errorResponse("Not signed in"), 403: errorResponse("Not this group's instructor or an admin"), 404: errorResponse("No such task, quiz or extension") };
const key = z.string().min(1).max(120).regex(/^[\p{L}\p{M}\p{N}_-]+$/u, "Invalid id");
const taskParams = z.object({ lectureId: key, taskId: key });
const userParam = { userId: z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, "Invalid id") };

const extensionDto = z
  .object({
    user: z.object({ _id: z.string(), name: z.string() }),
    dueAt: z.string().nullable().openapi({ description: "A task's due time for this student" }),
    closesAt: z.string().nullable().openapi({ description: "A quiz's close for this student (null: the quiz's own)" }),
    extraMinutes: z.number().int().openapi({ description: "Minutes added to each timed attempt, after any accommodation" }),
    extraAttempts: z.number().int().openapi({ description: "Attempts beyond the quiz's maximum" }),
    createdAt: z.string(),
  })
  .openapi("Extension");
const list = z.array(extensionDto);

const taskList = createRoute({
  method: "get",
  path: "/{lectureId}/tasks/{taskId}/extensions",
  tags,
  summary: "The students with their own due time on a task, by name",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: taskParams },
  responses: { 200: jsonResponse("Extensions", list), ...guards },
});

const taskSet = createRoute({
  method: "put",
  path: "/{lectureId}/tasks/{taskId}/extensions",
  tags,
  summary: "Give students of the group their own due time on a task (replacing any they had); each is notified",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: taskParams, body: jsonBody(taskExtensionInput) },
  responses: { 200: jsonResponse("The task's extensions", list), 400: errorResponse("Invalid time, or someone who is not a student of the group"), ...guards },
});

const taskRemove = createRoute({
  method: "delete",
  path: "/{lectureId}/tasks/{taskId}/extensions/{userId}",
  tags,
  summary: "Take a student's extension back: the task's due time is theirs again",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: taskParams.extend(userParam) },
  responses: { 200: jsonResponse("Removed", messageDto), ...guards },
});

const quizList = createRoute({
  method: "get",
  path: "/{id}/extensions",
  tags,
  summary: "The students with their own close, minutes or attempts on a quiz, by name",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam },
  responses: { 200: jsonResponse("Extensions", list), ...guards },
});

const quizSet = createRoute({
  method: "put",
  path: "/{id}/extensions",
  tags,
  summary:
    "Give students of the group a later close, extra minutes per attempt and/or extra attempts on a quiz (replacing any they had); each is notified. Answers shown after the close wait for the latest extended close.",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam, body: jsonBody(quizExtensionInput) },
  responses: {
    200: jsonResponse("The quiz's extensions", list),
    400: errorResponse("Invalid fields, a close before the quiz opens, or someone who is not a student of the group"),
    409: errorResponse("A student already sees the answers: no more attempts or later close for them"),
    ...guards,
  },
});

const quizRemove = createRoute({
  method: "delete",
  path: "/{id}/extensions/{userId}",
  tags,
  summary: "Take a student's quiz extension back (an attempt already running keeps its deadline)",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam.extend(userParam) },
  responses: { 200: jsonResponse("Removed", messageDto), ...guards },
});

export const taskExtensionsApi = createApi()
  .openapi(taskList, async (c) => {
    const p = c.req.valid("param");
    return c.json(await listTaskExtensions(c.var.svc, viewerOf(c), p.lectureId, p.taskId), 200);
  })
  .openapi(taskSet, async (c) => {
    const p = c.req.valid("param");
    return c.json(await setTaskExtensions(c.var.svc, viewerOf(c), p.lectureId, p.taskId, c.req.valid("json")), 200);
  })
  .openapi(taskRemove, async (c) => {
    const p = c.req.valid("param");
    return c.json(await removeTaskExtension(c.var.svc, viewerOf(c), p.lectureId, p.taskId, p.userId), 200);
  });

export const quizExtensionsApi = createApi()
  .openapi(quizList, async (c) => c.json(await listQuizExtensions(c.var.svc, viewerOf(c), c.req.valid("param").id), 200))
  .openapi(quizSet, async (c) => c.json(await setQuizExtensions(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("json")), 200))
  .openapi(quizRemove, async (c) => {
    const p = c.req.valid("param");
    return c.json(await removeQuizExtension(c.var.svc, viewerOf(c), p.id, p.userId), 200);
  });
