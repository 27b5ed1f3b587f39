/**
 * What a helper found by doing things at the same moment (ADR 63), each replayed deterministically: another request's
 * whole write lands between this one's reads and its write (`gatedContext`). A task or quiz deleted meanwhile is a
 * 404, never a 500 and never half a write; a grade written while the task's grades are released is told to its
 * student by one of the two; an attempt started while staff move the close ends by the new close.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { startAttempt } from "../../worker/services/quizzes";
import { gradeSubmission, submitTask } from "../../worker/services/tasks";
import { addMember, call, createGroup, createUser, signIn, viewerOf, type SignedIn } from "./factories";
import { db, gatedContext, unique } from "./helpers";

const MIN = 60_000;

async function world({ gradesHeld = false } = {}) {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const student = await signIn(await createUser());
  await addMember(student.user, group);
  const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: unique("Week"), published: true }, token: teacher.accessToken })).json()) as { _id: string; slug: string };
  const made = await call(`/api/lectures/${lecture.slug}/tasks`, { body: { title: unique("Landing page"), maxScore: 100, gradesHeld }, token: teacher.accessToken });
  expect(made.status).toBe(201);
  const task = (await made.json()) as { _id: string; slug: string };
  return { teacher, group, student, lecture, task, base: `/api/lectures/${lecture.slug}/tasks/${task.slug}` };
}

async function quizOf(w: Awaited<ReturnType<typeof world>>, rules: { durationMinutes: number; closesAt: number }) {
  const made = await call("/api/quizzes", {
    body: {
      lectureId: w.lecture._id,
      title: unique("Quiz"),
      durationMinutes: rules.durationMinutes,
      closesAt: new Date(rules.closesAt).toISOString(),
      published: true,
      questions: [{ text: "Is it?", type: "true-false", correct: 0 }],
    },
    token: w.teacher.accessToken,
  });
  expect(made.status).toBe(201);
  return (await made.json()) as { _id: string; slug: string };
}

const kindsOf = async (who: SignedIn) => (await db().select().from(s.notifications).where(eq(s.notifications.userId, who.user.id))).map((n) => n.kind);

describe("deleted while a student acts on it", () => {
  it("a task deleted between the hand-in's check and its write: 404 No such task., nothing stored", async () => {
    const w = await world();
    const ctx = gatedContext(/^insert into "submissions"/, async () => expect((await call(w.base, { method: "DELETE", token: w.teacher.accessToken })).status).toBe(200));
    await expect(submitTask(ctx, viewerOf(w.student), w.lecture.slug, w.task.slug, { link: "https://github.com/me/landing" })).rejects.toMatchObject({ status: 404, message: "No such task." });
    expect(await db().select().from(s.submissions).where(eq(s.submissions.userId, w.student.user.id))).toEqual([]);
  });

  it("a quiz deleted between the start's check and its write: 404 No such quiz., no attempt", async () => {
    const w = await world();
    const quiz = await quizOf(w, { durationMinutes: 30, closesAt: Date.now() + 120 * MIN });
    const ctx = gatedContext(/^insert into "attempts"/, async () => expect((await call(`/api/quizzes/${quiz.slug}`, { method: "DELETE", token: w.teacher.accessToken })).status).toBe(200));
    await expect(startAttempt(ctx, viewerOf(w.student), quiz.slug)).rejects.toMatchObject({ status: 404, message: "No such quiz." });
    expect(await db().select().from(s.attempts).where(eq(s.attempts.userId, w.student.user.id))).toEqual([]);
  });
});

describe("a grade written while the task's grades are released", () => {
  it("is told to its student: the release had not seen it, so the grade tells them itself", async () => {
    const w = await world({ gradesHeld: true });
    expect((await call(`/api/lectures/${w.lecture.slug}/submit-task/${w.task.slug}`, { body: { link: "https://github.com/me/landing" }, token: w.student.accessToken })).status).toBe(201);
    const [row] = await db().select().from(s.submissions).where(and(eq(s.submissions.taskId, w.task._id), eq(s.submissions.userId, w.student.user.id)));
    // The grader read the task while it held its grades; the release lands before the grade is written.
    const ctx = gatedContext(/^update "submissions"/, async () => expect((await call(`${w.base}/release-grades`, { method: "POST", token: w.teacher.accessToken })).status).toBe(200));
    const graded = await gradeSubmission(ctx, viewerOf(w.teacher), w.lecture.slug, w.task.slug, row!.id, { score: 80 });
    expect(graded).toMatchObject({ score: 80, state: "graded" });
    expect(await kindsOf(w.student)).toContain("submission-graded");
    // Once: the release found nothing graded and told nobody.
    expect((await kindsOf(w.student)).filter((k) => k === "grades-released" || k === "submission-graded")).toEqual(["submission-graded"]);
  });
});

describe("an attempt started while staff move the quiz's close", () => {
  it("ends by the new close, though the start read the old one (the staff's retiming ran before it existed)", async () => {
    const w = await world();
    const now = Date.now();
    const quiz = await quizOf(w, { durationMinutes: 60, closesAt: now + 120 * MIN });
    const closesAt = now + 10 * MIN;
    const ctx = gatedContext(/^insert into "attempts"/, async () =>
      expect((await call(`/api/quizzes/${quiz.slug}`, { method: "PUT", body: { closesAt: new Date(closesAt).toISOString() }, token: w.teacher.accessToken })).status).toBe(200),
    );
    const started = await startAttempt(ctx, viewerOf(w.student), quiz.slug, now);
    const [attempt] = await db().select().from(s.attempts).where(eq(s.attempts.id, started.attempt._id));
    expect(attempt!.deadlineAt?.getTime()).toBe(closesAt);
    expect(Date.parse(started.attempt.deadline!)).toBe(closesAt);
  });
});
