/**
 * Lectures and live attendance: /api/lectures/* (platform-spec §7) and POST /api/attendance. Thin handlers over
 * worker/services/lectures.ts and attendance.ts; `{id}` accepts a lecture's id or its slug (slugs are unique).
 */
import { createRoute, z } from "@hono/zod-openapi";
import {
  attendInput,
  createLectureInput,
  lectureOrderInput,
  lectureSeriesInput,
  markAttendanceInput,
  openAttendanceInput,
  updateLectureInput,
} from "../../app/lib/lecture-schemas";
import { idOrSlugParam } from "../../app/lib/schemas";
import { noStore, requireAuth, requireStaffRole, viewerOf } from "../auth/middleware";
import { ensureBrowser } from "../services/attendance-client";
import { attend, attendanceStatusFor, closeAttendance, getAttendanceState, markAttendance, openAttendance } from "../services/attendance";
import { createLecture, deleteLecture, getLecture, listLectures, reorderLectures, scheduleLectures, updateLecture } from "../services/lectures";
import { createApi, errorResponse } from "./app";
import { jsonBody, jsonResponse, messageDto } from "./users-dto";

const tags = ["Lectures and attendance"];
const guards = { 401: errorResponse("Not signed in"), 403: errorResponse("Not allowed for this group"), 404: errorResponse("No such group or lecture") };

const lectureDto = z
  .object({
    _id: z.string(),
    slug: z.string(),
    title: z.string(),
    startsAt: z.string().nullable(),
    order: z.number().openapi({ description: "0: the lecture follows its date (undated ones last); 1..n: the staff's own order, which wins" }),
    published: z.boolean(),
    publishAt: z.string().nullable().openapi({ description: "A draft the server publishes (and announces) at this time; null when not scheduled" }),
    videoUrl: z.string().nullable(),
    resources: z.array(z.object({ title: z.string(), url: z.string() })),
  })
  .openapi("Lecture");
const missedField = z.boolean().openapi({ description: "Students: the lecture was held while they were a member and they have no record of it (Progress counts it as not attended)" });
const lectureListDto = z.array(lectureDto.extend({ myAttendance: z.string().nullable(), missed: missedField }));
const lectureDetailDto = lectureDto
  .extend({
    body: z.string(),
    bodyHtml: z.string(),
    group: z.object({
      _id: z.string(),
      slug: z.string(),
      title: z.string(),
      instructorId: z.string().nullable(),
      ended: z.boolean().openapi({ description: "The group is archived: its course is over" }),
    }),
    attendance: z.object({ status: z.string(), markedAt: z.string(), byStaff: z.boolean().openapi({ description: "Marked by staff, not by a code" }) }).nullable(),
    attendanceOpen: z.boolean(),
    missed: missedField,
    joinedAfter: z.boolean().openapi({ description: "Students: they joined the group after the lecture took place and have no record of it (it counts nowhere for them)" }),
  })
  .openapi("LectureDetail");
const recordDto = z.object({
  user: z.object({ _id: z.string(), name: z.string() }),
  status: z.enum(["present", "late", "excused", "absent"]).nullable(),
  method: z.enum(["code", "manual"]).nullable(),
  markedAt: z.string().nullable(),
  flagged: z.boolean(),
  flags: z
    .array(z.enum(["elsewhere", "device", "browser", "address"]))
    .openapi({ description: "Why the record is flagged: a QR scan's check-in redeemed on another network than the scan's, same device, same browser, same address within 2 minutes" }),
  joinedAfter: z
    .boolean()
    .openapi({ description: "Joined the group after the lecture took place: without a record it is not counted (as in Progress)" }),
});
const stateDto = z
  .object({
    session: z
      .object({
        open: z.boolean(),
        code: z.string().nullable(),
        rotateSeconds: z.number(),
        opensAt: z.string(),
        closesAt: z.string(),
        lateAfterMinutes: z.number().nullable(),
        nextCodeAt: z.string().nullable(),
        serverTime: z.string(),
      })
      .nullable(),
    held: z.boolean().openapi({ description: "The lecture counts as held (its start has passed or its attendance opened, and it is not open now): a member without a record counts as absent" }),
    counts: z.object({ present: z.number(), late: z.number(), excused: z.number(), absent: z.number(), members: z.number() }),
    roster: z.array(recordDto),
  })
  .openapi("AttendanceState");
