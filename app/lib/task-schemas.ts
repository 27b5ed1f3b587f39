/**
 * Input schemas for tasks, submissions and grading (issue "Tasks, submissions and grading"), shared by the staff
 * forms, the Remix actions and the API. Client-safe.
 */
import { z } from "zod";
import { dateTime } from "./dates";
import { toLatinDigits } from "./digits";
import { FILE_KINDS, MAX_FILE_MB } from "./hand-in-files";
import { rubricChoices } from "./rubric-schemas";
import { freeText } from "./schemas";
import { COMMENT_BANK_LIMITS, TASK_LIMITS } from "./task-rules";
import { isWebLink, withoutControls } from "./text";

export * from "./task-rules";

/** A moment, or null for none; `.nullable()` rather than a union, so a refused value keeps its own message. */
const dueAt = dateTime("Give the due time as a date and time.", "That due date or time does not exist.").nullable();

/** POST /api/lectures/{lectureId}/tasks. */
export const createTaskInput = z.object({
  title: freeText("Please enter a title.", { name: true }).max(TASK_LIMITS.title, `Title must be at most ${TASK_LIMITS.title} characters.`),
  body: z.string().overwrite(withoutControls).max(TASK_LIMITS.body, `The text must be at most ${TASK_LIMITS.body} characters.`).optional(),
  dueAt: dueAt.optional(),
  maxScore: z.number({ error: "The maximum score is a whole number from 1 to 1000." }).int().min(1).max(TASK_LIMITS.maxScore).optional(),
  allowLate: z.boolean({ error: "Say allowLate: true or false." }).optional(),
  /** Hold staff-given grades from students until released (POST .../release-grades); false only on creation. */
  gradesHeld: z.boolean({ error: "Say gradesHeld: true or false." }).optional(),
  /** Percent of the grade taken off per started day late (0: no penalty). */
  latePenaltyPerDay: z.number({ error: "The late penalty is a whole percent from 0 to 100 per day." }).int("The late penalty is a whole percent from 0 to 100 per day.").min(0, "The late penalty is a whole percent from 0 to 100 per day.").max(100, "The late penalty is a whole percent from 0 to 100 per day.").optional(),
  /** The share of the grade a late hand-in always keeps, in percent. */
  latePenaltyFloor: z.number({ error: "The floor is a whole percent from 0 to 100." }).int("The floor is a whole percent from 0 to 100.").min(0, "The floor is a whole percent from 0 to 100.").max(100, "The floor is a whole percent from 0 to 100.").optional(),
  /** A file hand-in: the kinds accepted (empty: a link is handed in) and the largest file in megabytes. */
  fileKinds: z.array(z.enum(FILE_KINDS, { error: "File kinds are pdf, image, text or zip." }), { error: "Give the file kinds as a list." }).max(FILE_KINDS.length).optional(),
  maxFileMb: z.number({ error: "The largest file is a whole number of megabytes from 1 to 20." }).int("The largest file is a whole number of megabytes from 1 to 20.").min(MAX_FILE_MB.min, "The largest file is a whole number of megabytes from 1 to 20.").max(MAX_FILE_MB.max, "The largest file is a whole number of megabytes from 1 to 20.").optional(),
  /** Grade with one of the group's rubrics (its total becomes the maximum score); null takes it off. */
  rubricId: z.string({ error: "Choose one of the group's rubrics." }).regex(/^[A-Za-z0-9_-]{1,64}$/, "Choose one of the group's rubrics.").nullable().optional(),
  /** Scheduled (issue 22): students see the task from this time, when the server shows it and tells them. */
  publishAt: dateTime("Give the publishing time as a date and time.").nullable().optional(),
});
export type CreateTaskInput = z.infer<typeof createTaskInput>;

/** PUT /api/lectures/{lectureId}/tasks/{taskId}: any of the fields, at least one. */
export const updateTaskInput = createTaskInput.omit({ publishAt: true }).partial().refine((v) => Object.keys(v).length > 0, "Send at least one field to change.");
export type UpdateTaskInput = z.infer<typeof updateTaskInput>;

/** POST /api/lectures/{lectureId}/submit-task/{taskId}: a link to the work (a repository or a deployed site). */
export const submitTaskInput = z.object({
  link: z
    .string({ error: "Give the link to your work." })
    .trim()
    .max(TASK_LIMITS.link, "That link is too long.")
    .refine((v) => isWebLink(v, { dotted: true }), "Give a full link to your work, starting with https:// or http://"),
  notes: z.string().overwrite(withoutControls).trim().max(TASK_LIMITS.notes, `Notes are limited to ${TASK_LIMITS.notes} characters.`).optional(),
});
export type SubmitTaskInput = z.infer<typeof submitTaskInput>;

