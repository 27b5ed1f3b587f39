/**
 * The one error type of the product. Services throw it for expected failures; the API's onError and
 * the Remix actions turn it into `{ message, code, fields? }` with its status. Anything else is a bug (5xx).
 */
export type ErrorCode =
  | "bad_request"
  | "validation_failed"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "payload_too_large"
  | "rate_limited"
  | "internal_error"
  // A part that only the deployed Worker has (the code runner under the Vite development server)
  | "unavailable"
  // Accounts and sessions (worker/services/accounts.ts, sessions.ts, worker/auth/google.ts)
  | "invalid_credentials"
  | "email_not_verified"
  | "invalid_code"
  | "last_admin"
  | "runs_groups"
  | "google_not_configured"
  | "google_failed"
  // Groups and membership (worker/services/memberships.ts, groups-admin.ts, uploads.ts)
  | "group_closed"
  | "group_archived"
  | "course_ended"
  | "group_full"
  | "capacity_below_members"
  | "has_members"
  | "publish_after_due"
  | "already_requested"
  | "already_member"
  | "already_decided"
  | "not_member"
  | "not_pending"
  | "invalid_image"
  // Lectures and attendance (worker/services/lectures.ts, attendance.ts)
  | "series_too_long"
  | "series_past_years"
  | "attendance_closed"
  | "marked_absent"
  | "lecture_draft"
  | "lecture_not_held"
  // Quizzes (worker/services/quizzes.ts)
  | "quiz_not_open"
  | "quiz_closed"
  | "no_attempts_left"
  | "time_up"
  | "attempt_closed"
  | "quiz_started"
  | "answers_seen"
  // A cohort's life (worker/services/schedule.ts, certificates.ts)
  | "already_published"
  | "already_shown"
  | "already_handed_in"
  | "no_completion_rule"
  | "course_not_started"
  // Rubrics and grade release (worker/services/rubrics.ts, tasks.ts)
  | "rubric_in_use"
  | "grades_not_held"
  | "changed_since_graded"
  | "grades_out"
  | "changed_since_opened"
  | "graded_elsewhere"
  // Quiz answers saved from another tab or device since the sender's last save (worker/services/quizzes.ts)
  | "answers_changed"
  | "past_due_no_late_work"
  // Code exercises and code questions (worker/services/code-lease.ts): the student's previous run still going
  | "code_busy"
  // Running an exercise's tests again on every hand-in (worker/services/exercises.ts)
  | "no_tests"
  | "not_published"
  | "rerun_running"
  | "too_many_hand_ins"
  | "draws_short"
  | "bank_changed";

/** A request that pointed at something deleted while it ran (a task, a quiz, an account): nothing was written. */
export const REMOVED_MEANWHILE = "What this request refers to was removed a moment ago. Please reload the page.";

export class AppError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 429 | 500 | 503,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "AppError";
  }

  toJSON() {
    return { message: this.message, code: this.code, ...(this.fields ? { fields: this.fields } : {}) };
  }
}

export const notFound = (what = "Not found") => new AppError(404, "not_found", what);
export const forbidden = (message = "You are not allowed to do that.") => new AppError(403, "forbidden", message);
export const unauthorized = (message = "Please log in first.") => new AppError(401, "unauthorized", message);
/** What a request or a socket under a session that ended (revoked, expired) is told: log in again. */
export const SESSION_ENDED = "Your session has ended. Please log in again.";
