/**
 * Scheduled publishing (issue 22): staff set a time at which a draft lecture or quiz is published, or a task shown,
 * and the server does it then and tells the members, with nobody reading anything: the group's Publisher (a Durable
 * Object alarm, run here in workerd) and, as a safety net, the five-minute cron. Until then students see nothing of it.
 */
import { createExecutionContext, createScheduledController, env, runDurableObjectAlarm, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import worker from "../../worker/index";
import type { Publisher } from "../../worker/realtime/publisher";
import { addMember, call, createGroup, createUser, signIn, type ErrorBody, viewerOf } from "./factories";
import { db, gatedContext, serviceContext, unique } from "./helpers";
import { setSchedule } from "../../worker/services/schedule";
import { updateLecture } from "../../worker/services/lectures";
import { updateQuiz } from "../../worker/services/quizzes";
import { newId } from "../../worker/services/ids";

const publishers = () => (env as unknown as { Publisher: DurableObjectNamespace<Publisher> }).Publisher;
const publisherOf = (groupId: string) => publishers().get(publishers().idFromName(groupId));
const ringsAt = (groupId: string) => runInDurableObject(publisherOf(groupId), (_i: Publisher, state) => state.storage.getAlarm());

async function world() {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const student = await signIn(await createUser());
  await addMember(student.user, group);
  const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: unique("Week"), published: true }, token: teacher.accessToken })).json()) as { _id: string; slug: string };
  return { teacher, group, student, lecture };
}
type World = Awaited<ReturnType<typeof world>>;

const schedule = async (w: World, kind: string, id: string, publishAt: string | null, token = w.teacher.accessToken) => {
  const res = await call(`/api/schedule/${kind}/${id}`, { method: "PUT", body: { publishAt }, token });
  return { status: res.status, body: (await res.json()) as { publishAt: string | null; published: boolean } & ErrorBody };
};
const notes = (userId: string, kind: string) => db().select().from(s.notifications).where(and(eq(s.notifications.userId, userId), eq(s.notifications.kind, kind))).orderBy(s.notifications.createdAt);
/** Moves every schedule of the group to one second ago, as if the time had come. */
async function timeComes(table: typeof s.lectures | typeof s.quizzes | typeof s.tasks, id: string) {
  await db().update(table).set({ publishAt: new Date(Date.now() - 1_000) }).where(eq(table.id, id));
}

