/**
 * The comment bank (issue 21): each staff member's own feedback snippets, kept across the groups they grade, which
 * the grader inserts into the feedback with a keystroke (Alt+1 to Alt+9) or a click.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { can } from "../../app/lib/permissions";
import { COMMENT_BANK_LIMITS, type CommentSnippetInput } from "../../app/lib/task-schemas";
import { commentSnippets, users } from "../../db/schema";
import { preparedOnce } from "../../db/prepared";
import type { ServiceContext } from "../context";
import { AppError, forbidden, notFound } from "../http/errors";
import { newId } from "./ids";
import type { Viewer } from "./sessions";

export interface SnippetDto {
  _id: string;
  text: string;
  createdAt: string;
}

const requireGrader = (viewer: Viewer) => {
  if (!can(viewer, "staff.inbox")) throw forbidden("Only instructors and admins keep a comment bank.");
};

/** GET /api/comment-bank: the caller's snippets, oldest first (their order is their keystroke: Alt+1 is the first). */
export async function listSnippets(ctx: ServiceContext, viewer: Viewer): Promise<SnippetDto[]> {
  requireGrader(viewer);
  // The grader shows them: built once per isolate (db/prepared.ts).
  const rows = await preparedOnce(ctx, "comment-bank.list", (db) =>
    db.select().from(commentSnippets).where(eq(commentSnippets.ownerId, sql.placeholder("ownerId"))).orderBy(asc(commentSnippets.createdAt), asc(commentSnippets.id)),
  ).all({ ownerId: viewer.userId });
  return rows.map((r) => ({ _id: r.id, text: r.text, createdAt: r.createdAt.toISOString() }));
}

/** POST /api/comment-bank: a new snippet, up to 50 per person. */
export async function addSnippet(ctx: ServiceContext, viewer: Viewer, input: CommentSnippetInput): Promise<SnippetDto> {
  requireGrader(viewer);
  // The count and the insert are one statement: snippets sent at once cannot each find room under the limit.
  const [row] = await ctx.db
    .insert(commentSnippets)
    .select(
      ctx.db
        .select({
          id: sql<string>`${newId()}`.as("id"),
          ownerId: users.id,
          text: sql<string>`${input.text}`.as("text"),
          createdAt: sql<Date>`${Date.now()}`.as("created_at"),
        })
        .from(users)
        .where(and(eq(users.id, viewer.userId), sql`(select count(*) from ${commentSnippets} where ${commentSnippets.ownerId} = ${viewer.userId}) < ${COMMENT_BANK_LIMITS.snippets}`)),
    )
    .returning();
  if (!row) throw new AppError(409, "conflict", `Your comment bank holds at most ${COMMENT_BANK_LIMITS.snippets} snippets: delete one first.`);
  return { _id: row.id, text: row.text, createdAt: row.createdAt.toISOString() };
}

/** DELETE /api/comment-bank/{id}: one of the caller's snippets (another person's is not found). */
export async function deleteSnippet(ctx: ServiceContext, viewer: Viewer, id: string): Promise<{ message: string }> {
  requireGrader(viewer);
  const gone = await ctx.db.delete(commentSnippets).where(and(eq(commentSnippets.id, id), eq(commentSnippets.ownerId, viewer.userId))).returning({ id: commentSnippets.id });
  if (gone.length === 0) throw notFound("No such snippet in your comment bank.");
  return { message: "The snippet was deleted." };
}
