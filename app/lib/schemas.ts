/**
 * Input schemas shared by the browser forms, the Remix actions and the Hono API (which also
 * turns them into the OpenAPI document). Client-safe: no server imports here.
 */
import { QUIZ_TIME_MULTIPLIERS } from "./quiz-time";
import { z } from "zod";
import { calendarDate } from "./dates";
import { countryById, PHONE_PATTERN } from "./countries";
import { toLatinDigits } from "./digits";
import { chatFields, PARTIES } from "./realtime-protocol";
import { cleanName, hasVisibleText, isWebLink, withoutControls } from "./text";

/**
 * Free text (app/lib/text.ts): controls removed, trimmed, and refused with `missing` when nothing visible is left.
 * Names (`name: true`) also lose bidi controls and line breaks.
 */
export const freeText = (missing: string, opts: { name?: boolean } = {}) =>
  z
    .string({ error: missing })
    .overwrite(opts.name ? cleanName : withoutControls)
    .trim()
    .min(1, missing)
    .refine(hasVisibleText, missing);

/** Optional free text (a note): controls removed and trimmed; invisible-only text counts as none. */
export const optionalText = () =>
  z
    .string()
    .overwrite(withoutControls)
    .trim()
    .overwrite((v) => (hasVisibleText(v) ? v : ""));

export const CONTACT_LIMITS = { name: 100, email: 254, message: 5000 } as const;

export const contactInput = z.object({
  name: freeText("Please enter your name.", { name: true }).max(CONTACT_LIMITS.name, `Name must be at most ${CONTACT_LIMITS.name} characters.`),
  email: z
    .string()
    .trim()
    .max(CONTACT_LIMITS.email, "E-mail address is too long.")
    .pipe(z.email("Please enter a valid e-mail address.")),
  message: freeText("Please write a message.")
    .max(CONTACT_LIMITS.message, `Message must be at most ${CONTACT_LIMITS.message} characters.`),
});
export type ContactInput = z.infer<typeof contactInput>;

/** `{id}` path parameters accept a record's id or its slug. */
export const idOrSlugParam = z.object({
  id: z.string().min(1).max(120).regex(/^[\p{L}\p{M}\p{N}_-]+$/u, "Invalid id"),
});

export const mailboxQuery = z.object({
  to: z.email("Give the recipient as ?to=EMAIL"),
});

/* ------------------------------------------------------------------------------------------------
 * Accounts and sessions (platform-spec §5 and §8 wording). The API and the Remix actions parse with
 * these; the forms may use them as they are.
 * ---------------------------------------------------------------------------------------------- */

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;
export const NAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;
export const CODE_DIGITS = 6;

const FILL_ALL = "Please fill out all fields.";

/** A required string whose absence reads as the spec's "fill out all fields". */
const required = (message = FILL_ALL) => z.string({ error: message });

const email = (missing = FILL_ALL) =>
  required(missing)
    .trim()
    .toLowerCase()
    .min(1, missing)
    .max(EMAIL_MAX_LENGTH, "E-mail address is too long.")
    .pipe(z.email("Please enter a valid e-mail address."));

const newPassword = (missing = FILL_ALL) =>
  required(missing)
    .min(1, missing)
    .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`)
    .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`)
    // Nothing a keyboard shows (spaces alone, control characters) is no password.
    .refine((p) => hasVisibleText(p) && withoutControls(p) === p, "Choose a password of letters, digits or symbols, not only spaces or invisible characters.");

const personName = (missing = FILL_ALL) =>
  freeText(missing, { name: true }).max(NAME_MAX_LENGTH, `Name must be at most ${NAME_MAX_LENGTH} characters.`);

/**
 * Country code plus digits ("+201001234567"). Spaces, dashes and brackets are dropped first, so
 * "+20 100-123-4567" is accepted too, and Arabic-Indic digits (an Arabic keyboard) are read as 0-9.
 */
const phoneNumber = (missing = FILL_ALL) =>
  required(missing)
    .trim()
    .overwrite((s) => toLatinDigits(s).replace(/[\s().-]/g, ""))
    .min(1, missing)
    .regex(PHONE_PATTERN, "Enter the phone number with its country code, e.g. +201001234567.");

/** One of the register form's countries, by its id ("EG" ... "OTHER"). */
const country = z
  .string()
  .trim()
  .max(60, "Choose a country.")
  .refine((id) => countryById(id) !== null, "Choose a country.");

/** A 6-digit code; spaces (as the reset form shows them) are removed, Arabic-Indic digits read as 0-9. */
const oneTimeCode = (message: string) =>
  required(message)
    .overwrite((s) => toLatinDigits(s).replace(/\s+/g, ""))
    .regex(/^\d{6}$/, message);

