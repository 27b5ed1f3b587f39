/**
 * Quizzes (issue "Quizzes"; PRODUCT.md §2 Quiz, Question, Attempt; §3 Quizzes): the rules every side shares and
 * the input schemas of the staff editor, the Remix actions and the API. Client-safe: no correct answer lives here.
 */
import { z } from "zod";
import { dateTime } from "./dates";
import { codeTestInput, EXERCISE_LIMITS } from "./exercise-schemas";
import { freeText } from "./schemas";
import { QUESTION_TYPES, QUIZ_LIMITS, SHOW_ANSWERS, type ShowAnswers } from "./quiz-rules";
import { withoutControls } from "./text";

export * from "./quiz-rules";

const optionIndex = z.number({ error: "An option is chosen by its number, counting from 0." }).int("An option is chosen by its number, counting from 0.").min(0).max(QUIZ_LIMITS.options - 1);

const limit = (what: string, min: number, max: number) => z.number({ error: `The ${what} is ${min} to ${max}.` }).int(`The ${what} is ${min} to ${max}.`).min(min, `The ${what} is ${min} to ${max}.`).max(max, `The ${what} is ${min} to ${max}.`);

/** A code question's own part: what the student starts from, the tests (never shown to them) and the limits. */
const quizCodeInput = z.object({
  starterCode: z.string({ error: "Give the starter code as text." }).max(EXERCISE_LIMITS.code, `The starter code is at most ${EXERCISE_LIMITS.code} characters.`).default(""),
  tests: z.array(codeTestInput, { error: "Give the tests as a list." }).min(1, "A code question needs at least one test.").max(EXERCISE_LIMITS.tests, `At most ${EXERCISE_LIMITS.tests} tests.`),
  timeMs: limit("time limit per test in ms", EXERCISE_LIMITS.timeMs.min, EXERCISE_LIMITS.timeMs.max).default(EXERCISE_LIMITS.timeMs.default),
  memoryMb: limit("memory limit in MB", EXERCISE_LIMITS.memoryMb.min, EXERCISE_LIMITS.memoryMb.max).default(EXERCISE_LIMITS.memoryMb.default),
});

/**
 * One question as staff write it. `correct` is option indexes (single, true-false: one; multiple: one or more),
 * accepted texts (short-text) or the reference solution (code, which must pass the question's tests).
 */
export const questionInput = z
  .object({
    text: z
      .string({ error: "Each question needs its text." })
      .overwrite(withoutControls)
      .trim()
      .min(1, "Each question needs its text.")
      .max(QUIZ_LIMITS.questionText, `A question is at most ${QUIZ_LIMITS.questionText} characters.`),
    type: z.enum(QUESTION_TYPES, { error: "A question's type is single, multiple, true-false or short-text." }),
    options: z
      .array(z.string({ error: "Options are texts." }).overwrite(withoutControls).trim().min(1, "An option cannot be empty.").max(QUIZ_LIMITS.option, `An option is at most ${QUIZ_LIMITS.option} characters.`))
      .max(QUIZ_LIMITS.options, `A question has at most ${QUIZ_LIMITS.options} options.`)
      .optional(),
    correct: z.union([optionIndex, z.string().max(EXERCISE_LIMITS.code), z.array(z.union([optionIndex, z.string().max(QUIZ_LIMITS.shortAnswer)])).max(QUIZ_LIMITS.accepted)], {
      error: "Say which answer is correct.",
    }),
    code: quizCodeInput.optional(),
    points: z.number({ error: "Points are a whole number from 0 to 100." }).int("Points are a whole number from 0 to 100.").min(0, "Points cannot be negative.").max(QUIZ_LIMITS.points, "Points are at most 100.").optional(),
  })
  .transform((q, ctx) => {
    const list = Array.isArray(q.correct) ? q.correct : [q.correct];
    const points = q.points ?? 1;
    if (q.type === "code") {
      const reference = typeof q.correct === "string" ? q.correct.trim() : "";
      if (!reference) ctx.addIssue({ code: "custom", message: "A code question needs its reference solution as correct.", path: ["correct"] });
      if (!q.code) {
        ctx.addIssue({ code: "custom", message: "A code question needs its code: starterCode, tests, timeMs, memoryMb.", path: ["code"] });
        return z.NEVER;
      }
      return { text: q.text, type: q.type, options: [] as string[], correct: [reference] as (number | string)[], points, code: q.code };
    }
    if (list.some((v) => typeof v === "string" && v.length > QUIZ_LIMITS.shortAnswer)) ctx.addIssue({ code: "custom", message: `An accepted answer is at most ${QUIZ_LIMITS.shortAnswer} characters.`, path: ["correct"] });
    if (q.type === "short-text") {
      const accepted = [...new Set(list.map((v) => String(v).trim()).filter(Boolean))];
      if (accepted.length === 0) ctx.addIssue({ code: "custom", message: "A short-text question needs at least one accepted answer.", path: ["correct"] });
      return { text: q.text, type: q.type, options: [] as string[], correct: accepted as (number | string)[], points };
    }
    const options = q.type === "true-false" ? ["True", "False"] : (q.options ?? []);
    if (q.type !== "true-false" && options.length < 2) ctx.addIssue({ code: "custom", message: "A choice question needs at least two options.", path: ["options"] });
    if (list.some((v) => typeof v !== "number")) {
      ctx.addIssue({ code: "custom", message: "The correct answer is given by option numbers, counting from 0.", path: ["correct"] });
      return z.NEVER;
    }
    const indexes = [...new Set(list as number[])].sort((a, b) => a - b);
    if (indexes.some((i) => i >= options.length)) ctx.addIssue({ code: "custom", message: "A correct answer points at an option that does not exist.", path: ["correct"] });
    if (indexes.length === 0) ctx.addIssue({ code: "custom", message: "Mark the correct option.", path: ["correct"] });
    if (q.type !== "multiple" && indexes.length > 1) ctx.addIssue({ code: "custom", message: "This question type has exactly one correct option.", path: ["correct"] });
    return { text: q.text, type: q.type, options, correct: indexes as (number | string)[], points };
  });