const GRADE_KINDS = ["score", "rubric", "requestResubmission"] as const;
/**
 * The hand-in's time as the grader saw it (its `submittedAt`): when it is sent and a newer version was handed in
 * since, the grade is refused (409) instead of landing on work the grader has not seen.
 */
const seenVersion = z
  .string()
  .max(40)
  .refine((v) => !Number.isNaN(Date.parse(v)), "The version is the hand-in's submittedAt, as an ISO date-time.")
  .optional();
/** The grade the grader saw (its gradedAt; empty or null: none yet): a grade given meanwhile elsewhere is not replaced blind. */
const seenGrade = z
  .string()
  .max(40)
  .refine((v) => v === "" || !Number.isNaN(Date.parse(v)), "graded is the grade's gradedAt as an ISO date-time, or empty when it had none.")
  .nullable()
  .optional();
const ONE_GRADE_KIND = "Give a score, a rubric's levels or a request for a new version: one of them.";

const gradeFeedback = z.string().overwrite(withoutControls).trim().max(TASK_LIMITS.feedback, `Feedback is limited to ${TASK_LIMITS.feedback} characters.`).optional();
const GRADES = {
  score: z.object({
    // The grader's form sends text, perhaps typed with Arabic-Indic digits; the API sends a number.
    score: z.preprocess(
      (v) => (typeof v === "string" && v.trim() !== "" ? Number(toLatinDigits(v.trim())) : v),
      z.number({ error: "Give a whole-number score." }).int("Give a whole-number score.").min(0, "The score cannot be negative."),
    ),
    feedback: gradeFeedback,
    version: seenVersion,
    graded: seenGrade,
  }),
  requestResubmission: z.object({
    requestResubmission: z.literal(true, { error: "Send requestResubmission: true to ask for a new version." }),
    feedback: gradeFeedback,
    version: seenVersion,
    graded: seenGrade,
  }),
  // A task with a rubric: a level per criterion (criterion id -> level index); the score is the levels' points.
  rubric: z.object({ rubric: rubricChoices, feedback: gradeFeedback, version: seenVersion, graded: seenGrade }),
};

/**
 * PUT .../submissions/{submissionId}: a grade with feedback, or a request for a new version. A body that says two of
 * them is refused rather than read as whichever comes first, and one that says none is told what to send. A body is
 * checked against the kind it names, so its refusal names the field at fault in that kind's words (a union that
 * matches no member says only "Invalid input").
 */
export const gradeSubmissionInput = z.preprocess((value, ctx) => {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const given = GRADE_KINDS.filter((k) => (value as Record<string, unknown>)[k] !== undefined);
  if (given.length > 1) ctx.addIssue({ code: "custom", message: ONE_GRADE_KIND, path: [given[1]!], input: value });
  else if (given.length === 0) ctx.addIssue({ code: "custom", message: ONE_GRADE_KIND, path: ["score"], input: value });
  else {
    const checked = GRADES[given[0]!].safeParse(value);
    if (!checked.success) for (const issue of checked.error.issues) ctx.addIssue({ ...issue, input: value } as Parameters<typeof ctx.addIssue>[0]);
  }
  return value;
}, z.union([GRADES.score, GRADES.requestResubmission, GRADES.rubric]));
export type GradeSubmissionInput = z.infer<typeof gradeSubmissionInput>;

export { afterPenalty, latePenalty } from "./late-penalty";

/** POST /api/comment-bank: one feedback snippet. */
export const commentSnippetInput = z.object({
  text: freeText("Write the snippet's text.").max(COMMENT_BANK_LIMITS.text, `A snippet is at most ${COMMENT_BANK_LIMITS.text} characters.`),
});
export type CommentSnippetInput = z.infer<typeof commentSnippetInput>;

/** POST .../submissions/{submissionId}/comments: a message in a hand-in's private conversation. */
export const submissionCommentInput = z.object({
  body: freeText("Write a message.").max(TASK_LIMITS.feedback, `A message is at most ${TASK_LIMITS.feedback} characters.`),
});
export type SubmissionCommentInput = z.infer<typeof submissionCommentInput>;
