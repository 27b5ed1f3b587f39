/**
 * Progress and exports (platform-spec §7 `GET /api/users/groups/{id}/progress`; issue "Progress, dashboards and
 * exports"): a member's numbers, the staff's view of every member with the charts' figures, and three CSV exports.
 * Thin handlers over worker/services/progress.ts and progress-export.ts, which the pages call too.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { idOrSlugParam } from "../../app/lib/schemas";
import { noStore, requireAuth, requireStaffRole, viewerOf } from "../auth/middleware";
import { csvResponse } from "../http/csv";
import { exportGroupCsv, EXPORTS, type ExportKind } from "../services/progress-export";
import { groupProgress, memberProgress } from "../services/progress";
import { createApi, errorResponse } from "./app";
import { jsonResponse } from "./users-dto";

const tags = ["Progress"];
const guards = { 401: errorResponse("Not signed in"), 403: errorResponse("Not a member (own progress) or not the group's staff"), 404: errorResponse("No such group, or no such student in it") };

const percent = z.number().int().min(0).max(100).nullable();
const alias = percent.openapi({ description: "The same number as rate (the name older clients read)" });
const progressDto = {
  lectures: z.object({
    attended: z.number(),
    held: z.number().openapi({ description: "Lectures held (not while attendance is open), less excused ones, plus any other the student has a record for" }),
    rate: percent,
  }),
  tasks: z.object({
    submitted: z.number(),
    given: z.number(),
    graded: z.number(),
    counted: z.number().openapi({ description: "Tasks the rate is over: graded ones, and those past their due time not handed in (as 0)" }),
    rate: percent,
    averageScore: alias,
  }),
  quizzes: z.object({
    taken: z.number(),
    published: z.number(),
    counted: z.number().openapi({ description: "Quizzes the rate is over: taken ones, and closed ones not taken (as 0); an open quiz not taken counts nowhere" }),
    rate: percent,
    averageScore: alias,
  }),
  overall: percent.openapi({ description: "Mean of the attendance, task and quiz rates that exist (as whole percentages); null while none does" }),
};
const reasons = z
  .array(z.object({ kind: z.enum(["overall", "attendance"]), percent: z.number().int() }))
  .openapi({ description: "Why the student needs support: overall or attendance below 70 %, from the group's first held lecture; empty when not at risk" });
const ref = z.object({ _id: z.string(), slug: z.string(), title: z.string() });
const memberDto = z
  .object({ ...progressDto, atRisk: z.boolean(), atRiskReasons: reasons, user: z.object({ _id: z.string(), name: z.string(), slug: z.string() }), group: ref })
  .openapi("MemberProgress");
const groupDto = z
  .object({
    group: ref,
    generatedAt: z.string(),
    heldLectures: z.number(),
    students: z.array(
      z.object({ _id: z.string(), name: z.string(), email: z.string(), slug: z.string(), status: z.string(), joinedAt: z.string().nullable().openapi({ description: "When they first became a member; work from before it that they did not do counts nowhere for them" }), progress: z.object(progressDto), atRisk: z.boolean(), atRiskReasons: reasons }),
    ),
    lectures: z.array(
      z.object({ _id: z.string(), slug: z.string(), title: z.string(), startsAt: z.string().nullable(), at: z.string().nullable().openapi({ description: "When it took place: its start, or when its attendance first opened" }), held: z.boolean(), open: z.boolean(), present: z.number(), late: z.number(), excused: z.number(), absent: z.number() }),
    ),
    tasks: z.array(
      z.object({ _id: z.string(), slug: z.string(), title: z.string(), lectureSlug: z.string(), dueAt: z.string().nullable(), due: z.boolean(), maxScore: z.number(), submitted: z.number(), graded: z.number(), averageScore: percent }),
    ),
    quizzes: z.array(
      z.object({ _id: z.string(), slug: z.string(), title: z.string(), lectureSlug: z.string(), opensAt: z.string().nullable(), closesAt: z.string().nullable(), opened: z.boolean(), closed: z.boolean(), maxScore: z.number(), taken: z.number(), averageScore: percent }),
    ),
  })
  .openapi("GroupProgress");

const memberRoute = createRoute({
  method: "get",
  path: "/users/groups/{id}/progress",
  tags,
  summary: "The caller's progress in a group they are a member of; the group's staff may add ?user= (id or slug) for one of its students",
  middleware: [noStore, requireAuth] as const,
  request: { params: idOrSlugParam, query: z.object({ user: idOrSlugParam.shape.id.optional() }) },
  responses: { 200: jsonResponse("Progress", memberDto), 400: errorResponse("Invalid id"), ...guards },
});

const groupRoute = createRoute({
  method: "get",
  path: "/groups/{id}/progress",
  tags,
  summary: "Staff: every member's progress, attendance per lecture and the average of each task and quiz",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam },
  responses: { 200: jsonResponse("Progress of the group", groupDto), 400: errorResponse("Invalid id"), ...guards },
});

const exportRoute = (kind: ExportKind, what: string) =>
  createRoute({
    method: "get",
    path: `/groups/{id}/export/${kind}.csv`,
    tags,
    summary: `Staff: ${what} as CSV (UTF-8 with a BOM, CRLF rows; one header row of ASCII column names and fixed status words, the same in every language)`,
    middleware: [noStore, requireStaffRole] as const,
    // `lang` is still accepted (older links carry it) and still checked, but the file is the same in every language.
    request: { params: idOrSlugParam, query: z.object({ lang: z.enum(["en", "ar"]).optional().openapi({ description: "Ignored: the file is the same in every language" }) }) },
    responses: { 200: { description: "One row per member", content: { "text/csv": { schema: z.string() } } }, 400: errorResponse("Invalid id or language"), ...guards },
  });

const WHAT: Record<ExportKind, string> = {
  attendance: "each member's attendance at every held lecture",
  grades: "each member's score, maximum and status for every task and opened quiz, and their task and quiz percentages",
  progress: "each member's progress numbers",
};

let api = createApi()
  .openapi(memberRoute, async (c) => c.json(await memberProgress(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("query").user), 200))
  .openapi(groupRoute, async (c) => c.json(await groupProgress(c.var.svc, viewerOf(c), c.req.valid("param").id), 200));

for (const kind of EXPORTS) {
  api = api.openapi(exportRoute(kind, WHAT[kind]), async (c) => {
    const file = await exportGroupCsv(c.var.svc, viewerOf(c), c.req.valid("param").id, kind);
    return csvResponse(file.filename, file.body);
  }) as unknown as typeof api;
}

export const progressApi = api;