export type QuestionInput = z.output<typeof questionInput>;

/** A bank tag: a short word or phrase ("hooks", "css grid", "الخطافات"). */
export const bankTag = z
  .string({ error: "A tag is a word or two." })
  .overwrite(withoutControls)
  .trim()
  .min(1, "A tag is a word or two.")
  .max(40, "A tag is at most 40 characters.");

/** POST /api/groups/{id}/question-bank and PUT .../question-bank/{questionId}: a question with its tags (no code). */
export const bankQuestionInput = z
  .object({ question: questionInput, tags: z.array(bankTag, { error: "Give the tags as a list." }).min(1, "Give the question at least one tag.").max(10, "At most 10 tags.") })
  .superRefine((v, ctx) => {
    if (v.question.type === "code") ctx.addIssue({ code: "custom", message: "Code questions stay in their quiz: the bank keeps choice and short-text questions.", path: ["question"] });
  });
export type BankQuestionInput = z.infer<typeof bankQuestionInput>;

const quizFields = {
  title: freeText("Please enter a title.", { name: true }).max(QUIZ_LIMITS.title, `Title must be at most ${QUIZ_LIMITS.title} characters.`),
  description: z.string({ error: "The description is text." }).overwrite(withoutControls).max(QUIZ_LIMITS.description, `The description is at most ${QUIZ_LIMITS.description} characters.`),
  /** Minutes to answer once started; null for homework (open until closesAt, no countdown). */
  durationMinutes: z.union([
    z.number({ error: "The duration is a whole number of minutes from 1 to 600." }).int("The duration is a whole number of minutes from 1 to 600.").min(1, "The duration is at least 1 minute.").max(QUIZ_LIMITS.durationMinutes, "The duration is at most 600 minutes."),
    z.null(),
  ]),
  opensAt: dateTime("Give the opening as a date and time.", "That opening date or time does not exist.").nullable(),
  closesAt: dateTime("Give the closing as a date and time.", "That closing date or time does not exist.").nullable(),
  maxAttempts: z.number({ error: "Attempts are a whole number from 1 to 10." }).int("Attempts are a whole number from 1 to 10.").min(1, "Allow at least one attempt.").max(QUIZ_LIMITS.maxAttempts, "At most 10 attempts."),
  showAnswers: z.enum(SHOW_ANSWERS, { error: "showAnswers is after-submit, after-close or never." }),
  published: z.boolean({ error: "Say published: true or false." }),
  // At least one question in all: its own, or drawn from the bank (checked with the draws, see checkSize).
  questions: z.array(questionInput, { error: "Give the questions as a list." }).max(QUIZ_LIMITS.questions, `A quiz has at most ${QUIZ_LIMITS.questions} questions.`),
  /** Questions drawn from the group's bank per attempt (issue 21). */
  draws: z
    .array(
      z.object({
        tag: bankTag,
        count: z.number({ error: "Draw a whole number of questions from 1 to 50." }).int("Draw a whole number of questions from 1 to 50.").min(1, "Draw at least one question.").max(50, "Draw at most 50 questions."),
        points: z.number({ error: "Points are a whole number from 0 to 100." }).int("Points are a whole number from 0 to 100.").min(0, "Points cannot be negative.").max(QUIZ_LIMITS.points, "Points are at most 100."),
      }),
      { error: "Give the draws as a list." },
    )
    .max(10, "A quiz draws from at most 10 tags."),
  shuffleQuestions: z.boolean({ error: "Say shuffleQuestions: true or false." }),
  shuffleOptions: z.boolean({ error: "Say shuffleOptions: true or false." }),
};

