/**
 * A quiz as one of its students would get it, for its staff (the editor's "Preview"): the same paper rules (questions
 * drawn from the group's bank, questions and options shuffled), each question as a student's browser receives it
 * (never its key), and answers checked by the hand-in's own grading, code run in the sandbox under the same one-run-
 * at-a-time lease. Nothing is stored: no attempt, no score, no statistics, no notification.
 *
 * A preview's paper comes from its `draw` (a short random word the page keeps in its address): the same draw gives the
 * same paper, so the answers are checked against the paper that was shown, and another draw gives another paper.
 */
import type { AnswersMap } from "../../app/lib/quiz-schemas";
import { makePaper } from "../../app/lib/quiz-paper";
import type { ServiceContext } from "../context";
import { leaseFor, underCodeLease } from "./code-lease";
import { bankOf } from "./question-bank";
import { checkAnswers, codeVerdicts, earned, grade, isRight, knownVerdicts, type GradableQuestion, type TestOutcome } from "./quiz-grading";
import { questionsFor, questionsOf, quizSummary, requireManagedQuiz, toQuestion, usesPaper } from "./quizzes";
import type { Viewer } from "./sessions";

/** A fresh draw: 12 characters of the URL-safe alphabet. */
export function newDraw(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_");
}

async function previewPaper(ctx: ServiceContext, viewer: Viewer, key: string, draw: string) {
  const quiz = await requireManagedQuiz(ctx, viewer, key);
  const qs = await questionsOf(ctx, [quiz.id]);
  const paper = usesPaper(quiz) ? makePaper(`preview:${quiz.id}:${draw}`, qs, quiz.draws.length > 0 ? await bankOf(ctx, quiz.groupId) : [], quiz) : null;
  const wanted = quiz.draws.reduce((n, d) => n + d.count, 0);
  return { quiz, qs, shown: questionsFor(qs, { quizId: quiz.id, paper }) as (GradableQuestion & (typeof qs)[number])[], paper, missing: paper ? wanted - paper.drawn.length : 0 };
}

/** GET /api/quizzes/{id}/preview (staff): the quiz's rules and one student's paper of it, without keys. */
export async function previewQuiz(ctx: ServiceContext, viewer: Viewer, key: string, draw = newDraw(), now = Date.now()) {
  const { quiz, qs, shown, paper, missing } = await previewPaper(ctx, viewer, key, draw);
  return {
    quiz: quizSummary(quiz, qs, now),
    draw,
    /** Each student gets a paper of their own (bank draws or shuffling): this is one of them. */
    paper: paper ? { drawsFromBank: quiz.draws.length > 0, shuffleQuestions: quiz.shuffleQuestions, shuffleOptions: quiz.shuffleOptions } : null,
    /** Questions the bank no longer holds for the draws: a student could not start this quiz (409 at start). */
    missing,
    questions: shown.map(toQuestion),
  };
}

export interface PreviewQuestionResult extends ReturnType<typeof toQuestion> {
  answer: unknown;
  correct: (number | string)[];
  right: boolean;
  earned: number;
  /** A code answer: each of its tests as this run judged it (hidden ones by name); null for other questions. */
  tests: TestOutcome[] | null;
}

/** POST /api/quizzes/{id}/preview (staff): answers to the preview's paper checked as a hand-in would be, nothing stored. */
export async function checkPreview(ctx: ServiceContext, viewer: Viewer, key: string, input: { draw: string; answers: AnswersMap }) {
  const { shown } = await previewPaper(ctx, viewer, key, input.draw);
  const answers = checkAnswers(shown, input.answers);
  const known = await knownVerdicts(shown, answers);
  const { verdicts, checks } =
    known.missing.length > 0
      ? await underCodeLease(ctx, viewer.userId, () => codeVerdicts(ctx.runCode, shown, answers), leaseFor(known.missing.length))
      : { verdicts: known.verdicts, checks: {} as Awaited<ReturnType<typeof codeVerdicts>>["checks"] };
  const { score, maxScore } = grade(shown, answers, verdicts);
  const questions: PreviewQuestionResult[] = shown.map((q) => ({
    ...toQuestion(q),
    answer: answers[q.id] ?? null,
    correct: q.correct,
    right: isRight(q, answers[q.id], verdicts),
    earned: earned(q, answers[q.id], verdicts),
    tests: q.type === "code" ? (checks[q.id]?.tests ?? null) : null,
  }));
  return { draw: input.draw, score, maxScore, questions };
}
