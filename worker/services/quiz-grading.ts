/**
 * Grading a quiz attempt (server only: it reads the correct answers). Pure functions, so the submit, the server's
 * closing of an expired attempt, the review and the staff statistics all grade the same way.
 *
 * - single, true-false: the chosen option index equals the correct one;
 * - multiple: the chosen set equals the correct set exactly (no partial credit: ticking every box earns nothing);
 * - short-text: the answer, trimmed and compared case-insensitively (and in Unicode NFC, so an "é" typed either
 *   way matches), equals one of the accepted answers;
 * - code: every one of the question's tests passed when the attempt was graded. The sandbox runs once, in
 *   `codeVerdicts`, and its verdicts are stored with the attempt, so the review and the statistics read them.
 */
import { QUIZ_LIMITS, type AnswerValue } from "../../app/lib/quiz-schemas";
import type { QuizCode } from "../../db/schema";
import type { RunCode } from "../sandbox/registry";
import { AppError } from "../http/errors";

export interface GradableQuestion {
  id: string;
  type: "single" | "multiple" | "true-false" | "short-text" | "code";
  options: string[];
  correct: (number | string)[];
  code?: QuizCode | null;
  points: number;
}

/** questionId -> whether the code passed every test. */
export type Verdicts = Record<string, boolean>;

/**
 * Runs each answered code question's code against its tests; a blank or missing answer is simply wrong. Questions
 * run one after another, each within the runner's own budget.
 */
export async function codeVerdicts(runCode: RunCode, questions: GradableQuestion[], answers: Record<string, unknown>): Promise<Verdicts> {
  const verdicts: Verdicts = {};
  for (const q of questions) {
    if (q.type !== "code" || !q.code) continue;
    const answer = answers[q.id];
    if (typeof answer !== "string" || answer.trim() === "") {
      verdicts[q.id] = false;
      continue;
    }
    const report = await runCode("javascript", answer, q.code.tests, { timeMs: q.code.timeMs, memoryMb: q.code.memoryMb });
    verdicts[q.id] = report.results.length > 0 && report.results.every((r) => r.passed);
  }
  return verdicts;
}

const normalise = (s: string) => s.normalize("NFC").trim().toLocaleLowerCase("en");

/** Whether one answer is right. An absent or wrongly shaped answer is simply wrong. */
export function isRight(q: GradableQuestion, answer: unknown, verdicts?: Verdicts | null): boolean {
  if (answer === undefined || answer === null) return false;
  switch (q.type) {
    case "single":
    case "true-false":
      return typeof answer === "number" && answer === q.correct[0];
    case "multiple": {
      if (!Array.isArray(answer)) return false;
      const chosen = new Set(answer);
      return chosen.size === q.correct.length && q.correct.every((c) => chosen.has(c));
    }
    case "short-text":
      return typeof answer === "string" && answer.trim() !== "" && q.correct.some((c) => normalise(String(c)) === normalise(answer));
    case "code":
      return verdicts?.[q.id] === true;
  }
}

export function maxScoreOf(questions: GradableQuestion[]): number {
  return questions.reduce((sum, q) => sum + q.points, 0);
}

export function grade(questions: GradableQuestion[], answers: Record<string, unknown>, verdicts?: Verdicts | null): { score: number; maxScore: number } {
  let score = 0;
  for (const q of questions) if (isRight(q, answers[q.id], verdicts)) score += q.points;
  return { score, maxScore: maxScoreOf(questions) };
}

/**
 * Checks answers against the quiz's questions before they are stored: every key is one of its questions and every
 * value has the shape of that question's type, with option numbers that exist. A 400 names the first problem.
 */
export function checkAnswers(questions: Pick<GradableQuestion, "id" | "type" | "options">[], answers: Record<string, AnswerValue>): Record<string, AnswerValue> {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const clean: Record<string, AnswerValue> = {};
  for (const [id, value] of Object.entries(answers)) {
    const q = byId.get(id);
    const bad = (message: string): never => {
      throw new AppError(400, "validation_failed", message, { answers: message });
    };
    if (!q) bad("An answer names a question that is not in this quiz.");
    const inRange = (i: number) => i >= 0 && i < q!.options.length;
    switch (q!.type) {
      case "single":
      case "true-false":
        if (typeof value !== "number" || !inRange(value)) bad("Choose one of the question's options.");
        break;
      case "multiple":
        if (!Array.isArray(value) || !value.every(inRange)) bad("Choose among the question's options.");
        clean[id] = [...new Set(value as number[])].sort((a, b) => a - b);
        continue;
      case "short-text":
        if (typeof value !== "string") bad("Write the answer as text.");
        if ((value as string).length > QUIZ_LIMITS.shortAnswer) bad(`A written answer is at most ${QUIZ_LIMITS.shortAnswer} characters.`);
        break;
      case "code":
        if (typeof value !== "string") bad("Write the code as text.");
        break;
    }
    clean[id] = value;
  }
  return clean;
}
