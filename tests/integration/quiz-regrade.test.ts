/**
 * Manual override and regrade (issue 21): staff give one answer other points (with a note the student reads in the
 * review), and correct a question's key after students answered, which regrades every handed-in attempt. Stored
 * scores, best scores and progress follow; students whose best score changed are notified; overrides survive.
 */
import { and, eq } from "drizzle-orm";
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { newId } from "../../worker/services/ids";
import { getResult, startAttempt, submitQuiz } from "../../worker/services/quizzes";
import { correctKey, setAnswerPoints } from "../../worker/services/quiz-regrade";
import { addMember, call, createGroup, createUser, signIn, viewerOf } from "./factories";
import { db, gatedContext, serviceContext } from "./helpers";

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
  const as = (u: typeof ana) => viewerOf(u.user, "regrade");
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

  it("keeps every override when staff change two answers of one attempt at the same moment", async () => {
    const w = await world();
    const attempt = await w.attemptOf(w.ana);
    const put = (questionId: string, points: number) => call(`${w.base}/attempts/${attempt.id}/answers/${questionId}`, { method: "PUT", body: { points, note: `n${points}` }, token: w.teacher.accessToken });
    const both = await Promise.all([put(w.hook.id, 1), put(w.why.id, 3)]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    const stored = await w.attemptOf(w.ana);
    expect(Object.keys(stored.overrides ?? {}).sort()).toEqual([w.hook.id, w.why.id].sort());
    // Both counted: 1 + 3.
    expect(stored.score).toBe(4);
  });

  it("an override and a key correction that cross each other both count in the stored score, in either order", async () => {
    // Ben answered both questions right under the old key (2 + 3). The key of the hook question is corrected to
    // "useState" (Ben's "useEffect" becomes wrong: 0) while staff give his rule-of-hooks answer 2 of its 3 points by
    // hand: whatever the order, his score is 0 + 2.
    for (const order of ["override read first", "key read first"] as const) {
      const w = await world();
      const attempt = await w.attemptOf(w.ben);
      const staff = viewerOf(w.teacher.user, "regrade");
      const override = (ctx: typeof w.ctx) => setAnswerPoints(ctx, staff, w.quiz.slug, attempt.id, w.why.id, { points: 2, note: "Close" });
      const key = (ctx: typeof w.ctx) => correctKey(ctx, staff, w.quiz.slug, w.hook.id, { correct: [0] });
      if (order === "override read first") {
        // The override has read the attempt and the key; the correction lands before it writes.
        await override(gatedContext(/^update "attempts"/, () => key(serviceContext().ctx)));
      } else {
        // The correction has read every attempt; the override lands before its batch is written.
        await key(gatedContext("batch", () => override(serviceContext().ctx)));
      }
      expect((await w.attemptOf(w.ben)).score, order).toBe(2);
      const view = (await (await call(`${w.base}/attempts/${attempt.id}`, { token: w.teacher.accessToken })).json()) as { score: number; questions: { earned: number }[] };
      expect(view.questions.map((q) => q.earned), order).toEqual([0, 2]);
    }
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

  it("shows an override at what it counts when the question's points go down under it", async () => {
    const w = await world();
    const attempt = await w.attemptOf(w.ana);
    expect((await call(`${w.base}/attempts/${attempt.id}/answers/${w.why.id}`, { method: "PUT", body: { points: 3, note: "Fair" }, token: w.teacher.accessToken })).status).toBe(200);
    expect((await call(`${w.base}/questions/${w.why.id}/key`, { method: "PUT", body: { correct: ["top level"], points: 1 }, token: w.teacher.accessToken })).status).toBe(200);
    const staff = (await (await call(`${w.base}/attempts/${attempt.id}`, { token: w.teacher.accessToken })).json()) as { questions: { _id: string; earned: number; override: { points: number } | null }[] };
    expect(staff.questions.find((q) => q._id === w.why.id)).toMatchObject({ earned: 1, override: { points: 1 } });
    const review = (await getResult(w.ctx, w.as(w.ana), w.quiz.slug)).review!.questions.find((q) => q._id === w.why.id);
    expect(review).toMatchObject({ earned: 1, override: { points: 1, note: "Fair" } });
  });
});

describe("on each attempt's own paper (shuffled and drawn questions)", () => {
  /**
   * A quiz that shuffles its questions and their options and draws one question from the bank: every paper differs,
   * and a student's choice is stored at its place on their paper. Five questions, each with one right option among
   * four, all answered right by reading the paper as the student was given it (GET /api/quizzes/{id}).
   */
  async function shuffled() {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const group = await createGroup({ instructorId: teacher.user.id });
    const student = await signIn(await createUser());
    await addMember(student.user, group);
    const lecture = { id: newId(), groupId: group.id, slug: `l-${group.slug}`, title: "Week 1", body: "", order: 1, published: true };
    await db().insert(s.lectures).values(lecture);
    const quiz = { id: newId(), lectureId: lecture.id, groupId: group.id, slug: `mix-${group.slug}`, title: "Mixed", durationMinutes: null, maxAttempts: 1, showAnswers: "after-submit" as const, published: true, shuffleQuestions: true, shuffleOptions: true, draws: [{ tag: "hooks", count: 1, points: 2 }] };
    await db().insert(s.quizzes).values(quiz);
    const own = [0, 1, 2, 3].map((n) => ({ id: newId(), quizId: quiz.id, text: `Question ${n}`, type: "single" as const, options: [`right ${n}`, `wrong ${n}a`, `wrong ${n}b`, `wrong ${n}c`], correct: [0], points: 1, order: n }));
    await db().insert(s.questions).values(own);
    const banked = { id: newId(), groupId: group.id, text: "Banked", type: "single" as const, options: ["right b", "wrong ba", "wrong bb", "wrong bc"], correct: [0], points: 1, tags: ["hooks"], updatedAt: new Date() };
    await db().insert(s.bankQuestions).values(banked);
    const base = `/api/quizzes/${quiz.slug}`;
    expect((await call(`${base}/start`, { method: "POST", token: student.accessToken })).status).toBe(201);
    const paper = (await (await call(base, { token: student.accessToken })).json()) as { questions: { _id: string; options: string[] }[] };
    expect(paper.questions).toHaveLength(5);
    const answers = Object.fromEntries(paper.questions.map((q) => [q._id, q.options.findIndex((o) => o.startsWith("right"))]));
    // The papers must move options for this test to mean anything: some right answer is not in the first place.
    expect(Object.values(answers).some((i) => i !== 0)).toBe(true);
    const submitted = await call(`${base}/submit`, { method: "POST", body: { answers }, token: student.accessToken });
    expect(submitted.status).toBe(201);
    const [attempt] = await db().select().from(s.attempts).where(eq(s.attempts.quizId, quiz.id));
    expect(attempt!.score).toBe(6);
    return { teacher, student, base, own, banked, attempt: attempt!, answers };
  }

  it("an override on one answer keeps the rest of the paper's score, and works on a drawn question", async () => {
    const w = await shuffled();
    const one = await call(`${w.base}/attempts/${w.attempt.id}/answers/${w.own[0]!.id}`, { method: "PUT", body: { points: 1, note: "fine" }, token: w.teacher.accessToken });
    expect(one.status).toBe(200);
    expect(await one.json()).toMatchObject({ score: 6, maxScore: 6 });
    const cleared = await call(`${w.base}/attempts/${w.attempt.id}/answers/${w.own[0]!.id}`, { method: "PUT", body: { points: null }, token: w.teacher.accessToken });
    expect(await cleared.json()).toMatchObject({ score: 6 });
    // The drawn question exists only on the paper: half its points by hand.
    const drawn = await call(`${w.base}/attempts/${w.attempt.id}/answers/${w.banked.id}`, { method: "PUT", body: { points: 1, note: "half" }, token: w.teacher.accessToken });
    expect(drawn.status).toBe(200);
    expect(await drawn.json()).toMatchObject({ score: 5 });
    expect(await notified(w.student.user.id)).toEqual([expect.objectContaining({ score: 5, max: 6 })]);
  });

  it("a key saved again regrades nobody, and a corrected key moves only the answers it concerns", async () => {
    const w = await shuffled();
    const same = await call(`${w.base}/questions/${w.own[1]!.id}/key`, { method: "PUT", body: { correct: 0 }, token: w.teacher.accessToken });
    expect(await same.json()).toMatchObject({ regraded: 0 });
    expect((await db().select().from(s.attempts).where(eq(s.attempts.id, w.attempt.id)))[0]!.score).toBe(6);
    // Option 1 as written ("wrong 1a") becomes the key: that one answer is now wrong, 5 of 6.
    const moved = await call(`${w.base}/questions/${w.own[1]!.id}/key`, { method: "PUT", body: { correct: 1 }, token: w.teacher.accessToken });
    expect(await moved.json()).toMatchObject({ regraded: 1 });
    expect((await db().select().from(s.attempts).where(eq(s.attempts.id, w.attempt.id)))[0]!.score).toBe(5);
    expect(await notified(w.student.user.id)).toEqual([expect.objectContaining({ score: 5, max: 6 })]);
  });

  it("the staff's view shows each answer at its option as written, beside the key, in the paper's order", async () => {
    const w = await shuffled();
    const res = await call(`${w.base}/attempts/${w.attempt.id}`, { token: w.teacher.accessToken });
    expect(res.status).toBe(200);
    const view = (await res.json()) as { questions: { _id: string; options: string[]; answer: unknown; correct: unknown[]; right: boolean; drawn: boolean }[] };
    expect(view.questions).toHaveLength(5);
    for (const q of view.questions) {
      expect(q.right).toBe(true);
      // Own questions as written: the choice sits on "right n", which is option 0 there, and so is the key.
      if (!q.drawn) expect({ option: q.options[q.answer as number], answer: q.answer, correct: q.correct }).toEqual({ option: expect.stringMatching(/^right /), answer: 0, correct: [0] });
    }
    expect(view.questions.filter((q) => q.drawn).map((q) => q._id)).toEqual([w.banked.id]);
  });
});

describe("a question drawn from the bank, its key corrected after students answered", () => {
  /**
   * A quiz with one question of its own (1 point) that draws one question tagged "hooks" from the bank (2 points),
   * its options shuffled per student. The bank's question says "useEffect" keeps state: wrong, "useState" is right.
   * Ana and Ben answer "useState" and hand in (1 of 3 each); Cara starts and is still answering.
   */
  async function drawnWorld() {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const group = await createGroup({ instructorId: teacher.user.id });
    const [ana, ben, cara] = [await signIn(await createUser()), await signIn(await createUser()), await signIn(await createUser())];
    for (const u of [ana, ben, cara]) await addMember(u.user, group);
    const lecture = { id: newId(), groupId: group.id, slug: `l-${group.slug}`, title: "Week 1", body: "", order: 1, published: true };
    await db().insert(s.lectures).values(lecture);
    const quiz = { id: newId(), lectureId: lecture.id, groupId: group.id, slug: `drawn-${group.slug}`, title: "Drawn", durationMinutes: null, maxAttempts: 1, showAnswers: "after-submit" as const, published: true, shuffleOptions: true, draws: [{ tag: "hooks", count: 1, points: 2 }] };
    await db().insert(s.quizzes).values(quiz);
    const own = { id: newId(), quizId: quiz.id, text: "Is JSX JavaScript?", type: "true-false" as const, options: ["True", "False"], correct: [0], points: 1, order: 0 };
    await db().insert(s.questions).values(own);
    const banked = { id: newId(), groupId: group.id, text: "Which hook keeps state?", type: "single" as const, options: ["useState", "useEffect", "useRef", "useMemo"], correct: [1], points: 1, tags: ["hooks"], updatedAt: new Date() };
    await db().insert(s.bankQuestions).values(banked);
    const base = `/api/quizzes/${quiz.slug}`;
    /** Starts the quiz as `who` and answers as they saw it: "useState" for the drawn question, True for their own. */
    const answersOf = async (who: typeof ana) => {
      expect((await call(`${base}/start`, { method: "POST", token: who.accessToken })).status).toBe(201);
      const paper = (await (await call(base, { token: who.accessToken })).json()) as { questions: { _id: string; options: string[] }[] };
      const drawn = paper.questions.find((q) => q._id === banked.id)!;
      return { [own.id]: 0, [banked.id]: drawn.options.indexOf("useState") };
    };
    for (const who of [ana, ben]) expect((await call(`${base}/submit`, { method: "POST", body: { answers: await answersOf(who) }, token: who.accessToken })).status).toBe(201);
    const caraAnswers = await answersOf(cara);
    const attemptOf = async (who: typeof ana) => (await db().select().from(s.attempts).where(and(eq(s.attempts.quizId, quiz.id), eq(s.attempts.userId, who.user.id))))[0]!;
    const copyIn = async (who: typeof ana) => (await attemptOf(who)).paper!.drawn.find((d) => d.id === banked.id)!;
    const bankRow = async () => (await db().select().from(s.bankQuestions).where(eq(s.bankQuestions.id, banked.id)))[0];
    expect([(await attemptOf(ana)).score, (await attemptOf(ben)).score]).toEqual([1, 1]);
    return { teacher, group, ana, ben, cara, quiz, own, banked, base, caraAnswers, attemptOf, copyIn, bankRow };
  }

  it("is corrected on every paper that drew it and in the bank; handed-in attempts are regraded, an open one is graded on the new key", async () => {
    const w = await drawnWorld();
    const ana = await w.attemptOf(w.ana);
    const res = await call(`${w.base}/questions/${w.banked.id}/key`, { method: "PUT", body: { correct: 0, attemptId: ana.id }, token: w.teacher.accessToken });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ question: { _id: w.banked.id, correct: [0], points: 2 }, regraded: 2, bank: "corrected" });
    // 1 + 2 of 3 each, and each is told.
    expect([(await w.attemptOf(w.ana)).score, (await w.attemptOf(w.ben)).score]).toEqual([3, 3]);
    expect(await notified(w.ana.user.id)).toEqual([expect.objectContaining({ quiz: "Drawn", score: 3, max: 3 })]);
    expect(await notified(w.ben.user.id)).toEqual([expect.objectContaining({ score: 3, max: 3 })]);
    // The copies keep the options as drawn, in the bank's order; only the key moved.
    for (const who of [w.ana, w.ben, w.cara]) expect(await w.copyIn(who)).toMatchObject({ options: w.banked.options, correct: [0], points: 2 });
    expect((await w.bankRow())!.correct).toEqual([0]);

    // Cara, still answering, is graded on the corrected copy when she hands in.
    expect((await call(`${w.base}/submit`, { method: "POST", body: { answers: w.caraAnswers }, token: w.cara.accessToken })).status).toBe(201);
    expect((await w.attemptOf(w.cara)).score).toBe(3);
    // Her review shows the key as corrected, at its place on her paper.
    const review = (await (await call(`${w.base}/result`, { token: w.cara.accessToken })).json()) as { review: { questions: { _id: string; options: string[]; correct: number[] }[] } };
    const reviewed = review.review.questions.find((q) => q._id === w.banked.id)!;
    expect(reviewed.correct.map((i) => reviewed.options[i])).toEqual(["useState"]);

    // The staff's view shows the drawn question's options as written, the choice and the key at "useState".
    const view = (await (await call(`${w.base}/attempts/${ana.id}`, { token: w.teacher.accessToken })).json()) as { questions: { _id: string; options: string[]; answer: number; correct: number[]; right: boolean; drawn: boolean }[] };
    expect(view.questions.find((q) => q._id === w.banked.id)).toMatchObject({ options: w.banked.options, answer: 0, correct: [0], right: true, drawn: true });

    // The same key again regrades nobody.
    const again = await call(`${w.base}/questions/${w.banked.id}/key`, { method: "PUT", body: { correct: [0] }, token: w.teacher.accessToken });
    expect(await again.json()).toMatchObject({ regraded: 0, bank: "corrected" });
    expect(await notified(w.ana.user.id)).toHaveLength(1);
  });

  it("corrects only the copies of the question as the named attempt drew it when the bank was edited between draws", async () => {
    const w = await drawnWorld();
    // The bank's question gets a fifth option after Ana, Ben and Cara drew it; Dina draws the new one.
    await db().update(s.bankQuestions).set({ options: [...w.banked.options, "useReducer"] }).where(eq(s.bankQuestions.id, w.banked.id));
    const dina = await signIn(await createUser());
    await addMember(dina.user, w.group);
    expect((await call(`${w.base}/start`, { method: "POST", token: dina.accessToken })).status).toBe(201);
    expect((await w.copyIn(dina)).options).toHaveLength(5);

    const ana = await w.attemptOf(w.ana);
    const res = await call(`${w.base}/questions/${w.banked.id}/key`, { method: "PUT", body: { correct: 0, attemptId: ana.id }, token: w.teacher.accessToken });
    expect(await res.json()).toMatchObject({ regraded: 2, bank: "changed" });
    for (const who of [w.ana, w.ben, w.cara]) expect((await w.copyIn(who)).correct).toEqual([0]);
    // Dina's copy (another version) and the bank (edited since) keep their key.
    expect((await w.copyIn(dina)).correct).toEqual([1]);
    expect((await w.bankRow())!.correct).toEqual([1]);

    // Without an attempt named, the newest copy is meant: Dina's, which is the bank's question as it now is.
    const newest = await call(`${w.base}/questions/${w.banked.id}/key`, { method: "PUT", body: { correct: 4 }, token: w.teacher.accessToken });
    expect(await newest.json()).toMatchObject({ question: { correct: [4] }, regraded: 0, bank: "corrected" });
    expect((await w.copyIn(dina)).correct).toEqual([4]);
    expect((await w.copyIn(w.ana)).correct).toEqual([0]);
    expect((await w.bankRow())!.correct).toEqual([4]);

    // Deleted from the bank: the papers are still corrected, and the answer says the bank had nothing to correct.
    await db().delete(s.bankQuestions).where(eq(s.bankQuestions.id, w.banked.id));
    const gone = await call(`${w.base}/questions/${w.banked.id}/key`, { method: "PUT", body: { correct: 2, attemptId: ana.id }, token: w.teacher.accessToken });
    expect(await gone.json()).toMatchObject({ regraded: 2, bank: "gone" });
    expect([(await w.attemptOf(w.ana)).score, (await w.attemptOf(w.ben)).score]).toEqual([1, 1]);
  });

  it("refuses other points than the draw's, a key that does not fit, an attempt not given it, an unknown question and anyone else, changing nothing", async () => {
    const w = await drawnWorld();
    const ana = await w.attemptOf(w.ana);
    const put = (body: unknown, token = w.teacher.accessToken, question = w.banked.id) => call(`${w.base}/questions/${question}/key`, { method: "PUT", body, token });

    const points = await put({ correct: 0, points: 5 });
    expect(points.status).toBe(400);
    expect(((await points.json()) as { message: string }).message).toContain("2 points");
    expect((await put({ correct: 0, points: 2 })).status).toBe(200);
    // Back to the wrong key for the refusals below.
    expect((await put({ correct: 1 })).status).toBe(200);

    for (const body of [{ correct: 4 }, { correct: [0, 1] }, { correct: "useState" }, { correct: 0, attemptId: "not an id!" }]) expect((await put(body)).status, JSON.stringify(body)).toBe(400);
    // An attempt of another quiz, or none at all, was not given this question.
    expect((await put({ correct: 0, attemptId: newId() })).status).toBe(404);
    expect((await put({ correct: 0 }, w.teacher.accessToken, newId())).status).toBe(404);

    const stranger = await signIn(await createUser({ role: "instructor" }));
    expect((await put({ correct: 0, attemptId: ana.id }, stranger.accessToken)).status).toBe(403);
    expect((await put({ correct: 0, attemptId: ana.id }, w.ana.accessToken)).status).toBe(403);
    expect((await call(`${w.base}/questions/${w.banked.id}/key`, { method: "PUT", body: { correct: 0 } })).status).toBe(401);

    for (const who of [w.ana, w.ben, w.cara]) expect((await w.copyIn(who)).correct).toEqual([1]);
    expect((await w.bankRow())!.correct).toEqual([1]);
    expect([(await w.attemptOf(w.ana)).score, (await w.attemptOf(w.ben)).score]).toEqual([1, 1]);
  });
});

