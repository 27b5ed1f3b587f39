/**
 * The words a group screen shows for a failed action: each service error code and each form field has a
 * dictionary key, so errors read in the visitor's language. Client-safe.
 */
import type { MessageKey } from "~/i18n/en";
import type { Params } from "~/i18n/translate";

type T = (key: MessageKey, params?: Params) => string;

/** The shape of a failed action result (see group-actions.server.ts). */
export interface FailureLike {
  ok: false;
  code: string;
  message: string;
  fields?: Record<string, string>;
}

const CODES: Record<string, MessageKey> = {
  group_full: "groups.error.groupFull",
  capacity_below_members: "groups.error.capacityBelowMembers",
  has_members: "groups.error.hasMembers",
  publish_after_due: "schedule.afterDue",
  group_closed: "groups.error.groupClosed",
  already_requested: "groups.error.alreadyRequested",
  already_member: "groups.error.alreadyMember",
  already_decided: "groups.error.alreadyDecided",
  not_member: "groups.error.notMember",
  not_pending: "groups.error.notPending",
  invalid_image: "groups.field.image",
  payload_too_large: "groups.error.imageTooLarge",
  forbidden: "groups.error.forbidden",
  not_found: "groups.error.notFound",
  rubric_in_use: "rubrics.error.inUse",
  validation_failed: "groups.error.validation",
  rate_limited: "groups.error.rateLimited",
  already_published: "schedule.published",
  group_archived: "schedule.archived",
  course_ended: "groups.error.courseEnded",
  already_shown: "schedule.shown",
  already_handed_in: "schedule.handedIn",
  no_completion_rule: "cohort.rule.none",
  course_not_started: "cohort.certificates.notStarted",
  draws_short: "bank.error.drawsShort",
  bank_changed: "bank.error.changed",
  changed_since_opened: "grader.error.changedSinceOpened",
  past_due_no_late_work: "grader.error.pastDueNoLateWork",
  code_busy: "exercises.error.busy",
  grades_out: "staffTasks.error.gradesOut",
  // Answered by the page itself when a form waited for a session that had ended (kept-submission.ts).
  session_ended: "wait.notSent",
};

/** Field name → the one message that field shows whatever its check was (it states the whole rule). */
const FIELDS: Record<string, MessageKey> = {
  title: "groups.field.title",
  description: "groups.field.description",
  imageCourse: "groups.field.image",
  file: "groups.field.image",
  start_date: "groups.field.startDate",
  instructorId: "groups.field.instructor",
  status: "groups.field.status",
  capacity: "groups.field.capacity",
  message: "groups.field.message",
  body: "groups.field.body",
};

/**
 * The sentence for a failed action. A code without words of its own shows the server's message to a reader of English
 * (more precise than nothing) and a general sentence to everyone else: never English inside another language.
 */
export function failureText(t: T, failure: FailureLike): string {
  // Outline titles have their own limit; a 409 `conflict` on the outline means the list changed meanwhile.
  if (failure.code === "conflict" && failure.fields?.ids) return t("groups.error.outlineChanged");
  const key = CODES[failure.code];
  if (key) return t(key);
  return t("lang.code") === "en" ? failure.message : t("groups.error.other");
}

/** A refused publishing time in the reader's words: after the task's due time, or not a usable time at all. */
export function publishAtText(t: T, failure: FailureLike): string {
  return t(failure.code === "publish_after_due" ? "schedule.afterDue" : "schedule.error");
}

/** The message of one field of a failed form, or undefined when that field is fine. */
export function fieldText(t: T, failure: FailureLike | null | undefined, field: string, key?: MessageKey): string | undefined {
  if (!failure?.fields?.[field]) return undefined;
  const known = key ?? FIELDS[field];
  return known ? t(known) : failure.fields[field];
}
