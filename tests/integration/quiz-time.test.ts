/**
 * Accommodations (issue 21): staff give a member more time on every timed quiz of the group (1.25, 1.5, 2 or 3 times
 * each quiz's duration). The server's deadline follows (still capped by the quiz's close), so saves and hand-ins count
 * until the longer deadline; the quiz page says the student's own time; the others keep the quiz's time.
 */
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { newId } from "../../worker/services/ids";
import { getQuiz, getResult, saveAnswers, startAttempt, submitQuiz } from "../../worker/services/quizzes";
import { eq } from "drizzle-orm";
import { addMember, call, createGroup, createUser, signIn, type ErrorBody, viewerOf } from "./factories";
import { db, serviceContext } from "./helpers";

const T0 = Date.parse("2027-03-01T09:00:00Z");
const MIN = 60_000;

async function world(quiz: { durationMinutes: number | null; closesAt?: number | null }) {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const [slow, other, waiting] = [await createUser(), await createUser(), await createUser()];
  await addMember(slow, group);
  await addMember(other, group);
  await addMember(waiting, group, "pending");
  const lecture = { id: newId(), groupId: group.id, slug: `l-${group.slug}`, title: "Week 1", body: "", order: 1, published: true };
  await db().insert(s.lectures).values(lecture);
  const q = { id: newId(), lectureId: lecture.id, groupId: group.id, slug: `quiz-${group.slug}`, title: "Clock", durationMinutes: quiz.durationMinutes, opensAt: null, closesAt: quiz.closesAt ? new Date(quiz.closesAt) : null, maxAttempts: 3, published: true };
  await db().insert(s.quizzes).values(q);
  const question = { id: newId(), quizId: q.id, text: "2 + 2?", type: "single" as const, options: ["3", "4"], correct: [1], points: 1, order: 0 };
  await db().insert(s.questions).values(question);
  const as = (u: typeof slow) => viewerOf(u, "time");
  const give = (userId: string, timeMultiplier: unknown, token = teacher.accessToken) =>
    call(`/api/groups/${group.slug}/students/${userId}/quiz-time`, { method: "PUT", body: { timeMultiplier }, token });
  return { ctx: serviceContext().ctx, quiz: q, question, slow: as(slow), other: as(other), waiting, teacher, group, give };
}

