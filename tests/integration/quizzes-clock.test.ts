/**
 * The server's clock for quizzes, with a fixed `now` passed to the services (the API passes Date.now()): the
 * deadline is min(start + duration, closesAt); answers arriving within 5 s after it count, a hand-in later than
 * that (accepted for 60 s) is graded on the answers saved in time; an attempt nobody hands in is closed and graded
 * 5 s after its deadline by the quiz's clock (a Durable Object alarm, run here in workerd), by any read that meets it
 * first, or by the daily cron, without a browser (quiz-integrity.test.ts has the attacks).
 */
import { createExecutionContext, createScheduledController, env, runDurableObjectAlarm, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import worker from "../../worker/index";
import type { QuizClock } from "../../worker/realtime/quiz-clock";
import { newId } from "../../worker/services/ids";
import { getQuiz, getResult, groupResults, listGroupQuizzes, saveAnswers, startAttempt, submitQuiz } from "../../worker/services/quizzes";
import type { Viewer } from "../../worker/services/sessions";
import { addMember, call, createGroup, createUser, signIn } from "./factories";
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
  /** Another student of the group. */
  const classmate = async () => {
    const u = await createUser();
    await addMember(u, group);
    return as(u, "user");
  };
  return { ctx: serviceContext().ctx, quiz: q, question, me: as(student, "user"), staff: as(teacher, "instructor"), group, classmate };
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

  it("closes an abandoned attempt 5 s after its deadline on the next read, and not while its answers still count", async () => {
    const w = await world({ durationMinutes: 10 });
    const { attempt } = await startAttempt(w.ctx, w.me, w.quiz.slug, T0);
    await saveAnswers(w.ctx, w.me, w.quiz.slug, { answers: { [w.question.id]: 1 } }, T0 + 2 * MIN);
    // Within 5 s of the deadline a read leaves it open (a save or the hand-in sent at zero may still be on its way).
    await groupResults(w.ctx, w.staff, w.group.slug, T0 + 10 * MIN + 5_000);
    expect((await row(attempt._id)).submittedAt).toBeNull();
    // After that, the staff's matrix (or any read) closes and grades it, dated at the deadline.
    const results = await groupResults(w.ctx, w.staff, w.group.slug, T0 + 10 * MIN + 6_000);
    expect(results.students[0]!.results[0]).toMatchObject({ best: 1, attempts: 1, inProgress: false });
    expect(await row(attempt._id)).toMatchObject({ score: 1, submittedAt: new Date(T0 + 10 * MIN) });
  });

  it("a 1-minute attempt nobody hands in: staff see it in progress, then graded 70 s in; the returning student gets the result, never Resume", async () => {
    const w = await world({ durationMinutes: 1 });
    const { attempt } = await startAttempt(w.ctx, w.me, w.quiz.slug, T0);
    await saveAnswers(w.ctx, w.me, w.quiz.slug, { answers: { [w.question.id]: 1 }, attemptId: attempt._id }, T0 + 20_000);
    // The tab is closed. While the attempt runs, staff see it in progress (not "Not taken").
    for (const at of [T0 + 30_000, T0 + 64_000]) {
      expect((await groupResults(w.ctx, w.staff, w.group.slug, at)).students[0]!.results[0]).toEqual({ quizId: w.quiz.id, best: null, bestAttemptId: null, attempts: 0, inProgress: true });
    }
    // 70 s after the start it is graded on what was saved.
    expect((await groupResults(w.ctx, w.staff, w.group.slug, T0 + 70_000)).students[0]!.results[0]).toEqual({ quizId: w.quiz.id, best: 1, bestAttemptId: expect.any(String), attempts: 1, inProgress: false });
    // The student comes back 1 min 40 s after the start: no attempt to resume, the graded result, 1 min recorded.
    const view = await getQuiz(w.ctx, w.me, w.quiz.slug, T0 + 100_000);
    expect(view).toMatchObject({ attempt: null, attemptsUsed: 1, bestScore: 1 });
    const result = await getResult(w.ctx, w.me, w.quiz.slug, T0 + 100_000);
    expect(result).toMatchObject({ inProgress: false, score: 1 });
    expect(result.attempts.map((a) => a.seconds)).toEqual([60]);
    // A hand-in arriving then (within the 60 s grace, with other answers) answers that result; it is not a new attempt.
    const late = await submitQuiz(w.ctx, w.me, w.quiz.slug, { answers: { [w.question.id]: 0 }, attemptId: attempt._id }, T0 + 100_000);
    expect(late).toMatchObject({ created: false, gradedOnSaved: true, attempt: { _id: attempt._id, score: 1, submittedAt: new Date(T0 + MIN).toISOString() } });
    // The same without the attempt's id (the spec's solve payload).
    const solve = await submitQuiz(w.ctx, w.me, w.quiz.slug, { answers: { [w.question.id]: 0 } }, T0 + 110_000);
    expect(solve).toMatchObject({ created: false, gradedOnSaved: true, attempt: { _id: attempt._id } });
    expect(await db().select().from(s.attempts).where(eq(s.attempts.quizId, w.quiz.id))).toHaveLength(1);
  });

  it("the time an attempt records never exceeds its limit, even for answers that arrive inside the 5 s allowance", async () => {
    const w = await world({ durationMinutes: 1 });
    const { attempt } = await startAttempt(w.ctx, w.me, w.quiz.slug, T0);
    const handedIn = await submitQuiz(w.ctx, w.me, w.quiz.slug, { answers: { [w.question.id]: 1 }, attemptId: attempt._id }, T0 + MIN + 4_000);
    expect(handedIn).toMatchObject({ created: true, gradedOnSaved: false, attempt: { score: 1 } });
    const seconds = (await getResult(w.ctx, w.me, w.quiz.slug, T0 + 2 * MIN)).attempts[0]!.seconds;
    expect(seconds).toBeLessThanOrEqual(60);
    // A hand-in 40 s late (inside the grace) records the minute too.
    const other = await w.classmate();
    const second = await startAttempt(w.ctx, other, w.quiz.slug, T0);
    await submitQuiz(w.ctx, other, w.quiz.slug, { answers: { [w.question.id]: 1 }, attemptId: second.attempt._id }, T0 + 100_000);
    expect((await getResult(w.ctx, other, w.quiz.slug, T0 + 2 * MIN)).attempts[0]!.seconds).toBe(60);
  });

  it("the quiz's clock (a Durable Object alarm) closes and grades an attempt nobody reads 5 s after its deadline, then rings for the next", async () => {
    // The alarm runs at workerd's real clock, so the attempts start now and the test moves the first one's times back.
    const w = await world({ durationMinutes: 1 });
    const other = await w.classmate();
    const first = await startAttempt(w.ctx, w.me, w.quiz.slug);
    await saveAnswers(w.ctx, w.me, w.quiz.slug, { answers: { [w.question.id]: 1 }, attemptId: first.attempt._id });
    const second = await startAttempt(w.ctx, other, w.quiz.slug, Date.now() + 20_000);
    const clocks = (env as unknown as { QuizClock: DurableObjectNamespace<QuizClock> }).QuizClock;
    const clock = clocks.get(clocks.idFromName(w.quiz.id));
    const ringsAt = () => runInDurableObject(clock, (_instance: QuizClock, state) => state.storage.getAlarm());
    // Set by the start: the first millisecond after the 5 s in which answers still count (the second one rings later).
    expect((await ringsAt())! - Date.parse(first.attempt.deadline!)).toBe(5_001);

    // Time passes: the first attempt started 66 s ago, its minute ended 6 s ago. Nobody reads anything.
    const now = Date.now();
    await db()
      .update(s.attempts)
      .set({ startedAt: new Date(now - 66_000), deadlineAt: new Date(now - 6_000), savedAt: new Date(now - 40_000) })
      .where(eq(s.attempts.id, first.attempt._id));
    expect(await runDurableObjectAlarm(clock)).toBe(true);
    expect(await row(first.attempt._id)).toMatchObject({ score: 1, maxScore: 1, submittedAt: new Date(now - 6_000) });
    // The other attempt is still running, and the clock now rings for it.
    expect((await row(second.attempt._id)).submittedAt).toBeNull();
    expect((await ringsAt())! - Date.parse(second.attempt.deadline!)).toBe(5_001);
    // Staff see one graded, one in progress.
    const results = await groupResults(w.ctx, w.staff, w.group.slug);
    const cell = (id: string) => results.students.find((st) => st._id === id)!.results[0];
    expect(cell(w.me.userId)).toEqual({ quizId: w.quiz.id, best: 1, bestAttemptId: expect.any(String), attempts: 1, inProgress: false });
    expect(cell(other.userId)).toEqual({ quizId: w.quiz.id, best: null, bestAttemptId: null, attempts: 0, inProgress: true });
    // Once nothing is open, the clock rings no more.
    await db().update(s.attempts).set({ deadlineAt: new Date(Date.now() - 6_000) }).where(eq(s.attempts.id, second.attempt._id));
    expect(await runDurableObjectAlarm(clock)).toBe(true);
    expect((await row(second.attempt._id)).submittedAt).not.toBeNull();
    expect(await ringsAt()).toBeNull();
  });

  it("through the pages: a student back after the deadline is never offered Resume, and sees the graded result", async () => {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const group = await createGroup({ instructorId: teacher.user.id });
    const student = await signIn(await createUser());
    await addMember(student.user, group);
    const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: "Hooks", published: true }, token: teacher.accessToken })).json()) as { slug: string };
    const made = await call("/api/quizzes", {
      body: { lectureId: lecture.slug, title: "One minute", durationMinutes: 1, maxAttempts: 2, published: true, questions: [{ text: "2 + 2?", type: "single", options: ["3", "4"], correct: 1 }] },
      token: teacher.accessToken,
    });
    const quiz = (await made.json()) as { slug: string; questions: { _id: string }[] };
    const started = (await (await call(`/api/quizzes/${quiz.slug}/start`, { method: "POST", token: student.accessToken })).json()) as { attempt: { _id: string } };
    await call(`/api/quizzes/${quiz.slug}/answers`, { method: "PUT", body: { answers: { [quiz.questions[0]!._id]: 1 }, attemptId: started.attempt._id }, token: student.accessToken });
    const base = `/course/${group.slug}/lecture/${lecture.slug}/quiz/${quiz.slug}`;
    // The words as rendered (the page's data carries every message of the language, so a bare search would find them).
    const page = async (path: string) => (await call(path, { cookie: student.cookie })).text();
    const running = (await page(base)).replace(/<!-- -->/g, "");
    expect(running).toContain(">Resume your attempt</button>");
    // A running attempt is said as such: not "before you start", not "1 of 2 used", and when it ends.
    expect(running).toContain("<strong>Your attempt is in progress</strong><span>It ends: <time");
    expect(running).toContain(">Attempt 1 of 2, in progress</dd>");
    expect(running).toContain(">While you answer</h2>");
    expect(running).not.toContain(">Before you start</h2>");
    // On a phone's one column the Resume card comes first (quizzes.css keys on this).
    expect(running).toMatch(/<aside class="card quiz-card quiz-action-card" aria-live="polite" data-running="true">/);
    const runningAr = (await (await call(base, { cookie: `${student.cookie}; lang=ar` })).text()).replace(/<!-- -->/g, "");
    expect(runningAr).toContain("<strong>محاولتك جارية</strong><span>تنتهي: <time");
    expect(runningAr).toContain(">المحاولة 1 من 2، جارية</dd>");
    expect(runningAr).toContain(">أثناء الإجابة</h2>");
    // 2 s after the deadline (still inside the allowance): the server is handing it in; nothing to resume.
    await db().update(s.attempts).set({ deadlineAt: new Date(Date.now() - 2_000) }).where(eq(s.attempts.id, started.attempt._id));
    const handingIn = await page(base);
    expect(handingIn).not.toContain(">Resume your attempt<");
    expect(handingIn).toContain(">Your time is up. The server is handing in the answers you saved in time");
    // 40 s after it: graded; the intro and the result say so, in both languages, with no Resume anywhere.
    await db().update(s.attempts).set({ deadlineAt: new Date(Date.now() - 40_000) }).where(eq(s.attempts.id, started.attempt._id));
    const intro = await page(base);
    expect(intro).not.toContain(">Resume your attempt<");
    expect(intro).toContain(">See your result</a>");
    expect(intro).toContain(">Before you start</h2>");
    expect(intro).not.toContain("in progress");
    expect(intro).not.toContain("data-running");
    const result = await page(`${base}/result`);
    expect(result).not.toContain(">Resume your attempt<");
    expect(result.replace(/<!-- -->/g, "")).toMatch(/<span dir="ltr"><strong>1<\/strong><span class="quiz-score-max"> \/ 1<\/span><\/span>/);
    const arabic = await (await call(`${base}/result`, { cookie: `${student.cookie}; lang=ar` })).text();
    expect(arabic).not.toContain(">أكمل محاولتك<");
    expect(arabic).toContain(">أفضل درجة لك</h2>");
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

  it("a student's list counts their own attempts only: handed in, best score, and the one still running", async () => {
    const w = await world({ durationMinutes: 10 });
    const first = await startAttempt(w.ctx, w.me, w.quiz.slug, T0);
    await submitQuiz(w.ctx, w.me, w.quiz.slug, { answers: { [w.question.id]: 1 }, attemptId: first.attempt._id }, T0 + MIN);
    // A classmate's three attempts (one right) never show in this student's list.
    const mate = await w.classmate();
    for (let i = 0; i < 3; i++) {
      const theirs = await startAttempt(w.ctx, mate, w.quiz.slug, T0 + i * 20 * MIN);
      await submitQuiz(w.ctx, mate, w.quiz.slug, { answers: { [w.question.id]: i === 0 ? 1 : 0 }, attemptId: theirs.attempt._id }, T0 + i * 20 * MIN + MIN);
    }
    await startAttempt(w.ctx, w.me, w.quiz.slug, T0 + 2 * MIN);
    const [mine] = await listGroupQuizzes(w.ctx, w.me, w.group.slug, T0 + 3 * MIN);
    expect(mine!.mine).toEqual({ attempts: 1, inProgress: true, bestScore: 1 });
    // Nine minutes later the second attempt's 10 minutes (and the 5 s allowance) are over: the read closes it, on
    // nothing saved, so it counts as handed in with 0 and the best stays 1.
    const [later] = await listGroupQuizzes(w.ctx, w.me, w.group.slug, T0 + 12 * MIN + 6_000);
    expect(later!.mine).toEqual({ attempts: 2, inProgress: false, bestScore: 1 });
    const [theirs] = await listGroupQuizzes(w.ctx, mate, w.group.slug, T0 + 60 * MIN);
    expect(theirs!.mine).toEqual({ attempts: 3, inProgress: false, bestScore: 1 });
    // Staff have no attempts of their own in the list.
    expect((await listGroupQuizzes(w.ctx, w.staff, w.group.slug, T0 + 60 * MIN))[0]!.mine).toBeNull();
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
