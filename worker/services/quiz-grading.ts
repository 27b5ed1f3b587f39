/**
 * Grading a quiz attempt (server only: it reads the correct answers). Pure functions, so the submit, the server's
 * closing of an expired attempt, the review and the staff statistics all grade the same way.
 *
 * - single, true-false: the chosen option index equals the correct one;
 * - multiple: the chosen set equals the correct set exactly (no partial credit: ticking every box earns nothing);
 * - short-text: the answer, trimmed and compared case-insensitively (and in Unicode NFC, so an "é" typed either
 *   way matches), equals one of the accepted answers;
 * - code: every one of the question's tests passed when the attempt was graded. The sandbox runs once per code
 *   answer (`checkCode`): in the background as the answer is saved, or at the hand-in for what is still missing;
 *   each check is stored with a hash of the code it judged (`knownVerdicts` uses it only while the hash matches the
 *   final answer), and the verdicts are stored with the attempt, so the review and the statistics read them.
 */
import { toLatinDigits } from "../../app/lib/digits";
import { QUIZ_LIMITS, type AnswerValue } from "../../app/lib/quiz-schemas";
import type { CodeCheck, QuizCode } from "../../db/schema";
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
 * One test's outcome as the review shows it: its name, whether it passed and whether it is hidden. Nothing that
 * depends on its inputs (see worker/sandbox/report.ts studentReport), so it is the same for hidden and visible tests.
 */
export interface TestOutcome {
  name: string;
  passed: boolean;
  hidden: boolean;
}

/** A stored check with the outcome of each test, so the review can say which tests failed without running code. */
export interface StoredCheck extends CodeCheck {
  tests?: TestOutcome[];
}

/** questionId -> the check of the code last judged for it (hash, verdict, and each test's outcome). */
export type CodeChecks = Record<string, StoredCheck>;

/** A SHA-256 of a code answer, so a stored verdict is used only for exactly the code it judged. */
export async function codeHash(code: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(code));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** An answered code question whose verdict is not known yet. */
export interface CodeToRun {
  question: GradableQuestion & { code: QuizCode };
  code: string;
  hash: string;
}

/**
 * The code questions' verdicts that need no runner: blank or missing code is wrong, and a stored check counts when
 * its hash matches the answer. Everything else is listed in `missing`. Never runs code.
 */
export async function knownVerdicts(questions: GradableQuestion[], answers: Record<string, unknown>, checks?: CodeChecks | null): Promise<{ verdicts: Verdicts; missing: CodeToRun[] }> {
  const verdicts: Verdicts = {};
  const missing: CodeToRun[] = [];
  for (const q of questions) {
    if (q.type !== "code" || !q.code) continue;
    const answer = answers[q.id];
    if (typeof answer !== "string" || answer.trim() === "") {
      verdicts[q.id] = false;
      continue;
    }
    const hash = await codeHash(answer);
    const check = checks?.[q.id];
    if (check && check.hash === hash) verdicts[q.id] = check.passed;
    else missing.push({ question: q as CodeToRun["question"], code: answer, hash });
  }
  return { verdicts, missing };
}

/** Runs one code answer against its question's tests: whether every test passed, and each test's outcome. */
export async function checkCode(runCode: RunCode, item: Pick<CodeToRun, "question" | "code">): Promise<{ passed: boolean; tests: TestOutcome[] }> {
  const { code } = item.question;
  const report = await runCode("javascript", item.code, code.tests, { timeMs: code.timeMs, memoryMb: code.memoryMb });
  const tests = report.results.map((r): TestOutcome => ({ name: r.name, passed: r.passed, hidden: !!r.hidden }));
  return { passed: report.results.length > 0 && report.results.every((r) => r.passed), tests };
}

/** The stored outcome of each test for a code answer, when a stored check judged exactly this code (the review). */
export async function testOutcomes(answer: unknown, check: StoredCheck | undefined): Promise<TestOutcome[] | null> {
  if (typeof answer !== "string" || answer.trim() === "" || !check?.tests) return null;
  return check.hash === (await codeHash(answer)) ? check.tests : null;
}

/**
 * Every code question's verdict, running the sandbox only for the answers no stored check covers (one after
 * another, each within the runner's own budget). Answers the verdicts and the checks with the new ones added.
 * Only for a student's own write (a hand-in) or background work, never for a read.
 */
export async function codeVerdicts(runCode: RunCode, questions: GradableQuestion[], answers: Record<string, unknown>, checks?: CodeChecks | null): Promise<{ verdicts: Verdicts; checks: CodeChecks }> {
  const { verdicts, missing } = await knownVerdicts(questions, answers, checks);
  const next: CodeChecks = { ...(checks ?? {}) };
  for (const item of missing) {
    const { passed, tests } = await checkCode(runCode, item);
    verdicts[item.question.id] = passed;
    next[item.question.id] = { hash: item.hash, passed, tests };
  }
  return { verdicts, checks: next };
}

/**
 * A short-text answer and its keys compared as a reader would: compatibility forms folded (NFKC: full-width letters,
 * ligatures), Arabic-Indic digits as 0-9 (٤ is 4) and the Arabic decimal and thousands marks (٫ ٬) as . and , so
 * "٣٫٥" is 3.5, spaces at the ends dropped, case ignored.
 */
const normalise = (s: string) => toLatinDigits(s.normalize("NFKC")).replace(/\u066b/g, ".").replace(/\u066c/g, ",").trim().toLocaleLowerCase("en");

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

/** Staff's points for single answers (questionId -> points), which replace what the key would give. */
export type Overrides = Record<string, { points: number }> | null | undefined;

/** The points one answer earns: staff's override when there is one, else the question's points when right. */
export function earned(q: GradableQuestion, answer: unknown, verdicts?: Verdicts | null, overrides?: Overrides): number {
  const given = overrides?.[q.id];
  if (given) return Math.min(q.points, Math.max(0, given.points));
  return isRight(q, answer, verdicts) ? q.points : 0;
}

export function grade(questions: GradableQuestion[], answers: Record<string, unknown>, verdicts?: Verdicts | null, overrides?: Overrides): { score: number; maxScore: number } {
  let score = 0;
  for (const q of questions) score += earned(q, answers[q.id], verdicts, overrides);
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
