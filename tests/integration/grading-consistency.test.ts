/**
 * What a grade says agrees everywhere, whenever the rules it was judged by change (a review of grading, ADR 57):
 * - the late penalty a page names is the one the score carries: changing the task's penalty, its due time, or giving
 *   or taking back one student's extension judges the hand-ins again (late or not, and the penalty's share);
 * - the e-mail of a released held grade says what an unheld one says (the points before the penalty, the feedback),
 *   and goes only to students still in the group;
 * - staff cannot ask for a new version a student could not hand in (no late work, past their due time);
 * - a quiz is worth at least a point, however it is made or corrected.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { addMember, call, createGroup, createUser, mailbox, signIn, waitForMails, type SignedIn } from "./factories";
import { db, unique } from "./helpers";

const DAY = 86_400_000;

async function world(task: Record<string, unknown>) {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const [a, b] = [await signIn(await createUser({ name: "Amal Late" })), await signIn(await createUser({ name: "Badr Away" }))];
  await addMember(a.user, group);
  await addMember(b.user, group);
  const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: unique("Week"), published: true }, token: teacher.accessToken })).json()) as { _id: string; slug: string };
  const created = await call(`/api/lectures/${lecture.slug}/tasks`, { body: { title: unique("Portfolio"), maxScore: 100, ...task }, token: teacher.accessToken });
  expect(created.status).toBe(201);
  const made = (await created.json()) as { _id: string; slug: string };
  const base = `/api/lectures/${lecture.slug}/tasks/${made.slug}`;
  return { teacher, group, a, b, lecture, task: made, base };
}
type World = Awaited<ReturnType<typeof world>>;

/** Hands in now (late or not by the task's due time); the hand-in's id. */
async function handIn(w: World, who: SignedIn): Promise<string> {
  const res = await call(`/api/lectures/${w.lecture.slug}/submit-task/${w.task.slug}`, { body: { link: "https://github.com/me/portfolio" }, token: who.accessToken });
  expect(res.status).toBe(201);
  const [row] = await db().select().from(s.submissions).where(and(eq(s.submissions.taskId, w.task._id), eq(s.submissions.userId, who.user.id)));
  return row!.id;
}

const grade = (w: World, id: string, body: Record<string, unknown>) => call(`${w.base}/submissions/${id}`, { method: "PUT", body, token: w.teacher.accessToken });
const putTask = (w: World, body: Record<string, unknown>) => call(w.base, { method: "PUT", body, token: w.teacher.accessToken });
const rowOf = async (id: string) => (await db().select().from(s.submissions).where(eq(s.submissions.id, id)))[0]!;
/** The student's own read of their hand-in (the task page reads the same). */
const studentRead = async (w: World, who: SignedIn, id: string) =>
  (await (await call(`${w.base}/submissions/${id}`, { token: who.accessToken })).json()) as { late: boolean; score: number | null; rawScore: number | null; latePenalty: { days: number; percent: number }; state: string };

