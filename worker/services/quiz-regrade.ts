/**
 * Manual override and regrade (issue 21). Staff may give one answer other points than the key gives (with a note the
 * student reads in the review), and correct a question's key after students have answered it: every handed-in
 * attempt is then graded again on the stored answers (overrides kept, code verdicts kept), in one batch. Scores,
 * best scores and progress follow, since they are read from the attempts; each student whose best score changed is
 * notified.
 */
import { and, asc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { questionInput, WORTH_NOTHING, type AnswerPointsInput, type QuestionKeyInput } from "../../app/lib/quiz-schemas";
import { attempts, bankQuestions, questions, users } from "../../db/schema";
import type { ServiceContext } from "../context";
import { AppError, notFound } from "../http/errors";
import { chunked } from "./chunks";
import { underLease } from "./code-lease";
import { notifyUsers } from "./notifications";
import { earned, grade, isRight, testOutcomes, type CodeChecks, type GradableQuestion, type TestOutcome } from "./quiz-grading";
import { originalOption, type PaperQuestion } from "../../app/lib/quiz-paper";
import { questionsFor, questionsOf, quizSize, requireManagedQuiz, toQuestion } from "./quizzes";
import type { Viewer } from "./sessions";

type AttemptRow = typeof attempts.$inferSelect;
type QuizRecord = Awaited<ReturnType<typeof requireManagedQuiz>>;
/** One statement of a D1 batch (the project's other batches type their lists the same way). */
type BatchItem = never;

const quizLink = (quiz: QuizRecord) =>
  `/course/${encodeURIComponent(quiz.groupSlug)}/lecture/${encodeURIComponent(quiz.lectureSlug)}/quiz/${encodeURIComponent(quiz.slug)}/result`;

const bestOf = (rows: Pick<AttemptRow, "userId" | "score">[]) => {
  const best = new Map<string, number>();
  for (const r of rows) best.set(r.userId, Math.max(best.get(r.userId) ?? 0, r.score ?? 0));
  return best;
};

type QuestionRows = Awaited<ReturnType<typeof questionsOf>>;

/**
 * The questions one attempt was given, as it was given them: its own paper when the quiz shuffles or draws from the
 * bank (answers are stored by the option's place on that paper, and drawn questions live only there), else the quiz's.
 * Every grading of a handed-in attempt goes through this, as the hand-in itself did.
 */
const paperOf = (qs: QuestionRows, a: AttemptRow) => questionsFor(qs, a) as GradableQuestion[];

/**
 * Grades `rows` again with the quiz's questions `qs` (each on its own paper) and writes those whose score changed (one
 * batch), then tells each student whose best score moved. Answers how many attempts changed.
 */
async function regradeRows(ctx: ServiceContext, quiz: QuizRecord, qs: QuestionRows, rows: AttemptRow[], all: AttemptRow[], first: BatchItem[] = []): Promise<number> {
  const before = bestOf(all);
  const updated = new Map<string, number>();
  let maxScore = 0;
  let pending = rows;
  let questionsNow = qs;
  let lead = first;
  for (let tries = 0; tries < OVERRIDE_TRIES; tries++) {
    const writes: BatchItem[] = [];
    const scores: { id: string; score: number }[] = [];
    for (const a of pending) {
      const result = grade(paperOf(questionsNow, a), a.answers, a.verdicts, a.overrides);
      maxScore = result.maxScore;
      if (result.score === a.score && result.maxScore === a.maxScore) continue;
      scores.push({ id: a.id, score: result.score });
      // Only over the overrides it was graded with: points staff give meanwhile are not overwritten with a score
      // that leaves them out.
      writes.push(ctx.db.update(attempts).set(result).where(and(eq(attempts.id, a.id), sameOverrides(a))).returning({ id: attempts.id }) as never);
    }
    // One batch: the key's change (when there is one) and the scores it gives land together or not at all.
    const batch = [...lead, ...writes];
    lead = [];
    if (batch.length === 0) break;
    const results = (await ctx.db.batch(batch as [BatchItem, ...BatchItem[]])) as unknown[][];
    const landed = results.slice(results.length - writes.length);
    const missed = scores.filter((w, i) => {
      if (landed[i]!.length === 0) return true;
      updated.set(w.id, w.score);
      return false;
    });
    if (missed.length === 0) break;
    // Staff gave points on these meanwhile: graded again as they now stand, with the key as it now is.
    [pending, questionsNow] = await Promise.all([
      chunked(missed.map((m) => m.id), (ids) => ctx.db.select().from(attempts).where(inArray(attempts.id, ids))),
      questionsOf(ctx, [quiz.id]),
    ]);
  }
  const after = bestOf(all.map((a) => ({ userId: a.userId, score: updated.get(a.id) ?? a.score })));
  const moved = [...after].filter(([userId, score]) => before.get(userId) !== score);
  for (const [userId, score] of moved) {
    await notifyUsers(ctx, [userId], { kind: "quiz-regraded", params: { quiz: quiz.title, score, max: maxScore }, link: quizLink(quiz) });
  }
  return updated.size;
}

/** The attempt's overrides are still the ones `a` was read with (compared as stored). */
const sameOverrides = (a: Pick<AttemptRow, "overrides">) => sql`coalesce(${attempts.overrides}, 'null') = ${JSON.stringify(a.overrides ?? null)}`;

export interface StaffAttemptView {
  quiz: { _id: string; slug: string; title: string; lectureSlug: string; groupId: string };
  _id: string;
  number: number;
  user: { _id: string; name: string };
  score: number;
  maxScore: number;
  submittedAt: string | null;
  /**
   * In the order the attempt was given them, each with its options as written (a question drawn from the bank,
   * `drawn`, as it was drawn) and the student's choice moved to its place there: a key is corrected in those places.
   */
  questions: (ReturnType<typeof toQuestion> & {
    answer: unknown;
    correct: (number | string)[];
    right: boolean;
    earned: number;
    override: { points: number; note: string } | null;
    drawn: boolean;
    /** A code answer: each test (hidden ones by name too) as judged when this very code was run; null when not known. */
    tests: TestOutcome[] | null;
  })[];
}

async function attemptOf(ctx: ServiceContext, quizId: string, attemptId: string) {
  const [row] = await ctx.db
    .select({ attempt: attempts, name: users.name })
    .from(attempts)
    .innerJoin(users, eq(users.id, attempts.userId))
    .where(and(eq(attempts.id, attemptId), eq(attempts.quizId, quizId)));
  if (!row) throw notFound("No such attempt at this quiz.");
  return row;
}

/** One attempt for the staff, on its own paper: the questions in the order, and the options in the places, it was shown. */
const view = async (quiz: QuizRecord, row: { attempt: AttemptRow; name: string }, quizQuestions: QuestionRows): Promise<StaffAttemptView> => {
  const a = row.attempt;
  const given = paperOf(quizQuestions, a);
  const own = new Map(quizQuestions.map((q) => [q.id, q]));
  // A choice on the paper (its option's place as shown) at the option's place as written.
  const asWritten = (questionId: string, answer: unknown): unknown =>
    typeof answer === "number"
      ? originalOption(a.paper, questionId, answer)
      : Array.isArray(answer)
        ? answer.map((x) => (typeof x === "number" ? originalOption(a.paper, questionId, x) : x)).sort((x, y) => Number(x) - Number(y))
        : answer;
  // A drawn question as it was drawn, options in the bank's order (the paper's copy; the key is corrected there).
  const copies = new Map((a.paper?.drawn ?? []).map((d) => [d.id, d]));
  return {
    quiz: { _id: quiz.id, slug: quiz.slug, title: quiz.title, lectureSlug: quiz.lectureSlug, groupId: quiz.groupId },
    _id: a.id,
    number: a.number,
    user: { _id: a.userId, name: row.name },
    score: a.score ?? 0,
    maxScore: a.maxScore ?? 0,
    submittedAt: a.submittedAt ? a.submittedAt.toISOString() : null,
    questions: await Promise.all(given.map(async (q) => {
      const answer = (a.answers as Record<string, unknown>)[q.id] ?? null;
      const override = a.overrides?.[q.id] ?? null;
      const written = own.get(q.id);
      const copy = copies.get(q.id);
      const shown = written ?? (copy ? { ...q, options: copy.options, correct: copy.correct } : q);
      return {
        ...toQuestion(shown as never),
        answer: written || copy ? asWritten(q.id, answer) : answer,
        correct: shown.correct,
        right: isRight(q, answer, a.verdicts),
        earned: earned(q, answer, a.verdicts, a.overrides),
        // As it counts: an override is never worth more than the question now is (its points may have been lowered).
        override: override ? { points: Math.min(override.points, q.points), note: override.note } : null,
        drawn: !written,
        tests: q.type === "code" ? await testOutcomes(answer, (a.codeChecks as CodeChecks | null)?.[q.id]) : null,
      };
    })),
  };
};

/** GET /api/quizzes/{id}/attempts/{attemptId} (staff): one attempt, answer by answer, beside the key. */
export async function getAttemptForStaff(ctx: ServiceContext, viewer: Viewer, quizKey: string, attemptId: string): Promise<StaffAttemptView> {
  const quiz = await requireManagedQuiz(ctx, viewer, quizKey);
  const [row, qs] = await Promise.all([attemptOf(ctx, quiz.id, attemptId), questionsOf(ctx, [quiz.id])]);
  return view(quiz, row, qs);
}

/** How many times an override is made again over overrides that changed under it before the 409. */
const OVERRIDE_TRIES = 5;

/**
 * PUT /api/quizzes/{id}/attempts/{attemptId}/answers/{questionId} (staff): the points one handed-in answer earns, with
 * a note for the student (null points: the key decides again). The attempt's score follows at once.
 */
export async function setAnswerPoints(ctx: ServiceContext, viewer: Viewer, quizKey: string, attemptId: string, questionId: string, input: AnswerPointsInput): Promise<StaffAttemptView> {
  const quiz = await requireManagedQuiz(ctx, viewer, quizKey);
  const [row, qs] = await Promise.all([attemptOf(ctx, quiz.id, attemptId), questionsOf(ctx, [quiz.id])]);
  if (!row.attempt.submittedAt) throw new AppError(409, "conflict", "This attempt is still open: change its points once it is handed in.");
  const given = paperOf(qs, row.attempt);
  const question = given.find((q) => q.id === questionId);
  if (!question) throw notFound("No such question in this quiz.");
  if (input.points !== null && input.points > question.points) {
    const message = `This question is worth at most ${question.points} points.`;
    throw new AppError(400, "validation_failed", message, { points: message });
  }
  // The student's attempts as they stand (for the best score before), read beside the first try.
  const all = await ctx.db.select().from(attempts).where(and(eq(attempts.quizId, quiz.id), eq(attempts.userId, row.attempt.userId), isNotNull(attempts.submittedAt)));
  const before = bestOf(all);
  // The override is written with the score it gives, in one statement, only over the overrides it was made from:
  // staff changing two answers of one attempt at once both land (the later one is made again over the earlier).
  // A key corrected meanwhile moves the score: the same condition on the score and the maximum makes the override
  // again with the questions as they now are.
  let current = row.attempt;
  let paper = given;
  let questionsNow = qs;
  let saved: AttemptRow | undefined;
  let result: ReturnType<typeof grade> | undefined;
  for (let tries = 0; !saved && tries < OVERRIDE_TRIES; tries++) {
    if (tries > 0) {
      const [again, fresh] = await Promise.all([attemptOf(ctx, quiz.id, attemptId), questionsOf(ctx, [quiz.id])]);
      current = again.attempt;
      questionsNow = fresh;
      paper = paperOf(fresh, current);
    }
    const overrides = { ...(current.overrides ?? {}) };
    if (input.points === null) delete overrides[questionId];
    else overrides[questionId] = { points: input.points, note: input.note ?? "", by: viewer.userId, at: Date.now() };
    result = grade(paper, current.answers, current.verdicts, overrides);
    const unchanged = and(sameOverrides(current), sql`${attempts.score} is ${current.score}`, sql`${attempts.maxScore} is ${current.maxScore}`);
    [saved] = await ctx.db.update(attempts).set({ overrides, ...result }).where(and(eq(attempts.id, row.attempt.id), unchanged)).returning();
  }
  if (!saved || !result) throw new AppError(409, "conflict", "Someone else is changing this attempt's points right now. Try again.");
  const after = bestOf(all.map((a) => (a.id === saved!.id ? saved! : a)));
  const best = after.get(row.attempt.userId) ?? 0;
  if (before.get(row.attempt.userId) !== best) {
    await notifyUsers(ctx, [row.attempt.userId], { kind: "quiz-regraded", params: { quiz: quiz.title, score: best, max: result.maxScore }, link: quizLink(quiz) });
  }
  return view(quiz, { attempt: saved!, name: row.name }, questionsNow);
}

/**
 * PUT /api/quizzes/{id}/questions/{questionId}/key (staff): corrects a question's key (and points) after students have
 * answered it, then regrades every handed-in attempt. The question's text and options stay as the students saw them.
 */
export async function correctKey(ctx: ServiceContext, viewer: Viewer, quizKey: string, questionId: string, input: QuestionKeyInput): Promise<KeyCorrection> {
  const quiz = await requireManagedQuiz(ctx, viewer, quizKey);
  // Corrections of one quiz land one after another (a lease per quiz, code-lease.ts): each grades every attempt from
  // the keys it read, so two at once (two questions corrected in two tabs) left scores graded on half of them.
  return underLease(ctx, `regrade:${quiz.id}`, () => new AppError(409, "conflict", "Another key of this quiz is being corrected right now. Try again in a moment."), () => correctKeyNow(ctx, quiz, questionId, input));
}

async function correctKeyNow(ctx: ServiceContext, quiz: QuizRecord, questionId: string, input: QuestionKeyInput): Promise<KeyCorrection> {
  const [question] = await ctx.db.select().from(questions).where(and(eq(questions.id, questionId), eq(questions.quizId, quiz.id)));
  if (!question) return correctDrawnKey(ctx, quiz, questionId, input);
  if (question.type === "code") throw new AppError(400, "validation_failed", "A code question is judged by its tests: change them in the editor of a new quiz.", { correct: "A code question is judged by its tests." });
  const parsed = checkedKey(question, input.correct, input.points ?? question.points);
  const [current, all] = await Promise.all([
    questionsOf(ctx, [quiz.id]),
    ctx.db.select().from(attempts).where(and(eq(attempts.quizId, quiz.id), isNotNull(attempts.submittedAt))).orderBy(asc(attempts.userId), asc(attempts.number)),
  ]);
  const qs = current.map((q) => (q.id === question.id ? { ...q, correct: parsed.data.correct, points: parsed.data.points } : q));
  // A quiz worth nothing would count in no one's progress as anything but a whole or an empty mark: refused, as the
  // editor refuses it (quiz-schemas.ts checkSize).
  if (quizSize(quiz, qs).maxScore === 0) throw new AppError(400, "validation_failed", WORTH_NOTHING, { points: WORTH_NOTHING });
  const keyChange = ctx.db.update(questions).set({ correct: parsed.data.correct, points: parsed.data.points }).where(eq(questions.id, question.id));
  const regraded = await regradeRows(ctx, quiz, qs, all, all, [keyChange as never]);
  return { question: { _id: question.id, correct: parsed.data.correct, points: parsed.data.points }, regraded };
}

/** A corrected key, how many handed-in attempts it regraded, and (a drawn question) what became of the bank's own. */
export interface KeyCorrection {
  question: { _id: string; correct: (number | string)[]; points: number };
  regraded: number;
  /**
   * A drawn question only: `corrected` (the bank's question is the one drawn and now has the key too, for the next
   * draws), `changed` (the bank's question was edited since it was drawn: left as it is) or `gone` (deleted from it).
   */
  bank?: "corrected" | "changed" | "gone";
}

/**
 * The question as it stands with the new key, through the editor's own rules (option numbers that exist, one for
 * single and true-false, accepted texts for short-text); a 400 naming the rule otherwise.
 */
function checkedKey(question: Pick<PaperQuestion, "text" | "type" | "options">, correct: QuestionKeyInput["correct"], points: number) {
  const parsed = questionInput.safeParse({ text: question.text, type: question.type, options: question.options, correct, points });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AppError(400, "validation_failed", issue.message, { correct: issue.message });
  }
  return parsed;
}

