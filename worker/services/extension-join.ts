/**
 * One student's extension of one task or quiz, as a condition: how every deadline rule (a task's due time; a
 * quiz's close, minutes and attempts) finds the student's row, and how one is taken back. extensions.ts writes them.
 * `.leftJoin(extensions, extensionOf("task", tasks.id, viewer.userId))`: no row, no extension.
 */
import { and, eq, type AnyColumn, type SQL, type SQLWrapper } from "drizzle-orm";
import { extensions } from "../../db/schema";

export function extensionOf(kind: "task" | "quiz", item: AnyColumn | string, user: AnyColumn | SQLWrapper | string): SQL {
  return and(eq(kind === "task" ? extensions.taskId : extensions.quizId, item), eq(extensions.userId, user))!;
}
