/**
 * A group's question bank (issue 21): its staff keep questions with tags; a quiz draws N of a tag for each attempt
 * (app/lib/quiz-paper.ts). Questions drawn are copied into the attempt's paper, so editing or deleting a bank question
 * changes no attempt already given; it changes only the attempts that open afterwards.
 */
import { and, asc, eq } from "drizzle-orm";
import type { BankQuestionInput } from "../../app/lib/quiz-schemas";
import { bankQuestions } from "../../db/schema";
import type { ServiceContext } from "../context";
import { notFound } from "../http/errors";
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
  const [row] = await ctx.db
    .update(bankQuestions)
    .set({ ...values(input), updatedAt: new Date() })
    .where(and(eq(bankQuestions.id, questionId), eq(bankQuestions.groupId, group.id)))
    .returning();
  if (!row) throw notFound("No such question in this group's bank.");
  return toDto(row);
}

/** DELETE /api/groups/{id}/question-bank/{questionId} (staff). */
export async function deleteBankQuestion(ctx: ServiceContext, viewer: Viewer, groupKey: string, questionId: string): Promise<{ message: string }> {
  const group = await requireManagedGroup(ctx, viewer, groupKey);
  const gone = await ctx.db.delete(bankQuestions).where(and(eq(bankQuestions.id, questionId), eq(bankQuestions.groupId, group.id))).returning({ id: bankQuestions.id });
  if (gone.length === 0) throw notFound("No such question in this group's bank.");
  return { message: "The question was deleted from the bank. Attempts that drew it keep their copy." };
}