describe("quiz time (an accommodation)", () => {
  it("gives a member 1.5 times a 10-minute quiz: the server's deadline is 15 minutes after the start, the others keep 10", async () => {
    const w = await world({ durationMinutes: 10 });
    const given = await w.give(w.slow.userId, 1.5);
    expect(given.status).toBe(200);
    expect(await given.json()).toMatchObject({ quizTimeMultiplier: 1.5, user: { _id: w.slow.userId } });

    expect((await getQuiz(w.ctx, w.slow, w.quiz.slug, T0)).yourMinutes).toBe(15);
    expect((await getQuiz(w.ctx, w.other, w.quiz.slug, T0)).yourMinutes).toBe(10);
    const mine = await startAttempt(w.ctx, w.slow, w.quiz.slug, T0);
    expect(mine.attempt.deadline).toBe(new Date(T0 + 15 * MIN).toISOString());
    expect((await startAttempt(w.ctx, w.other, w.quiz.slug, T0)).attempt.deadline).toBe(new Date(T0 + 10 * MIN).toISOString());

    // Twelve minutes in: past the quiz's own time, inside the student's.
    await expect(saveAnswers(w.ctx, w.slow, w.quiz.slug, { answers: { [w.question.id]: 1 } }, T0 + 12 * MIN)).resolves.toBeTruthy();
    await expect(saveAnswers(w.ctx, w.other, w.quiz.slug, { answers: { [w.question.id]: 1 } }, T0 + 12 * MIN)).rejects.toMatchObject({ status: 409 });

    // The staff's students list shows it.
    const list = (await (await call(`/api/groups/${w.group.slug}/students`, { token: w.teacher.accessToken })).json()) as { user: { _id: string }; quizTimeMultiplier: number }[];
    expect(Object.fromEntries(list.map((r) => [r.user._id, r.quizTimeMultiplier]))).toEqual({ [w.slow.userId]: 1.5, [w.other.userId]: 1 });
  });

  it("still ends at the quiz's close: 2 times a 10-minute quiz that closes 12 minutes after the start ends at 12", async () => {
    const w = await world({ durationMinutes: 10, closesAt: T0 + 12 * MIN });
    expect((await w.give(w.slow.userId, 2)).status).toBe(200);
    expect((await startAttempt(w.ctx, w.slow, w.quiz.slug, T0)).attempt.deadline).toBe(new Date(T0 + 12 * MIN).toISOString());
  });

  it("changes nothing for an untimed quiz", async () => {
    const w = await world({ durationMinutes: null, closesAt: T0 + 60 * MIN });
    expect((await w.give(w.slow.userId, 3)).status).toBe(200);
    expect((await getQuiz(w.ctx, w.slow, w.quiz.slug, T0)).yourMinutes).toBeNull();
    expect((await startAttempt(w.ctx, w.slow, w.quiz.slug, T0)).attempt.deadline).toBe(new Date(T0 + 60 * MIN).toISOString());
  });

  it("takes 1, 1.25, 1.5, 2 or 3 only, for members only, and back to 1 restores the quiz's time", async () => {
    const w = await world({ durationMinutes: 20 });
    for (const bad of [1.3, 0.5, 4, "fast", null]) {
      const res = await w.give(w.slow.userId, bad);
      expect(res.status, String(bad)).toBe(400);
      expect(((await res.json()) as ErrorBody).message).toBeTruthy();
    }
    // A request waiting for a decision is not a member yet.
    expect((await w.give(w.waiting.id, 1.5)).status).toBe(409);
    expect((await w.give(w.slow.userId, 1.25)).status).toBe(200);
    expect((await getQuiz(w.ctx, w.slow, w.quiz.slug, T0)).yourMinutes).toBe(25);
    expect((await w.give(w.slow.userId, 1)).status).toBe(200);
    expect((await getQuiz(w.ctx, w.slow, w.quiz.slug, T0)).yourMinutes).toBe(20);
  });

  it("is set from the staff's Students page too (intent=quizTime)", async () => {
    const w = await world({ durationMinutes: 10 });
    const form = new FormData();
    form.set("intent", "quizTime");
    form.set("userId", w.slow.userId);
    form.set("timeMultiplier", "2");
    const res = await call(`/instructor/group/${w.group.slug}/students`, { cookie: w.teacher.cookie, form, headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    expect((await getQuiz(w.ctx, w.slow, w.quiz.slug, T0)).yourMinutes).toBe(20);
  });

  it("retimes open attempts when the quiz's time changes: a close added later ends an attempt started without one", async () => {
    // No duration and no close when they start: the attempt has no deadline.
    const w = await world({ durationMinutes: null });
    const started = await startAttempt(w.ctx, w.slow, w.quiz.slug, T0);
    expect(started.attempt.deadline).toBeNull();
    await submitQuiz(w.ctx, w.other, w.quiz.slug, { answers: { [w.question.id]: 1 } }, T0 + MIN);
    const deadlineOf = async () => (await db().select().from(s.attempts).where(eq(s.attempts.id, started.attempt._id)))[0]!.deadlineAt?.getTime() ?? null;

    // The staff add a close, with the answers shown once it has passed.
    const closed = await call(`/api/quizzes/${w.quiz.slug}`, { method: "PUT", body: { closesAt: new Date(T0 + 20 * MIN).toISOString(), showAnswers: "after-close" }, token: w.teacher.accessToken });
    expect(closed.status).toBe(200);
    expect(await deadlineOf()).toBe(T0 + 20 * MIN);
    // Moved later, the open attempt follows; then a 30-minute duration (started at T0) ends it at T0 + 30 minutes.
    await call(`/api/quizzes/${w.quiz.slug}`, { method: "PUT", body: { closesAt: new Date(T0 + 45 * MIN).toISOString() }, token: w.teacher.accessToken });
    expect(await deadlineOf()).toBe(T0 + 45 * MIN);
    await call(`/api/quizzes/${w.quiz.slug}`, { method: "PUT", body: { durationMinutes: 30 }, token: w.teacher.accessToken });
    expect(await deadlineOf()).toBe(T0 + 30 * MIN);

    // After the close (plus the minute of grace): the late answer does not count, and the class's review is not held back.
    await expect(saveAnswers(w.ctx, w.slow, w.quiz.slug, { answers: { [w.question.id]: 1 } }, T0 + 47 * MIN)).rejects.toMatchObject({ status: 409 });
    expect((await getResult(w.ctx, w.other, w.quiz.slug, T0 + 47 * MIN)).reviewWhen).toBe("now");
  });

  it("a close moved into the past ends an open attempt at that moment, never before it started", async () => {
    // A 20-minute quiz, started now (real time: the staff's change below is dated now too).
    const w = await world({ durationMinutes: 20 });
    const startedAt = Date.now();
    const started = await startAttempt(w.ctx, w.slow, w.quiz.slug, startedAt);
    const moved = await call(`/api/quizzes/${w.quiz.slug}`, { method: "PUT", body: { closesAt: "2026-11-01T00:00:00.000Z" }, token: w.teacher.accessToken });
    expect(moved.status).toBe(200);
    const [row] = await db().select().from(s.attempts).where(eq(s.attempts.id, started.attempt._id));
    const deadline = row!.deadlineAt!.getTime();
    expect(deadline).toBeGreaterThanOrEqual(startedAt);
    expect(deadline).toBeLessThanOrEqual(Date.now());
    // Handed in by the next read after the 5 s allowance, dated at that deadline: after its start.
    const result = await getResult(w.ctx, w.slow, w.quiz.slug, Date.now() + 6_000);
    const [closed] = await db().select().from(s.attempts).where(eq(s.attempts.id, started.attempt._id));
    expect(closed!.submittedAt!.getTime()).toBe(deadline);
    expect(closed!.submittedAt!.getTime()).toBeGreaterThanOrEqual(closed!.startedAt.getTime());
    expect(result.attempts[0]!.seconds).toBeGreaterThanOrEqual(0);
  });
});

