/**
 * The whole data model of Cohort (PRODUCT.md §2), the single source of truth.
 * drizzle-kit generates migrations/ from this file; never edit an applied migration.
 *
 * Conventions: ids are text (random, URL-safe) so they can be shown as `_id`;
 * times are integer milliseconds since the epoch (`timestamp_ms`);
 * every foreign key names its delete behaviour; every lookup path has an index.
 */
import { sql } from "drizzle-orm";
import { QUESTION_TYPES, SHOW_ANSWERS } from "../app/lib/quiz-schemas";
import type { RubricAssessment, RubricCriterion } from "../app/lib/rubric-schemas";
import type { Paper, QuizDraw } from "../app/lib/quiz-paper";
import { CODE_LANGUAGES, type CodeTest, type RunReport } from "../worker/sandbox/types";

/** A quiz code question's own part (questions.code). */
export interface QuizCode {
  starterCode: string;
  tests: CodeTest[];
  timeMs: number;
  memoryMb: number;
}
/** A quiz code answer graded once: a hash of the code the runner judged, and whether every test passed. */
export interface CodeCheck {
  hash: string;
  passed: boolean;
}
import {
  check,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";

const id = () => text("id").primaryKey();
const createdAt = () =>
  integer("created_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(unixepoch() * 1000)`);

export const ROLES = ["admin", "instructor", "user"] as const;
export type Role = (typeof ROLES)[number];

export const users = sqliteTable(
  "users",
  {
    id: id(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    /** Always stored lower-case. */
    email: text("email").notNull(),
    /** Self-describing: `pbkdf2-sha256$<iterations>$<salt>$<hash>`; null for Google-only accounts. */
    passwordHash: text("password_hash"),
    phoneNumber: text("phone_number"),
    country: text("country"),
    role: text("role", { enum: ROLES }).notNull().default("user"),
    emailVerifiedAt: integer("email_verified_at", { mode: "timestamp_ms" }),
    /**
     * Two sign-ups with different passwords reached this unverified address (ADR 0040): whoever verifies it proves the
     * mailbox, not which password is theirs, so verifying leaves no password and the owner chooses one by reset code.
     */
    registrationContested: integer("registration_contested", { mode: "boolean" }).notNull().default(false),
    googleSub: text("google_sub"),
    fingerprint: text("fingerprint"),
    /** The language the person last chose while signed in (en or ar): e-mails and certificates are written in it. */
    locale: text("locale", { enum: ["en", "ar"] }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("users_email_uq").on(t.email),
    uniqueIndex("users_slug_uq").on(t.slug),
    uniqueIndex("users_google_sub_uq").on(t.googleSub),
    index("users_role_idx").on(t.role, t.createdAt),
  ],
);

export const sessions = sqliteTable(
  "sessions",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** SHA-256 of the current refresh token; the token itself is never stored. */
    refreshTokenHash: text("refresh_token_hash").notNull(),
    /** Rotation family: a reused (old) token revokes the whole family. */
    family: text("family").notNull(),
    createdAt: createdAt(),
    lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
    userAgent: text("user_agent"),
    fingerprint: text("fingerprint"),
  },
  (t) => [
    uniqueIndex("sessions_refresh_hash_uq").on(t.refreshTokenHash),
    index("sessions_user_idx").on(t.userId, t.revokedAt),
    index("sessions_family_idx").on(t.family),
  ],
);

/** Previous refresh-token hashes of a session, so that reuse of a rotated token is detected. */
export const sessionRotations = sqliteTable(
  "session_rotations",
  {
    tokenHash: text("token_hash").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    rotatedAt: integer("rotated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("session_rotations_session_idx").on(t.sessionId)],
);

export const CODE_PURPOSES = ["verify-email", "reset-password"] as const;

export const oneTimeCodes = sqliteTable(
  "one_time_codes",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: CODE_PURPOSES }).notNull(),
    /** HMAC of the 6-digit code with a server secret. */
    codeHash: text("code_hash").notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [index("one_time_codes_user_purpose_idx").on(t.userId, t.purpose, t.createdAt)],
);

/** Fixed-window counters for rate limits (login, codes, contact form). Updated atomically with upserts. */
export const rateLimits = sqliteTable("rate_limits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  resetAt: integer("reset_at", { mode: "timestamp_ms" }).notNull(),
});

export const GROUP_STATUSES = ["draft", "published", "archived"] as const;
export type GroupStatus = (typeof GROUP_STATUSES)[number];

export const groups = sqliteTable(
  "groups",
  {
    id: id(),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    imageCourse: text("image_course"),
    /** ISO date string (YYYY-MM-DD...), as the spec names it. */
    startDate: text("start_date"),
    instructorId: text("instructor_id").references(() => users.id, { onDelete: "set null" }),
    status: text("status", { enum: GROUP_STATUSES }).notNull().default("draft"),
    capacity: integer("capacity"),
    /** The IANA time zone the group meets in: copies keep lecture weekdays and hours in it (issue 22). */
    timeZone: text("time_zone").notNull().default("Africa/Cairo"),
    /** The completion rule (issue 22): a certificate needs at least this Overall and this attendance, in percent. */
    completionOverall: integer("completion_overall"),
    completionAttendance: integer("completion_attendance"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("groups_slug_uq").on(t.slug),
    index("groups_status_start_idx").on(t.status, t.startDate),
    index("groups_instructor_idx").on(t.instructorId),
  ],
);

export const courseContents = sqliteTable(
  "course_contents",
  {
    id: id(),
    groupId: text("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    body: text("body").notNull().default(""),
    /** The body rendered once (worker/services/stored-html.ts); cleared by a trigger when the body changes without it. */
    bodyHtml: text("body_html"),
    order: integer("order").notNull().default(0),
  },
  (t) => [index("course_contents_group_order_idx").on(t.groupId, t.order)],
);

export const MEMBERSHIP_STATUSES = [
  "pending",
  "approved",
  "special",
  "rejected",
  "left",
  "removed",
] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];
/** Statuses that see a group's inside. */
export const MEMBER_STATUSES: readonly MembershipStatus[] = ["approved", "special"];

export const memberships = sqliteTable(
  "memberships",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    groupId: text("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    status: text("status", { enum: MEMBERSHIP_STATUSES }).notNull().default("pending"),
    requestMessage: text("request_message"),
    decidedBy: text("decided_by").references(() => users.id, { onDelete: "set null" }),
    decidedAt: integer("decided_at", { mode: "timestamp_ms" }),
    /**
     * When the student first became a member (approved or special): kept through a change of terms, leaving, removal
     * and coming back. Work held or due before it, that they have no record of, counts nowhere in their progress (ADR
     * 0015). Null for memberships never approved, and for those approved before it was recorded and never decided.
     */
    joinedAt: integer("joined_at", { mode: "timestamp_ms" }),
    /**
     * An accommodation: the student's time on every timed quiz of the group, in percent of the quiz's duration (150:
     * half as long again). Applied when an attempt starts (its stored deadline), still capped by the quiz's close.
     */
    quizTimePercent: integer("quiz_time_percent").notNull().default(100),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("memberships_user_group_uq").on(t.userId, t.groupId),
    index("memberships_group_status_idx").on(t.groupId, t.status),
    index("memberships_status_created_idx").on(t.status, t.createdAt),
  ],
);

export const lectures = sqliteTable(
  "lectures",
  {
    id: id(),
    groupId: text("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull().default(""),
    /** The rendered, sanitised HTML of the Markdown beside it, stored once (worker/services/stored-html.ts); null until first rendered. */
    bodyHtml: text("body_html"),
    videoUrl: text("video_url"),
    /** JSON array of {title, url}. */
    resources: text("resources", { mode: "json" }).$type<{ title: string; url: string }[]>().notNull().default(sql`'[]'`),
    startsAt: integer("starts_at", { mode: "timestamp_ms" }),
    order: integer("order").notNull().default(0),
    published: integer("published", { mode: "boolean" }).notNull().default(false),
    /** A draft the server publishes (and announces) at this time (issue 22, worker/services/schedule.ts). */
    publishAt: integer("publish_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("lectures_publish_at_idx").on(t.publishAt).where(sql`${t.publishAt} is not null`),
    // Lecture slugs are unique across the platform: the spec's attend call names a lecture by slug alone.
    uniqueIndex("lectures_slug_uq").on(t.slug),
    index("lectures_group_order_idx").on(t.groupId, t.order),
    index("lectures_group_starts_idx").on(t.groupId, t.startsAt),
  ],
);

export const attendanceSessions = sqliteTable(
  "attendance_sessions",
  {
    id: id(),
    lectureId: text("lecture_id")
      .notNull()
      .references(() => lectures.id, { onDelete: "cascade" }),
    // No code is stored: each window's code is an HMAC of this session's id and the window number under a key
    // derived from AUTH_SECRET (worker/services/attendance-codes.ts), so nothing is written per rotation.
    opensAt: integer("opens_at", { mode: "timestamp_ms" }).notNull(),
    closesAt: integer("closes_at", { mode: "timestamp_ms" }),
    rotateSeconds: integer("rotate_seconds"),
    lateAfterMinutes: integer("late_after_minutes"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [index("attendance_sessions_lecture_idx").on(t.lectureId, t.opensAt)],
);

export const ATTENDANCE_STATUSES = ["present", "late", "absent", "excused"] as const;
export const ATTENDANCE_METHODS = ["code", "manual"] as const;

export const attendance = sqliteTable(
  "attendance",
  {
    id: id(),
    lectureId: text("lecture_id")
      .notNull()
      .references(() => lectures.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: ATTENDANCE_STATUSES }).notNull(),
    method: text("method", { enum: ATTENDANCE_METHODS }).notNull(),
    markedAt: integer("marked_at", { mode: "timestamp_ms" }).notNull(),
    markedBy: text("marked_by").references(() => users.id, { onDelete: "set null" }),
    /** The device a check-in came from (its fingerprint, or a hash of the session): shared devices are flagged. */
    device: text("device"),
    /** Keyed hash of the check-in's browser cookie (never the cookie itself): one browser for several students is flagged. */
    browser: text("browser"),
    /** Keyed hash of the check-in's client address: several check-ins from one address within a window are flagged. */
    address: text("address"),
    /** A QR scan's check-in redeemed on another network than the scan's (handed on to someone elsewhere): flagged. */
    elsewhere: integer("elsewhere", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    uniqueIndex("attendance_lecture_user_uq").on(t.lectureId, t.userId),
    index("attendance_user_idx").on(t.userId),
    index("attendance_lecture_device_idx").on(t.lectureId, t.device),
    index("attendance_lecture_browser_idx").on(t.lectureId, t.browser),
    index("attendance_lecture_address_idx").on(t.lectureId, t.address, t.markedAt),
  ],
);

/**
 * A QR code scanned on a signed-out phone (ADR 0018): judged at the scan, redeemed once after the login by the browser
 * that scanned it. Only a hash of that browser's cookie is stored; the id in the login's return link is no secret.
 */
export const attendancePendingCheckins = sqliteTable(
  "attendance_pending_checkins",
  {
    id: id(),
    lectureId: text("lecture_id")
      .notNull()
      .references(() => lectures.id, { onDelete: "cascade" }),
    sessionId: text("session_id")
      .notNull()
      .references(() => attendanceSessions.id, { onDelete: "cascade" }),
    /** SHA-256 of the scanning browser's HttpOnly cookie: the pending check-in belongs to that browser only. */
    browserHash: text("browser_hash").notNull(),
    /**
     * The keyed hash of the address that scanned (`ip:...`, as a check-in's `address`): the check-in made from it is
     * stored with it, wherever it is redeemed, since the scan is where the student was (ADR 0041). Null: none known.
     */
    scanAddress: text("scan_address"),
    status: text("status", { enum: ["present", "late"] }).notNull(),
    scannedAt: integer("scanned_at", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
    usedBy: text("used_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    index("attendance_pending_lecture_idx").on(t.lectureId),
    index("attendance_pending_session_idx").on(t.sessionId),
    index("attendance_pending_used_by_idx").on(t.usedBy),
    index("attendance_pending_expires_idx").on(t.expiresAt),
  ],
);

/**
 * A group's rubric (app/lib/rubric-schemas.ts): criteria with levels and points, reusable on any task of the group.
 * A task that carries one has the rubric's total as its maximum score.
 */
export const rubrics = sqliteTable(
  "rubrics",
  {
    id: id(),
    groupId: text("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    criteria: text("criteria", { mode: "json" }).$type<RubricCriterion[]>().notNull(),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("rubrics_group_idx").on(t.groupId)],
);

export const tasks = sqliteTable(
  "tasks",
  {
    id: id(),
    lectureId: text("lecture_id")
      .notNull()
      .references(() => lectures.id, { onDelete: "cascade" }),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull().default(""),
    /** The rendered, sanitised HTML of the Markdown beside it, stored once (worker/services/stored-html.ts); null until first rendered. */
    bodyHtml: text("body_html"),
    dueAt: integer("due_at", { mode: "timestamp_ms" }),
    maxScore: integer("max_score").notNull().default(100),
    allowLate: integer("allow_late", { mode: "boolean" }).notNull().default(true),
    /**
     * Grades staff give are held from students until staff release them (Canvas's "post grades"): while true a graded
     * hand-in reads "handed in" to its student, with no score, no feedback and no notification (ADR 0021).
     */
    gradesHeld: integer("grades_held", { mode: "boolean" }).notNull().default(false),
    /**
     * A late penalty (with allowLate): the percent of the grade taken off per started day late, never more than
     * 100 - `latePenaltyFloor` percent in all (the floor is the share of the grade a late hand-in always keeps).
     */
    latePenaltyPerDay: integer("late_penalty_per_day").notNull().default(0),
    latePenaltyFloor: integer("late_penalty_floor").notNull().default(0),
    /**
     * A file hand-in (issue 21): the kinds of file accepted (app/lib/hand-in-files.ts; empty: a link is handed in)
     * and the largest file, in megabytes.
     */
    fileKinds: text("file_kinds", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    maxFileMb: integer("max_file_mb").notNull().default(10),
    /** Graded with this rubric (its total is `maxScore`); a deleted rubric leaves the task without one. */
    rubricId: text("rubric_id").references(() => rubrics.id, { onDelete: "set null" }),
    /**
     * Scheduled (issue 22): students do not see the task until the server publishes it at this time and clears it.
     * Null: the task shows with its lecture.
     */
    publishAt: integer("publish_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("tasks_publish_at_idx").on(t.publishAt).where(sql`${t.publishAt} is not null`),
    index("tasks_rubric_idx").on(t.rubricId),
    // Task slugs are unique across the platform (pages name a task by slug under its lecture).
    uniqueIndex("tasks_slug_uq").on(t.slug),
    index("tasks_lecture_due_idx").on(t.lectureId, t.dueAt),
  ],
);

export const submissions = sqliteTable(
  "submissions",
  {
    id: id(),
    taskId: text("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    link: text("link").notNull(),
    notes: text("notes"),
    submittedAt: integer("submitted_at", { mode: "timestamp_ms" }).notNull(),
    late: integer("late", { mode: "boolean" }).notNull().default(false),
    score: integer("score"),
    /** The score staff gave before a late penalty took its share (null: no penalty applied); `score` is what counts. */
    rawScore: integer("raw_score"),
    /** The filled rubric as it was when graded (null: graded with a plain score, or not graded). */
    rubric: text("rubric", { mode: "json" }).$type<RubricAssessment>(),
    feedback: text("feedback"),
    /** The rendered, sanitised HTML of the Markdown beside it, stored once (worker/services/stored-html.ts); null until first rendered. */
    feedbackHtml: text("feedback_html"),
    gradedBy: text("graded_by").references(() => users.id, { onDelete: "set null" }),
    gradedAt: integer("graded_at", { mode: "timestamp_ms" }),
    /** Staff asked for a new version: the student may submit again (the grade is kept until then). */
    resubmitRequestedAt: integer("resubmit_requested_at", { mode: "timestamp_ms" }),
    /**
     * `feedback` was written with the request for a new version (not with a grade): the student sees it even while the
     * task holds its grades, when the grade itself, and the feedback that came with it, stay hidden (ADR 0021).
     */
    feedbackWithRequest: integer("feedback_with_request", { mode: "boolean" }).notNull().default(false),
    /**
     * Handed in again after staff graded it, while its task held its grades (ADR 0040): the grade kept is an older
     * version's. Set by the replacing write itself (not read from clocks), cleared when staff grade it again.
     */
    changedSinceGraded: integer("changed_since_graded", { mode: "boolean" }).notNull().default(false),
    /** A file hand-in: its key in R2 (`hand-ins/...`), its name as uploaded, its type by content, and its size. */
    fileKey: text("file_key"),
    fileName: text("file_name"),
    fileType: text("file_type"),
    fileSize: integer("file_size"),
    /** A code exercise's hand-in: the code, and the runner's per-test report (its score is `score`). */
    code: text("code"),
    report: text("report", { mode: "json" }).$type<RunReport>(),
    /**
     * A code exercise's own score from its tests (after any late penalty) and before the penalty (null: none taken),
     * kept beside `score` when staff grade it: while the task holds its grades its student goes on seeing these, as
     * before staff graded it (ADR 0041). Null on link and file hand-ins.
     */
    testsScore: integer("tests_score"),
    testsRawScore: integer("tests_raw_score"),
  },
  (t) => [
    uniqueIndex("submissions_task_user_uq").on(t.taskId, t.userId),
    index("submissions_user_idx").on(t.userId),
  ],
);

/** Every version of a hand-in, as it was handed in (issue 21): the submission row holds the latest. */
export const submissionVersions = sqliteTable(
  "submission_versions",
  {
    id: id(),
    submissionId: text("submission_id")
      .notNull()
      .references(() => submissions.id, { onDelete: "cascade" }),
    link: text("link").notNull(),
    notes: text("notes"),
    code: text("code"),
    fileKey: text("file_key"),
    fileName: text("file_name"),
    fileType: text("file_type"),
    fileSize: integer("file_size"),
    submittedAt: integer("submitted_at", { mode: "timestamp_ms" }).notNull(),
    late: integer("late", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("submission_versions_submission_idx").on(t.submissionId, t.submittedAt)],
);

/** The private conversation about one hand-in, between its student and the group's staff (issue 21). */
export const submissionComments = sqliteTable(
  "submission_comments",
  {
    id: id(),
    submissionId: text("submission_id")
      .notNull()
      .references(() => submissions.id, { onDelete: "cascade" }),
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("submission_comments_submission_idx").on(t.submissionId, t.createdAt)],
);

/**
 * A task that is a code exercise (docs/decisions/0016-code-exercises.md): its language, starter code, tests
 * (visible and hidden), limits and the reference solution. Its own table, so the hidden tests and the reference are
 * read only by the code that means to; students see it once `published`, which needs the reference to pass.
 */
export const exercises = sqliteTable("exercises", {
  taskId: text("task_id")
    .primaryKey()
    .references(() => tasks.id, { onDelete: "cascade" }),
  language: text("language", { enum: CODE_LANGUAGES }).notNull().default("javascript"),
  starterCode: text("starter_code").notNull().default(""),
  tests: text("tests", { mode: "json" }).$type<CodeTest[]>().notNull(),
  timeMs: integer("time_ms").notNull().default(1000),
  memoryMb: integer("memory_mb").notNull().default(16),
  referenceSolution: text("reference_solution").notNull(),
  published: integer("published", { mode: "boolean" }).notNull().default(false),
  /** When the reference solution last passed every test (null: not since the tests last changed). */
  verifiedAt: integer("verified_at", { mode: "timestamp_ms" }),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});

/** A student's unsaved work on an exercise, kept as they type (one row per student and exercise). */
export const exerciseDrafts = sqliteTable(
  "exercise_drafts",
  {
    taskId: text("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    code: text("code").notNull(),
    savedAt: integer("saved_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.userId] })],
);

// The quiz enums are defined once, beside the rules that use them (app/lib/quiz-schemas.ts).
export { QUESTION_TYPES, SHOW_ANSWERS };

export const quizzes = sqliteTable(
  "quizzes",
  {
    id: id(),
    lectureId: text("lecture_id").references(() => lectures.id, { onDelete: "cascade" }),
    groupId: text("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    /** The rendered, sanitised HTML of the Markdown beside it, stored once (worker/services/stored-html.ts); null until first rendered. */
    descriptionHtml: text("description_html"),
    durationMinutes: integer("duration_minutes"),
    opensAt: integer("opens_at", { mode: "timestamp_ms" }),
    closesAt: integer("closes_at", { mode: "timestamp_ms" }),
    maxAttempts: integer("max_attempts").notNull().default(1),
    showAnswers: text("show_answers", { enum: SHOW_ANSWERS }).notNull().default("after-submit"),
    published: integer("published", { mode: "boolean" }).notNull().default(false),
    /** Questions drawn from the group's bank for each attempt: N of a tag, each worth `points` here (issue 21). */
    draws: text("draws", { mode: "json" }).$type<QuizDraw[]>().notNull().default(sql`'[]'`),
    /** Each student's attempt shows the questions, and the options of choice questions, in its own order. */
    shuffleQuestions: integer("shuffle_questions", { mode: "boolean" }).notNull().default(false),
    shuffleOptions: integer("shuffle_options", { mode: "boolean" }).notNull().default(false),
    /** When a review first showed a student this quiz's answers (ADR 0040): from then on no more tries, whatever the policy now. */
    answersShownAt: integer("answers_shown_at", { mode: "timestamp_ms" }),
    /** A draft the server publishes (and announces) at this time (issue 22). */
    publishAt: integer("publish_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("quizzes_publish_at_idx").on(t.publishAt).where(sql`${t.publishAt} is not null`),
    // Slugs are unique site-wide: POST /api/quizzes/solve names a quiz by its slug alone.
    uniqueIndex("quizzes_slug_uq").on(t.slug),
    index("quizzes_group_idx").on(t.groupId),
    index("quizzes_lecture_idx").on(t.lectureId),
  ],
);

export const questions = sqliteTable(
  "questions",
  {
    id: id(),
    quizId: text("quiz_id")
      .notNull()
      .references(() => quizzes.id, { onDelete: "cascade" }),
    text: text("text").notNull(),
    type: text("type", { enum: QUESTION_TYPES }).notNull(),
    /** JSON array of option labels (empty for short-text). */
    options: text("options", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    /** JSON: option indexes for choice questions, accepted answers for short-text. Server-only. */
    correct: text("correct", { mode: "json" }).$type<(number | string)[]>().notNull(),
    /** A code question's starter code, tests and limits (its `correct` is the reference solution). Server-only tests. */
    code: text("code", { mode: "json" }).$type<QuizCode>(),
    points: integer("points").notNull().default(1),
    order: integer("order").notNull().default(0),
  },
  (t) => [index("questions_quiz_order_idx").on(t.quizId, t.order)],
);

/**
 * A group's question bank (issue 21): questions kept with tags, from which quizzes draw N at random per attempt.
 * The same shape as a quiz's question (no code questions: those live in their quiz).
 */
export const bankQuestions = sqliteTable(
  "bank_questions",
  {
    id: id(),
    groupId: text("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    text: text("text").notNull(),
    type: text("type", { enum: QUESTION_TYPES }).notNull(),
    options: text("options", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    correct: text("correct", { mode: "json" }).$type<(number | string)[]>().notNull(),
    points: integer("points").notNull().default(1),
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("bank_questions_group_idx").on(t.groupId)],
);

export const attempts = sqliteTable(
  "attempts",
  {
    id: id(),
    quizId: text("quiz_id")
      .notNull()
      .references(() => quizzes.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** JSON map questionId -> answer. */
    answers: text("answers", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    score: integer("score"),
    maxScore: integer("max_score"),
    /** 1 for the student's first attempt at this quiz, 2 for the second... (unique, so two starts cannot both count). */
    number: integer("number").notNull().default(1),
    startedAt: integer("started_at", { mode: "timestamp_ms" }).notNull(),
    /** Fixed at the start: min(start + duration, closesAt); null for homework with no closing time. */
    deadlineAt: integer("deadline_at", { mode: "timestamp_ms" }),
    /** When the answers were last saved (autosave), by the server's clock. */
    savedAt: integer("saved_at", { mode: "timestamp_ms" }),
    submittedAt: integer("submitted_at", { mode: "timestamp_ms" }),
    /** Code questions' results at grading time: questionId -> whether every test passed (the sandbox runs once). */
    verdicts: text("verdicts", { mode: "json" }).$type<Record<string, boolean>>(),
    /**
     * Code answers graded in the background as they are saved: questionId -> the hash of the code judged and its
     * verdict. Grading an attempt uses a check only while its hash matches the final answer.
     */
    codeChecks: text("code_checks", { mode: "json" }).$type<Record<string, CodeCheck>>(),
    /** Closed by a read with code answers not yet judged: its score counts them wrong until the runner has run. */
    codePending: integer("code_pending", { mode: "boolean" }).notNull().default(false),
    /**
     * What this attempt was given (issue 21), for quizzes that draw or shuffle: the questions in their order, each
     * choice question's option order, and a copy of the bank questions drawn. Null: the quiz's questions as written.
     */
    paper: text("paper", { mode: "json" }).$type<Paper>(),
    /**
     * Staff's points for single answers (issue 21): questionId -> the points given instead of the automatic ones,
     * with a note the student sees in the review. Regrading keeps them.
     */
    overrides: text("overrides", { mode: "json" }).$type<Record<string, { points: number; note: string; by: string | null; at: number }>>(),
  },
  (t) => [
    uniqueIndex("attempts_quiz_user_number_uq").on(t.quizId, t.userId, t.number),
    // At most one open attempt per student and quiz, whatever races between two tabs.
    uniqueIndex("attempts_open_uq").on(t.quizId, t.userId).where(sql`${t.submittedAt} is null`),
    index("attempts_open_deadline_idx").on(t.deadlineAt).where(sql`${t.submittedAt} is null`),
    index("attempts_user_idx").on(t.userId),
    index("attempts_code_pending_idx").on(t.codePending).where(sql`${t.codePending} = 1`),
  ],
);

/**
 * An exception for one student (issue 21): a later due time on a task, or a later close, extra minutes or extra
 * attempts on a quiz. Exactly one of `taskId` and `quizId` is set. The student's screens, the server's checks, the
 * late rules and progress all read the student's own times through it (worker/services/extensions.ts).
 */
export const extensions = sqliteTable(
  "extensions",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    taskId: text("task_id").references(() => tasks.id, { onDelete: "cascade" }),
    quizId: text("quiz_id").references(() => quizzes.id, { onDelete: "cascade" }),
    /** A task's due time for this student. */
    dueAt: integer("due_at", { mode: "timestamp_ms" }),
    /** A quiz's closing time for this student (null: the quiz's own). */
    closesAt: integer("closes_at", { mode: "timestamp_ms" }),
    /** Minutes added to each timed attempt (after any accommodation). */
    extraMinutes: integer("extra_minutes").notNull().default(0),
    /** Attempts beyond the quiz's maximum. */
    extraAttempts: integer("extra_attempts").notNull().default(0),
    grantedBy: text("granted_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    // NULLs are distinct in SQLite unique indexes: a quiz's row never collides with a task's.
    uniqueIndex("extensions_task_user_uq").on(t.taskId, t.userId),
    uniqueIndex("extensions_quiz_user_uq").on(t.quizId, t.userId),
    index("extensions_user_idx").on(t.userId),
    check("extensions_one_target", sql`(${t.taskId} is null) <> (${t.quizId} is null)`),
  ],
);

/**
 * A staff member's comment bank (issue 21): feedback snippets they insert into the grader's feedback with a keystroke.
 * Their own, across every group they grade.
 */
export const commentSnippets = sqliteTable(
  "comment_snippets",
  {
    id: id(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    text: text("text").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("comment_snippets_owner_idx").on(t.ownerId, t.createdAt)],
);

export const messages = sqliteTable(
  "messages",
  {
    /** Increases within a group, so a reconnecting client asks for "everything after id N". */
    id: integer("id").primaryKey({ autoIncrement: true }),
    groupId: text("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
    text: text("text").notNull(),
    replyTo: integer("reply_to"),
    /** The sender's id for this message, so a retried send is stored once. */
    clientId: text("client_id"),
    createdAt: createdAt(),
    deletedAt: integer("deleted_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("messages_group_id_idx").on(t.groupId, t.id),
    // A clientId names one send of its author in one group: a retry goes to the group it was sent to.
    uniqueIndex("messages_group_author_client_uq").on(t.groupId, t.authorId, t.clientId),
  ],
);

/**
 * The blocks of message ids a group's room reserved (docs/decisions/0026-chat-persist-first.md): the room numbers its
 * messages from these without a D1 round trip and writes them through later, so an id the room handed out is found
 * here (its group) before its row reaches `messages`. Blocks never overlap: they come from `messages`' own
 * AUTOINCREMENT sequence, which the reservation moves past the block's end.
 */
export const messageIdBlocks = sqliteTable("message_id_blocks", {
  start: integer("start").primaryKey(),
  end: integer("end").notNull(),
  groupId: text("group_id")
    .notNull()
    .references(() => groups.id, { onDelete: "cascade" }),
  reservedAt: integer("reserved_at", { mode: "timestamp_ms" }).notNull(),
});

export const contactMessages = sqliteTable(
  "contact_messages",
  {
    id: id(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    message: text("message").notNull(),
    createdAt: createdAt(),
    readAt: integer("read_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("contact_messages_created_idx").on(t.createdAt), index("contact_messages_read_idx").on(t.readAt)],
);

export const feedback = sqliteTable(
  "feedback",
  {
    id: id(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    email: text("email").notNull(),
    groupSlug: text("group_slug").notNull(),
    userFeedback: text("user_feedback").notNull(),
    rating: integer("rating").notNull(),
    hidden: integer("hidden", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
    /** When its author last changed it (null: as first written); admins see that a record they read has changed. */
    editedAt: integer("edited_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("feedback_user_group_uq").on(t.userId, t.groupSlug),
    index("feedback_public_idx").on(t.hidden, t.createdAt),
  ],
);

export const notifications = sqliteTable(
  "notifications",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    /** The English text, for API clients and for rows written before `params` existed. */
    title: text("title").notNull(),
    /** The text's parameters (names, titles, a variant): pages render the kind in the reader's language. */
    params: text("params", { mode: "json" }).$type<Record<string, string | number>>(),
    link: text("link"),
    /** What it is about when that can be taken back ("membership:{id}", a join request): retired with it. */
    about: text("about"),
    createdAt: createdAt(),
    readAt: integer("read_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("notifications_user_created_idx").on(t.userId, t.createdAt),
    index("notifications_user_unread_idx").on(t.userId, t.readAt),
    index("notifications_about_idx").on(t.about),
  ],
);

export const mails = sqliteTable(
  "mails",
  {
    id: id(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    createdAt: createdAt(),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
    /** Provider id on success, or the delivery error. */
    providerId: text("provider_id"),
    error: text("error"),
    /**
     * A mail carrying a one-time code is kept with the code masked in its subject, text and html. Only where the
     * outbox is the mailbox (development, no mail provider) is the code kept too, here, sealed (AES-GCM under a key
     * derived from AUTH_SECRET), for the dev mailbox to show; with a provider it is never stored (ADR 65).
     */
    secretSealed: text("secret_sealed"),
  },
  (t) => [index("mails_to_created_idx").on(t.to, t.createdAt)],
);

/**
 * A staff announcement to a group (issue 22): Markdown kept as written and as sanitised HTML rendered once when saved.
 * Pinned on the course home until the member dismisses it or it expires.
 */
export const announcements = sqliteTable(
  "announcements",
  {
    id: id(),
    groupId: text("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    body: text("body").notNull(),
    bodyHtml: text("body_html").notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [index("announcements_group_created_idx").on(t.groupId, t.createdAt)],
);

export const announcementDismissals = sqliteTable(
  "announcement_dismissals",
  {
    announcementId: text("announcement_id")
      .notNull()
      .references(() => announcements.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    dismissedAt: integer("dismissed_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.announcementId, t.userId] }), index("announcement_dismissals_user_idx").on(t.userId)],
);

/**
 * A completion certificate (issue 22). What it says is copied when it is issued (name, course, instructor, dates), so
 * it reads the same after the group changes or is deleted. `code` is its public address: an identifier the graduate
 * shares, not a secret that signs anyone in (ADR 0023).
 */
export const certificates = sqliteTable(
  "certificates",
  {
    id: id(),
    code: text("code").notNull(),
    groupId: text("group_id").references(() => groups.id, { onDelete: "set null" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    recipientName: text("recipient_name").notNull(),
    courseTitle: text("course_title").notNull(),
    instructorName: text("instructor_name"),
    /** The course's first and last day (YYYY-MM-DD, in the group's time zone). */
    startsOn: text("starts_on"),
    endsOn: text("ends_on"),
    language: text("language", { enum: ["en", "ar"] }).notNull().default("en"),
    issuedAt: integer("issued_at", { mode: "timestamp_ms" }).notNull(),
    issuedBy: text("issued_by").references(() => users.id, { onDelete: "set null" }),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
    revokedReason: text("revoked_reason"),
    revokedBy: text("revoked_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    uniqueIndex("certificates_code_uq").on(t.code),
    uniqueIndex("certificates_group_user_uq").on(t.groupId, t.userId),
    index("certificates_user_idx").on(t.userId),
  ],
);

/**
 * Scratch space of a course copy (issue 22, worker/services/course-copy.ts): old id -> new id for one copy, written and
 * emptied inside the copy's own batch, so a copy of any size is a fixed number of INSERT ... SELECT statements.
 */
export const copyMap = sqliteTable(
  "copy_map",
  {
    batchId: text("batch_id").notNull(),
    oldId: text("old_id").notNull(),
    newId: text("new_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.batchId, t.oldId] })],
);

/**
 * One row: the version of everything the public pages show (groups, outlines, instructors' names, feedback). SQLite
 * triggers move it on every change to those tables (migrations/0020_content_version.sql), so no write path can
 * forget, to at least the time of the change in milliseconds (0032: a database put back to an earlier copy never
 * gives a number twice); the edge cache keys public pages by it (worker/http/page-cache.ts).
 */
export const contentVersion = sqliteTable("content_version", {
  id: integer("id").primaryKey(),
  version: integer("version").notNull().default(0),
  /** Random, made with the database: keys of two databases never meet (a test's, a restored copy's). */
  epoch: text("epoch").notNull(),
});
