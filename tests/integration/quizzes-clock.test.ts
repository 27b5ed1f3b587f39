/**
 * The server's clock for quizzes, with a fixed `now` passed to the services (the API passes Date.now()): the
 * deadline is min(start + duration, closesAt); answers arriving within 5 s after it count, a hand-in later than
 * that (accepted for 60 s) is graded on the answers saved in time; an attempt nobody hands in is closed and graded
 * at its deadline by the next read, or by the daily cron, without a browser (quiz-integrity.test.ts has the attacks).
 */
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import worker from "../../worker/index";
import { newId } from "../../worker/services/ids";
import { getQuiz, groupResults, listGroupQuizzes, saveAnswers, startAttempt, submitQuiz } from "../../worker/services/quizzes";
import type { Viewer } from "../../worker/services/sessions";
import { addMember, createGroup, createUser } from "./factories";
import { db, serviceContext } from "./helpers";

const T0 = Date.parse("2027-03-01T09:00:00Z");
const MIN = 60_000;

async function world(quiz: { durationMinutes: number | null; closesAt?: number | null }) {
  const teacher = await createUser({ role: "instructor" });
  const group = await createGroup({ instructorId: teacher.id });
  const student = await createUser();
  await addMember(student, group);
  const lecture = { id: newId(), groupId: group.id, slug: `l-${group.slug}`, title: "Week 1", body: "", order: 1, published: true };
  await db().insert(s.lectures).values(lecture);
  const q = { id: newId(), lectureId: lecture.id, groupId: group.id, slug: `quiz-${group.slug}`, title: "Clock", durationMinutes: quiz.durationMinutes, opensAt: null, closesAt: quiz.closesAt ? new Date(quiz.closesAt) : null, maxAttempts: 3, published: true };
  await db().insert(s.quizzes).values(q);
  const question = { id: newId(), quizId: q.id, text: "2 + 2?", type: "single" as const, options: ["3", "4"], correct: [1], points: 1, order: 0 };
  await db().insert(s.questions).values(question);
  const as = (u: typeof student | typeof teacher, role: Viewer["role"]): Viewer => ({ userId: u.id, role, sessionId: "clock", name: u.name, email: u.email });
  return { ctx: serviceContext().ctx, quiz: q, question, me: as(student, "user"), staff: as(teacher, "instructor"), group };
}

const row = async (id: string) => (await db().select().from(s.attempts).where(eq(s.attempts.id, id)))[0]!;