describe("a late penalty judged again when its rules change", () => {
  it("follows the task's penalty: the stored score, the student's read and the progress agree", async () => {
    // Due 1.5 days ago, 10 % a started day: a hand-in now is 2 days late, 20 %.
    const w = await world({ dueAt: new Date(Date.now() - 1.5 * DAY).toISOString(), allowLate: true, latePenaltyPerDay: 10 });
    const id = await handIn(w, w.a);
    expect((await grade(w, id, { score: 80 })).status).toBe(200);
    expect(await studentRead(w, w.a, id)).toMatchObject({ late: true, score: 64, rawScore: 80, latePenalty: { days: 2, percent: 20 } });

    // 25 % a day now: 50 % for two days.
    expect((await putTask(w, { latePenaltyPerDay: 25 })).status).toBe(200);
    expect(await rowOf(id)).toMatchObject({ score: 40, rawScore: 80, late: true });
    expect(await studentRead(w, w.a, id)).toMatchObject({ score: 40, rawScore: 80, latePenalty: { days: 2, percent: 50 } });

    // No penalty any more: the whole grade, and no "before the penalty" figure left to name a 0 % penalty.
    expect((await putTask(w, { latePenaltyPerDay: 0 })).status).toBe(200);
    expect(await studentRead(w, w.a, id)).toMatchObject({ late: true, score: 80, rawScore: null, latePenalty: { days: 0, percent: 0 } });
    const progress = (await (await call(`/api/users/groups/${w.group.slug}/progress`, { token: w.a.accessToken })).json()) as { tasks: { rate: number } };
    expect(progress.tasks.rate).toBe(80);
  });

  it("follows the due time: moved later the hand-in is on time, moved back it is late again with its penalty", async () => {
    const w = await world({ dueAt: new Date(Date.now() - 1.5 * DAY).toISOString(), allowLate: true, latePenaltyPerDay: 10 });
    const id = await handIn(w, w.a);
    expect((await grade(w, id, { score: 50 })).status).toBe(200);
    expect((await putTask(w, { dueAt: new Date(Date.now() + DAY).toISOString() })).status).toBe(200);
    expect(await studentRead(w, w.a, id)).toMatchObject({ late: false, score: 50, rawScore: null, state: "graded" });
    expect((await putTask(w, { dueAt: new Date(Date.now() - 0.5 * DAY).toISOString() })).status).toBe(200);
    // One started day late: 10 %.
    expect(await studentRead(w, w.a, id)).toMatchObject({ late: true, score: 45, rawScore: 50, latePenalty: { days: 1, percent: 10 } });
  });

  it("follows one student's extension, given after grading and taken back, and leaves the others' hand-ins as they were", async () => {
    const w = await world({ dueAt: new Date(Date.now() - 1.5 * DAY).toISOString(), allowLate: true, latePenaltyPerDay: 10 });
    const [ida, idb] = [await handIn(w, w.a), await handIn(w, w.b)];
    expect((await grade(w, ida, { score: 90 })).status).toBe(200);
    expect((await grade(w, idb, { score: 90 })).status).toBe(200);
    const extended = await call(`${w.base}/extensions`, { method: "PUT", body: { userIds: [w.a.user.id], dueAt: new Date(Date.now() + DAY).toISOString() }, token: w.teacher.accessToken });
    expect(extended.status).toBe(200);
    expect(await studentRead(w, w.a, ida)).toMatchObject({ late: false, score: 90, rawScore: null, latePenalty: { days: 0, percent: 0 } });
    expect(await studentRead(w, w.b, idb)).toMatchObject({ late: true, score: 72, rawScore: 90 });
    // Amal is told her grade changed, in the bell; Badr, whose grade did not, is not.
    const regraded = async (u: SignedIn) => (await db().select().from(s.notifications).where(eq(s.notifications.userId, u.user.id))).filter((n) => n.kind === "submission-regraded");
    const [told] = await regraded(w.a);
    expect(told).toMatchObject({ params: { score: 90, max: 100 } });
    expect(told!.title).toMatch(/^Your grade on .+ is now 90\/100: its late penalty changed$/);
    expect(await regraded(w.b)).toEqual([]);
    expect((await call(`${w.base}/extensions/${w.a.user.id}`, { method: "DELETE", token: w.teacher.accessToken })).status).toBe(200);
    expect(await studentRead(w, w.a, ida)).toMatchObject({ late: true, score: 72, rawScore: 90, latePenalty: { days: 2, percent: 20 } });
  });
});

describe("releasing held grades", () => {
  it("mails what an unheld grade's mail says (the points before the penalty, the feedback), and only to students still in the group", async () => {
    const w = await world({ dueAt: new Date(Date.now() - 1.5 * DAY).toISOString(), allowLate: true, latePenaltyPerDay: 10, gradesHeld: true });
    const [ida, idb] = [await handIn(w, w.a), await handIn(w, w.b)];
    expect((await grade(w, ida, { score: 13, feedback: "Check the contrast of the buttons" })).status).toBe(200);
    expect((await grade(w, idb, { score: 40, feedback: "Fine" })).status).toBe(200);
    // Judged again while held (a penalty changed and changed back): the student is told nothing of a grade not theirs yet.
    expect((await putTask(w, { latePenaltyPerDay: 20 })).status).toBe(200);
    expect((await putTask(w, { latePenaltyPerDay: 10 })).status).toBe(200);
    expect((await db().select().from(s.notifications).where(eq(s.notifications.userId, w.a.user.id))).map((n) => n.kind)).not.toContain("submission-regraded");
    // Badr is removed before the release: his grade is released with the rest, but he is not written to.
    expect((await call(`/api/groups/${w.group.id}/students/${w.b.user.id}`, { method: "PUT", body: { status: "removed" }, token: w.teacher.accessToken })).status).toBe(200);
    const released = await call(`${w.base}/release-grades`, { method: "POST", token: w.teacher.accessToken });
    expect(released.status).toBe(200);
    expect(((await released.json()) as { released: number }).released).toBe(2);

    const [mail] = await waitForMails(w.a.user.email, /was graded/);
    // 13 with 20 % off for two days: 10.
    expect(mail!.subject).toContain("10/100");
    expect(mail!.text).toContain("It was handed in late: 13 before the late penalty.");
    expect(mail!.text).toContain("Check the contrast of the buttons");
    expect((await mailbox(w.b.user.email)).filter((m) => /was graded/.test(m.subject))).toEqual([]);
    const kinds = async (u: SignedIn) => (await db().select().from(s.notifications).where(eq(s.notifications.userId, u.user.id))).map((n) => n.kind);
    expect(await kinds(w.a)).toContain("grades-released");
    expect(await kinds(w.b)).not.toContain("grades-released");
  });
});

