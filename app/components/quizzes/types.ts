/** The quiz data the pages receive (JSON of worker/services/quizzes.ts). Client-safe: no correct answer here. */
import type { AnswersMap, QuestionType, QuizWindow, ShowAnswers } from "~/lib/quiz-schemas";

export interface PageQuestion {
  _id: string;
  text: string;
  textHtml: string;
  type: QuestionType;
  options: string[];
  optionsHtml: string[];
  points: number;
  /** A code question's starter code and limits (its tests stay on the server). */
  code?: { starterCode: string; timeMs: number; memoryMb: number; tests: number } | null;
}

export interface PageQuiz {
  _id: string;
  slug: string;
  title: string;
  descriptionHtml: string;
  durationMinutes: number | null;
  /** A student's own time on a timed quiz (the duration times their accommodation); absent where not known. */
  yourMinutes?: number | null;
  /** The student's extension (closesAt and maxAttempts are already theirs): the quiz's own, and minutes added. */
  extension?: { originalClosesAt: string | null; originalMaxAttempts: number; extraMinutes: number } | null;
  opensAt: string | null;
  closesAt: string | null;
  maxAttempts: number;
  showAnswers: ShowAnswers;
  window: QuizWindow;
  questionCount: number;
  maxScore: number;
  lecture: { slug: string; title: string };
  group: { slug: string; title: string; ended?: boolean };
}

export interface PageAttempt {
  _id: string;
  number: number;
  startedAt: string;
  deadline: string | null;
  answers: AnswersMap;
  savedAt: string | null;
}

/** When the review of answers may be shown (worker/services/quizzes.ts reviewWhen). */
export type ReviewWhen = "now" | "after-attempts" | "after-close" | "never";
