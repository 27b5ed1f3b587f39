/**
 * Extensions (issue 21): staff give one student (or several) a later due time on a task, or a later close, extra
 * minutes or extra attempts on a quiz. The student's screens, the server's checks, the late rules and progress follow
 * the exception; the other students keep the original times; answers shown after the close wait for the extension.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { newId } from "../../worker/services/ids";
import { getQuiz, getResult, startAttempt, submitQuiz } from "../../worker/services/quizzes";
import { addMember, call, createGroup, createUser, signIn, type SignedIn, viewerOf } from "./factories";
import { db, serviceContext, unique } from "./helpers";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MIN = 60_000;

async function taskWorld(task: { dueAt: number; allowLate?: boolean; latePenaltyPerDay?: number }) {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const [given, other] = [await signIn(await createUser()), await signIn(await createUser())];
  await addMember(given.user, group);
  await addMember(other.user, group);
  const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: unique("Week"), published: true }, token: teacher.accessToken })).json()) as { slug: string };
  const made = await call(`/api/lectures/${lecture.slug}/tasks`, {
    body: { title: unique("Portfolio"), maxScore: 100, dueAt: new Date(task.dueAt).toISOString(), allowLate: task.allowLate ?? true, latePenaltyPerDay: task.latePenaltyPerDay ?? 0 },
    token: teacher.accessToken,
  });
  expect(made.status).toBe(201);
  const t = (await made.json()) as { _id: string; slug: string };
  const base = `/api/lectures/${lecture.slug}/tasks/${t.slug}`;
  const extend = (body: unknown, token = teacher.accessToken) => call(`${base}/extensions`, { method: "PUT", body, token });
  const handIn = (who: SignedIn) => call(`/api/lectures/${lecture.slug}/submit-task/${t.slug}`, { body: { link: "https://github.com/me/portfolio" }, token: who.accessToken });
  return { teacher, group, given, other, lecture, task: t, base, extend, handIn };
}

describe("task extensions", () => {
  it("lets the extended student hand in on time after the task's due time, while the others are late or refused", async () => {
    const w = await taskWorld({ dueAt: Date.now() - 2 * HOUR, allowLate: false });
    const due = new Date(Date.now() + 2 * DAY).toISOString();
    const res = await w.extend({ userIds: [w.given.user.id], dueAt: due });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject([{ user: { _id: w.given.user.id }, dueAt: due }]);

    // The student's reads say their own time, with the task's own beside it; the others' and staff's say the task's.
    const mine = (await (await call(`${w.base}`, { token: w.given.accessToken })).json()) as { dueAt: string; extendedFrom: string | null };
    expect(mine.dueAt).toBe(due);
    expect(mine.extendedFrom).not.toBeNull();
    const theirs = (await (await call(`${w.base}`, { token: w.other.accessToken })).json()) as { dueAt: string; extendedFrom: string | null };
    expect(theirs.extendedFrom).toBeNull();
    expect(theirs.dueAt).toBe(mine.extendedFrom);
    const listed = (await (await call(`/api/lectures/groups/${w.group.slug}/tasks`, { token: w.given.accessToken })).json()) as { dueAt: string }[];
    expect(listed[0]!.dueAt).toBe(due);

    // The server's check follows: on time for them, refused for the other (the task takes no late work).
    const handed = await w.handIn(w.given);
    expect(handed.status).toBe(201);
    expect(((await handed.json()) as { submission: { late: boolean; state: string } }).submission).toMatchObject({ late: false, state: "submitted" });
    expect((await w.handIn(w.other)).status).toBe(409);

    // A notification told them.
    const [note] = await db().select().from(s.notifications).where(and(eq(s.notifications.userId, w.given.user.id), eq(s.notifications.kind, "extension-granted")));
    expect(note?.params).toMatchObject({ work: expect.any(String) });
  });

  it("counts the late penalty from the student's own due time", async () => {
    // Due 3 days ago at 10 % a day; the student's own time ran out 20 hours ago: one started day late, not three.
    const w = await taskWorld({ dueAt: Date.now() - 3 * DAY, latePenaltyPerDay: 10 });
    expect((await w.extend({ userIds: [w.given.user.id], dueAt: new Date(Date.now() - 20 * HOUR).toISOString() })).status).toBe(200);
    const handed = (await (await w.handIn(w.given)).json()) as { submission: { _id: string; late: boolean; latePenalty: { days: number; percent: number } } };
    expect(handed.submission).toMatchObject({ late: true, latePenalty: { days: 1, percent: 10 } });
    const graded = await call(`${w.base}/submissions/${handed.submission._id}`, { method: "PUT", body: { score: 80 }, token: w.teacher.accessToken });
    expect(await graded.json()).toMatchObject({ rawScore: 80, score: 72, latePenalty: { days: 1, percent: 10 } });
  });

  it("keeps work not yet due for the extended student out of their progress, while it counts 0 for the others", async () => {
    const w = await taskWorld({ dueAt: Date.now() - HOUR });
    expect((await w.extend({ userIds: [w.given.user.id], dueAt: new Date(Date.now() + DAY).toISOString() })).status).toBe(200);
    const progress = async (who: SignedIn) => ((await (await call(`/api/users/groups/${w.group.slug}/progress`, { token: who.accessToken })).json()) as { tasks: { counted: number; rate: number | null } }).tasks;
    expect(await progress(w.other)).toMatchObject({ counted: 1, rate: 0 });
    expect(await progress(w.given)).toMatchObject({ counted: 0, rate: null });
    // The staff's view of the same students agrees.
    const staff = (await (await call(`/api/groups/${w.group.slug}/progress`, { token: w.teacher.accessToken })).json()) as { students: { _id: string; progress: { tasks: { counted: number } } }[] };
    const counted = Object.fromEntries(staff.students.map((r) => [r._id, r.progress.tasks.counted]));
    expect(counted).toEqual({ [w.given.user.id]: 0, [w.other.user.id]: 1 });

    // Taken back: the task's time is theirs again.
    expect((await call(`${w.base}/extensions/${w.given.user.id}`, { method: "DELETE", token: w.teacher.accessToken })).status).toBe(200);
    expect(await progress(w.given)).toMatchObject({ counted: 1, rate: 0 });
  });

  it("an extension on a task scheduled for later moves nobody's progress: the task counts for no one until it shows", async () => {
    // One task due an hour ago, shown; a second scheduled to show in five days. Its due time is then moved to two
    // days ago in the database (the API refuses a task shown after its due time, ADR 54; one scheduled before that
    // rule may be): still it counts for no one until it shows.
    const w = await taskWorld({ dueAt: Date.now() - HOUR });
    const scheduled = await call(`/api/lectures/${w.lecture.slug}/tasks`, {
      body: { title: unique("Later"), maxScore: 100, dueAt: new Date(Date.now() + 6 * DAY).toISOString(), publishAt: new Date(Date.now() + 5 * DAY).toISOString() },
      token: w.teacher.accessToken,
    });
    expect(scheduled.status).toBe(201);
    const later = (await scheduled.json()) as { _id: string; slug: string };
    await db().update(s.tasks).set({ dueAt: new Date(Date.now() - 2 * DAY) }).where(eq(s.tasks.id, later._id));
    const tasksOf = async (who: SignedIn) => ((await (await call(`/api/users/groups/${w.group.slug}/progress`, { token: who.accessToken })).json()) as { tasks: { given: number; counted: number; submitted: number } }).tasks;
    const before = { given: await tasksOf(w.given), other: await tasksOf(w.other) };
    expect(before.given).toMatchObject({ given: 1, counted: 1, submitted: 0 });
    const extended = await call(`/api/lectures/${w.lecture.slug}/tasks/${later.slug}/extensions`, { method: "PUT", body: { userIds: [w.given.user.id], dueAt: new Date(Date.now() + 3 * DAY).toISOString() }, token: w.teacher.accessToken });
    expect(extended.status).toBe(200);
    expect(await tasksOf(w.given)).toEqual(before.given);
    expect(await tasksOf(w.other)).toEqual(before.other);
    const staff = (await (await call(`/api/groups/${w.group.slug}/progress`, { token: w.teacher.accessToken })).json()) as { students: { _id: string; progress: { tasks: { given: number } } }[] };
    expect(Object.fromEntries(staff.students.map((r) => [r._id, r.progress.tasks.given]))).toEqual({ [w.given.user.id]: 1, [w.other.user.id]: 1 });
  });

  it("refuses someone who is not a student of the group, and another group's staff, writing nothing", async () => {
    const w = await taskWorld({ dueAt: Date.now() + DAY });
    const stranger = await createUser();
    const due = new Date(Date.now() + 2 * DAY).toISOString();
    const res = await w.extend({ userIds: [w.given.user.id, stranger.id], dueAt: due });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { fields: Record<string, string> }).fields.userIds).toMatch(/students of the group/);
    const other = await signIn(await createUser({ role: "instructor" }));
    expect((await w.extend({ userIds: [w.given.user.id], dueAt: due }, other.accessToken)).status).toBe(403);
    expect((await w.extend({ userIds: [], dueAt: due })).status).toBe(400);
    expect((await w.extend({ userIds: [w.given.user.id], dueAt: "2026-02-30T10:00" })).status).toBe(400);
    expect(await db().select().from(s.extensions).where(eq(s.extensions.taskId, w.task._id))).toEqual([]);
  });

  // D1 binds at most 100 values per statement: a class of 150 is read and written in slices, in one transaction.
  it("extends a whole class of 150 students at once, and refuses 150 ids with one stranger among them, writing nothing", async () => {
    const w = await taskWorld({ dueAt: Date.now() + DAY });
    const students = await classOf(w.group, 150);
    const due = new Date(Date.now() + 2 * DAY).toISOString();
    const withStranger = [...students.slice(0, 149), (await createUser()).id];
    expect((await w.extend({ userIds: withStranger, dueAt: due })).status).toBe(400);
    expect(await db().select().from(s.extensions).where(eq(s.extensions.taskId, w.task._id))).toEqual([]);
    const res = await w.extend({ userIds: students, dueAt: due });
    expect(res.status).toBe(200);
    expect(((await res.json()) as unknown[]).length).toBe(150);
    const rows = await db().select().from(s.extensions).where(eq(s.extensions.taskId, w.task._id));
    expect(new Set(rows.map((r) => r.userId))).toEqual(new Set(students));
    expect(rows.every((r) => r.dueAt?.toISOString() === due)).toBe(true);
  });

  it("gives more time, never less: a due time at or before the task's own is refused, and a task without one has nothing to extend", async () => {
    const dueAt = Date.now() + DAY;
    const w = await taskWorld({ dueAt });
    for (const earlier of [dueAt, dueAt - HOUR]) {
      const res = await w.extend({ userIds: [w.given.user.id], dueAt: new Date(earlier).toISOString() });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { fields: Record<string, string> }).fields.dueAt).toBe("The new due time must come after the task's own.");
    }
    expect((await w.extend({ userIds: [w.given.user.id], dueAt: new Date(dueAt + 1000).toISOString() })).status).toBe(200);
    // Without a due time of its own there is nothing to extend.
    await db().update(s.tasks).set({ dueAt: null }).where(eq(s.tasks.id, w.task._id));
    const none = await w.extend({ userIds: [w.other.user.id], dueAt: new Date(dueAt + DAY).toISOString() });
    expect(none.status).toBe(400);
    expect(((await none.json()) as { fields: Record<string, string> }).fields.dueAt).toMatch(/no due time/);
    expect(await db().select({ userId: s.extensions.userId }).from(s.extensions).where(eq(s.extensions.taskId, w.task._id))).toEqual([{ userId: w.given.user.id }]);
  });

  it("does not name a task the student cannot see yet (scheduled for later) in the extension's notification", async () => {
    const w = await taskWorld({ dueAt: Date.now() + DAY });
    await db().update(s.tasks).set({ publishAt: new Date(Date.now() + 3 * DAY) }).where(eq(s.tasks.id, w.task._id));
    expect((await w.extend({ userIds: [w.given.user.id], dueAt: new Date(Date.now() + 5 * DAY).toISOString() })).status).toBe(200);
    const told = () => db().select().from(s.notifications).where(and(eq(s.notifications.userId, w.given.user.id), eq(s.notifications.kind, "extension-granted")));
    expect(await told()).toEqual([]);
    // Once it is published, an extension is told as usual.
    await db().update(s.tasks).set({ publishAt: null }).where(eq(s.tasks.id, w.task._id));
    expect((await w.extend({ userIds: [w.given.user.id], dueAt: new Date(Date.now() + 6 * DAY).toISOString() })).status).toBe(200);
    expect(await told()).toHaveLength(1);
  });

  it("keeps the task's own due time for a student whose extension it has since passed: not due early, not late, not counted", async () => {
    // Staff gave an extension to tomorrow, then moved the whole task to next week: the extension changes nothing now.
    const w = await taskWorld({ dueAt: Date.now() + 7 * DAY, allowLate: false });
    await db().insert(s.extensions).values({ id: newId(), userId: w.given.user.id, taskId: w.task._id, dueAt: new Date(Date.now() - HOUR) });
    const mine = (await (await call(`${w.base}`, { token: w.given.accessToken })).json()) as { dueAt: string; extendedFrom: string | null };
    const theirs = (await (await call(`${w.base}`, { token: w.other.accessToken })).json()) as { dueAt: string };
    expect(mine).toMatchObject({ dueAt: theirs.dueAt, extendedFrom: null });
    const listed = (await (await call(`/api/lectures/groups/${w.group.slug}/tasks`, { token: w.given.accessToken })).json()) as { dueAt: string }[];
    expect(listed[0]!.dueAt).toBe(theirs.dueAt);
    // Progress: nothing is due for them yet (the extension's passed time would have counted it as a missed 0).
    const progress = (await (await call(`/api/users/groups/${w.group.slug}/progress`, { token: w.given.accessToken })).json()) as { tasks: { given: number; counted: number } };
    expect(progress.tasks).toMatchObject({ given: 0, counted: 0 });
    // The hand-in is on time (the task takes no late work: an early due time would have refused it).
    const handed = await w.handIn(w.given);
    expect(handed.status).toBe(201);
    expect(((await handed.json()) as { submission: { late: boolean } }).submission.late).toBe(false);
  });
});

const T0 = Date.parse("2027-03-01T09:00:00Z");

/** `n` approved students of the group, made directly (a class, not people the test signs in as). */
async function classOf(group: { id: string }, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const u = await createUser({ password: null });
    await addMember(u, group);
    ids.push(u.id);
  }
  return ids;
}

