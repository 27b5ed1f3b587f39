/**
 * Extensions (issue 21): staff give one student, or several, a later due time on a task, or a later close, extra
 * minutes or extra attempts on a quiz. Shared by the staff forms, the Remix actions and the API. Client-safe.
 */
import { z } from "zod";
import { dateTime } from "./dates";

export const EXTENSION_LIMITS = { students: 200, extraMinutes: 600, extraAttempts: 10 } as const;

const userIds = z
  .array(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "Choose students of the group."), { error: "Choose at least one student." })
  .min(1, "Choose at least one student.")
  .max(EXTENSION_LIMITS.students, `At most ${EXTENSION_LIMITS.students} students at once.`);

/** PUT .../tasks/{taskId}/extensions: these students' own due time (it replaces an extension they had). */
export const taskExtensionInput = z.object({
  userIds,
  dueAt: dateTime("Give the new due time as a date and time.", "That due date or time does not exist."),
});
export type TaskExtensionInput = z.infer<typeof taskExtensionInput>;

const wholeNumber = (max: number, what: string) =>
  z
    .number({ error: `${what} is a whole number from 0 to ${max}.` })
    .int(`${what} is a whole number from 0 to ${max}.`)
    .min(0, `${what} is a whole number from 0 to ${max}.`)
    .max(max, `${what} is a whole number from 0 to ${max}.`);

/** PUT /api/quizzes/{id}/extensions: a later close, extra minutes per attempt and/or extra attempts. */
export const quizExtensionInput = z
  .object({
    userIds,
    closesAt: dateTime("Give the new closing time as a date and time.", "That closing date or time does not exist.").nullable().optional(),
    extraMinutes: wholeNumber(EXTENSION_LIMITS.extraMinutes, "Extra minutes").optional(),
    extraAttempts: wholeNumber(EXTENSION_LIMITS.extraAttempts, "Extra attempts").optional(),
  })
  .refine((v) => v.closesAt != null || (v.extraMinutes ?? 0) > 0 || (v.extraAttempts ?? 0) > 0, {
    message: "Give a later close, extra minutes or extra attempts.",
    path: ["closesAt"],
  });
export type QuizExtensionInput = z.infer<typeof quizExtensionInput>;
