/**
 * Teaching rules that plausible one-line mistakes broke without a failing test (issue "Tests that pin every teaching
 * rule"): each test names the mistake it catches. Expected values come from PRODUCT.md and the issues, not from the
 * code's constants.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { getSettings } from "../../worker/env";
import { attend, openAttendance } from "../../worker/services/attendance";
import { codeFor } from "../../worker/services/attendance-codes";
import { newId } from "../../worker/services/ids";
import { exercise, send, world } from "./exercise-fixtures";
import { addMember, call, createGroup, createUser, signIn } from "./factories";
import { db, serviceContext } from "./helpers";
import { connectAs } from "./sockets";

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

describe("attendance", () => {
  async function attendanceWorld(students = 2) {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const group = await createGroup({ instructorId: teacher.user.id });
    const members = [];
    for (let i = 0; i < students; i++) {
      const st = await signIn(await createUser());
      await addMember(st.user, group);
      members.push(st);
    }
    const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: "Live", published: true }, token: teacher.accessToken })).json()) as { _id: string; slug: string };
    return { teacher, group, members, lecture };
  }
  const viewer = (who: Awaited<ReturnType<typeof signIn>>) => ({ userId: who.user.id, role: who.user.role, sessionId: who.sessionId, name: who.user.name, email: who.user.email });

  // Mistake: the code's grace after rotation grows from 2 s to 5 s.
  it("takes a rotated-out code for 2 s into the window after next, and not a moment longer", async () => {
    const w = await attendanceWorld(3);
    const { ctx, settle } = serviceContext();
    const t0 = Date.parse("2026-12-01T16:00:00.000Z");
    await openAttendance(ctx, viewer(w.teacher), w.lecture._id, { rotateSeconds: 30, lateAfterMinutes: 60, durationMinutes: 60 }, t0);
    const [session] = await db().select().from(s.attendanceSessions).where(eq(s.attendanceSessions.lectureId, w.lecture._id));
    const first = await codeFor(getSettings(env), { sessionId: session!.id, opensAt: t0, rotateSeconds: 30 }, 0);
    // Window 0 is 0-30 s, window 1 30-60 s; window 0's code still counts until 2 s into window 2 (62 s).
    expect(await attend(ctx, viewer(w.members[0]!), { slugLec: w.lecture.slug, code: first }, t0 + 61_999)).toMatchObject({ status: "present" });
    await expect(attend(ctx, viewer(w.members[1]!), { slugLec: w.lecture.slug, code: first }, t0 + 62_000)).rejects.toMatchObject({ status: expect.any(Number) });
    await expect(attend(ctx, viewer(w.members[2]!), { slugLec: w.lecture.slug, code: first }, t0 + 64_999)).rejects.toMatchObject({ status: expect.any(Number) });
    await settle();
  });

  // Mistake: nextCodeAt (when the projector's code changes) off by one rotation window.
  it("tells the projector when the code changes: the end of the current window, within one rotation", async () => {
    const w = await attendanceWorld(1);
    const res = await call(`/api/lectures/${w.lecture.slug}/attendance/open`, { body: { rotateSeconds: 30, durationMinutes: 30 }, token: w.teacher.accessToken });
    const { session } = (await res.json()) as { session: { opensAt: string; nextCodeAt: string; serverTime: string } };
    const next = Date.parse(session.nextCodeAt);
    const now = Date.parse(session.serverTime);
    expect(next - now).toBeGreaterThan(0);
    expect(next - now).toBeLessThanOrEqual(30_000);
    expect((next - Date.parse(session.opensAt)) % 30_000).toBe(0);
  });

  // Mistake: the live attendance.marked frame counts an excused student as absent.
  it("counts an excused student as excused in the live frame, as the roster does", async () => {
    const w = await attendanceWorld(2);
    const staffSocket = await connectAs(w.teacher, "group-room", w.group.id);
    const open = await call(`/api/lectures/${w.lecture.slug}/attendance/open`, { body: { rotateSeconds: 0, durationMinutes: 30 }, token: w.teacher.accessToken });
    const code = ((await open.json()) as { session: { code: string } }).session.code;
    expect((await call("/api/attendance", { body: { lectureId: w.lecture._id, userId: w.members[1]!.user.id, status: "excused" }, token: w.teacher.accessToken })).status).toBe(200);
    const excusedFrame = await staffSocket.next("attendance.marked");
    // Not checked in yet counts as absent, in the frame as in the roster.
    expect(excusedFrame).toMatchObject({ counts: { present: 0, late: 0, excused: 1, absent: 1, members: 2 } });
    expect((await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code }, token: w.members[0]!.accessToken })).status).toBe(200);
    const frame = await staffSocket.next("attendance.marked", (f: { record?: { user: { _id: string } } }) => f.record?.user._id === w.members[0]!.user.id);
    expect(frame).toMatchObject({ counts: { present: 1, late: 0, excused: 1, absent: 0, members: 2 } });
  });
});

describe("who sees a group's inside", () => {
  // Mistake: any membership row (a pending request, a refused, departed or removed student) opens the group's inside.
  it("shows lectures and tasks to approved and special members only, not to pending, rejected, departed or removed ones", async () => {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const group = await createGroup({ instructorId: teacher.user.id });
    expect((await call(`/api/lectures/group/${group.slug}`, { body: { title: "Inside", published: true }, token: teacher.accessToken })).status).toBe(201);
    const statuses = ["pending", "approved", "special", "rejected", "left", "removed"] as const;
    const seen: Record<string, number> = {};
    for (const status of statuses) {
      const who = await signIn(await createUser());
      await addMember(who.user, group, status);
      seen[status] = (await call(`/api/lectures/groups/${group.slug}/tasks`, { token: who.accessToken })).status;
    }
    expect(seen).toEqual({ pending: 403, approved: 200, special: 200, rejected: 403, left: 403, removed: 403 });
  });
});