/** The same question as drawn: its text, type and options unchanged (a bank edit between two draws makes another). */
const sameQuestion = (a: Pick<PaperQuestion, "text" | "type" | "options">, b: Pick<PaperQuestion, "text" | "type" | "options">) =>
  a.text === b.text && a.type === b.type && a.options.length === b.options.length && a.options.every((o, i) => o === b.options[i]);

/**
 * The key of a question drawn from the bank, corrected after students answered it. A drawn question lives on each
 * attempt's paper as a copy: the copy is corrected on every paper of this quiz that drew the same question (open
 * attempts too, graded on it when handed in), the handed-in ones are regraded, and the bank's question takes the key
 * for the next draws when it is still the question drawn. Its points stay what the quiz's draw gives.
 * `input.attemptId` names the attempt whose copy is meant (the staff's view of one attempt); without it, the newest
 * drawn copy.
 */
async function correctDrawnKey(ctx: ServiceContext, quiz: QuizRecord, questionId: string, input: QuestionKeyInput): Promise<KeyCorrection> {
  const [rows, own, [banked]] = await Promise.all([
    ctx.db.select().from(attempts).where(eq(attempts.quizId, quiz.id)).orderBy(asc(attempts.userId), asc(attempts.number)),
    questionsOf(ctx, [quiz.id]),
    ctx.db.select().from(bankQuestions).where(and(eq(bankQuestions.id, questionId), eq(bankQuestions.groupId, quiz.groupId))),
  ]);
  const copyIn = (a: AttemptRow) => a.paper?.drawn.findIndex((d) => d.id === questionId) ?? -1;
  const holding = rows.filter((a) => copyIn(a) >= 0);
  if (holding.length === 0) throw notFound("No such question in this quiz.");
  const from = input.attemptId ? holding.find((a) => a.id === input.attemptId) : holding.reduce((x, y) => (y.startedAt > x.startedAt ? y : x));
  if (!from) throw notFound("That attempt was not given this question.");
  const copy = from.paper!.drawn[copyIn(from)]!;
  if (input.points !== undefined && input.points !== copy.points) {
    const message = `A drawn question is worth what the quiz's draw gives: ${copy.points} points.`;
    throw new AppError(400, "validation_failed", message, { points: message });
  }
  const { correct } = checkedKey(copy, input.correct, copy.points).data;

  // One statement per paper, changing only this copy's key in place (json_set at its index, checked to still be
  // this question): a correction of another drawn question of the same paper at the same moment is kept.
  const writes: BatchItem[] = [];
  const corrected = new Map<string, AttemptRow>();
  for (const a of holding) {
    const i = copyIn(a);
    if (!sameQuestion(a.paper!.drawn[i]!, copy)) continue;
    corrected.set(a.id, { ...a, paper: { ...a.paper!, drawn: a.paper!.drawn.map((d) => (d.id === questionId ? { ...d, correct } : d)) } });
    writes.push(
      ctx.db
        .update(attempts)
        .set({ paper: sql`json_set(${attempts.paper}, ${`$.drawn[${i}].correct`}, json(${JSON.stringify(correct)}))` })
        .where(and(eq(attempts.id, a.id), sql`json_extract(${attempts.paper}, ${`$.drawn[${i}].id`}) = ${questionId}`)) as never,
    );
  }
  const bank = !banked ? "gone" : sameQuestion(banked, copy) ? "corrected" : "changed";
  // Only over the bank's question as read: an edit landing meanwhile keeps its own key (its options may have moved).
  if (bank === "corrected") writes.push(ctx.db.update(bankQuestions).set({ correct, updatedAt: new Date() }).where(and(eq(bankQuestions.id, questionId), eq(bankQuestions.updatedAt, banked!.updatedAt))) as never);

  const handedIn = rows.filter((a) => a.submittedAt).map((a) => corrected.get(a.id) ?? a);
  const regraded = await regradeRows(ctx, quiz, own, handedIn.filter((a) => corrected.has(a.id)), handedIn, writes);
  return { question: { _id: questionId, correct, points: copy.points }, regraded, bank };
}