const attendDto = z.object({ status: z.enum(["present", "late", "excused", "absent"]), markedAt: z.string() }).openapi("AttendResult");
const ownStatusDto = z.object({ lecture: z.object({ _id: z.string(), slug: z.string() }), status: z.string().nullable(), markedAt: z.string().nullable(), attendanceOpen: z.boolean() });

const listRoute = createRoute({
  method: "get",
  path: "/group/{id}",
  tags,
  summary: "A group's lectures in order: by date (undated last) unless the staff reordered them (students: the published ones, with their attendance)",
  middleware: [noStore, requireAuth] as const,
  request: { params: idOrSlugParam },
  responses: { 200: jsonResponse("Lectures", lectureListDto), ...guards },
});
const createLectureRoute = createRoute({
  method: "post",
  path: "/group/{id}",
  tags,
  summary: "Add a lecture (staff): in date order, or at the end of the staff's own order; members are told when it is published",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam, body: jsonBody(createLectureInput) },
  responses: { 201: jsonResponse("The new lecture", lectureDto), 400: errorResponse("Invalid fields"), ...guards },
});
const orderRoute = createRoute({
  method: "put",
  path: "/group/{id}/order",
  tags,
  summary: "Reorder: every lecture of the group, in the new order (staff); this order wins over the dates",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam, body: jsonBody(lectureOrderInput) },
  responses: { 200: jsonResponse("Lectures in their new order", z.array(lectureDto)), 400: errorResponse("Not every lecture exactly once"), ...guards },
});
const scheduleRoute = createRoute({
  method: "post",
  path: "/group/{id}/schedule",
  tags,
  summary: "Create a weekly series on chosen days at a local time, N sessions or until a date (staff)",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam, body: jsonBody(lectureSeriesInput) },
  responses: { 201: jsonResponse("The new lectures", z.array(lectureDto)), 400: errorResponse("Invalid series"), ...guards },
});
const attendRoute = createRoute({
  method: "post",
  path: "/attend",
  tags,
  summary:
    "Check in with the code on the screen (platform-spec §3 attend payload); repeating answers the same record, a staff mark stands. " +
    "Limits: 10 tries a minute per account, 10 wrong codes a minute per address, 100 per lecture (429 with Retry-After)",
  middleware: [noStore, requireAuth] as const,
  request: { body: jsonBody(attendInput) },
  responses: {
    200: jsonResponse("Checked in", attendDto),
    400: errorResponse("Wrong or expired code"),
    409: errorResponse("Attendance is not open for this lecture"),
    429: errorResponse("Too many tries"),
    ...guards,
  },
});
const getRoute = createRoute({
  method: "get",
  path: "/{id}",
  tags,
  summary: "One lecture with its Markdown body, the sanitised bodyHtml and the caller's attendance",
  middleware: [noStore, requireAuth] as const,
  request: { params: idOrSlugParam },
  responses: { 200: jsonResponse("The lecture", lectureDetailDto), ...guards },
});
const updateRoute = createRoute({
  method: "put",
  path: "/{id}",
  tags,
  summary: "Edit a lecture (staff); publishing a draft tells the members",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam, body: jsonBody(updateLectureInput) },
  responses: { 200: jsonResponse("The lecture", lectureDto), 400: errorResponse("Invalid fields"), ...guards },
});
const deleteRoute = createRoute({
  method: "delete",
  path: "/{id}",
  tags,
  summary: "Delete a lecture with its attendance (staff)",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam },
  responses: { 200: jsonResponse("Deleted", messageDto), ...guards },
});
const openRoute = createRoute({
  method: "post",
  path: "/{id}/attendance/open",
  tags,
  summary:
    "Open attendance (staff): a fixed code (rotateSeconds 0) or one that rotates every 10-300 s. A draft lecture is published " +
    "first (its members are told), so that its students can check in",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam, body: jsonBody(openAttendanceInput) },
  responses: { 200: jsonResponse("The attendance state with the current code", stateDto), 400: errorResponse("Invalid settings"), ...guards },
});
const closeRoute = createRoute({
  method: "post",
  path: "/{id}/attendance/close",
  tags,
  summary: "Close attendance now (staff): every member who has not checked in is marked absent (correct by hand with POST /api/attendance)",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam },
  responses: { 200: jsonResponse("The attendance state", stateDto), 409: errorResponse("Attendance is not open"), ...guards },
});
const stateRoute = createRoute({
  method: "get",
  path: "/{id}/attendance",
  tags,
  summary: "The session with its current code, the counts and the roster (staff); once a session has run out, members without a record are absent",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam },
  responses: { 200: jsonResponse("The attendance state", stateDto), ...guards },
});
const ownRoute = createRoute({
  method: "get",
  path: "/{id}/get-user-attendance-status-in-group",
  tags,
  summary: "The caller's attendance for a lecture (staff: the attendance state)",
  middleware: [noStore, requireAuth] as const,
  request: { params: idOrSlugParam },
  responses: { 200: jsonResponse("Status (students) or the attendance state (staff)", z.union([ownStatusDto, stateDto])), ...guards },
});