describe("scheduled publishing", () => {
  it("hides a scheduled task from students until the group's alarm shows it and tells them, with nobody reading", async () => {
    const w = await world();
    const at = new Date(Date.now() + 3 * 3_600_000);
    const made = await call(`/api/lectures/${w.lecture.slug}/tasks`, { body: { title: "Portfolio", publishAt: at.toISOString() }, token: w.teacher.accessToken });
    expect(made.status).toBe(201);
    const task = (await made.json()) as { _id: string; slug: string; publishAt: string };
    expect(task.publishAt).toBe(at.toISOString());
    // The Publisher rings at that time.
    expect(await ringsAt(w.group.id)).toBe(at.getTime());
    // Nothing yet for the student: not the task, not in the lists, no notification.
    expect((await call(`/api/lectures/${w.lecture.slug}/tasks/${task.slug}`, { token: w.student.accessToken })).status).toBe(404);
    const list = (await (await call(`/api/lectures/groups/${w.group.slug}/tasks`, { token: w.student.accessToken })).json()) as { slug: string }[];
    expect(list.map((t) => t.slug)).not.toContain(task.slug);
    expect((await call(`/api/lectures/${w.lecture.slug}/submit-task/${task.slug}`, { body: { link: "https://github.com/me/site" }, token: w.student.accessToken })).status).toBe(404);
    expect(await notes(w.student.user.id, "task-created")).toEqual([]);
    // Nor as a code exercise (its own API), even with the exercise published.
    await db().insert(s.exercises).values({ taskId: task._id, tests: [{ name: "t", call: "f()", expected: "1", hidden: false, points: 1 }] as never, referenceSolution: "function f() { return 1 }", published: true, verifiedAt: new Date(), updatedAt: new Date() });
    expect((await call(`/api/exercises/${task.slug}`, { token: w.student.accessToken })).status).toBe(404);
    // Staff see it, scheduled.
    const staffList = (await (await call(`/api/lectures/groups/${w.group.slug}/tasks`, { token: w.teacher.accessToken })).json()) as { slug: string; publishAt: string | null }[];
    expect(staffList.find((t) => t.slug === task.slug)?.publishAt).toBe(at.toISOString());

    await timeComes(s.tasks, task._id);
    expect(await runDurableObjectAlarm(publisherOf(w.group.id))).toBe(true);
    expect((await call(`/api/lectures/${w.lecture.slug}/tasks/${task.slug}`, { token: w.student.accessToken })).status).toBe(200);
    expect((await call(`/api/exercises/${task.slug}`, { token: w.student.accessToken })).status).toBe(200);
    const [note] = await notes(w.student.user.id, "task-created");
    expect(note).toMatchObject({ link: `/course/${w.group.slug}/lecture/${w.lecture.slug}/Add-Task/${task.slug}` });
    // Once: the alarm ringing again announces nothing more, and rings no more.
    expect(await runDurableObjectAlarm(publisherOf(w.group.id))).toBe(false);
    expect(await ringsAt(w.group.id)).toBeNull();
    expect(await notes(w.student.user.id, "task-created")).toHaveLength(1);
  });

  it("publishes nothing in an archived group, tells its members nothing, stops ringing, and refuses a new time (409)", async () => {
    const w = await world();
    const admin = await signIn(await createUser({ role: "admin" }));
    const draft = (await (await call(`/api/lectures/group/${w.group.slug}`, { body: { title: "Week after the end" }, token: w.teacher.accessToken })).json()) as { _id: string; slug: string };
    const task = (await (await call(`/api/lectures/${w.lecture.slug}/tasks`, { body: { title: "Late homework", publishAt: new Date(Date.now() + 3_600_000).toISOString() }, token: w.teacher.accessToken })).json()) as { _id: string; slug: string };
    expect((await schedule(w, "lecture", draft.slug, new Date(Date.now() + 3_600_000).toISOString())).status).toBe(200);
    // The cohort ends: the admin archives the group before the times come.
    expect((await call(`/api/groups/${w.group.slug}`, { method: "PUT", body: { status: "archived" }, token: admin.accessToken })).status).toBe(200);
    await timeComes(s.lectures, draft._id);
    await timeComes(s.tasks, task._id);
    const before = (await notes(w.student.user.id, "lecture-published")).length;
    // The alarm rings, publishes nothing and sets no new alarm (ringing again at once, forever, was the risk).
    await runDurableObjectAlarm(publisherOf(w.group.id));
    expect((await db().select().from(s.lectures).where(eq(s.lectures.id, draft._id)))[0]!.published).toBe(false);
    expect((await call(`/api/lectures/${w.lecture.slug}/tasks/${task.slug}`, { token: w.student.accessToken })).status).toBe(404);
    expect(await notes(w.student.user.id, "lecture-published")).toHaveLength(before);
    expect(await notes(w.student.user.id, "task-created")).toEqual([]);
    expect(await ringsAt(w.group.id)).toBeNull();
    // Nor the cron's sweep of every group.
    const controller = createScheduledController({ scheduledTime: new Date(), cron: "*/5 * * * *" });
    const ctx = createExecutionContext();
    await worker.scheduled!(controller, env as never, ctx);
    await waitOnExecutionContext(ctx);
    expect((await db().select().from(s.lectures).where(eq(s.lectures.id, draft._id)))[0]!.published).toBe(false);
    // A new time in it would never come: refused, in words.
    const refused = await schedule(w, "lecture", draft.slug, new Date(Date.now() + 7_200_000).toISOString());
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("group_archived");
    // Brought back, what was due goes out (and is announced) at the next ring.
    expect((await call(`/api/groups/${w.group.slug}`, { method: "PUT", body: { status: "published" }, token: admin.accessToken })).status).toBe(200);
    await runDurableObjectAlarm(publisherOf(w.group.id));
    const sweep = createExecutionContext();
    await worker.scheduled!(controller, env as never, sweep);
    await waitOnExecutionContext(sweep);
    expect((await db().select().from(s.lectures).where(eq(s.lectures.id, draft._id)))[0]!.published).toBe(true);
    expect(await notes(w.student.user.id, "lecture-published")).toHaveLength(before + 1);
  });

  it("publishes a draft lecture and a quiz at their times, one alarm after the other", async () => {
    const w = await world();
    const draft = (await (await call(`/api/lectures/group/${w.group.slug}`, { body: { title: "Week later" }, token: w.teacher.accessToken })).json()) as { _id: string; slug: string };
    const quizRes = await call("/api/quizzes", {
      body: { lectureId: w.lecture.slug, title: "Check", questions: [{ text: "1 + 1?", type: "single", options: ["1", "2"], correct: [1], points: 1 }] },
      token: w.teacher.accessToken,
    });
    expect(quizRes.status).toBe(201);
    const quiz = (await quizRes.json()) as { _id: string; slug: string };
    const soon = Date.now() + 3_600_000;
    const later = soon + 3_600_000;
    expect((await schedule(w, "lecture", draft.slug, new Date(later).toISOString())).body).toMatchObject({ publishAt: new Date(later).toISOString(), published: false });
    expect((await schedule(w, "quiz", quiz.slug, new Date(soon).toISOString())).status).toBe(200);
    // The earlier of the two.
    expect(await ringsAt(w.group.id)).toBe(soon);
    const lectures = (await (await call(`/api/lectures/group/${w.group.slug}`, { token: w.teacher.accessToken })).json()) as { slug: string; publishAt: string | null }[];
    expect(lectures.find((l) => l.slug === draft.slug)?.publishAt).toBe(new Date(later).toISOString());

    await timeComes(s.quizzes, quiz._id);
    expect(await runDurableObjectAlarm(publisherOf(w.group.id))).toBe(true);
    const [q] = await db().select().from(s.quizzes).where(eq(s.quizzes.id, quiz._id));
    expect(q).toMatchObject({ published: true, publishAt: null });
    expect(await notes(w.student.user.id, "quiz-published")).toHaveLength(1);
    // The lecture is still a draft, and the alarm now rings for it.
    expect((await db().select().from(s.lectures).where(eq(s.lectures.id, draft._id)))[0]!.published).toBe(false);
    expect(await ringsAt(w.group.id)).toBe(later);

    await timeComes(s.lectures, draft._id);
    expect(await runDurableObjectAlarm(publisherOf(w.group.id))).toBe(true);
    expect((await db().select().from(s.lectures).where(eq(s.lectures.id, draft._id)))[0]).toMatchObject({ published: true, publishAt: null });
    // (The first note is the lecture the world published at once.)
    const links = (await notes(w.student.user.id, "lecture-published")).map((n) => n.link);
    expect(links).toEqual([`/course/${w.group.slug}/lecture/${w.lecture.slug}`, `/course/${w.group.slug}/lecture/${draft.slug}`]);
  });

  it("a quiz whose bank draws cannot be filled is not scheduled, and one the bank lost questions for stays a draft and its instructor is told", async () => {
    const w = await world();
    const bank = (text: string) => ({ id: newId(), groupId: w.group.id, text, type: "single" as const, options: ["yes", "no"], correct: [0], tags: ["primes"], updatedAt: new Date() });
    await db().insert(s.bankQuestions).values([bank("Is 7 prime?"), bank("Is 9 prime?")]);
    const quizRes = await call("/api/quizzes", { body: { lectureId: w.lecture.slug, title: "Drawn check", questions: [], draws: [{ tag: "primes", count: 2, points: 1 }] }, token: w.teacher.accessToken });
    expect(quizRes.status).toBe(201);
    const quiz = (await quizRes.json()) as { _id: string; slug: string };
    const soon = new Date(Date.now() + 3_600_000).toISOString();
    expect((await schedule(w, "quiz", quiz.slug, soon)).status).toBe(200);
    // One of the two questions is deleted before the time comes: the publisher leaves the quiz a draft.
    await db().delete(s.bankQuestions).where(eq(s.bankQuestions.text, "Is 9 prime?"));
    await timeComes(s.quizzes, quiz._id);
    expect(await runDurableObjectAlarm(publisherOf(w.group.id))).toBe(true);
    expect((await db().select().from(s.quizzes).where(eq(s.quizzes.id, quiz._id)))[0]).toMatchObject({ published: false, publishAt: null });
    expect(await notes(w.student.user.id, "quiz-published")).toHaveLength(0);
    expect((await notes(w.teacher.user.id, "quiz-not-published")).map((n) => n.params)).toEqual([{ quiz: "Drawn check" }]);
    // Scheduling it again is refused as publishing it by hand is, naming the draws.
    const again = await schedule(w, "quiz", quiz.slug, soon);
    expect(again.status).toBe(400);
    expect(again.body.fields).toHaveProperty("draws");
  });

  it("the publisher reads the bank by the same rule as a quiz's save: questions shared by two draws can leave one short", async () => {
    const w = await world();
    const bank = (text: string, tags: string[]) => ({ id: newId(), groupId: w.group.id, text, type: "single" as const, options: ["yes", "no"], correct: [0], tags, updatedAt: new Date() });
    await db().insert(s.bankQuestions).values([bank("Is 7 prime?", ["primes"]), bank("Is 9 prime?", ["primes"]), bank("Is 4 even?", ["evens"]), bank("Is 6 even?", ["evens"])]);
    const quizRes = await call("/api/quizzes", { body: { lectureId: w.lecture.slug, title: "Two draws", questions: [], draws: [{ tag: "primes", count: 2, points: 1 }, { tag: "evens", count: 2, points: 1 }] }, token: w.teacher.accessToken });
    expect(quizRes.status).toBe(201);
    const quiz = (await quizRes.json()) as { _id: string; slug: string };
    expect((await schedule(w, "quiz", quiz.slug, new Date(Date.now() + 3_600_000).toISOString())).status).toBe(200);
    // Changed behind the bank's own checks: "Is 9 prime?" now carries both tags and "Is 6 even?" is gone. Each tag still
    // counts 2, but a paper that draws "Is 9 prime?" for the primes has one even question left for a draw of 2.
    await db().update(s.bankQuestions).set({ tags: ["primes", "evens"] }).where(and(eq(s.bankQuestions.groupId, w.group.id), eq(s.bankQuestions.text, "Is 9 prime?")));
    await db().delete(s.bankQuestions).where(and(eq(s.bankQuestions.groupId, w.group.id), eq(s.bankQuestions.text, "Is 6 even?")));
    await timeComes(s.quizzes, quiz._id);
    expect(await runDurableObjectAlarm(publisherOf(w.group.id))).toBe(true);
    expect((await db().select().from(s.quizzes).where(eq(s.quizzes.id, quiz._id)))[0]).toMatchObject({ published: false, publishAt: null });
    expect((await notes(w.teacher.user.id, "quiz-not-published")).map((n) => n.params)).toEqual([{ quiz: "Two draws" }]);
  });

  it("the cron tells each group's own instructor of their quiz the bank cannot fill, and only them", async () => {
    const drafts = [];
    for (const title of ["Primes A", "Primes B"]) {
      const w = await world();
      await db().insert(s.bankQuestions).values({ id: newId(), groupId: w.group.id, text: "Is 7 prime?", type: "single", options: ["yes", "no"], correct: [0], tags: ["primes"], updatedAt: new Date() });
      const quiz = (await (await call("/api/quizzes", { body: { lectureId: w.lecture.slug, title, questions: [], draws: [{ tag: "primes", count: 1, points: 1 }] }, token: w.teacher.accessToken })).json()) as { _id: string; slug: string };
      expect((await schedule(w, "quiz", quiz.slug, new Date(Date.now() + 3_600_000).toISOString())).status).toBe(200);
      await db().delete(s.bankQuestions).where(eq(s.bankQuestions.groupId, w.group.id));
      await timeComes(s.quizzes, quiz._id);
      drafts.push({ w, title });
    }
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ scheduledTime: new Date(), cron: "*/5 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    for (const { w, title } of drafts) {
      const told = await notes(w.teacher.user.id, "quiz-not-published");
      expect(told.map((n) => ({ params: n.params, link: n.link }))).toEqual([{ params: { quiz: title }, link: `/instructor/group/${w.group.slug}/quizzes` }]);
    }
  });

  it("announces a scheduled lecture once when attendance opens first, and never hides a task students were told of", async () => {
    const w = await world();
    const draft = (await (await call(`/api/lectures/group/${w.group.slug}`, { body: { title: "Live soon" }, token: w.teacher.accessToken })).json()) as { _id: string; slug: string };
    await schedule(w, "lecture", draft.slug, new Date(Date.now() + 3_600_000).toISOString());
    // Opening attendance publishes it now, and ends its schedule.
    expect((await call(`/api/lectures/${draft.slug}/attendance/open`, { body: { rotateSeconds: 0, lateAfterMinutes: 10, durationMinutes: 30 }, token: w.teacher.accessToken })).status).toBe(200);
    expect((await db().select().from(s.lectures).where(eq(s.lectures.id, draft._id)))[0]).toMatchObject({ published: true, publishAt: null });
    await runDurableObjectAlarm(publisherOf(w.group.id));
    const told = (await notes(w.student.user.id, "lecture-published")).filter((n) => n.link?.endsWith(`/lecture/${draft.slug}`));
    expect(told).toHaveLength(1);

    // A task on a published lecture was announced when it was made: it cannot go into hiding until later.
    const task = (await (await call(`/api/lectures/${w.lecture.slug}/tasks`, { body: { title: "Shown" }, token: w.teacher.accessToken })).json()) as { _id: string; slug: string };
    const hide = await schedule(w, "task", task.slug, new Date(Date.now() + 3_600_000).toISOString());
    expect(hide.status).toBe(409);
    expect(hide.body.code).toBe("already_shown");
    expect((await db().select().from(s.tasks).where(eq(s.tasks.id, task._id)))[0]!.publishAt).toBeNull();
    expect((await call(`/api/lectures/${w.lecture.slug}/tasks/${task.slug}`, { token: w.student.accessToken })).status).toBe(200);
  });

  it("schedules a task on a published lecture of a draft group (the next cohort's copy): no student sees it yet", async () => {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const next = await createGroup({ instructorId: teacher.user.id, status: "draft" });
    const lecture = (await (await call(`/api/lectures/group/${next.slug}`, { body: { title: unique("Week one"), published: true }, token: teacher.accessToken })).json()) as { slug: string };
    const task = (await (await call(`/api/lectures/${lecture.slug}/tasks`, { body: { title: "Homework" }, token: teacher.accessToken })).json()) as { _id: string; slug: string };
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const res = await call(`/api/schedule/task/${task.slug}`, { method: "PUT", body: { publishAt: at }, token: teacher.accessToken });
    expect(res.status).toBe(200);
    expect((await db().select().from(s.tasks).where(eq(s.tasks.id, task._id)))[0]!.publishAt?.toISOString()).toBe(at);
  });

  it("the five-minute cron publishes what an alarm missed", async () => {
    const w = await world();
    const draft = (await (await call(`/api/lectures/group/${w.group.slug}`, { body: { title: "Missed" }, token: w.teacher.accessToken })).json()) as { _id: string; slug: string };
    await db().update(s.lectures).set({ publishAt: new Date(Date.now() - 60_000) }).where(eq(s.lectures.id, draft._id));
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ scheduledTime: new Date(), cron: "*/5 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect((await db().select().from(s.lectures).where(eq(s.lectures.id, draft._id)))[0]).toMatchObject({ published: true, publishAt: null });
    expect((await notes(w.student.user.id, "lecture-published")).filter((n) => n.link?.endsWith(`/lecture/${draft.slug}`))).toHaveLength(1);
  });

  it("null takes a quiz's schedule off and shows a scheduled task now; publishing by hand ends a schedule", async () => {
    const w = await world();
    const draft = (await (await call(`/api/lectures/group/${w.group.slug}`, { body: { title: "By hand" }, token: w.teacher.accessToken })).json()) as { _id: string; slug: string };
    const at = new Date(Date.now() + 86_400_000).toISOString();
    await schedule(w, "lecture", draft.slug, at);
    expect((await call(`/api/lectures/${draft.slug}`, { method: "PUT", body: { published: true }, token: w.teacher.accessToken })).status).toBe(200);
    expect((await db().select().from(s.lectures).where(eq(s.lectures.id, draft._id)))[0]).toMatchObject({ published: true, publishAt: null });

    const task = (await (await call(`/api/lectures/${w.lecture.slug}/tasks`, { body: { title: "Later", publishAt: at }, token: w.teacher.accessToken })).json()) as { _id: string; slug: string };
    const now = await schedule(w, "task", task.slug, null);
    expect(now.body).toMatchObject({ publishAt: null, published: true });
    expect((await call(`/api/lectures/${w.lecture.slug}/tasks/${task.slug}`, { token: w.student.accessToken })).status).toBe(200);
    expect(await notes(w.student.user.id, "task-created")).toHaveLength(1);
  });

  // Published by hand between the schedule's check and its write (another tab): the schedule is refused, so the
  // lecture is not announced a second time when it comes due.
  it("refuses a schedule for a lecture or quiz published by hand between its check and its write", async () => {
    const w = await world();
    const teacher = viewerOf(w.teacher);
    const draft = (await (await call(`/api/lectures/group/${w.group.slug}`, { body: { title: unique("Draft"), published: false }, token: w.teacher.accessToken })).json()) as { _id: string; slug: string };
    const background = serviceContext();
    const later = Date.now() + 3_600_000;
    const gated = gatedContext(/^update "lectures"/, () => updateLecture(background.ctx, teacher, draft._id, { published: true }));
    await expect(setSchedule(gated, teacher, "lecture", draft._id, later)).rejects.toMatchObject({ status: 409, code: "already_published" });
    expect((await db().select({ publishAt: s.lectures.publishAt, published: s.lectures.published }).from(s.lectures).where(eq(s.lectures.id, draft._id)))[0]).toEqual({ publishAt: null, published: true });
    const quiz = (await (await call("/api/quizzes", { body: { lectureId: w.lecture.slug, title: unique("Quiz"), questions: [{ text: "2 + 2?", type: "single", options: ["3", "4"], correct: 1 }], published: false }, token: w.teacher.accessToken })).json()) as { _id: string };
    const gatedQuiz = gatedContext(/^update "quizzes"/, () => updateQuiz(background.ctx, teacher, quiz._id, { published: true }));
    await expect(setSchedule(gatedQuiz, teacher, "quiz", quiz._id, later)).rejects.toMatchObject({ status: 409, code: "already_published" });
    expect((await db().select({ publishAt: s.quizzes.publishAt }).from(s.quizzes).where(eq(s.quizzes.id, quiz._id)))[0]!.publishAt).toBeNull();
    await background.settle();
  });

  // Shown (another tab, or its own time coming) and handed in between the schedule's check and its write: the task
  // must not vanish from the students who saw it and the one who handed it in.
  it("refuses to hide a task shown, or shown and handed in, between the schedule's check and its write", async () => {
    const w = await world();
    const teacher = viewerOf(w.teacher);
    const background = serviceContext();
    const soon = new Date(Date.now() + 3_600_000).toISOString();
    const later = Date.now() + 7_200_000;
    const scheduledTask = async () => (await (await call(`/api/lectures/${w.lecture.slug}/tasks`, { body: { title: unique("Later"), publishAt: soon }, token: w.teacher.accessToken })).json()) as { _id: string; slug: string };
    const row = async (id: string) => (await db().select({ publishAt: s.tasks.publishAt }).from(s.tasks).where(eq(s.tasks.id, id)))[0];

    const handedInTask = await scheduledTask();
    const showAndHandIn = async () => {
      await setSchedule(background.ctx, teacher, "task", handedInTask._id, null);
      expect((await call(`/api/lectures/${w.lecture.slug}/submit-task/${handedInTask.slug}`, { body: { link: "https://github.com/me/site" }, token: w.student.accessToken })).status).toBe(201);
    };
    await expect(setSchedule(gatedContext(/^update "tasks"/, showAndHandIn), teacher, "task", handedInTask._id, later)).rejects.toMatchObject({ status: 409, code: "already_handed_in" });
    expect(await row(handedInTask._id)).toEqual({ publishAt: null });
    expect((await call(`/api/lectures/${w.lecture.slug}/tasks/${handedInTask.slug}`, { token: w.student.accessToken })).status).toBe(200);

    const shownTask = await scheduledTask();
    const show = () => setSchedule(background.ctx, teacher, "task", shownTask._id, null);
    await expect(setSchedule(gatedContext(/^update "tasks"/, show), teacher, "task", shownTask._id, later)).rejects.toMatchObject({ status: 409, code: "already_shown" });
    expect(await row(shownTask._id)).toEqual({ publishAt: null });

    // Nothing between: a scheduled task is moved to its new time.
    const movedTask = await scheduledTask();
    await setSchedule(serviceContext().ctx, teacher, "task", movedTask._id, later);
    expect((await row(movedTask._id))!.publishAt!.getTime()).toBe(later);
    await background.settle();
  });

  it("refuses past times, published drafts, handed-in tasks, strangers and bad input", async () => {
    const w = await world();
    const other = await signIn(await createUser({ role: "instructor" }));
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const past = await schedule(w, "lecture", w.lecture.slug, new Date(Date.now() - 3_600_000).toISOString());
    expect(past.status).toBe(400);
    expect(past.body.fields?.publishAt).toBe("Choose a time in the future.");
    // The lecture is published already.
    expect((await schedule(w, "lecture", w.lecture.slug, future)).status).toBe(409);
    const task = (await (await call(`/api/lectures/${w.lecture.slug}/tasks`, { body: { title: "Shown" }, token: w.teacher.accessToken })).json()) as { slug: string };
    expect((await call(`/api/lectures/${w.lecture.slug}/submit-task/${task.slug}`, { body: { link: "https://github.com/me/site" }, token: w.student.accessToken })).status).toBe(201);
    const handedIn = await schedule(w, "task", task.slug, future);
    expect(handedIn.status).toBe(409);
    expect(handedIn.body.message).toBe("Students already handed this task in, so it cannot be hidden until later.");
    expect((await schedule(w, "task", task.slug, future, w.student.accessToken)).status).toBe(403);
    expect((await schedule(w, "task", task.slug, future, other.accessToken)).status).toBe(403);
    expect((await call(`/api/schedule/task/${task.slug}`, { method: "PUT", body: { publishAt: future } })).status).toBe(401);
    expect((await schedule(w, "group", task.slug, future)).status).toBe(400);
    expect((await schedule(w, "task", "no-such-task", future)).status).toBe(404);
    expect((await schedule(w, "task", task.slug, "tomorrow")).status).toBe(400);
    const pastTask = await call(`/api/lectures/${w.lecture.slug}/tasks`, { body: { title: "Past", publishAt: new Date(Date.now() - 3_600_000).toISOString() }, token: w.teacher.accessToken });
    expect(pastTask.status).toBe(400);
  });
});

