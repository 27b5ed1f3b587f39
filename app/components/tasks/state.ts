import type { MessageKey } from "~/i18n/en";
import type { SubmissionState } from "~/lib/task-schemas";

/** The words for a submission's one clear state, shared by the task page, the course home and the grader. */
export const STATE_KEYS: Record<SubmissionState, MessageKey> = {
  "not-submitted": "tasks.state.not-submitted",
  submitted: "tasks.state.submitted",
  late: "tasks.state.late",
  graded: "tasks.state.graded",
  "resubmission-requested": "tasks.state.resubmission-requested",
};