describe("key corrections sent at once", () => {
  it("land one after another: the stored score is the paper graded on every corrected key", async () => {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const group = await createGroup({ instructorId: teacher.user.id });
    const ana = await signIn(await createUser());
    await addMember(ana.user, group);
    const lecture = { id: newId(), groupId: group.id, slug: `l-${group.slug}`, title: "Week 1", body: "", order: 1, published: true };
    await db().insert(s.lectures).values(lecture);
    const quiz = { id: newId(), lectureId: lecture.id, groupId: group.id, slug: `many-${group.slug}`, title: "Many", durationMinutes: null, maxAttempts: 1, showAnswers: "after-submit" as const, published: true, shuffleOptions: true, draws: [{ tag: "t", count: 4, points: 2 }] };
    await db().insert(s.quizzes).values(quiz);
    // Four bank questions, each keyed wrong ("no"); Ana answers "yes" to each.
    const bank = [0, 1, 2, 3].map((n) => ({ id: newId(), groupId: group.id, text: `Question ${n}`, type: "single" as const, options: ["yes", "no", "maybe"], correct: [1], points: 1, tags: ["t"], updatedAt: new Date() }));
    await db().insert(s.bankQuestions).values(bank);
    const base = `/api/quizzes/${quiz.slug}`;
    expect((await call(`${base}/start`, { method: "POST", token: ana.accessToken })).status).toBe(201);
    const paper = (await (await call(base, { token: ana.accessToken })).json()) as { questions: { _id: string; options: string[] }[] };
    const answers = Object.fromEntries(paper.questions.map((q) => [q._id, q.options.indexOf("yes")]));
    expect((await call(`${base}/submit`, { method: "POST", body: { answers }, token: ana.accessToken })).status).toBe(201);
    const [attempt] = await db().select().from(s.attempts).where(eq(s.attempts.quizId, quiz.id));
    expect(attempt!.score).toBe(0);

    const sent = await Promise.all(bank.map((q) => call(`${base}/questions/${q.id}/key`, { method: "PUT", body: { correct: 0, attemptId: attempt!.id }, token: teacher.accessToken })));
    expect(sent.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const [after] = await db().select().from(s.attempts).where(eq(s.attempts.id, attempt!.id));
    // Every key is "yes" now: 4 questions of 2 points, all right.
    expect(after!.paper!.drawn.map((d) => d.correct)).toEqual([[0], [0], [0], [0]]);
    expect(after!.score).toBe(8);
    const view = (await (await call(`${base}/attempts/${attempt!.id}`, { token: teacher.accessToken })).json()) as { score: number; questions: { earned: number }[] };
    expect(view.questions.reduce((n, q) => n + q.earned, 0)).toBe(view.score);
  });
});
