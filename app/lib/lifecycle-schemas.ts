/**
 * Inputs of a cohort's life (issue 22): copying a course or a lecture, scheduled publishing, announcements and
 * certificates. Shared by the API (OpenAPI) and the pages' actions.
 */
import { z } from "zod";
import { calendarDate, dateTime, timeZone as zoneSchema } from "./dates";
import { ANNOUNCEMENT_LIMITS, CERTIFICATE_LIMITS, COPY_LIMITS } from "./lifecycle-rules";
import { freeText } from "./schemas";

export * from "./lifecycle-rules";

const timeZone = zoneSchema();

/** The Cohort tab's publishing switch: into the catalogue, or back out of it (archiving stays the admins', ADR 57). */
/** The Cohort tab's publishing switch; archiving (and bringing back) is an admin's, which updateGroup checks. */
export const publishingInput = z.object({ status: z.enum(["draft", "published", "archived"], "Choose draft, published or archived.") });

/** POST /api/groups/{id}/copy: a new draft group from this one, its first lecture on `startDate`. */
export const copyGroupInput = z.object({
  title: freeText("Please enter a title.", { name: true }).max(COPY_LIMITS.title, `Title must be at most ${COPY_LIMITS.title} characters.`),
  startDate: calendarDate("Give the new start date as YYYY-MM-DD.", "That date does not exist."),
  timeZone: timeZone.optional(),
  /** Admins only: who runs the copy (default: the same instructor). An instructor's copy is always their own. */
  instructorId: z.string().trim().min(1).max(64).nullable().optional(),
});
export type CopyGroupInput = z.infer<typeof copyGroupInput>;

/** POST /api/lectures/{id}/copy: this lecture with its tasks and quizzes into another group the viewer runs. */
export const copyLectureInput = z.object({
  groupId: z.string().trim().min(1, "Choose a group.").max(120).regex(/^[\p{L}\p{M}\p{N}_-]+$/u, "Choose a group."),
  /** The copy's start; its tasks and quizzes move by as much. Absent: the dates are copied as they are. */
  startsAt: dateTime("Give the start as a date and time.").nullable().optional(),
});
export type CopyLectureInput = z.infer<typeof copyLectureInput>;

/** PUT /api/schedule/{kind}/{id}: publish a draft at a set time (null: take the schedule off). */
export const scheduleInput = z.object({
  publishAt: dateTime("Give the publishing time as a date and time.").nullable(),
});
export type ScheduleInput = z.infer<typeof scheduleInput>;

/** POST /api/groups/{id}/announcements. */
export const announcementInput = z.object({
  title: freeText("Please enter a title.").max(ANNOUNCEMENT_LIMITS.title, `Title must be at most ${ANNOUNCEMENT_LIMITS.title} characters.`),
  body: freeText("Please write the announcement.").max(ANNOUNCEMENT_LIMITS.body, `The announcement must be at most ${ANNOUNCEMENT_LIMITS.body} characters.`),
  /** When it stops being pinned (null: until each member dismisses it). */
  expiresAt: dateTime("Give the end as a date and time.").nullable().optional(),
});
export type AnnouncementInput = z.infer<typeof announcementInput>;

const percent = (label: string) =>
  z
    .number({ error: `${label} must be a whole number from 0 to 100.` })
    .int(`${label} must be a whole number from 0 to 100.`)
    .min(0, `${label} must be a whole number from 0 to 100.`)
    .max(100, `${label} must be a whole number from 0 to 100.`);

/** PUT /api/groups/{id}/completion-rule: both thresholds in percent of the one progress definition (null: no rule). */
export const completionRuleInput = z.object({
  overall: percent("Overall").nullable(),
  attendance: percent("Attendance").nullable(),
});
export type CompletionRuleInput = z.infer<typeof completionRuleInput>;

/** POST /api/groups/{id}/certificates: everyone who meets the rule, or the members named (by hand, rule or not). */
export const issueCertificatesInput = z.object({
  userIds: z.array(z.string().trim().min(1).max(64)).min(1, "Choose at least one member.").max(1000).optional(),
});
export type IssueCertificatesInput = z.infer<typeof issueCertificatesInput>;

/** POST /api/certificates/{id}/revoke. */
export const revokeCertificateInput = z.object({
  reason: freeText("Please give a reason.").max(CERTIFICATE_LIMITS.reason, `The reason must be at most ${CERTIFICATE_LIMITS.reason} characters.`),
});
export type RevokeCertificateInput = z.infer<typeof revokeCertificateInput>;

/** PUT /api/certificates/{id}/language: the graduate's choice of language for their certificate. */
export const certificateLanguageInput = z.object({ language: z.enum(["en", "ar"], "Choose English or Arabic.") });
