/**
 * The quiz-time multipliers staff can give a student (an accommodation, ADR 0021); 1 is the quiz's own time. Its own
 * module, without zod, so the students screen can list them without loading the schemas.
 */
export const QUIZ_TIME_MULTIPLIERS = [1, 1.25, 1.5, 2, 3] as const;