/** Why a quiz must be worth a point: progress averages each quiz's share of its points (a quiz of 0 points has none). */
export const WORTH_NOTHING = "A quiz is worth at least 1 point in all: give a question some points.";

export const NO_QUESTIONS = "Add at least one question.";

/**
 * A quiz needs at least one question, its own or drawn, and at most the limit in all; a tag is drawn from once; and
 * its questions and draws are worth at least a point together (known when both are given, as on creation).
 */
function checkSize(v: { questions?: { points?: number }[]; draws?: { tag: string; count: number; points: number }[] }, ctx: z.RefinementCtx, drawsUnchanged = false) {
  if (v.questions === undefined && v.draws === undefined) return;
  const total = (v.questions?.length ?? 0) + (v.draws ?? []).reduce((sum, d) => sum + d.count, 0);
  // With the draws left as they are, the service counts them in (quizzes.ts updateQuiz).
  if (v.questions !== undefined && !drawsUnchanged && total < 1) ctx.addIssue({ code: "custom", message: NO_QUESTIONS, path: ["questions"] });
  const worth = (v.questions ?? []).reduce((sum, q) => sum + (q.points ?? 1), 0) + (v.draws ?? []).reduce((sum, d) => sum + d.count * d.points, 0);
  if (v.questions !== undefined && !drawsUnchanged && total >= 1 && worth === 0) ctx.addIssue({ code: "custom", message: WORTH_NOTHING, path: ["questions"] });
  if (total > QUIZ_LIMITS.questions) ctx.addIssue({ code: "custom", message: `A quiz has at most ${QUIZ_LIMITS.questions} questions.`, path: ["draws"] });
  const tags = (v.draws ?? []).map((d) => d.tag);
  if (new Set(tags).size !== tags.length) ctx.addIssue({ code: "custom", message: "Draw from each tag once (give it a larger count).", path: ["draws"] });
}

type TimeFields = { opensAt?: number | null; closesAt?: number | null; showAnswers?: ShowAnswers };
/** Rules across fields: the window is in order, and "after-close" needs a closing time. */
function checkWindow(v: TimeFields, ctx: z.RefinementCtx) {
  if (v.opensAt != null && v.closesAt != null && v.closesAt <= v.opensAt) ctx.addIssue({ code: "custom", message: "The quiz must close after it opens.", path: ["closesAt"] });
  if (v.showAnswers === "after-close" && v.closesAt === null) ctx.addIssue({ code: "custom", message: "Answers shown after the quiz closes need a closing time.", path: ["closesAt"] });
}

/** POST /api/quizzes. */
export const createQuizInput = z
  .object({
    lectureId: z.string({ error: "Say which lecture the quiz belongs to." }).trim().min(1, "Say which lecture the quiz belongs to.").max(120),
    title: quizFields.title,
    description: quizFields.description.optional(),
    durationMinutes: quizFields.durationMinutes.optional(),
    opensAt: quizFields.opensAt.optional(),
    closesAt: quizFields.closesAt.optional(),
    maxAttempts: quizFields.maxAttempts.optional(),
    showAnswers: quizFields.showAnswers.optional(),
    published: quizFields.published.optional(),
    questions: quizFields.questions,
    draws: quizFields.draws.optional(),
    shuffleQuestions: quizFields.shuffleQuestions.optional(),
    shuffleOptions: quizFields.shuffleOptions.optional(),
  })
  .superRefine((v, ctx) => {
    checkWindow({ ...v, closesAt: v.closesAt ?? null }, ctx);
    checkSize(v, ctx);
  });
export type CreateQuizInput = z.infer<typeof createQuizInput>;

/** PUT /api/quizzes/{id}: any field but the lecture, at least one. Questions, when sent, replace the whole list. */
export const updateQuizInput = z
  .object({
    title: quizFields.title.optional(),
    description: quizFields.description.optional(),
    durationMinutes: quizFields.durationMinutes.optional(),
    opensAt: quizFields.opensAt.optional(),
    closesAt: quizFields.closesAt.optional(),
    maxAttempts: quizFields.maxAttempts.optional(),
    showAnswers: quizFields.showAnswers.optional(),
    published: quizFields.published.optional(),
    questions: quizFields.questions.optional(),
    draws: quizFields.draws.optional(),
    shuffleQuestions: quizFields.shuffleQuestions.optional(),
    shuffleOptions: quizFields.shuffleOptions.optional(),
  })
  .refine((v) => Object.keys(v).length > 0, "Send at least one field to change.")
  // The draws left as they are count too: their worth is the service's to add (quizzes.ts updateQuiz).
  .superRefine((v, ctx) => checkSize(v, ctx, v.draws === undefined));