export const registerInput = z.object({
  name: personName(),
  email: email(),
  password: newPassword(),
  phone_number: phoneNumber(),
  country: country.optional(),
  /** Device visitor id sent by the original client; stored, never trusted. */
  fingerprint: z.string().trim().max(200).optional(),
});
export type RegisterInput = z.infer<typeof registerInput>;

/** The registration form: the API input plus the confirmation field. */
export const registerFormInput = registerInput
  .extend({ confirmPassword: required() })
  .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: "Passwords do not match." });

export const loginInput = z.object({
  email: email(),
  password: required().min(1, FILL_ALL).max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`),
  fingerprint: z.string().trim().max(200).optional(),
});
export type LoginInput = z.infer<typeof loginInput>;

export const verifyEmailInput = z.object({
  email: email(),
  code: oneTimeCode("Enter the full 6-digit code"),
});
export type VerifyEmailInput = z.infer<typeof verifyEmailInput>;

/** Forgot password and "send me a new verification code". */
export const emailOnlyInput = z.object({ email: email("Please enter your email.") });
export type EmailOnlyInput = z.infer<typeof emailOnlyInput>;

export const resetPasswordInput = z.object({
  email: email(),
  newPassword: newPassword(),
  resetCode: oneTimeCode("Must be 6 digits"),
});
export type ResetPasswordInput = z.infer<typeof resetPasswordInput>;

export const updateProfileInput = z.object({
  name: personName().optional(),
  phone_number: phoneNumber().optional(),
  country: country.optional(),
});
export type UpdateProfileInput = z.infer<typeof updateProfileInput>;

export const changePasswordInput = z.object({
  currentPassword: required("Please enter your current password.").min(1, "Please enter your current password.").max(PASSWORD_MAX_LENGTH),
  newPassword: newPassword(),
});
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;

export const deleteAccountInput = z.object({
  password: required("Please enter your password.").min(1, "Please enter your password.").max(PASSWORD_MAX_LENGTH),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountInput>;

export const USER_ROLES = ["admin", "instructor", "user"] as const;

/** Admin user list: `?search=&page=&pageSize=&role=`. */
export const listUsersQuery = z.object({
  search: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  role: z.enum(USER_ROLES).optional(),
});
export type ListUsersQuery = z.infer<typeof listUsersQuery>;

export const changeRoleInput = z.object({ role: z.enum(USER_ROLES, "Choose admin, instructor or user.") });
export type ChangeRoleInput = z.infer<typeof changeRoleInput>;

export const realtimeTicketInput = z.object({
  party: z.enum(PARTIES),
  room: z.string().min(1).max(120),
});
export type RealtimeTicketInput = z.infer<typeof realtimeTicketInput>;

/* ------------------------------------------------------------------------------------------------
 * Course groups and membership (issue 5): staff group management, the course outline, course images,
 * join requests and their decisions, leaving, and the staff's student screens.
 * ---------------------------------------------------------------------------------------------- */

export const GROUP_STATUS_VALUES = ["draft", "published", "archived"] as const;
export const MEMBERSHIP_STATUS_VALUES = ["pending", "approved", "special", "rejected", "left", "removed"] as const;
export const GROUP_LIMITS = { title: 120, description: 5000, image: 500, capacity: 10_000, requestMessage: 500 } as const;
export const CONTENT_LIMITS = { title: 200, body: 20_000, items: 500 } as const;
/** Course images: what POST /api/uploads/course-image accepts. */
export const COURSE_IMAGE = { maxBytes: 2 * 1024 * 1024, types: ["image/png", "image/jpeg", "image/webp"] } as const;

/** A record id or slug in a body or query (the same alphabet as `{id}` path parameters). */
const idOrSlug = z.string().trim().min(1).max(120).regex(/^[\p{L}\p{M}\p{N}_-]+$/u, "Invalid id");

const groupTitle = freeText("Please enter a title.", { name: true })
  .max(GROUP_LIMITS.title, `Title must be at most ${GROUP_LIMITS.title} characters.`);
const groupDescription = optionalText().max(GROUP_LIMITS.description, `Description must be at most ${GROUP_LIMITS.description} characters.`);

/**
 * A course image: an https URL (the pages' Content-Security-Policy loads images from this site and https only, so an
 * http address would show as a broken image), or a path on this site (`/media/courses/...` from an upload,
 * `/images/...` for the bundled pictures).
 */
const IMAGE_MESSAGE = "Give an image URL (https://...) or upload an image.";
const courseImage = z
  .string()
  .trim()
  .max(GROUP_LIMITS.image, IMAGE_MESSAGE)
  .refine((v) => isWebLink(v, { secure: true }) || (/^\/(media|images)\/[A-Za-z0-9._/-]+$/.test(v) && !v.includes("..")), IMAGE_MESSAGE);


/** A calendar date as YYYY-MM-DD (the spec's start_date; app/lib/dates.ts: no month 13, 30 February or year 0000). */
const startDate = calendarDate("Use the date format YYYY-MM-DD.", "That date does not exist.");

const capacity = z
  .number({ error: "Capacity must be a whole number." })
  .int("Capacity must be a whole number.")
  .min(1, "Capacity must be at least 1.")
  .max(GROUP_LIMITS.capacity, `Capacity must be at most ${GROUP_LIMITS.capacity}.`);

const groupStatus = z.enum(GROUP_STATUS_VALUES, "Choose draft, published or archived.");

/** POST /api/groups (admins). `null` leaves a field empty: no image, no date, no instructor, no seat limit. */
export const createGroupInput = z.object({
  title: groupTitle,
  description: groupDescription.optional(),
  imageCourse: courseImage.nullable().optional(),
  start_date: startDate.nullable().optional(),
  instructorId: z.string().trim().min(1).max(64).nullable().optional(),
  status: groupStatus.optional(),
  capacity: capacity.nullable().optional(),
});
export type CreateGroupInput = z.infer<typeof createGroupInput>;

/** PUT /api/groups/{id}: any subset of the fields. The slug never changes. */
export const updateGroupInput = createGroupInput.extend({ title: groupTitle.optional() });
export type UpdateGroupInput = z.infer<typeof updateGroupInput>;

/** GET /api/groups/manage */
export const manageGroupsQuery = z.object({
  search: z.string().trim().max(100).optional(),
  status: groupStatus.optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type ManageGroupsQuery = z.infer<typeof manageGroupsQuery>;

/** One item of a group's public course outline (Markdown body). */
export const courseContentInput = z.object({
  title: freeText("Please enter a title.", { name: true })
    .max(CONTENT_LIMITS.title, `Title must be at most ${CONTENT_LIMITS.title} characters.`),
  body: z.string().overwrite(withoutControls).max(CONTENT_LIMITS.body, `The text must be at most ${CONTENT_LIMITS.body} characters.`).optional(),
});
export type CourseContentInput = z.infer<typeof courseContentInput>;

export const updateCourseContentInput = courseContentInput.partial();
export type UpdateCourseContentInput = z.infer<typeof updateCourseContentInput>;

/** PUT /api/groups/{id}/content/order: every item of the outline, in the new order. */
export const courseContentOrderInput = z.object({
  ids: z.array(idOrSlug).min(1, "Give the items in their new order.").max(CONTENT_LIMITS.items),
});
export type CourseContentOrderInput = z.infer<typeof courseContentOrderInput>;

/** POST /api/users/joinGroupRequest: the group by slug (or id), with an optional note to the staff. */
export const joinGroupInput = z
  .object({
    groupSlug: idOrSlug.optional(),
    groupId: idOrSlug.optional(),
    message: optionalText()
      .max(GROUP_LIMITS.requestMessage, `The message must be at most ${GROUP_LIMITS.requestMessage} characters.`)
      .optional(),
  })
  .refine((v) => v.groupSlug !== undefined || v.groupId !== undefined, { path: ["groupSlug"], message: "Which group? Send groupSlug." });
export type JoinGroupInput = z.infer<typeof joinGroupInput>;

/** POST /api/users/leave-group (platform-spec §3 "Leave-group payload"). */
export const leaveGroupInput = z.object({ groupSlug: idOrSlug });
export type LeaveGroupInput = z.infer<typeof leaveGroupInput>;

/** GET /api/membership-requests: the staff inbox (pending by default), optionally for one group. */
export const membershipRequestsQuery = z.object({
  status: z.enum(MEMBERSHIP_STATUS_VALUES).default("pending"),
  groupId: idOrSlug.optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(50),
});
export type MembershipRequestsQuery = z.infer<typeof membershipRequestsQuery>;

export const MEMBERSHIP_DECISIONS = ["approved", "special", "rejected"] as const;
export const membershipDecisionInput = z.object({
  decision: z.enum(MEMBERSHIP_DECISIONS, "Choose approved, special or rejected."),
});
export type MembershipDecisionInput = z.infer<typeof membershipDecisionInput>;

/** GET /api/groups/{id}/students: members (approved and special) unless a status, or `all`, is asked for. */
export const groupStudentsQuery = z.object({
  search: z.string().trim().max(100).optional(),
  status: z.enum([...MEMBERSHIP_STATUS_VALUES, "all"]).optional(),
});
export type GroupStudentsQuery = z.infer<typeof groupStudentsQuery>;

/** PUT /api/groups/{id}/students/{userId}: switch terms, restore, or remove. */
export const studentStatusInput = z.object({
  status: z.enum(["approved", "special", "removed"], "Choose approved, special or removed."),
});
export type StudentStatusInput = z.infer<typeof studentStatusInput>;

export { QUIZ_TIME_MULTIPLIERS };

/** PUT /api/groups/{id}/students/{userId}/quiz-time: the student's time on every timed quiz of the group. */
export const quizTimeInput = z.object({
  timeMultiplier: z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" ? Number(v) : v),
    z
      .number({ error: "Choose a time multiplier: 1, 1.25, 1.5, 2 or 3." })
      .refine((v) => (QUIZ_TIME_MULTIPLIERS as readonly number[]).includes(v), "Choose a time multiplier: 1, 1.25, 1.5, 2 or 3."),
  ),
});
export type QuizTimeInput = z.infer<typeof quizTimeInput>;

/* ------------------------------------------------------------------------------------------------
 * Realtime backbone: group chat, notifications, the admins' inbox and shared feedback.
 * ---------------------------------------------------------------------------------------------- */

const maxId = Number.MAX_SAFE_INTEGER;

/** POST /api/messages and the chat form: the group (id or slug) plus the fields of the `chat.send` frame. */
export const sendMessageInput = chatFields.extend({
  groupId: z.string({ error: "Which group?" }).trim().min(1, "Which group?").max(120).regex(/^[\p{L}\p{M}\p{N}_-]+$/u, "Invalid group"),
});
export type SendMessageInput = z.infer<typeof sendMessageInput>;

/** GET /api/messages/group/{id}: newest first; `before` is a message id (the previous page's `nextBefore`). */
export const messagePageQuery = z.object({
  before: z.coerce.number().int().positive().max(maxId).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type MessagePageQuery = z.infer<typeof messagePageQuery>;

/** `{id}` of a chat message (messages have numeric ids and no slug). */
export const messageIdParam = z.object({
  id: z.coerce.number({ error: "Invalid message id" }).int("Invalid message id").positive("Invalid message id").max(maxId),
});

/** GET /api/notifications: newest first; `before` is a notification id (the previous page's `nextBefore`). */
export const notificationsQuery = z.object({
  before: z.string().min(1).max(120).regex(/^[\p{L}\p{M}\p{N}_-]+$/u, "Invalid id").optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type NotificationsQuery = z.infer<typeof notificationsQuery>;

export const CONTACT_STATUSES = ["unread", "read", "all"] as const;

/** GET /api/contact-messages (admins): newest first. */
export const contactMessagesQuery = z.object({
  status: z.enum(CONTACT_STATUSES, "Choose unread, read or all.").default("all"),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type ContactMessagesQuery = z.infer<typeof contactMessagesQuery>;

/** PUT /api/contact-messages/{id}/read */
export const contactReadInput = z.object({ read: z.boolean({ error: "Say read: true or false." }) });
export type ContactReadInput = z.infer<typeof contactReadInput>;

export const FEEDBACK_MAX_LENGTH = 1000;

/** A form sends the rating as text; an empty field is a missing rating, never 0. */
const rating = z.preprocess(
  (v) => (typeof v === "string" && v.trim() !== "" ? Number(toLatinDigits(v)) : v),
  z
    .number({ error: "Choose a rating from 0 to 5." })
    .int("Choose a rating from 0 to 5.")
    .min(0, "Choose a rating from 0 to 5.")
    .max(5, "Choose a rating from 0 to 5."),
);

/** POST /api/feedback and /add-feedback: one record per student and group; sending again edits it. */
export const shareFeedbackInput = z.object({
  groupSlug: z.string({ error: "Choose your group." }).trim().min(1, "Choose your group.").max(120).regex(/^[\p{L}\p{M}\p{N}_-]+$/u, "Choose your group."),
  userFeedback: freeText("Please write your feedback.")
    .max(FEEDBACK_MAX_LENGTH, `Feedback must be at most ${FEEDBACK_MAX_LENGTH} characters.`),
  rating,
});
export type ShareFeedbackInput = z.infer<typeof shareFeedbackInput>;

/** PUT /api/feedback/{id} (admins): hide from or show on the public list. */
export const feedbackModerationInput = z.object({ hidden: z.boolean({ error: "Say hidden: true or false." }) });
export type FeedbackModerationInput = z.infer<typeof feedbackModerationInput>;