async function quizWorld(quiz: { durationMinutes: number | null; closesAt: number; showAnswers?: "after-close" | "after-submit"; maxAttempts?: number }) {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const [given, other] = [await createUser(), await createUser()];
  await addMember(given, group);
  await addMember(other, group);
  const lecture = { id: newId(), groupId: group.id, slug: `l-${group.slug}`, title: "Week 1", body: "", order: 1, published: true };
  await db().insert(s.lectures).values(lecture);
  const q = { id: newId(), lectureId: lecture.id, groupId: group.id, slug: `quiz-${group.slug}`, title: "Hooks", durationMinutes: quiz.durationMinutes, opensAt: new Date(Math.min(T0, quiz.closesAt) - DAY), closesAt: new Date(quiz.closesAt), maxAttempts: quiz.maxAttempts ?? 1, showAnswers: quiz.showAnswers ?? "after-close", published: true };
  await db().insert(s.quizzes).values(q);
  const question = { id: newId(), quizId: q.id, text: "2 + 2?", type: "single" as const, options: ["3", "4"], correct: [1], points: 1, order: 0 };
  await db().insert(s.questions).values(question);
  const as = (u: typeof given) => viewerOf(u, "ext");
  const extend = (body: Record<string, unknown>, token = teacher.accessToken) => call(`/api/quizzes/${q.slug}/extensions`, { method: "PUT", body, token });
  return { ctx: serviceContext().ctx, quiz: q, question, given: as(given), other: as(other), teacher, group, extend };
}