export type UpdateQuizInput = z.infer<typeof updateQuizInput>;

/** One answer: an option index (single, true-false), a list of them (multiple) or a text (short-text, code). */
export const answerValue = z.union([
  optionIndex,
  z.array(optionIndex).max(QUIZ_LIMITS.options, "Too many options chosen."),
  // The length of a short-text answer (500) is checked against its question on the server.
  z.string({ error: "An answer is an option number, a list of them, or a text." }).overwrite(withoutControls).max(EXERCISE_LIMITS.code, `A written answer is at most ${EXERCISE_LIMITS.code} characters.`),
]);
export type AnswerValue = z.infer<typeof answerValue>;

/** questionId -> answer. Unanswered questions are simply absent. */
export const answersMap = z
  .record(z.string().min(1).max(120), answerValue, { error: "answers maps each question's id to its answer." })
  .refine((v) => Object.keys(v).length <= QUIZ_LIMITS.questions, "Too many answers.");
export type AnswersMap = z.infer<typeof answersMap>;

/**
 * A preview's paper (staff see a quiz as one student would get it): letters, digits, "-" and "_", so the same draw
 * gives the same paper again and "Draw another paper" gives a new one.
 */
export const previewDraw = z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, "draw is 1 to 32 letters, digits, - or _.");
/** GET /api/quizzes/{id}/preview?draw=. */
export const previewQuery = z.object({ draw: previewDraw.optional() });
/** POST /api/quizzes/{id}/preview: answers checked against the preview's paper, nothing stored. */
export const previewCheckInput = z.object({ draw: previewDraw, answers: answersMap });

/**
 * The save the answers were written over (`savedAt` of the last save the sender saw; null: none yet). Given, answers
 * saved meanwhile from another tab or device refuse the save or hand-in (409 answers_changed, with those answers)
 * instead of being replaced unseen; left out, the last save wins as before.
 */
const basedOn = z.iso.datetime({ offset: true, error: "basedOn is the savedAt of the save these answers follow, or null." }).nullable().optional();
/** PUT /api/quizzes/{id}/answers. */
export const saveAnswersInput = z.object({ answers: answersMap, attemptId: z.string().min(1).max(120).optional(), basedOn });
/** POST /api/quizzes/{id}/submit: `attemptId` makes a retried submit return the same result. */
export const submitQuizInput = z.object({ answers: answersMap, attemptId: z.string().min(1).max(120).optional(), basedOn });
/** POST /api/quizzes/solve (platform-spec §3: slugQuize, answers). */
export const solveQuizInput = z.object({
  slugQuize: z.string({ error: "Say which quiz: slugQuize." }).trim().min(1, "Say which quiz: slugQuize.").max(120),
  answers: answersMap,
  attemptId: z.string().min(1).max(120).optional(),
});

/**
 * PUT /api/quizzes/{id}/attempts/{attemptId}/answers/{questionId} (staff): the points one answer earns instead of the
 * key's (0 to the question's points), with a note the student sees in the review; null points take the override back.
 */
export const answerPointsInput = z.object({
  points: z
    .number({ error: "Points are a whole number from 0 to the question's points, or null to use the key again." })
    .int("Points are a whole number from 0 to the question's points, or null to use the key again.")
    .min(0, "Points cannot be negative.")
    .nullable(),
  note: z.string({ error: "The note is text." }).overwrite(withoutControls).trim().max(QUIZ_LIMITS.note, `The note is at most ${QUIZ_LIMITS.note} characters.`).optional(),
});
export type AnswerPointsInput = z.infer<typeof answerPointsInput>;

/**
 * PUT /api/quizzes/{id}/questions/{questionId}/key (staff): a corrected answer key (and points) for a question of a
 * quiz students have taken; every handed-in attempt is regraded. Code questions are judged by their tests instead.
 */
export const questionKeyInput = z.object({
  correct: z.union([optionIndex, z.array(z.union([optionIndex, z.string().max(QUIZ_LIMITS.shortAnswer)])).max(QUIZ_LIMITS.accepted)], { error: "Say which answer is correct." }),
  points: z.number({ error: "Points are a whole number from 0 to 100." }).int("Points are a whole number from 0 to 100.").min(0, "Points cannot be negative.").max(QUIZ_LIMITS.points, "Points are at most 100.").optional(),
  /** A question drawn from the bank: the attempt whose copy is corrected (without it, the newest copy drawn). */
  attemptId: z.string({ error: "attemptId is an attempt's id." }).regex(/^[A-Za-z0-9_-]{1,64}$/, "attemptId is an attempt's id.").optional(),
});
export type QuestionKeyInput = z.infer<typeof questionKeyInput>;