describe("asking for a new version", () => {
  it("is refused when the student could not hand one in (no late work, past their due time), and allowed once they have more time", async () => {
    const w = await world({ dueAt: new Date(Date.now() + DAY).toISOString(), allowLate: false });
    const id = await handIn(w, w.a);
    // The due time passes.
    await db().update(s.tasks).set({ dueAt: new Date(Date.now() - 60_000) }).where(eq(s.tasks.id, w.task._id));
    const refused = await grade(w, id, { requestResubmission: true, feedback: "Please fix the layout" });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: "past_due_no_late_work" });
    expect((await rowOf(id)).resubmitRequestedAt).toBeNull();
    expect((await mailbox(w.a.user.email)).filter((m) => /new version/i.test(m.subject))).toEqual([]);

    expect((await call(`${w.base}/extensions`, { method: "PUT", body: { userIds: [w.a.user.id], dueAt: new Date(Date.now() + DAY).toISOString() }, token: w.teacher.accessToken })).status).toBe(200);
    expect((await grade(w, id, { requestResubmission: true, feedback: "Please fix the layout" })).status).toBe(200);
    // And the student can: the new version is taken.
    const again = await call(`/api/lectures/${w.lecture.slug}/submit-task/${w.task.slug}`, { body: { link: "https://github.com/me/portfolio-v2" }, token: w.a.accessToken });
    expect(again.status).toBe(200);
  });
});

describe("a quiz's worth", () => {
  it("is at least a point: made, changed or corrected to nothing is refused", async () => {
    const w = await world({});
    const question = (points: number) => ({ text: "Which tag is for navigation?", type: "single", options: ["<nav>", "<div>"], correct: 0, points });
    const made = await call("/api/quizzes", { body: { lectureId: w.lecture.slug, title: unique("Survey"), questions: [question(0), question(0)] }, token: w.teacher.accessToken });
    expect(made.status).toBe(400);
    expect(((await made.json()) as { message: string }).message).toBe("A quiz is worth at least 1 point in all: give a question some points.");

    const ok = await call("/api/quizzes", { body: { lectureId: w.lecture.slug, title: unique("Check"), questions: [question(1), question(0)] }, token: w.teacher.accessToken });
    expect(ok.status).toBe(201);
    const quiz = (await ok.json()) as { slug: string };
    expect((await call(`/api/quizzes/${quiz.slug}`, { method: "PUT", body: { questions: [question(0)] }, token: w.teacher.accessToken })).status).toBe(400);
    const [pointed] = await db().select().from(s.questions).where(and(eq(s.questions.points, 1), eq(s.questions.quizId, (await db().select().from(s.quizzes).where(eq(s.quizzes.slug, quiz.slug)))[0]!.id)));
    const corrected = await call(`/api/quizzes/${quiz.slug}/questions/${pointed!.id}/key`, { method: "PUT", body: { correct: [0], points: 0 }, token: w.teacher.accessToken });
    expect(corrected.status).toBe(400);
    expect((await questionRow(pointed!.id)).points).toBe(1);
  });
});

const questionRow = async (questionId: string) => (await db().select().from(s.questions).where(eq(s.questions.id, questionId)))[0]!;
