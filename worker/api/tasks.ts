/**
 * Tasks, submissions and grading under /api/lectures (platform-spec §7): `{lectureId}`, `{taskId}` and the group
 * `{id}` accept ids or slugs. Thin handlers over worker/services/tasks.ts.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { report } from "./report-dto";
import { idOrSlugParam } from "../../app/lib/schemas";
import { createTaskInput, gradeSubmissionInput, submitTaskInput, updateTaskInput } from "../../app/lib/task-schemas";
import { noStore, requireAuth, requireStaffRole, viewerOf } from "../auth/middleware";
import { createTask, deleteTask, getSubmission, getTask, gradeSubmission, listGroupTasks, listSubmissions, releaseGrades, submitTask, updateTask } from "../services/tasks";
import { createApi, errorResponse } from "./app";
import { jsonBody, jsonResponse, messageDto } from "./users-dto";

const tags = ["Tasks and submissions"];
const guards = { 401: errorResponse("Not signed in"), 403: errorResponse("Not allowed for this group"), 404: errorResponse("No such group, lecture, task or submission") };
const key = z.string().min(1).max(120).regex(/^[\p{L}\p{M}\p{N}_-]+$/u, "Invalid id");
const taskParams = z.object({ lectureId: key, taskId: key });
const submissionParams = taskParams.extend({ submissionId: key });

const state = z.enum(["not-submitted", "submitted", "late", "graded", "resubmission-requested"]);
const taskDto = z
  .object({
    _id: z.string(),
    slug: z.string(),
    title: z.string(),
    dueAt: z.string().nullable(),
    maxScore: z.number(),
    allowLate: z.boolean(),
    gradesHeld: z.boolean().openapi({ description: "Staff-given grades are held from students until released (POST .../release-grades)." }),
    latePenaltyPerDay: z.number().int().openapi({ description: "Percent of the grade taken off per started day late (0: none)" }),
    latePenaltyFloor: z.number().int().openapi({ description: "The share of the grade, in percent, a late hand-in always keeps" }),
    rubricId: z.string().nullable().openapi({ description: "Graded with this rubric of the group (its total is maxScore); null: a plain score" }),
    publishAt: z.string().nullable().openapi({ description: "Scheduled: students see the task from this time, when the server publishes it and tells them; null: it shows with its lecture" }),
    extendedFrom: z.string().nullable().openapi({ description: "The task's own due time when the reader has an extension (dueAt is then theirs); null otherwise" }),
    fileKinds: z.array(z.string()).openapi({ description: "A file hand-in: the kinds accepted (pdf, image, text, zip), judged by content; empty: a link is handed in" }),
    maxFileMb: z.number().int().openapi({ description: "The largest file a student may hand in, in MB" }),
    lectureSlug: z.string(),
  })
  .openapi("Task");
const taskListDto = z.array(
  taskDto.extend({
    submission: z
      .object({ state, score: z.number().nullable(), feedback: z.string().nullable(), feedbackHtml: z.string().nullable(), submittedAt: z.string().nullable() })
      .nullable()
      .openapi({ description: "The student's own hand-in; a held grade reads as handed in, with no score or feedback." }),
  }),
);
const criterion = z.object({ id: z.string(), title: z.string(), description: z.string(), levels: z.array(z.object({ title: z.string(), description: z.string(), points: z.number().int() })) });
const taskDetailDto = taskDto
  .extend({
    rubric: z
      .object({ _id: z.string(), title: z.string(), criteria: z.array(criterion), total: z.number().int() })
      .nullable()
      .openapi({ description: "The rubric the task is graded with, for everyone who reads the task" }),
    body: z.string(),
    bodyHtml: z.string(),
    lecture: z.object({ _id: z.string(), slug: z.string(), title: z.string() }),
    group: z.object({ _id: z.string(), slug: z.string(), title: z.string(), ended: z.boolean().openapi({ description: "The group is archived: its course has ended and takes no hand-in (409 course_ended)" }) }),
  })
  .openapi("TaskDetail");
const submissionDto = z
  .object({
    _id: z.string(),
    user: z.object({ _id: z.string(), name: z.string() }),
    link: z.string(),
    notes: z.string().nullable(),
    file: z
      .object({ name: z.string(), type: z.string(), size: z.number().int() })
      .nullable()
      .openapi({ description: "A file hand-in (GET .../submissions/{submissionId}/file); null for a link or code" }),
    code: z.string().nullable().openapi({ description: "A code exercise's hand-in; null for a link." }),
    report: report.nullable(),
    submittedAt: z.string(),
    late: z.boolean(),
    score: z.number().nullable().openapi({ description: "The score that counts (after any late penalty)" }),
    rawScore: z.number().nullable().openapi({ description: "The score staff gave before the late penalty; null when none applied" }),
    latePenalty: z.object({ days: z.number().int(), percent: z.number().int() }).openapi({ description: "Started days late and the percent the task's late penalty takes" }),
    feedback: z.string().nullable(),
    rubric: z
      .object({ rubricId: z.string(), title: z.string(), criteria: z.array(criterion.extend({ chosen: z.number().int().openapi({ description: "The index of the level given" }) })) })
      .nullable()
      .openapi({ description: "The filled rubric as it was when graded; null for a plain score, or while the grade is held from its student" }),
    gradedAt: z.string().nullable(),
    state,
    locked: z.boolean().openapi({ description: "Graded by staff, the grade out (not held), no new version asked for: its student can no longer replace it. While the task holds its grades a graded hand-in stays replaceable." }),
    changedSinceGraded: z.boolean().openapi({ description: "Staff only (always false for its student): handed in again after staff graded it while the task held its grades; the kept grade is the older version's, to be given again before release" }),
  })
  .openapi("Submission");
const submissionsDto = z.object({ task: taskDto, submissions: z.array(submissionDto), missing: z.array(z.object({ _id: z.string(), name: z.string() })) });

const listRoute = createRoute({
  method: "get",
  path: "/groups/{id}/tasks",
  tags,
  summary: "A group's tasks by due time (students: with their own submission state)",
  middleware: [noStore, requireAuth] as const,
  request: { params: idOrSlugParam },
  responses: { 200: jsonResponse("Tasks", taskListDto), ...guards },
});
const createTaskRoute = createRoute({
  method: "post",
  path: "/{lectureId}/tasks",
  tags,
  summary: "Set a task on a lecture (staff); members are told",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: z.object({ lectureId: key }), body: jsonBody(createTaskInput) },
  responses: { 201: jsonResponse("The task", taskDto), 400: errorResponse("Invalid fields"), ...guards },
});
const getTaskRoute = createRoute({
  method: "get",
  path: "/{lectureId}/tasks/{taskId}",
  tags,
  summary: "One task with its Markdown body and the sanitised bodyHtml",
  middleware: [noStore, requireAuth] as const,
  request: { params: taskParams },
  responses: { 200: jsonResponse("The task", taskDetailDto), ...guards },
});
const updateTaskRoute = createRoute({
  method: "put",
  path: "/{lectureId}/tasks/{taskId}",
  tags,
  summary: "Edit a task (staff)",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: taskParams, body: jsonBody(updateTaskInput) },
  responses: { 200: jsonResponse("The task", taskDto), 400: errorResponse("Invalid fields"), ...guards },
});
const deleteTaskRoute = createRoute({
  method: "delete",
  path: "/{lectureId}/tasks/{taskId}",
  tags,
  summary: "Delete a task with its submissions (staff)",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: taskParams },
  responses: { 200: jsonResponse("Deleted", messageDto), ...guards },
});
const submitRoute = createRoute({
  method: "post",
  path: "/{lectureId}/submit-task/{taskId}",
  tags,
  summary: "Hand in a link to one's work: 201 the first time, 200 when it replaces an ungraded one",
  middleware: [noStore, requireAuth] as const,
  request: { params: taskParams, body: jsonBody(submitTaskInput) },
  responses: {
    200: jsonResponse("Replaced", z.object({ created: z.boolean(), submission: submissionDto })),
    201: jsonResponse("Submitted", z.object({ created: z.boolean(), submission: submissionDto })),
    400: errorResponse("Not an http(s) link"),
    409: errorResponse("Already graded, or past due on a task that takes no late work"),
    ...guards,
  },
});
const submissionsRoute = createRoute({
  method: "get",
  path: "/{lectureId}/tasks/{taskId}/submissions",
  tags,
  summary: "Staff: every member's submission and who has not submitted; a student: their own",
  middleware: [noStore, requireAuth] as const,
  request: { params: taskParams },
  responses: { 200: jsonResponse("Submissions", submissionsDto), ...guards },
});
const submissionRoute = createRoute({
  method: "get",
  path: "/{lectureId}/tasks/{taskId}/submissions/{submissionId}",
  tags,
  summary: "One submission with a code hand-in's whole report (staff; lists carry summaries), or the student's own",
  middleware: [noStore, requireAuth] as const,
  request: { params: submissionParams },
  responses: { 200: jsonResponse("The submission", submissionDto), ...guards },
});
const gradeRoute = createRoute({
  method: "put",
  path: "/{lectureId}/tasks/{taskId}/submissions/{submissionId}",
  tags,
  summary: "Grade with a score (0 to maxScore) or, on a task with a rubric, a level per criterion ({ rubric: { criterionId: levelIndex } }), with feedback, or ask for a new version (staff); the student is notified and e-mailed",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: submissionParams, body: jsonBody(gradeSubmissionInput) },
  responses: { 200: jsonResponse("The submission", submissionDto), 400: errorResponse("Invalid score"), ...guards },
});

const releaseRoute = createRoute({
  method: "post",
  path: "/{lectureId}/tasks/{taskId}/release-grades",
  tags,
  summary: "Release a task's held grades (staff): every graded student sees their grade and is notified and e-mailed at once",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: taskParams },
  responses: {
    200: jsonResponse("How many grades were released", z.object({ released: z.number().int(), task: taskDto })),
    409: errorResponse("grades_not_held: the task's grades are not held; changed_since_graded: a hand-in changed after it was graded (grade it again first)"),
    ...guards,
  },
});

export const tasksApi = createApi()
  .openapi(listRoute, async (c) => c.json(await listGroupTasks(c.var.svc, viewerOf(c), c.req.valid("param").id), 200))
  .openapi(createTaskRoute, async (c) => c.json(await createTask(c.var.svc, viewerOf(c), c.req.valid("param").lectureId, c.req.valid("json")), 201))
  .openapi(getTaskRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(await getTask(c.var.svc, viewerOf(c), p.lectureId, p.taskId), 200);
  })
  .openapi(updateTaskRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(await updateTask(c.var.svc, viewerOf(c), p.lectureId, p.taskId, c.req.valid("json")), 200);
  })
  .openapi(deleteTaskRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(await deleteTask(c.var.svc, viewerOf(c), p.lectureId, p.taskId), 200);
  })
  .openapi(submitRoute, async (c) => {
    const p = c.req.valid("param");
    const result = await submitTask(c.var.svc, viewerOf(c), p.lectureId, p.taskId, c.req.valid("json"));
    return result.created ? c.json(result, 201) : c.json(result, 200);
  })
  .openapi(submissionsRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(await listSubmissions(c.var.svc, viewerOf(c), p.lectureId, p.taskId), 200);
  })
  .openapi(submissionRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(await getSubmission(c.var.svc, viewerOf(c), p.lectureId, p.taskId, p.submissionId), 200);
  })
  .openapi(releaseRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(await releaseGrades(c.var.svc, viewerOf(c), p.lectureId, p.taskId), 200);
  })
  .openapi(gradeRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(await gradeSubmission(c.var.svc, viewerOf(c), p.lectureId, p.taskId, p.submissionId, c.req.valid("json")), 200);
  });
