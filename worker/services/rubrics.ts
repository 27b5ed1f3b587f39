/**
 * A group's rubrics (app/lib/rubric-schemas.ts): its staff write them once and put them on any task of the group; a
 * task that carries one takes the rubric's total as its maximum score, and the grader scores it a level per criterion.
 */
import { and, asc, eq, inArray, isNotNull, or, sql, type SQL } from "drizzle-orm";
import { rubricTotal, type RubricInput } from "../../app/lib/rubric-schemas";
import { lectures, rubrics, submissions, tasks } from "../../db/schema";
import { preparedOnce } from "../../db/prepared";
import type { ServiceContext } from "../context";
import { AppError, notFound } from "../http/errors";
import { requireManagedGroup } from "./group-access";
import { newId } from "./ids";
import type { Viewer } from "./sessions";

export interface RubricDto {
  _id: string;
  title: string;
  criteria: RubricInput["criteria"];
  /** The best level of every criterion added up: the maximum score of a task that carries it. */
  total: number;
  /** The tasks of the group that carry it. */
  tasks: { _id: string; slug: string; title: string }[];
  updatedAt: string;
}

type RubricRow = typeof rubrics.$inferSelect;

const toDto = (row: RubricRow, using: RubricDto["tasks"]): RubricDto => ({
  _id: row.id,
  title: row.title,
  criteria: row.criteria,
  total: rubricTotal(row.criteria),
  tasks: using,
  updatedAt: row.updatedAt.toISOString(),
});

/** The group's rubrics by title, each with the tasks that carry it (two statements, whatever the counts). */
export async function listRubrics(ctx: ServiceContext, viewer: Viewer, groupKey: string): Promise<RubricDto[]> {
  const group = await requireManagedGroup(ctx, viewer, groupKey);
  // The staff's Tasks tab runs them: built once per isolate (db/prepared.ts).
  const [rows, using] = await Promise.all([
    preparedOnce(ctx, "rubrics.list", (db) => db.select().from(rubrics).where(eq(rubrics.groupId, sql.placeholder("groupId"))).orderBy(asc(rubrics.title), asc(rubrics.id))).all({ groupId: group.id }),
    preparedOnce(ctx, "rubrics.usedBy", (db) =>
      db
        .select({ rubricId: tasks.rubricId, _id: tasks.id, slug: tasks.slug, title: tasks.title })
        .from(tasks)
        .innerJoin(lectures, eq(lectures.id, tasks.lectureId))
        .where(and(eq(lectures.groupId, sql.placeholder("groupId")), isNotNull(tasks.rubricId)))
        .orderBy(asc(tasks.title)),
    ).all({ groupId: group.id }),
  ]);
  return rows.map((r) => toDto(r, using.filter((t) => t.rubricId === r.id).map(({ _id, slug, title }) => ({ _id, slug, title }))));
}

/** A rubric of the group (by id), or 404: a rubric of another group is not this group's to use. */
export async function rubricOfGroup(ctx: ServiceContext, groupId: string, rubricId: string): Promise<RubricRow> {
  const [row] = await ctx.db.select().from(rubrics).where(and(eq(rubrics.id, rubricId), eq(rubrics.groupId, groupId)));
  if (!row) throw notFound("No such rubric in this group.");
  return row;
}

/** POST /api/groups/{id}/rubrics (the group's staff). */
export async function createRubric(ctx: ServiceContext, viewer: Viewer, groupKey: string, input: RubricInput): Promise<RubricDto> {
  const group = await requireManagedGroup(ctx, viewer, groupKey);
  const now = new Date();
  const [row] = await ctx.db.insert(rubrics).values({ id: newId(), groupId: group.id, title: input.title, criteria: input.criteria, createdAt: now, updatedAt: now }).returning();
  return toDto(row!, []);
}

/**
 * PUT /api/groups/{id}/rubrics/{rubricId}: words may always change (grades keep the rubric as it was when given).
 * Points may change only while no task carrying it has a grade given with it, since the tasks' maximum follows the
 * total; the tasks that carry it take the new total in the same batch.
 */
export async function updateRubric(ctx: ServiceContext, viewer: Viewer, groupKey: string, rubricId: string, input: RubricInput): Promise<RubricDto> {
  const group = await requireManagedGroup(ctx, viewer, groupKey);
  const current = await rubricOfGroup(ctx, group.id, rubricId);
  const pointsOf = (criteria: RubricInput["criteria"]) => JSON.stringify(criteria.map((c) => [c.id, c.levels.map((l) => l.points)]));
  // Checked here for the message, and again by both writes: a grade given with the rubric between the check and the
  // write (another tab, a colleague) refuses the change instead of leaving a score above the task's new maximum.
  let notGraded: SQL | undefined;
  if (pointsOf(current.criteria) !== pointsOf(input.criteria)) {
    // Graded with it, or graded at all on a task whose maximum the new total would move (a plain score of 20 must not
    // become 20 out of 4).
    const totalMoves = rubricTotal(input.criteria) !== rubricTotal(current.criteria);
    const graded = ctx.db
      .select({ id: submissions.id })
      .from(submissions)
      .innerJoin(tasks, eq(tasks.id, submissions.taskId))
      .where(and(eq(tasks.rubricId, current.id), totalMoves ? or(isNotNull(submissions.rubric), isNotNull(submissions.gradedAt)) : isNotNull(submissions.rubric)));
    if ((await graded.limit(1)).length > 0) throw new AppError(409, "rubric_in_use", RUBRIC_IN_USE);
    notGraded = sql`not exists ${graded}`;
  }
  const total = rubricTotal(input.criteria);
  // Later than its last change even within the same millisecond: a grade given with the rubric as it was can tell.
  const updatedAt = new Date(Math.max(Date.now(), current.updatedAt.getTime() + 1));
  const [[row], , using] = await ctx.db.batch([
    ctx.db.update(rubrics).set({ title: input.title, criteria: input.criteria, updatedAt }).where(and(eq(rubrics.id, current.id), notGraded)).returning(),
    ctx.db.update(tasks).set({ maxScore: total }).where(and(eq(tasks.rubricId, current.id), notGraded)),
    // The tasks that carry it, read in the same batch (the group's access was checked above).
    ctx.db.select({ _id: tasks.id, slug: tasks.slug, title: tasks.title }).from(tasks).where(eq(tasks.rubricId, current.id)).orderBy(asc(tasks.title)),
  ]);
  if (!row) throw new AppError(409, "rubric_in_use", RUBRIC_IN_USE);
  return toDto(row, using);
}

const RUBRIC_IN_USE = "Work was already graded with this rubric, so its points and criteria cannot change. Change the words, or make a new rubric.";

/** DELETE /api/groups/{id}/rubrics/{rubricId}: the tasks that carried it keep their maximum score, graded with points. */
export async function deleteRubric(ctx: ServiceContext, viewer: Viewer, groupKey: string, rubricId: string): Promise<{ message: string }> {
  const group = await requireManagedGroup(ctx, viewer, groupKey);
  const current = await rubricOfGroup(ctx, group.id, rubricId);
  await ctx.db.delete(rubrics).where(eq(rubrics.id, current.id));
  return { message: "The rubric was deleted. Tasks that used it keep their maximum score." };
}

/** The rubrics of some tasks by id, in one statement (the task pages and the grader show the one they carry). */
export async function rubricsByIds(ctx: ServiceContext, ids: (string | null)[]): Promise<Map<string, RubricRow>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await ctx.db.select().from(rubrics).where(inArray(rubrics.id, wanted));
  return new Map(rows.map((r) => [r.id, r]));
}

