/**
 * What students see of a group's work, as SQL conditions shared by every student-facing read (pages, API, calendar,
 * progress, exports): a task shows once its lecture is published and it is not scheduled for later (issue 22).
 */
import { and, eq, isNull, type SQL } from "drizzle-orm";
import { lectures, tasks } from "../../db/schema";

export const studentSeesTask: SQL = and(eq(lectures.published, true), isNull(tasks.publishAt))!;
