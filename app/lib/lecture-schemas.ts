/**
 * Input schemas for lectures and attendance (platform-spec §3 "Attend payload", issue "Lectures and live
 * attendance"), shared by the staff forms, the Remix actions and the API (which also documents them).
 * Client-safe: no server imports.
 */
import { z } from "zod";
import { calendarDate, timeZone, dateTime, timeOfDay } from "./dates";
import { toLatinDigits } from "./digits";
import { freeText } from "./schemas";
import { isWebLink, withoutControls } from "./text";

export const LECTURE_LIMITS = { title: 160, body: 50_000, resources: 20, resourceTitle: 120, url: 2_000, series: 60 } as const;
export const ATTENDANCE_LIMITS = { rotateMin: 10, rotateMax: 300, lateMax: 240, durationMin: 1, durationMax: 480 } as const;
export const ATTENDANCE_STATUSES = ["present", "late", "excused", "absent"] as const;
export type AttendanceStatus = (typeof ATTENDANCE_STATUSES)[number];

const httpUrl = (message: string) =>
  z
    .string()
    .trim()
    .max(LECTURE_LIMITS.url, message)
    .refine((v) => isWebLink(v), message);

const resource = z.object({
  title: freeText("Give the resource a title.").max(LECTURE_LIMITS.resourceTitle, `Resource titles are limited to ${LECTURE_LIMITS.resourceTitle} characters.`),
  url: httpUrl("A resource needs an http(s) link."),
});

export const lectureFields = {
  title: freeText("Please enter a title.", { name: true }).max(LECTURE_LIMITS.title, `Title must be at most ${LECTURE_LIMITS.title} characters.`),
  body: z.string().overwrite(withoutControls).max(LECTURE_LIMITS.body, `The text must be at most ${LECTURE_LIMITS.body} characters.`),
  videoUrl: z.union([httpUrl("The video needs an http(s) link."), z.literal("")]).nullable(),
  resources: z.array(resource).max(LECTURE_LIMITS.resources, `At most ${LECTURE_LIMITS.resources} resources.`),
  startsAt: dateTime("Give the start as a date and time.", "That start date or time does not exist.").nullable(),
  published: z.boolean({ error: "Say published: true or false." }),
};

/** POST /api/lectures/group/{id}: a new lecture (at the end of the schedule unless `order` is given). */
export const createLectureInput = z.object({
  title: lectureFields.title,
  body: lectureFields.body.optional(),
  videoUrl: lectureFields.videoUrl.optional(),
  resources: lectureFields.resources.optional(),
  startsAt: lectureFields.startsAt.optional(),
  published: lectureFields.published.optional(),
});
export type CreateLectureInput = z.infer<typeof createLectureInput>;

/** PUT /api/lectures/{id}: any of the fields. */
export const updateLectureInput = createLectureInput.partial().refine((v) => Object.keys(v).length > 0, "Send at least one field to change.");
export type UpdateLectureInput = z.infer<typeof updateLectureInput>;

/** PUT /api/lectures/group/{id}/order: every lecture of the group, in the new order. */
export const lectureOrderInput = z.object({
  ids: z.array(z.string().trim().min(1).max(120)).min(1, "Give the lectures in their new order.").max(500),
});
export type LectureOrderInput = z.infer<typeof lectureOrderInput>;

const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6] as const;

/**
 * POST /api/lectures/group/{id}/schedule: a weekly series on chosen days at a local time (in `timeZone`), from
 * `from` for `count` sessions or until `until` (inclusive), numbered "{title} 1", "{title} 2", ...
 */
export const lectureSeriesInput = z
  .object({
    title: lectureFields.title,
    days: z.array(z.number().int().min(0).max(6)).min(1, "Choose at least one weekday.").max(7).refine((d) => new Set(d).size === d.length, "Each weekday once."),
    time: timeOfDay("Give the time as HH:MM (24-hour)."),
    timeZone: timeZone().default("Africa/Cairo"),
    from: calendarDate("Give the first day as YYYY-MM-DD.", "The first day does not exist."),
    count: z.number().int().min(1).max(LECTURE_LIMITS.series).optional(),
    until: calendarDate("Give the last day as YYYY-MM-DD.", "The last day does not exist.").optional(),
    published: z.boolean().default(false),
  })
  .refine((v) => (v.count === undefined) !== (v.until === undefined), { path: ["count"], message: "Give either a number of sessions or an end date." })
  .refine((v) => v.until === undefined || v.until >= v.from, { path: ["until"], message: "The end date must not be before the first day." });
export type LectureSeriesInput = z.infer<typeof lectureSeriesInput>;
export const WEEKDAY_VALUES = WEEKDAYS;

/** POST /api/lectures/{id}/attendance/open. */
export const openAttendanceInput = z.object({
  rotateSeconds: z
    .number({ error: "rotateSeconds is 0 (a fixed code) or 10 to 300." })
    .int()
    .refine((n) => n === 0 || (n >= ATTENDANCE_LIMITS.rotateMin && n <= ATTENDANCE_LIMITS.rotateMax), "rotateSeconds is 0 (a fixed code) or 10 to 300."),
  lateAfterMinutes: z.number().int().min(0).max(ATTENDANCE_LIMITS.lateMax, `Late after at most ${ATTENDANCE_LIMITS.lateMax} minutes.`).nullable().default(null),
  durationMinutes: z
    .number({ error: "How many minutes stays attendance open?" })
    .int()
    .min(ATTENDANCE_LIMITS.durationMin)
    .max(ATTENDANCE_LIMITS.durationMax, `Attendance stays open at most ${ATTENDANCE_LIMITS.durationMax} minutes.`),
}).refine((v) => v.lateAfterMinutes === null || v.lateAfterMinutes < v.durationMinutes, {
  // Late from the 200th minute of a 10-minute window would never mark anyone late, though the form said it would.
  path: ["lateAfterMinutes"],
  message: "Late must start before attendance closes: choose fewer minutes than it stays open.",
});
export type OpenAttendanceInput = z.infer<typeof openAttendanceInput>;

/** POST /api/lectures/attend (platform-spec §3): the lecture by slug and the code on the screen. */
export const attendInput = z.object({
  slugLec: z.string({ error: "Which lecture? Send slugLec." }).trim().min(1, "Which lecture? Send slugLec.").max(120),
  code: z
    .string({ error: "Enter the 6-digit code." })
    .transform((v) => toLatinDigits(v).replace(/\s/g, ""))
    .pipe(z.string().regex(/^\d{6}$/, "Enter the 6-digit code.")),
  /** The device id the spec's client sends with login and registration; used to flag shared devices. */
  fingerprint: z.string().trim().max(200).optional(),
});
export type AttendInput = z.infer<typeof attendInput>;

/** POST /api/attendance (staff): mark or correct one student by hand. */
export const markAttendanceInput = z.object({
  lectureId: z.string({ error: "Which lecture?" }).trim().min(1, "Which lecture?").max(120),
  userId: z.string({ error: "Which student?" }).trim().min(1, "Which student?").max(120),
  status: z.enum(ATTENDANCE_STATUSES, "Choose present, late, excused or absent."),
});
export type MarkAttendanceInput = z.infer<typeof markAttendanceInput>;