describe("quiz extensions", () => {
  it("lets the extended student start after the quiz's close, with extra minutes, while the others are refused", async () => {
    const w = await quizWorld({ durationMinutes: 10, closesAt: T0 });
    const res = await w.extend({ userIds: [w.given.userId], closesAt: new Date(T0 + 2 * HOUR).toISOString(), extraMinutes: 5 });
    expect(res.status).toBe(200);
    const later = T0 + HOUR;
    const seen = await getQuiz(w.ctx, w.given, w.quiz.slug, later);
    expect(seen).toMatchObject({ window: "open", closesAt: new Date(T0 + 2 * HOUR).toISOString(), yourMinutes: 15, extension: { originalClosesAt: new Date(T0).toISOString(), extraMinutes: 5 } });
    expect((await getQuiz(w.ctx, w.other, w.quiz.slug, later)).window).toBe("closed");
    // The server's deadline: 10 + 5 minutes from the start.
    const started = await startAttempt(w.ctx, w.given, w.quiz.slug, later);
    expect(started.attempt.deadline).toBe(new Date(later + 15 * MIN).toISOString());
    await expect(startAttempt(w.ctx, w.other, w.quiz.slug, later)).rejects.toMatchObject({ status: 409, code: "quiz_closed" });
  });

  it("gives a whole class of 150 students extra minutes at once", async () => {
    const w = await quizWorld({ durationMinutes: 10, closesAt: T0 });
    const students = await classOf(w.group, 150);
    const res = await w.extend({ userIds: students, extraMinutes: 5 });
    expect(res.status).toBe(200);
    const rows = await db().select().from(s.extensions).where(eq(s.extensions.quizId, w.quiz.id));
    expect(rows.length).toBe(150);
    expect(rows.every((r) => r.extraMinutes === 5)).toBe(true);
  });

  it("caps the extended attempt by the student's own close", async () => {
    const w = await quizWorld({ durationMinutes: 30, closesAt: T0 });
    expect((await w.extend({ userIds: [w.given.userId], closesAt: new Date(T0 + 20 * MIN).toISOString() })).status).toBe(200);
    const started = await startAttempt(w.ctx, w.given, w.quiz.slug, T0 + 10 * MIN);
    expect(started.attempt.deadline).toBe(new Date(T0 + 20 * MIN).toISOString());
  });

  it("gives extra attempts", async () => {
    const w = await quizWorld({ durationMinutes: null, closesAt: T0 + DAY, showAnswers: "after-close", maxAttempts: 1 });
    expect((await w.extend({ userIds: [w.given.userId], extraAttempts: 2 })).status).toBe(200);
    // Different answers each time (the same answers again within seconds are one hand-in sent twice).
    for (let i = 0; i < 3; i++) await submitQuiz(w.ctx, w.given, w.quiz.slug, { answers: { [w.question.id]: i % 2 } }, T0 + i * MIN);
    await expect(submitQuiz(w.ctx, w.given, w.quiz.slug, { answers: { [w.question.id]: 1 } }, T0 + 5 * MIN)).rejects.toMatchObject({ code: "no_attempts_left" });
    await submitQuiz(w.ctx, w.other, w.quiz.slug, { answers: { [w.question.id]: 0 } }, T0);
    await expect(submitQuiz(w.ctx, w.other, w.quiz.slug, { answers: { [w.question.id]: 1 } }, T0 + MIN)).rejects.toMatchObject({ code: "no_attempts_left" });
  });

  it("keeps answers shown after the close hidden from everyone until the latest extension has closed", async () => {
    const w = await quizWorld({ durationMinutes: null, closesAt: T0 });
    await submitQuiz(w.ctx, w.other, w.quiz.slug, { answers: { [w.question.id]: 1 } }, T0 - HOUR);
    expect((await w.extend({ userIds: [w.given.userId], closesAt: new Date(T0 + 3 * HOUR).toISOString() })).status).toBe(200);
    // An hour after the quiz's own close: the extended student can still take it, so no review for the other.
    const early = await getResult(w.ctx, w.other, w.quiz.slug, T0 + HOUR);
    expect(early.reviewWhen).toBe("after-close");
    expect(early.review).toBeNull();
    // After the extension's close (and the grace), the review opens.
    const late = await getResult(w.ctx, w.other, w.quiz.slug, T0 + 4 * HOUR);
    expect(late.reviewWhen).toBe("now");
  });

  it("refuses more attempts for a student who already sees the answers", async () => {
    const w = await quizWorld({ durationMinutes: null, closesAt: Date.now() + DAY, showAnswers: "after-submit", maxAttempts: 1 });
    await submitQuiz(w.ctx, w.given, w.quiz.slug, { answers: { [w.question.id]: 0 } });
    const res = await w.extend({ userIds: [w.given.userId], extraAttempts: 1 });
    expect(res.status).toBe(409);
    const refused = (await res.json()) as { message: string; code: string; fields: { seenBy: string } };
    expect(refused).toMatchObject({ code: "answers_seen", fields: { seenBy: w.given.userId } });
    expect(refused.message).toContain("can already see the answers");
    // Extra minutes alone are harmless and allowed; nothing else changes.
    expect((await w.extend({ userIds: [w.given.userId], extraMinutes: 5 })).status).toBe(200);
    const [row] = await db().select().from(s.extensions).where(eq(s.extensions.quizId, w.quiz.id));
    expect(row).toMatchObject({ extraAttempts: 0, extraMinutes: 5, closesAt: null });
  });

  it("refuses the quiz itself more attempts, or a later close once it is over, while a student reads its answers", async () => {
    // After-submit, one attempt: the student who handed in reads the key.
    const w = await quizWorld({ durationMinutes: null, closesAt: Date.now() + DAY, showAnswers: "after-submit", maxAttempts: 1 });
    const edit = (body: Record<string, unknown>) => call(`/api/quizzes/${w.quiz.slug}`, { method: "PUT", body, token: w.teacher.accessToken });
    // Nobody has seen anything yet: more attempts are fine.
    expect((await edit({ maxAttempts: 2 })).status).toBe(200);
    await submitQuiz(w.ctx, w.given, w.quiz.slug, { answers: { [w.question.id]: 0 } });
    await submitQuiz(w.ctx, w.given, w.quiz.slug, { answers: { [w.question.id]: 1 } });
    const more = await edit({ maxAttempts: 3 });
    expect(more.status).toBe(409);
    expect(await more.json()).toMatchObject({ code: "answers_seen", message: expect.stringMatching(/^One student can already see the answers/) });
    expect((await db().select().from(s.quizzes).where(eq(s.quizzes.id, w.quiz.id)))[0]!.maxAttempts).toBe(2);
    await expect(startAttempt(w.ctx, w.given, w.quiz.slug)).rejects.toMatchObject({ code: "no_attempts_left" });

    // After-close: closed an hour ago, the review open to the one who took it; opening it again is refused.
    const c = await quizWorld({ durationMinutes: null, closesAt: Date.now() + HOUR, showAnswers: "after-close" });
    await submitQuiz(c.ctx, c.given, c.quiz.slug, { answers: { [c.question.id]: 1 } });
    await db().update(s.quizzes).set({ closesAt: new Date(Date.now() - HOUR) }).where(eq(s.quizzes.id, c.quiz.id));
    expect((await getResult(c.ctx, c.given, c.quiz.slug)).reviewWhen).toBe("now");
    const later = await call(`/api/quizzes/${c.quiz.slug}`, { method: "PUT", body: { closesAt: new Date(Date.now() + 2 * HOUR).toISOString() }, token: c.teacher.accessToken });
    expect(later.status).toBe(409);
    expect(((await later.json()) as { code: string }).code).toBe("answers_seen");
    await expect(startAttempt(c.ctx, c.other, c.quiz.slug)).rejects.toMatchObject({ code: "quiz_closed" });
  });

  it("refuses a make-up's later close once a classmate has seen the answers, and keeps them shown to that classmate", async () => {
    // After-close: the other student took it, the quiz closed an hour ago, and they read the review (the key is out).
    const w = await quizWorld({ durationMinutes: null, closesAt: Date.now() + HOUR, showAnswers: "after-close" });
    await submitQuiz(w.ctx, w.other, w.quiz.slug, { answers: { [w.question.id]: 1 } });
    await db().update(s.quizzes).set({ closesAt: new Date(Date.now() - HOUR) }).where(eq(s.quizzes.id, w.quiz.id));
    expect((await getResult(w.ctx, w.other, w.quiz.slug)).review?.questions[0]).toMatchObject({ correct: [1] });
    // A later close for the student who has not taken it would let them answer with the key their classmate read.
    const res = await w.extend({ userIds: [w.given.userId], closesAt: new Date(Date.now() + 2 * HOUR).toISOString() });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: "answers_seen" });
    expect(await db().select().from(s.extensions).where(eq(s.extensions.quizId, w.quiz.id))).toEqual([]);
    await expect(startAttempt(w.ctx, w.given, w.quiz.slug)).rejects.toMatchObject({ code: "quiz_closed" });
    // The classmate still reads what they read.
    expect((await getResult(w.ctx, w.other, w.quiz.slug)).reviewWhen).toBe("now");
  });

  it("remembers answers once shown: hiding them, adding attempts and showing them again is refused", async () => {
    const w = await quizWorld({ durationMinutes: null, closesAt: Date.now() + DAY, showAnswers: "after-submit", maxAttempts: 1 });
    await submitQuiz(w.ctx, w.given, w.quiz.slug, { answers: { [w.question.id]: 0 } });
    // The student reads the review: the key is out.
    expect((await getResult(w.ctx, w.given, w.quiz.slug)).review?.questions[0]).toMatchObject({ correct: [1] });
    const edit = (body: Record<string, unknown>) => call(`/api/quizzes/${w.quiz.slug}`, { method: "PUT", body, token: w.teacher.accessToken });
    expect((await edit({ showAnswers: "never" })).status).toBe(200);
    const more = await edit({ maxAttempts: 3 });
    expect(more.status).toBe(409);
    expect(((await more.json()) as { code: string }).code).toBe("answers_seen");
    expect((await w.extend({ userIds: [w.given.userId], extraAttempts: 1 })).status).toBe(409);
    await expect(startAttempt(w.ctx, w.given, w.quiz.slug)).rejects.toMatchObject({ code: "no_attempts_left" });
  });

  it("gives a later close, never an earlier one: at or before the quiz's own close is refused, and a quiz that never closes has none to extend", async () => {
    const w = await quizWorld({ durationMinutes: null, closesAt: T0 });
    for (const earlier of [T0, T0 - HOUR]) {
      const res = await w.extend({ userIds: [w.given.userId], closesAt: new Date(earlier).toISOString() });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { fields: Record<string, string> }).fields.closesAt).toBe("The new close must come after the quiz's own close.");
    }
    await db().update(s.quizzes).set({ closesAt: null, showAnswers: "after-submit" }).where(eq(s.quizzes.id, w.quiz.id));
    const never = await w.extend({ userIds: [w.given.userId], closesAt: new Date(T0 + DAY).toISOString() });
    expect(never.status).toBe(400);
    expect(((await never.json()) as { fields: Record<string, string> }).fields.closesAt).toMatch(/never closes/);
    expect(await db().select().from(s.extensions).where(eq(s.extensions.quizId, w.quiz.id))).toEqual([]);
    // Extra minutes on a quiz that never closes are fine.
    expect((await w.extend({ userIds: [w.given.userId], extraMinutes: 10 })).status).toBe(200);
  });

  it("does not name a draft quiz in the extension's notification", async () => {
    const w = await quizWorld({ durationMinutes: null, closesAt: T0 });
    await db().update(s.quizzes).set({ published: false }).where(eq(s.quizzes.id, w.quiz.id));
    expect((await w.extend({ userIds: [w.given.userId], extraMinutes: 5 })).status).toBe(200);
    const told = () => db().select().from(s.notifications).where(and(eq(s.notifications.userId, w.given.userId), eq(s.notifications.kind, "extension-granted")));
    expect(await told()).toEqual([]);
    await db().update(s.quizzes).set({ published: true }).where(eq(s.quizzes.id, w.quiz.id));
    expect((await w.extend({ userIds: [w.given.userId], extraMinutes: 10 })).status).toBe(200);
    expect(await told()).toHaveLength(1);
  });

  it("keeps the quiz's own close for a student whose extension it has since passed: open for them, and no answers before the group's close", async () => {
    // Staff gave an extension to T0 + 90 s, then moved the whole quiz's close to two days later.
    const w = await quizWorld({ durationMinutes: null, closesAt: T0 + 2 * DAY, maxAttempts: 2 });
    await db().insert(s.extensions).values({ id: newId(), userId: w.given.userId, quizId: w.quiz.id, closesAt: new Date(T0 + 90_000) });
    await submitQuiz(w.ctx, w.given, w.quiz.slug, { answers: { [w.question.id]: 0 } }, T0);
    const later = T0 + HOUR;
    // Their quiz is still open, with the group's close, and they may use their second attempt.
    expect(await getQuiz(w.ctx, w.given, w.quiz.slug, later)).toMatchObject({ window: "open", closesAt: new Date(T0 + 2 * DAY).toISOString() });
    await expect(startAttempt(w.ctx, w.given, w.quiz.slug, later)).resolves.toBeTruthy();
    // The answers wait for the group's close (the extension's passed close would have shown them to this student
    // while the others could still answer).
    await submitQuiz(w.ctx, w.given, w.quiz.slug, { answers: { [w.question.id]: 1 } }, later + MIN);
    const result = await getResult(w.ctx, w.given, w.quiz.slug, later + 2 * MIN);
    expect(result.reviewWhen).toBe("after-close");
    expect(result.review).toBeNull();
    expect((await getQuiz(w.ctx, w.other, w.quiz.slug, later)).window).toBe("open");
    expect((await getResult(w.ctx, w.given, w.quiz.slug, T0 + 2 * DAY + HOUR)).reviewWhen).toBe("now");
  });

  it("refuses an extension that gives nothing, or a close before the quiz opens", async () => {
    const w = await quizWorld({ durationMinutes: null, closesAt: T0 });
    expect((await w.extend({ userIds: [w.given.userId] })).status).toBe(400);
    expect((await w.extend({ userIds: [w.given.userId], closesAt: new Date(T0 - 2 * DAY).toISOString() })).status).toBe(400);
    expect((await w.extend({ userIds: [w.given.userId], extraAttempts: 11 })).status).toBe(400);
    expect(await db().select().from(s.extensions).where(eq(s.extensions.quizId, w.quiz.id))).toEqual([]);
  });
});