describe("a task is shown before it is due", () => {
  it("refuses a publishing time at or after the due time, on creation and when scheduled later; an earlier one is kept", async () => {
    const w = await world();
    const due = new Date(Date.now() + 10 * 86_400_000);
    const create = (publishAt: Date, title = `Task ${unique("t")}`) =>
      call(`/api/lectures/${w.lecture.slug}/tasks`, { body: { title, dueAt: due.toISOString(), publishAt: publishAt.toISOString() }, token: w.teacher.accessToken });
    const title = `Never made ${unique("t")}`;
    for (const late of [new Date(due.getTime() + 31 * 86_400_000), due]) {
      const refused = await create(late, title);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ code: "publish_after_due", fields: { publishAt: "Students must see a task before it is due: choose a time before its due time." } });
    }
    expect(await db().select().from(s.tasks).where(eq(s.tasks.title, title))).toHaveLength(0);
    const made = await create(new Date(due.getTime() - 86_400_000));
    expect(made.status).toBe(201);
    const task = (await made.json()) as { _id: string; publishAt: string };
    expect(task.publishAt).toBe(new Date(due.getTime() - 86_400_000).toISOString());
    const later = await schedule(w, "task", task._id, new Date(due.getTime() + 3_600_000).toISOString());
    expect(later.status).toBe(400);
    expect(later.body.code).toBe("publish_after_due");
    expect((await db().select({ publishAt: s.tasks.publishAt }).from(s.tasks).where(eq(s.tasks.id, task._id)))[0]?.publishAt?.toISOString()).toBe(task.publishAt);
    // Nor is its due time moved to or before the time it shows.
    const moved = await call(`/api/lectures/${w.lecture.slug}/tasks/${task._id}`, { method: "PUT", body: { dueAt: task.publishAt }, token: w.teacher.accessToken });
    expect(moved.status).toBe(400);
    expect(await moved.json()).toMatchObject({ code: "publish_after_due", fields: { dueAt: "Students see this task only from its publishing time: choose a due time after it." } });
    expect((await db().select({ dueAt: s.tasks.dueAt }).from(s.tasks).where(eq(s.tasks.id, task._id)))[0]?.dueAt?.getTime()).toBe(due.getTime());
  });
});