describe("quizzes: the server's clock", () => {
  it("fixes the deadline at start + duration, or the closing time when that comes first", async () => {
    const timed = await world({ durationMinutes: 10 });
    expect((await startAttempt(timed.ctx, timed.me, timed.quiz.slug, T0)).attempt.deadline).toBe(new Date(T0 + 10 * MIN).toISOString());
    const closing = await world({ durationMinutes: 10, closesAt: T0 + 4 * MIN });
    expect((await startAttempt(closing.ctx, closing.me, closing.quiz.slug, T0)).attempt.deadline).toBe(new Date(T0 + 4 * MIN).toISOString());
    const homework = await world({ durationMinutes: null, closesAt: T0 + 3 * 24 * 60 * MIN });
    expect((await startAttempt(homework.ctx, homework.me, homework.quiz.slug, T0)).attempt.deadline).toBe(new Date(T0 + 3 * 24 * 60 * MIN).toISOString());
    const open = await world({ durationMinutes: null, closesAt: null });
    expect((await startAttempt(open.ctx, open.me, open.quiz.slug, T0)).attempt.deadline).toBeNull();
  });

  it("counts a submit's answers up to 5 s after the deadline (a request on its way)", async () => {
    const w = await world({ durationMinutes: 10 });
    const { attempt } = await startAttempt(w.ctx, w.me, w.quiz.slug, T0);
    await saveAnswers(w.ctx, w.me, w.quiz.slug, { answers: { [w.question.id]: 0 } }, T0 + MIN);
    const result = await submitQuiz(w.ctx, w.me, w.quiz.slug, { answers: { [w.question.id]: 1 }, attemptId: attempt._id }, T0 + 10 * MIN + 5_000);
    expect(result).toMatchObject({ created: true, gradedOnSaved: false, attempt: { score: 1 } });
  });

  it("grades a submit later than 60 s after the deadline on the answers saved in time", async () => {
    const w = await world({ durationMinutes: 10 });
    const { attempt } = await startAttempt(w.ctx, w.me, w.quiz.slug, T0);
    await saveAnswers(w.ctx, w.me, w.quiz.slug, { answers: { [w.question.id]: 0 } }, T0 + MIN);
    const result = await submitQuiz(w.ctx, w.me, w.quiz.slug, { answers: { [w.question.id]: 1 }, attemptId: attempt._id }, T0 + 10 * MIN + 61_000);
    expect(result).toMatchObject({ gradedOnSaved: true, attempt: { score: 0, submittedAt: new Date(T0 + 10 * MIN).toISOString() } });
    expect((await row(attempt._id)).answers).toEqual({ [w.question.id]: 0 });
  });

  it("refuses to save after the deadline and grace, and closes the attempt on what was saved", async () => {
    const w = await world({ durationMinutes: 10 });
    const { attempt } = await startAttempt(w.ctx, w.me, w.quiz.slug, T0);
    await saveAnswers(w.ctx, w.me, w.quiz.slug, { answers: { [w.question.id]: 1 } }, T0 + 9 * MIN);
    await expect(saveAnswers(w.ctx, w.me, w.quiz.slug, { answers: { [w.question.id]: 0 } }, T0 + 10 * MIN + 61_000)).rejects.toMatchObject({ status: 409, code: "time_up" });
    expect(await row(attempt._id)).toMatchObject({ score: 1, maxScore: 1, submittedAt: new Date(T0 + 10 * MIN), answers: { [w.question.id]: 1 } });
  });

  it("a save arriving within 5 s of the deadline still counts", async () => {
    const w = await world({ durationMinutes: 10 });
    await startAttempt(w.ctx, w.me, w.quiz.slug, T0);
    await expect(saveAnswers(w.ctx, w.me, w.quiz.slug, { answers: { [w.question.id]: 1 } }, T0 + 10 * MIN + 5_000)).resolves.toMatchObject({ savedAt: new Date(T0 + 10 * MIN + 5_000).toISOString() });
  });

  it("closes an abandoned attempt at its deadline on the next read, and not before the grace has passed", async () => {
    const w = await world({ durationMinutes: 10 });
    const { attempt } = await startAttempt(w.ctx, w.me, w.quiz.slug, T0);
    await saveAnswers(w.ctx, w.me, w.quiz.slug, { answers: { [w.question.id]: 1 } }, T0 + 2 * MIN);
    // Inside the grace a read leaves it open (a submit may still be on its way).
    await groupResults(w.ctx, w.staff, w.group.slug, T0 + 10 * MIN + 30_000);
    expect((await row(attempt._id)).submittedAt).toBeNull();
    // After it, the staff's matrix (or any read) closes and grades it, dated at the deadline.
    const results = await groupResults(w.ctx, w.staff, w.group.slug, T0 + 10 * MIN + 61_000);
    expect(results.students[0]!.results[0]).toMatchObject({ best: 1, attempts: 1 });
    expect(await row(attempt._id)).toMatchObject({ score: 1, submittedAt: new Date(T0 + 10 * MIN) });
  });

  it("the student's own reads close it too, and the next start is a new attempt", async () => {
    const w = await world({ durationMinutes: 5 });
    const first = await startAttempt(w.ctx, w.me, w.quiz.slug, T0);
    const list = await listGroupQuizzes(w.ctx, w.me, w.group.slug, T0 + 7 * MIN);
    expect(list[0]!.mine).toEqual({ attempts: 1, inProgress: false, bestScore: 0 });
    const view = await getQuiz(w.ctx, w.me, w.quiz.slug, T0 + 7 * MIN);
    expect(view.attempt).toBeNull();
    expect(view.attemptsLeft).toBe(2);
    const second = await startAttempt(w.ctx, w.me, w.quiz.slug, T0 + 8 * MIN);
    expect(second.attempt._id).not.toBe(first.attempt._id);
    expect(second.attempt.number).toBe(2);
  });

  it("homework with no closing time never closes by itself", async () => {
    const w = await world({ durationMinutes: null, closesAt: null });
    const { attempt } = await startAttempt(w.ctx, w.me, w.quiz.slug, T0);
    await getQuiz(w.ctx, w.me, w.quiz.slug, T0 + 365 * 24 * 60 * MIN);
    expect((await row(attempt._id)).submittedAt).toBeNull();
  });

  it("the daily cron closes attempts no one reads", async () => {
    const w = await world({ durationMinutes: 1 });
    // Started a day ago by the real clock, so the cron (which runs at the real now) finds it expired.
    const { attempt } = await startAttempt(w.ctx, w.me, w.quiz.slug, Date.now() - 24 * 60 * MIN);
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ scheduledTime: new Date(), cron: "17 3 * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect((await row(attempt._id)).submittedAt).not.toBeNull();
  });
});
