/**
 * Manual override and regrade (issue 21): staff give one answer other points (with a note the student reads in the
 * review), and correct a question's key after students answered, which regrades every handed-in attempt. Stored
 * scores, best scores and progress follow; students whose best score changed are notified; overrides survive.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { newId } from "../../worker/services/ids";
import { getResult, startAttempt, submitQuiz } from "../../worker/services/quizzes";
import type { Viewer } from "../../worker/services/sessions";
import { addMember, call, createGroup, createUser, signIn } from "./factories";
import { db, serviceContext } from "./helpers";

async function world() {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const [ana, ben] = [await signIn(await createUser()), await signIn(await createUser())];
  await addMember(ana.user, group);
  await addMember(ben.user, group);
  const lecture = { id: newId(), groupId: group.id, slug: `l-${group.slug}`, title: "Week 1", body: "", order: 1, published: true };
  await db().insert(s.lectures).values(lecture);
  // Answers shown at once (after-submit, one attempt), so the review can be read right after the hand-in.
  const quiz = { id: newId(), lectureId: lecture.id, groupId: group.id, slug: `quiz-${group.slug}`, title: "Hooks", durationMinutes: null, maxAttempts: 1, showAnswers: "after-submit" as const, published: true };
  await db().insert(s.quizzes).values(quiz);
  // The key of the first question is wrong on purpose: "useEffect" (1) is marked, "useState" (0) is right.
  const hook = { id: newId(), quizId: quiz.id, text: "Which hook keeps state?", type: "single" as const, options: ["useState", "useEffect"], correct: [1], points: 2, order: 0 };
  const why = { id: newId(), quizId: quiz.id, text: "Name the rule of hooks", type: "short-text" as const, options: [], correct: ["top level"], points: 3, order: 1 };
  await db().insert(s.questions).values([hook, why]);
  const as = (u: typeof ana): Viewer => ({ userId: u.user.id, role: "user", sessionId: "regrade", name: u.user.name, email: u.user.email });
  const ctx = serviceContext().ctx;
  // Ana answers "useState" and writes a fair answer the key does not accept; Ben answers "useEffect".
  await submitQuiz(ctx, as(ana), quiz.slug, { answers: { [hook.id]: 0, [why.id]: "only call them at the top" } });
  await submitQuiz(ctx, as(ben), quiz.slug, { answers: { [hook.id]: 1, [why.id]: "top level" } });
  const attemptOf = async (who: typeof ana) => (await db().select().from(s.attempts).where(and(eq(s.attempts.quizId, quiz.id), eq(s.attempts.userId, who.user.id))))[0]!;
  const base = `/api/quizzes/${quiz.slug}`;
  return { ctx, teacher, group, ana, ben, quiz, hook, why, as, attemptOf, base };
}

const notified = async (userId: string) => (await db().select().from(s.notifications).where(and(eq(s.notifications.userId, userId), eq(s.notifications.kind, "quiz-regraded")))).map((n) => n.params);

describe("manual override", () => {
  it("gives one answer other points with a note the student reads, the score and progress follow, and the student is told", async () => {
    const w = await world();
    const before = await w.attemptOf(w.ana);
    expect(before.score).toBe(0);
    const res = await call(`${w.base}/attempts/${before.id}/answers/${w.why.id}`, { method: "PUT", body: { points: 2, note: "Right idea; say 'top level' next time" }, token: w.teacher.accessToken });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ score: 2, questions: [{ _id: w.hook.id, earned: 0 }, { _id: w.why.id, earned: 2, override: { points: 2 } }] });
    expect((await w.attemptOf(w.ana)).score).toBe(2);

    const result = await getResult(w.ctx, w.as(w.ana), w.quiz.slug);
    expect(result.score).toBe(2);
    const reviewed = result.review!.questions.find((q) => q._id === w.why.id)!;
    expect(reviewed).toMatchObject({ right: false, earned: 2, override: { points: 2, note: "Right idea; say 'top level' next time" } });
    const progress = (await (await call(`/api/users/groups/${w.group.slug}/progress`, { token: w.ana.accessToken })).json()) as { quizzes: { rate: number } };
    // 2 of 5 points.
    expect(progress.quizzes.rate).toBe(40);
    expect(await notified(w.ana.user.id)).toEqual([expect.objectContaining({ quiz: "Hooks", score: 2, max: 5 })]);

    // Null takes it back: the key decides again.
    const back = await call(`${w.base}/attempts/${before.id}/answers/${w.why.id}`, { method: "PUT", body: { points: null }, token: w.teacher.accessToken });
    expect(await back.json()).toMatchObject({ score: 0 });
  });

  it("refuses more points than the question is worth, an open attempt and another group's staff, changing nothing", async () => {
    const w = await world();
    const attempt = await w.attemptOf(w.ana);
    const tooMany = await call(`${w.base}/attempts/${attempt.id}/answers/${w.why.id}`, { method: "PUT", body: { points: 4 }, token: w.teacher.accessToken });
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { message: string }).message).toContain("at most 3 points");
    const stranger = await signIn(await createUser({ role: "instructor" }));
    expect((await call(`${w.base}/attempts/${attempt.id}/answers/${w.why.id}`, { method: "PUT", body: { points: 1 }, token: stranger.accessToken })).status).toBe(403);
    expect((await call(`${w.base}/attempts/${attempt.id}/answers/nope`, { method: "PUT", body: { points: 1 }, token: w.teacher.accessToken })).status).toBe(404);

    // An open attempt (a second quiz with two attempts) is not graded yet.
    const open = { ...w.quiz, id: newId(), slug: `${w.quiz.slug}-2`, maxAttempts: 2 };
    await db().insert(s.quizzes).values(open);
    await db().insert(s.questions).values({ ...w.hook, id: newId(), quizId: open.id });
    const started = await startAttempt(w.ctx, w.as(w.ana), open.slug);
    const q = (await db().select().from(s.questions).where(eq(s.questions.quizId, open.id)))[0]!;
    expect((await call(`/api/quizzes/${open.slug}/attempts/${started.attempt._id}/answers/${q.id}`, { method: "PUT", body: { points: 1 }, token: w.teacher.accessToken })).status).toBe(409);
    expect((await w.attemptOf(w.ana)).overrides).toBeNull();
  });
});

describe("regrade after a key correction", () => {
  it("regrades every attempt: scores, best scores and progress follow, overrides stay, changed students are told", async () => {
    const w = await world();
    // Ana's override on the short answer must survive the regrade.
    const ana = await w.attemptOf(w.ana);
    expect((await call(`${w.base}/attempts/${ana.id}/answers/${w.why.id}`, { method: "PUT", body: { points: 1, note: "Half right" } , token: w.teacher.accessToken })).status).toBe(200);
    // Before: Ana 0 + 1 (override) = 1, Ben 2 + 3 = 5.
    expect([(await w.attemptOf(w.ana)).score, (await w.attemptOf(w.ben)).score]).toEqual([1, 5]);

    const res = await call(`${w.base}/questions/${w.hook.id}/key`, { method: "PUT", body: { correct: 0 }, token: w.teacher.accessToken });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ question: { correct: [0], points: 2 }, regraded: 2 });
    // After: Ana 2 + 1 = 3, Ben 0 + 3 = 3.
    expect([(await w.attemptOf(w.ana)).score, (await w.attemptOf(w.ben)).score]).toEqual([3, 3]);
    expect((await w.attemptOf(w.ana)).overrides?.[w.why.id]).toMatchObject({ points: 1, note: "Half right" });

    const rate = async (who: typeof w.ana) => ((await (await call(`/api/users/groups/${w.group.slug}/progress`, { token: who.accessToken })).json()) as { quizzes: { rate: number } }).quizzes.rate;
    expect([await rate(w.ana), await rate(w.ben)]).toEqual([60, 60]);
    expect(await notified(w.ben.user.id)).toEqual([expect.objectContaining({ score: 3, max: 5 })]);
    expect((await notified(w.ana.user.id)).at(-1)).toMatchObject({ score: 3, max: 5 });

    // The same key again changes nobody and tells nobody.
    const again = await call(`${w.base}/questions/${w.hook.id}/key`, { method: "PUT", body: { correct: 0 }, token: w.teacher.accessToken });
    expect(await again.json()).toMatchObject({ regraded: 0 });
    expect(await notified(w.ben.user.id)).toHaveLength(1);
  });

  it("follows a change of points, and refuses a key that does not fit the question, changing nothing", async () => {
    const w = await world();
    const worth = await call(`${w.base}/questions/${w.why.id}/key`, { method: "PUT", body: { correct: ["top level", "at the top"], points: 4 }, token: w.teacher.accessToken });
    expect(await worth.json()).toMatchObject({ question: { points: 4 } });
    // The quiz is now worth 2 + 4: Ben's right choice (2) and "top level" (now 4) make 6 of 6, Ana's none of them.
    expect(await w.attemptOf(w.ben)).toMatchObject({ score: 6, maxScore: 6 });
    expect(await w.attemptOf(w.ana)).toMatchObject({ score: 0, maxScore: 6 });

    for (const body of [{ correct: 5 }, { correct: [0, 1] }, { correct: "useState" }]) {
      const res = await call(`${w.base}/questions/${w.hook.id}/key`, { method: "PUT", body, token: w.teacher.accessToken });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const [hook] = await db().select().from(s.questions).where(eq(s.questions.id, w.hook.id));
    expect(hook!.correct).toEqual([1]);
    expect(await w.attemptOf(w.ben)).toMatchObject({ score: 6 });
  });
});
