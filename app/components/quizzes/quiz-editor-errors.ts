/**
 * The quiz editor's validation messages in the reader's language. The schemas (app/lib/quiz-schemas.ts) speak English
 * to the API; the editor shows each message a person can meet through its own controls by a dictionary key, and any
 * other (one that only a hand-made request or the reference solution's run can produce) as the server wrote it in
 * English and as a general sentence in Arabic, never English inside Arabic. Client-safe.
 */
import type { MessageKey } from "~/i18n/en";
import type { Lang } from "~/i18n/config";
import type { Params } from "~/i18n/translate";

const PROBLEMS: Record<string, MessageKey> = {
  "Each question needs its text.": "quizEditor.problem.text",
  "An option cannot be empty.": "quizEditor.problem.emptyOption",
  "Say which answer is correct.": "quizEditor.problem.correct",
  "Mark the correct option.": "quizEditor.problem.correct",
  "This question type has exactly one correct option.": "quizEditor.problem.oneCorrect",
  "A short-text question needs at least one accepted answer.": "quizEditor.problem.accepted",
  "A choice question needs at least two options.": "quizEditor.problem.twoOptions",
  "A code question needs at least one test.": "quizEditor.problem.tests",
  "A code question needs its reference solution as correct.": "quizEditor.problem.reference",
  "Add at least one question.": "quizEditor.problem.noQuestions",
  "Draw from each tag once (give it a larger count).": "quizEditor.problem.drawOnce",
  "Please enter a title.": "quizEditor.problem.title",
};

/** Refusals with words of their own, by the API's code (they are about the quiz as a whole, not one field). */
export const EDITOR_CODES: Record<string, MessageKey> = {
  answers_seen: "quizEditor.error.answersSeen",
  bank_changed: "bank.error.changed",
  // A student started the quiz after the editor opened (it shows questions as frozen once it knows).
  quiz_started: "quizEditor.error.started",
};

/** The control a question's refusal is about, when it is one (marked invalid, so the editor's focus goes to it). */
export function problemControl(message: string | undefined): "text" | "emptyOption" | null {
  const key = message ? PROBLEMS[message] : undefined;
  return key === "quizEditor.problem.text" ? "text" : key === "quizEditor.problem.emptyOption" ? "emptyOption" : null;
}

/** A server message from the quiz's checks, as the editor shows it to a reader of `lang`. */
export function editorProblem(t: (key: MessageKey, params?: Params) => string, lang: Lang, message: string): string {
  const key = PROBLEMS[message];
  if (key) return t(key);
  return lang === "en" ? message : t("quizEditor.problem.other");
}