export const lecturesApi = createApi()
  .openapi(listRoute, async (c) => c.json(await listLectures(c.var.svc, viewerOf(c), c.req.valid("param").id), 200))
  .openapi(createLectureRoute, async (c) => c.json(await createLecture(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("json")), 201))
  .openapi(orderRoute, async (c) => c.json(await reorderLectures(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("json")), 200))
  .openapi(scheduleRoute, async (c) => c.json(await scheduleLectures(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("json")), 201))
  .openapi(attendRoute, async (c) => {
    // The browser cookie (set here when missing) lets the roster flag one browser checking in for several students.
    const browser = ensureBrowser(c.req.raw);
    if (browser.setCookie) c.header("Set-Cookie", browser.setCookie, { append: true });
    return c.json(await attend(c.var.svc, viewerOf(c), c.req.valid("json"), Date.now(), { browser: browser.id }), 200);
  })
  .openapi(getRoute, async (c) => c.json(await getLecture(c.var.svc, viewerOf(c), c.req.valid("param").id), 200))
  .openapi(updateRoute, async (c) => c.json(await updateLecture(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("json")), 200))
  .openapi(deleteRoute, async (c) => c.json(await deleteLecture(c.var.svc, viewerOf(c), c.req.valid("param").id), 200))
  .openapi(openRoute, async (c) => c.json(await openAttendance(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("json")), 200))
  .openapi(closeRoute, async (c) => c.json(await closeAttendance(c.var.svc, viewerOf(c), c.req.valid("param").id), 200))
  .openapi(stateRoute, async (c) => c.json(await getAttendanceState(c.var.svc, viewerOf(c), c.req.valid("param").id), 200))
  .openapi(ownRoute, async (c) => c.json(await attendanceStatusFor(c.var.svc, viewerOf(c), c.req.valid("param").id), 200));

const markRoute = createRoute({
  method: "post",
  path: "/",
  tags,
  summary: "Mark or correct one student's attendance by hand (staff); sent live like a check-in",
  middleware: [noStore, requireStaffRole] as const,
  request: { body: jsonBody(markAttendanceInput) },
  responses: { 200: jsonResponse("The student's record", recordDto), 400: errorResponse("Invalid fields"), ...guards },
});

/** POST /api/attendance (platform-spec §7). */
export const attendanceApi = createApi().openapi(markRoute, async (c) => c.json(await markAttendance(c.var.svc, viewerOf(c), c.req.valid("json")), 200));
