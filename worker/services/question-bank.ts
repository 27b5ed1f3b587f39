/**
 * A group's question bank (issue 21): its staff keep questions with tags; a quiz draws N of a tag for each attempt
 * (app/lib/quiz-paper.ts). Questions drawn are copied into the attempt's paper, so editing or deleting a bank question
 * changes no attempt already given; it changes only the attempts that open afterwards.
 */
import { and, asc, eq, gt, isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import type { QuizDraw } from "../../app/lib/quiz-paper";
import type { BankQuestionInput } from "../../app/lib/quiz-schemas";
import { bankQuestions, groups, quizzes } from "../../db/schema";
import type { ServiceContext } from "../context";
import { AppError, notFound } from "../http/errors";
import { requireManagedGroup } from "./group-access";
import { newId } from "./ids";
import type { Viewer } from "./sessions";

type BankRow = typeof bankQuestions.$inferSelect;

export interface BankQuestionDto {
  _id: string;
  text: string;
  type: BankRow["type"];
  options: string[];
  correct: (number | string)[];
  points: number;
  tags: string[];
  updatedAt: string;
}

const toDto = (r: BankRow): BankQuestionDto => ({ _id: r.id, text: r.text, type: r.type, options: r.options, correct: r.correct, points: r.points, tags: r.tags, updatedAt: r.updatedAt.toISOString() });

/** Every question of a group's bank (server use: drawing papers and checking draws). */
export const bankOf = (ctx: ServiceContext, groupId: string) => ctx.db.select().from(bankQuestions).where(eq(bankQuestions.groupId, groupId)).orderBy(asc(bankQuestions.createdAt), asc(bankQuestions.id));

/** How many questions each tag of the group's bank has. */
export function tagCounts(rows: Pick<BankRow, "tags">[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of rows) for (const tag of r.tags) out[tag] = (out[tag] ?? 0) + 1;
  return out;
}

/**
 * Why a bank cannot fill every paper of these draws, or null when it can: a tag with fewer questions than its draw, or
 * questions carrying two drawn tags that some paper could take for the first and leave the second short.
 */
export function drawsUnfit(bank: Pick<BankRow, "id" | "tags">[], draws: QuizDraw[]): string | null {
  const counts = tagCounts(bank);
  for (const d of draws) {
    const have = counts[d.tag] ?? 0;
    if (have < d.count) return `The bank has ${have} question${have === 1 ? "" : "s"} tagged "${d.tag}": a draw of ${d.count} needs as many.`;
  }
  // A question carrying two drawn tags goes to whichever draw picks it first (a paper never repeats a question): every
  // paper must still find enough for each draw, whatever the earlier draws took of its questions.
  const short = drawsShortOnSomePaper(bank, draws);
  if (short) return `Some questions are tagged both "${short.earlier}" and "${short.tag}": a paper could draw them for "${short.earlier}" and leave fewer than ${short.count} for "${short.tag}". Give those questions one of the tags, or draw fewer.`;
  return null;
}

/**
 * The first draw some paper could leave short (the most its earlier draws can take of its tag's questions, taken),
 * with an earlier draw that shares questions with it; null when every paper can be made.
 */
export function drawsShortOnSomePaper(bank: { id: string; tags: string[] }[], draws: QuizDraw[]): { tag: string; count: number; earlier: string } | null {
  const withTag = (tag: string) => new Set(bank.filter((q) => q.tags.includes(tag)).map((q) => q.id));
  const sets = draws.map((d) => withTag(d.tag));
  for (let i = 0; i < draws.length; i++) {
    let takenAtMost = 0;
    let earlier: string | null = null;
    for (let j = 0; j < i; j++) {
      const shared = [...sets[j]!].filter((id) => sets[i]!.has(id)).length;
      if (shared === 0) continue;
      takenAtMost += Math.min(draws[j]!.count, shared);
      earlier ??= draws[j]!.tag;
    }
    if (earlier !== null && sets[i]!.size - takenAtMost < draws[i]!.count) return { tag: draws[i]!.tag, count: draws[i]!.count, earlier };
  }
  return null;
}

/**
 * True, in SQL, while the group's bank is still the `bank` a check read (how many questions it holds and when the
 * newest change to one was made): a write that the check allowed lands only on the bank it judged (a question removed
 * or retagged since could leave a draw short).
 */
export function bankStill(groupId: string, bank: Pick<BankRow, "updatedAt">[]): SQL {
  const stamp = `${bank.length}/${Math.max(0, ...bank.map((q) => q.updatedAt.getTime()))}`;
  return sql`(select count(*) || '/' || coalesce(max("updated_at"), 0) from "bank_questions" where "group_id" = ${groupId}) = ${stamp}`;
}

/** The answer when the bank, or the quizzes drawing from it, changed between a check and its write: nothing saved. */
export const bankChanged = () => new AppError(409, "bank_changed", "The question bank changed while this was being saved. Please try again.");

/**
 * After a write guarded by `asJudged` (bankStill) did not land: a 409 `bank_changed` when the bank has changed since
 * the check, which is then why; otherwise the caller says what else stopped it.
 */
export async function refuseIfBankChanged(ctx: ServiceContext, groupId: string, asJudged: SQL): Promise<void> {
  const [row] = await ctx.db.select({ same: sql<number>`${asJudged}` }).from(groups).where(eq(groups.id, groupId));
  if (row && !row.same) throw bankChanged();
}

/**
 * What the group's quizzes draw, as one string in SQL: every quiz with draws, its draws and whether students can be
 * given it (published, scheduled, its close). A change of the bank judged against these lands only while they are
 * still the same: a quiz that draws more, or is published, between the check and the write makes it judge again.
 */
const drawsState = (groupId: string) =>
  sql<string>`(select coalesce(group_concat("s", ','), '') from (select "id" || ':' || "published" || ':' || coalesce("publish_at", '') || ':' || coalesce("closes_at", '') || ':' || "draws" as "s" from "quizzes" where "group_id" = ${groupId} and json_array_length("draws") > 0 order by "id"))`;

/**
 * Refuses a change to the bank (the bank as it would be after it) that would leave a quiz students can still be
 * given short of its draws: one published and not closed, or scheduled. Its staff change the quiz's draws first.
 * Returns the bank it judged and the quizzes' draws it judged it against (`drawsState`).
 */
async function checkLiveDraws(ctx: ServiceContext, groupId: string, after: (bank: BankRow[]) => BankRow[]): Promise<{ bank: BankRow[]; draws: string }> {
  const now = Date.now();
  const [bank, live, [state]] = await Promise.all([
    bankOf(ctx, groupId),
    ctx.db
      .select({ title: quizzes.title, draws: quizzes.draws })
      .from(quizzes)
      .where(and(eq(quizzes.groupId, groupId), sql`json_array_length(${quizzes.draws}) > 0`, or(and(eq(quizzes.published, true), or(isNull(quizzes.closesAt), gt(quizzes.closesAt, new Date(now)))), isNotNull(quizzes.publishAt)))),
    ctx.db.select({ draws: drawsState(groupId) }).from(groups).where(eq(groups.id, groupId)),
  ]);
  const next = after(bank);
  for (const quiz of live) {
    const why = drawsUnfit(next, quiz.draws);
    if (why) throw new AppError(409, "draws_short", `The quiz "${quiz.title}" draws from these questions and would be left short: ${why} Change its draws first.`);
  }
  return { bank, draws: state?.draws ?? "" };
}

/** How many tries a change of the bank gets when other changes keep landing between its check and its write. */
const BANK_WRITE_TRIES = 8;

/**
 * One change of one question, judged against the bank as it is when it lands. The check reads the bank and judges it
 * in code (drawsUnfit); the write then lands only if the bank is still as read (its count and its newest change)
 * and the quizzes' draws are too, so changes sent at once cannot each pass against the same bank and together empty
 * a draw, nor a quiz draw more (or be published) in between. A change that finds either changed is judged again.
 */
async function changeBankQuestion<T>(
  ctx: ServiceContext,
  groupId: string,
  questionId: string,
  after: (bank: BankRow[]) => BankRow[],
  write: (unchanged: SQL, newest: number) => Promise<T | undefined>,
): Promise<T> {
  for (let tries = 0; tries < BANK_WRITE_TRIES; tries++) {
    const { bank, draws } = await checkLiveDraws(ctx, groupId, after);
    if (!bank.some((q) => q.id === questionId)) throw notFound("No such question in this group's bank.");
    const newest = Math.max(0, ...bank.map((q) => q.updatedAt.getTime()));
    const unchanged = and(bankStill(groupId, bank), sql`${drawsState(groupId)} = ${draws}`)!;
    const done = await write(unchanged, newest);
    if (done !== undefined) return done;
  }
  throw bankChanged();
}

/** GET /api/groups/{id}/question-bank (staff): the questions, oldest first, and the tags with their counts. */
export async function listBank(ctx: ServiceContext, viewer: Viewer, groupKey: string): Promise<{ questions: BankQuestionDto[]; tags: Record<string, number> }> {
  const group = await requireManagedGroup(ctx, viewer, groupKey);
  const rows = await bankOf(ctx, group.id);
  return { questions: rows.map(toDto), tags: tagCounts(rows) };
}

const values = (input: BankQuestionInput) => ({
  text: input.question.text,
  type: input.question.type,
  options: input.question.options,
  correct: input.question.correct,
  points: input.question.points,
  tags: [...new Set(input.tags)],
});

/** POST /api/groups/{id}/question-bank (staff). */
export async function addBankQuestion(ctx: ServiceContext, viewer: Viewer, groupKey: string, input: BankQuestionInput): Promise<BankQuestionDto> {
  const group = await requireManagedGroup(ctx, viewer, groupKey);
  const now = new Date();
  const [row] = await ctx.db.insert(bankQuestions).values({ id: newId(), groupId: group.id, ...values(input), createdAt: now, updatedAt: now }).returning();
  return toDto(row!);
}

/** PUT /api/groups/{id}/question-bank/{questionId} (staff): attempts already given keep their copy. */
export async function updateBankQuestion(ctx: ServiceContext, viewer: Viewer, groupKey: string, questionId: string, input: BankQuestionInput): Promise<BankQuestionDto> {
  const group = await requireManagedGroup(ctx, viewer, groupKey);
  const row = await changeBankQuestion(
    ctx,
    group.id,
    questionId,
    (bank) => bank.map((q) => (q.id === questionId ? { ...q, tags: values(input).tags } : q)),
    // Later than every change before it, even one in the same millisecond: the next change's check can tell.
    async (unchanged, newest) =>
      (
        await ctx.db
          .update(bankQuestions)
          .set({ ...values(input), updatedAt: new Date(Math.max(Date.now(), newest + 1)) })
          .where(and(eq(bankQuestions.id, questionId), eq(bankQuestions.groupId, group.id), unchanged))
          .returning()
      )[0],
  );
  return toDto(row);
}

/** DELETE /api/groups/{id}/question-bank/{questionId} (staff). */
export async function deleteBankQuestion(ctx: ServiceContext, viewer: Viewer, groupKey: string, questionId: string): Promise<{ message: string }> {
  const group = await requireManagedGroup(ctx, viewer, groupKey);
  await changeBankQuestion(
    ctx,
    group.id,
    questionId,
    (bank) => bank.filter((q) => q.id !== questionId),
    async (unchanged) => (await ctx.db.delete(bankQuestions).where(and(eq(bankQuestions.id, questionId), eq(bankQuestions.groupId, group.id), unchanged)).returning({ id: bankQuestions.id }))[0],
  );
  return { message: "The question was deleted from the bank. Attempts that drew it keep their copy." };
}
