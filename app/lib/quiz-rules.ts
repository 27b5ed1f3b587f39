/**
 * The quiz rules every side shares that need no validation library: the browser's quiz screens import these, and
 * only these, so a student's quiz page does not download zod (quiz-schemas.ts re-exports them beside its schemas).
 */
/** "code": the student writes JavaScript, graded by the question's tests in the sandbox (issue "Code exercises"). */
export const QUESTION_TYPES = ["single", "multiple", "true-false", "short-text", "code"] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
export const SHOW_ANSWERS = ["after-submit", "after-close", "never"] as const;
export type ShowAnswers = (typeof SHOW_ANSWERS)[number];

export const QUIZ_LIMITS = {
  note: 500,
  title: 160,
  description: 5_000,
  questionText: 5_000,
  questions: 100,
  options: 10,
  option: 500,
  accepted: 20,
  shortAnswer: 500,
  points: 100,
  maxAttempts: 10,
  durationMinutes: 600,
} as const;

/**
 * A hand-in may arrive this long after the deadline (a slow network, a sleeping phone): it is still accepted, but
 * only the answers that reached the server in time count (Moodle's grace period: handing in only, no answering).
 */
export const QUIZ_GRACE_MS = 60_000;
/**
 * Answers that reach the server this long after the deadline still count: the hand-in the page sends at zero, or
 * a save already on its way, travelling over a slow network. Later answers never count (docs/decisions/0014).
 */
export const QUIZ_NETWORK_MS = 5_000;
/** Background checks of a quiz attempt's code answers as it autosaves: at most 10 a minute (as exercise hand-ins). */
export const QUIZ_CHECK_RATE = { max: 10, windowMs: 60_000 } as const;
/** The browser saves an answer this long after the student stops changing it. */
export const AUTOSAVE_DEBOUNCE_MS = 1_000;

/** The student's view of a quiz's window. */
export type QuizWindow = "upcoming" | "open" | "closed";
export function quizWindow(q: { opensAt: number | null; closesAt: number | null }, now: number): QuizWindow {
  if (q.opensAt !== null && now < q.opensAt) return "upcoming";
  if (q.closesAt !== null && now >= q.closesAt) return "closed";
  return "open";
}

/** The deadline of an attempt started at `startedAt`: min(start + duration, closesAt); null when neither applies. */
export function attemptDeadline(q: { durationMinutes: number | null; closesAt: number | null }, startedAt: number): number | null {
  const byDuration = q.durationMinutes ? startedAt + q.durationMinutes * 60_000 : null;
  if (byDuration === null) return q.closesAt;
  return q.closesAt === null ? byDuration : Math.min(byDuration, q.closesAt);
}
