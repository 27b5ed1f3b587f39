/**
 * Teaching rules that plausible one-line mistakes broke without a failing test (issue "Tests that pin every teaching
 * rule"): each test names the mistake it catches. Expected values come from PRODUCT.md and the issues, not from the
 * code's constants.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { newId } from "../../worker/services/ids";
import { exercise, send, world } from "./exercise-fixtures";
import { addMember, call, createGroup, createUser, signIn } from "./factories";
import { db } from "./helpers";

const DAY = 86_400_000;
const RIGHT = "function sum(a, b) { return a + b; }";

async function publishedExercise(task: { allowLate?: boolean; dueAt?: Date | null } = {}) {
  const w = await world();
  if (Object.keys(task).length) await db().update(s.tasks).set(task).where(eq(s.tasks.id, w.task.id));
  expect((await send(w.teacher, "PUT", `/api/exercises/${w.task.slug}`, exercise())).status).toBe(200);
  return w;
}

describe("code hand-ins and the due time", () => {
  // Mistake: a code hand-in past the due date accepted although the task takes no late work.
  it("refuses a code hand-in after the due time when the task takes no late work, storing nothing", async () => {
    const w = await publishedExercise({ allowLate: false, dueAt: new Date(Date.now() - 60_000) });
    const res = await send(w.student, "POST", `/api/exercises/${w.task.slug}/submit`, { code: RIGHT });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe("The due time has passed and this exercise does not accept late work.");
    expect(await db().select().from(s.submissions).where(eq(s.submissions.taskId, w.task.id))).toEqual([]);
  });

  // Mistake: the late flag dropped (or set) by a flipped comparison.
  it("accepts it flagged late when the task takes late work, and not late before the due time", async () => {
    const late = await publishedExercise({ allowLate: true, dueAt: new Date(Date.now() - 60_000) });
    const res = await send(late.student, "POST", `/api/exercises/${late.task.slug}/submit`, { code: RIGHT });
    expect(res.status).toBe(201);
    expect(res.body.late).toBe(true);
    const onTime = await publishedExercise({ allowLate: false, dueAt: new Date(Date.now() + DAY) });
    const ok = await send(onTime.student, "POST", `/api/exercises/${onTime.task.slug}/submit`, { code: RIGHT });
    expect(ok.status).toBe(201);
    expect(ok.body.late).toBe(false);
  });

  // Mistake: after staff ask for a new version of a graded code hand-in, the new hand-in is still refused.
  it("takes a new hand-in once staff asked for a new version of a graded one, and grades it afresh", async () => {
    const w = await publishedExercise();
    const first = await send(w.student, "POST", `/api/exercises/${w.task.slug}/submit`, { code: "function sum(a, b) { return a - b; }" });
    expect(first.status).toBe(201);
    const id = (await send(w.teacher, "GET", `/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions`)).body.submissions[0]._id;
    const path = `/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions/${id}`;
    expect((await send(w.teacher, "PUT", path, { score: 5, feedback: "Look at the sign." })).status).toBe(200);
    expect((await send(w.student, "POST", `/api/exercises/${w.task.slug}/submit`, { code: RIGHT })).status).toBe(409);
    expect((await send(w.teacher, "PUT", path, { requestResubmission: true, feedback: "Try again." })).status).toBe(200);
    const again = await send(w.student, "POST", `/api/exercises/${w.task.slug}/submit`, { code: RIGHT });
    expect(again.status).toBe(200);
    // Every test passes: the task's full 50 points, no longer the staff's 5.
    expect(again.body.score).toBe(50);
  });
});

describe("progress", () => {
  // Mistake: an instructor sees a student's progress in groups that instructor does not run.
  it("shows an instructor a student's progress only in the groups that instructor runs", async () => {
    const mine = await createUser({ role: "instructor" });
    const theirs = await createUser({ role: "instructor" });
    const A = await createGroup({ instructorId: mine.id, title: "Group run by me" });
    const B = await createGroup({ instructorId: theirs.id, title: "Group run by someone else" });
    const student = await createUser();
    await addMember(student, A);
    await addMember(student, B);
    for (const g of [A, B]) await db().insert(s.lectures).values({ id: newId(), groupId: g.id, slug: `l-${g.slug}`, title: "Held", order: 1, published: true, startsAt: new Date(Date.now() - DAY) });
    const me = await signIn(mine);
    const res = await call(`/instructor/${A.slug}/student/${student.id}.data`, { cookie: me.cookie });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain("Group run by me");
    expect(text).not.toContain("Group run by someone else");
    expect(text).not.toContain(B.id);
    // The admin sees both.
    const admin = await signIn(await createUser({ role: "admin" }));
    const all = await (await call(`/dashboard/admin/allStudent/student/${student.id}.data`, { cookie: admin.cookie })).text();
    expect(all).toContain("Group run by me");
    expect(all).toContain("Group run by someone else");
  });

  // Mistake: a quiz with no opening time never counts as opened.
  it("counts a quiz with no opening time as open from the start: a student who took it has 1 of 1", async () => {
    const teacher = await createUser({ role: "instructor" });
    const G = await createGroup({ instructorId: teacher.id });
    const student = await createUser();
    await addMember(student, G);
    const lecture = { id: newId(), groupId: G.id, slug: `l-${G.slug}`, title: "L", order: 1, published: true, startsAt: new Date(Date.now() - DAY) };
    await db().insert(s.lectures).values(lecture);
    const quiz = { id: newId(), lectureId: lecture.id, groupId: G.id, slug: `q-${G.slug}`, title: "No opening time", durationMinutes: 10, opensAt: null, closesAt: new Date(Date.now() + DAY), maxAttempts: 1, published: true };
    await db().insert(s.quizzes).values(quiz);
    await db().insert(s.questions).values({ id: newId(), quizId: quiz.id, text: "Yes?", type: "true-false", options: ["True", "False"], correct: [0], points: 2, order: 0 });
    await db().insert(s.attempts).values({ id: newId(), quizId: quiz.id, userId: student.id, number: 1, answers: {}, startedAt: new Date(Date.now() - 3_600_000), deadlineAt: new Date(Date.now() - 3_000_000), submittedAt: new Date(Date.now() - 3_100_000), score: 2, maxScore: 2 });
    const me = await signIn(student);
    const res = await call(`/api/users/groups/${G.slug}/progress`, { token: me.accessToken });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { progress?: { quizzes: unknown }; quizzes?: unknown };
    // Taken 1 of 1 published quiz, with its 2 of 2 points: 100 %.
    expect(body.progress?.quizzes ?? body.quizzes).toMatchObject({ taken: 1, published: 1, averageScore: 100 });
  });
});

describe("quizzes", () => {
  async function quizWorld(lecturePublished = true) {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const group = await createGroup({ instructorId: teacher.user.id });
    const student = await signIn(await createUser());
    await addMember(student.user, group);
    const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: "Week 3", published: true }, token: teacher.accessToken })).json()) as { _id: string; slug: string };
    const res = await call("/api/quizzes", {
      body: {
        lectureId: lecture.slug,
        title: "Words",
        durationMinutes: null,
        opensAt: null,
        closesAt: null,
        maxAttempts: 3,
        showAnswers: "after-submit",
        published: true,
        questions: [
          { text: "Write the animal.", type: "short-text", correct: ["Zèbre"], points: 1 },
          { text: "Pick the second.", type: "single", options: ["first", "second"], correct: 1, points: 1 },
        ],
      },
      token: teacher.accessToken,
    });
    expect(res.status).toBe(201);
    const quiz = (await res.json()) as { slug: string; questions: { _id: string }[] };
    if (!lecturePublished) await db().update(s.lectures).set({ published: false }).where(eq(s.lectures.id, lecture._id));
    return { teacher, student, quiz, ids: quiz.questions.map((q) => q._id) as [string, string] };
  }
  const submit = (w: Awaited<ReturnType<typeof quizWorld>>, answers: Record<string, unknown>) => call(`/api/quizzes/${w.quiz.slug}/submit`, { body: { answers }, token: w.student.accessToken });

  // Mistake: short-text answers no longer Unicode-normalised.
  it("matches a short-text answer typed with a combining accent (Ze\\u0300bre) to Zèbre", async () => {
    const w = await quizWorld();
    const res = await submit(w, { [w.ids[0]]: "ze\u0300bre", [w.ids[1]]: 1 });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ attempt: { score: 2, maxScore: 2 } });
  });

  // Mistake: an option index equal to the number of options accepted.
  it("refuses an option number equal to the number of options (2 of a two-option question), and -1, with a 400", async () => {
    const w = await quizWorld();
    const two = await submit(w, { [w.ids[1]]: 2 });
    expect(two.status).toBe(400);
    expect(((await two.json()) as { message: string }).message).toBe("Choose one of the question's options.");
    for (const bad of [-1, 1.5]) expect((await submit(w, { [w.ids[1]]: bad })).status, String(bad)).toBe(400);
    expect((await submit(w, { [w.ids[1]]: 1 })).status).toBe(201);
  });

  // Mistake: a published quiz on a draft lecture readable, startable and submittable by students.
  it("hides a published quiz on a draft lecture from its students: no read, no start, no hand-in", async () => {
    const w = await quizWorld(false);
    expect((await call(`/api/quizzes/${w.quiz.slug}`, { token: w.student.accessToken })).status).toBe(404);
    expect((await call(`/api/quizzes/${w.quiz.slug}/start`, { method: "POST", token: w.student.accessToken })).status).toBe(404);
    expect((await submit(w, { [w.ids[1]]: 1 })).status).toBe(404);
    expect(await db().select().from(s.attempts)).not.toContainEqual(expect.objectContaining({ userId: w.student.user.id }));
    // Staff still see it.
    expect((await call(`/api/quizzes/${w.quiz.slug}`, { token: w.teacher.accessToken })).status).toBe(200);
  });
});
