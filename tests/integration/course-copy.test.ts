/**
 * Reusing a course (issue 22): a new group from an existing one has every lecture, task, exercise, rubric, quiz
 * (with questions), bank question and outline item, unpublished, with every date moved so the first lecture falls on
 * the new start date at the same wall-clock hour in the group's time zone (daylight saving included); no student data
 * goes along. One lecture can be copied into another group the same staff member runs. A copy is a fixed number of
 * D1 statements whatever the group's size.
 */
import { eq, inArray } from "drizzle-orm";
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { copyGroup } from "../../worker/services/course-copy";
import type { Publisher } from "../../worker/realtime/publisher";
import { newId } from "../../worker/services/ids";
import { addCourseContent, addMember, call, createGroup, createUser, signIn, type ErrorBody } from "./factories";
import { countingContext, db, unique } from "./helpers";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Cairo's wall clock of an instant, as "YYYY-MM-DD HH:MM" and its weekday. */
function cairo(at: Date | null) {
  if (!at) return null;
  const f = new Intl.DateTimeFormat("en-CA", { timeZone: "Africa/Cairo", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23", weekday: "short" });
  const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, x.value]));
  return `${p.weekday} ${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

/** A group run by `teacher` with two lectures in January 2027 (Cairo winter time), their work, and student data. */
async function sourceGroup(lectureCount = 2) {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const student = await createUser();
  const group = await createGroup({ instructorId: teacher.user.id });
  await db().update(s.groups).set({ completionOverall: 70, completionAttendance: 80, description: "Learn the web", capacity: 25 }).where(eq(s.groups.id, group.id));
  await addMember(student, group);
  await addCourseContent(group, 0, "HTML");
  await addCourseContent(group, 1, "CSS");
  const rubricId = newId();
  await db().insert(s.rubrics).values({ id: rubricId, groupId: group.id, title: "Page rubric", criteria: [{ id: "c", title: "Layout", description: "", levels: [{ title: "Good", description: "", points: 5 }, { title: "None", description: "", points: 0 }] }], updatedAt: new Date() });
  await db().insert(s.bankQuestions).values({ id: newId(), groupId: group.id, text: "2 + 2?", type: "single", options: ["3", "4"], correct: [1], tags: ["math"], updatedAt: new Date() });
  const ids = { lectures: [] as string[], tasks: [] as string[], quizzes: [] as string[] };
  // Monday 11 January 2027, 18:00 in Cairo (UTC+2 in winter), then every Wednesday and Monday.
  const first = Date.UTC(2027, 0, 11, 16, 0);
  for (let i = 0; i < lectureCount; i++) {
    const lectureId = newId();
    ids.lectures.push(lectureId);
    const startsAt = new Date(first + (i % 2 === 0 ? (i / 2) * 7 : (i - 1) / 2 * 7 + 2) * DAY);
    await db().insert(s.lectures).values({ id: lectureId, groupId: group.id, slug: unique("lec"), title: `Week ${i + 1}`, body: "# Notes", videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ", resources: [{ title: "MDN", url: "https://developer.mozilla.org" }], startsAt, order: i, published: true });
    const taskId = newId();
    ids.tasks.push(taskId);
    await db().insert(s.tasks).values({ id: taskId, lectureId, slug: unique("task"), title: `Task ${i + 1}`, body: "Build it", dueAt: new Date(startsAt.getTime() + 6 * DAY + 5 * HOUR + 59 * 60_000), maxScore: 5, rubricId });
    const codeTaskId = newId();
    ids.tasks.push(codeTaskId);
    await db().insert(s.tasks).values({ id: codeTaskId, lectureId, slug: unique("code"), title: `Exercise ${i + 1}`, dueAt: null });
    await db().insert(s.exercises).values({ taskId: codeTaskId, starterCode: "function add(a, b) {}", tests: [{ name: "adds", call: "add(1, 2)", expected: "3", hidden: false, points: 1 }] as never, referenceSolution: "function add(a, b) { return a + b }", published: true, verifiedAt: new Date(), updatedAt: new Date() });
    const quizId = newId();
    ids.quizzes.push(quizId);
    await db().insert(s.quizzes).values({ id: quizId, lectureId, groupId: group.id, slug: unique("quiz"), title: `Quiz ${i + 1}`, durationMinutes: 20, opensAt: startsAt, closesAt: new Date(startsAt.getTime() + 2 * DAY), maxAttempts: 2, showAnswers: "after-close", published: true });
    await db().insert(s.questions).values([
      { id: newId(), quizId, text: "Which tag is a link?", type: "single", options: ["<a>", "<p>"], correct: [0], points: 2, order: 0 },
      { id: newId(), quizId, text: "Name the box model's outer layer", type: "short-text", options: [], correct: ["margin"], points: 1, order: 1 },
    ]);
    // Student data that must not travel.
    await db().insert(s.submissions).values({ id: newId(), taskId, userId: student.id, link: "https://github.com/me/x", submittedAt: new Date(), score: 4 } as never);
    await db().insert(s.attempts).values({ id: newId(), quizId, userId: student.id, answers: { a: 0 }, startedAt: new Date(), submittedAt: new Date(), score: 2, maxScore: 3 });
    await db().insert(s.attendance).values({ id: newId(), lectureId, userId: student.id, status: "present", method: "manual", markedAt: new Date() });
  }
  await db().insert(s.messages).values({ groupId: group.id, authorId: student.id, text: "Hello class" });
  return { teacher, student, group, rubricId, ids, first };
}

async function copy(token: string, from: string, body: Record<string, unknown>) {
  const res = await call(`/api/groups/${from}/copy`, { body, token });
  return { status: res.status, body: (await res.json()) as { group: { _id: string; slug: string; status: string; instructorId: string | null; start_date: string | null }; copied: Record<string, number>; shiftedDays: number } & ErrorBody };
}

describe("copying a group", () => {
  it("copies the material, unpublished, with every date on the new calendar at its Cairo hour, and no student data", async () => {
    const w = await sourceGroup(2);
    // Saturday 3 July 2027 would break the weekdays; Monday 5 July 2027 keeps them (Cairo is on summer time, UTC+3).
    const { status, body } = await copy(w.teacher.accessToken, w.group.slug, { title: "Web basics, July cohort", startDate: "2027-07-05" });
    expect(status).toBe(201);
    expect(body.copied).toEqual({ lectures: 2, tasks: 4, quizzes: 2, questions: 4 });
    expect(body.shiftedDays).toBe(175);
    const g = body.group;
    expect(g).toMatchObject({ status: "draft", start_date: "2027-07-05" });
    const [row] = await db().select().from(s.groups).where(eq(s.groups.id, g._id));
    expect(row).toMatchObject({ instructorId: w.teacher.user.id, description: "Learn the web", capacity: 25, completionOverall: 70, completionAttendance: 80, timeZone: "Africa/Cairo" });

    const lectures = await db().select().from(s.lectures).where(eq(s.lectures.groupId, g._id)).orderBy(s.lectures.order);
    expect(lectures.map((l) => [l.title, l.published, cairo(l.startsAt)])).toEqual([
      ["Week 1", false, "Mon 2027-07-05 18:00"],
      ["Week 2", false, "Wed 2027-07-07 18:00"],
    ]);
    expect(lectures[0]).toMatchObject({ body: "# Notes", videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ", resources: [{ title: "MDN", url: "https://developer.mozilla.org" }] });
    // Summer time: the same 18:00 is an hour earlier in UTC.
    expect(lectures[0]!.startsAt!.getTime()).toBe(Date.UTC(2027, 6, 5, 15, 0));
    for (const l of lectures) expect(w.ids.lectures).not.toContain(l.id);

    const tasks = await db().select().from(s.tasks).where(inArray(s.tasks.lectureId, lectures.map((l) => l.id))).orderBy(s.tasks.title);
    expect(tasks.map((t) => [t.title, cairo(t.dueAt)])).toEqual([
      ["Exercise 1", null],
      ["Exercise 2", null],
      ["Task 1", "Sun 2027-07-11 23:59"],
      ["Task 2", "Tue 2027-07-13 23:59"],
    ]);
    const rubrics = await db().select().from(s.rubrics).where(eq(s.rubrics.groupId, g._id));
    expect(rubrics.map((r) => r.title)).toEqual(["Page rubric"]);
    expect(tasks.filter((t) => t.title.startsWith("Task")).every((t) => t.rubricId === rubrics[0]!.id)).toBe(true);
    const exercises = await db().select().from(s.exercises).where(inArray(s.exercises.taskId, tasks.map((t) => t.id)));
    expect(exercises).toHaveLength(2);
    expect(exercises[0]).toMatchObject({ referenceSolution: "function add(a, b) { return a + b }", starterCode: "function add(a, b) {}" });

    const quizzes = await db().select().from(s.quizzes).where(eq(s.quizzes.groupId, g._id)).orderBy(s.quizzes.title);
    expect(quizzes.map((q) => [q.title, q.published, cairo(q.opensAt), cairo(q.closesAt), q.lectureId === lectures[Number(q.title.slice(-1)) - 1]!.id])).toEqual([
      ["Quiz 1", false, "Mon 2027-07-05 18:00", "Wed 2027-07-07 18:00", true],
      ["Quiz 2", false, "Wed 2027-07-07 18:00", "Fri 2027-07-09 18:00", true],
    ]);
    const questions = await db().select().from(s.questions).where(inArray(s.questions.quizId, quizzes.map((q) => q.id))).orderBy(s.questions.order);
    expect(questions.map((q) => q.correct)).toEqual([[0], [0], ["margin"], ["margin"]]);
    expect((await db().select().from(s.bankQuestions).where(eq(s.bankQuestions.groupId, g._id))).map((q) => q.tags)).toEqual([["math"]]);
    expect((await db().select().from(s.courseContents).where(eq(s.courseContents.groupId, g._id)).orderBy(s.courseContents.order)).map((c) => c.title)).toEqual(["HTML", "CSS"]);

    // Nothing of the students: no members, hand-ins, attempts, attendance or chat.
    expect(await db().select().from(s.memberships).where(eq(s.memberships.groupId, g._id))).toEqual([]);
    expect(await db().select().from(s.submissions).where(inArray(s.submissions.taskId, tasks.map((t) => t.id)))).toEqual([]);
    expect(await db().select().from(s.attempts).where(inArray(s.attempts.quizId, quizzes.map((q) => q.id)))).toEqual([]);
    expect(await db().select().from(s.attendance).where(inArray(s.attendance.lectureId, lectures.map((l) => l.id)))).toEqual([]);
    expect(await db().select().from(s.messages).where(eq(s.messages.groupId, g._id))).toEqual([]);
    // The scratch map is empty again, and the source is untouched.
    expect(await db().select().from(s.copyMap)).toEqual([]);
    const source = await db().select().from(s.lectures).where(eq(s.lectures.groupId, w.group.id));
    expect(source.every((l) => l.published)).toBe(true);
  });

  it("moves dates across a daylight-saving change the other way and into another zone's calendar", async () => {
    const w = await sourceGroup(1);
    // From Cairo winter to Cairo winter a year on (no change), then to New York summer time.
    const same = await copy(w.teacher.accessToken, w.group.slug, { title: "January again", startDate: "2028-01-10" });
    expect(same.status).toBe(201);
    const [l1] = await db().select().from(s.lectures).where(eq(s.lectures.groupId, same.body.group._id));
    expect(cairo(l1!.startsAt)).toBe("Mon 2028-01-10 18:00");
    const ny = await copy(w.teacher.accessToken, w.group.slug, { title: "New York summer", startDate: "2027-06-07", timeZone: "America/New_York" });
    expect(ny.status).toBe(201);
    const [l2] = await db().select().from(s.lectures).where(eq(s.lectures.groupId, ny.body.group._id));
    // 18:00 Cairo winter wall-clock kept as 18:00 New York summer wall-clock: 22:00 UTC.
    expect(l2!.startsAt!.getTime()).toBe(Date.UTC(2027, 5, 7, 22, 0));
  });

  it("keeps the wall-clock hour of every week when the target zone changes its clocks between two of them", async () => {
    // Three Sundays at 08:00 in Cairo (UTC+2 in November), a task due at 08:00 on the second; copied to New York from
    // Sunday 7 March 2027, whose clocks go forward on the 14th at 02:00 (EST, UTC-5, then EDT, UTC-4).
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const group = await createGroup({ instructorId: teacher.user.id });
    const sundays = [Date.UTC(2026, 10, 22, 6), Date.UTC(2026, 10, 29, 6), Date.UTC(2026, 11, 6, 6)];
    const lectureIds = sundays.map(() => newId());
    await db().insert(s.lectures).values(sundays.map((at, i) => ({ id: lectureIds[i]!, groupId: group.id, slug: unique("dst"), title: `Sunday ${i + 1}`, startsAt: new Date(at), order: i, published: true })));
    await db().insert(s.tasks).values({ id: newId(), lectureId: lectureIds[1]!, slug: unique("due"), title: "Due on the second Sunday", dueAt: new Date(sundays[1]!) });
    const res = await copy(teacher.accessToken, group.slug, { title: "New York spring", startDate: "2027-03-07", timeZone: "America/New_York" });
    expect(res.status).toBe(201);
    const lectures = await db().select().from(s.lectures).where(eq(s.lectures.groupId, res.body.group._id)).orderBy(s.lectures.order);
    // 08:00 in New York each Sunday: 13:00 UTC before the change, 12:00 UTC after it (the 14th is after it at 08:00).
    expect(lectures.map((l) => l.startsAt!.toISOString())).toEqual(["2027-03-07T13:00:00.000Z", "2027-03-14T12:00:00.000Z", "2027-03-21T12:00:00.000Z"]);
    const [task] = await db().select().from(s.tasks).where(eq(s.tasks.lectureId, lectures[1]!.id));
    expect(task!.dueAt!.toISOString()).toBe("2027-03-14T12:00:00.000Z");
  });

  it("lets admins give the copy to another instructor; instructors copy only their own groups, for themselves", async () => {
    const w = await sourceGroup(1);
    const admin = await signIn(await createUser({ role: "admin" }));
    const other = await signIn(await createUser({ role: "instructor" }));
    const stranger = await signIn(await createUser());
    const member = await signIn(w.student);
    const body = { title: "Next cohort", startDate: "2027-09-06" };
    expect((await call(`/api/groups/${w.group.slug}/copy`, { body })).status).toBe(401);
    expect((await copy(stranger.accessToken, w.group.slug, body)).status).toBe(403);
    expect((await copy(member.accessToken, w.group.slug, body)).status).toBe(403);
    expect((await copy(other.accessToken, w.group.slug, body)).status).toBe(403);
    const naming = await copy(w.teacher.accessToken, w.group.slug, { ...body, instructorId: other.user.id });
    expect(naming.status).toBe(403);
    const given = await copy(admin.accessToken, w.group.slug, { ...body, instructorId: other.user.id });
    expect(given.status).toBe(201);
    expect(given.body.group.instructorId).toBe(other.user.id);
    const toStudent = await copy(admin.accessToken, w.group.slug, { ...body, instructorId: w.student.id });
    expect(toStudent.status).toBe(400);
    expect(toStudent.body.fields?.instructorId).toBe("Choose one of the instructors.");
    const badDate = await copy(w.teacher.accessToken, w.group.slug, { ...body, startDate: "2027-02-30" });
    expect(badDate.status).toBe(400);
    expect(badDate.body.fields?.startDate).toBe("That date does not exist.");
    // A first lecture before today (in the copy's zone) would copy every task and quiz as overdue; today is fine.
    const day = (offsetDays: number, timeZone: string) => new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(Date.now() + offsetDays * 86_400_000);
    const past = await copy(w.teacher.accessToken, w.group.slug, { ...body, startDate: day(-1, "Africa/Cairo"), timeZone: "Africa/Cairo" });
    expect(past.status).toBe(400);
    expect(past.body.fields?.startDate).toBe("Choose today or a later date for the first lecture.");
    expect((await copy(w.teacher.accessToken, w.group.slug, { ...body, title: "Starts today", startDate: day(0, "Asia/Dubai"), timeZone: "Asia/Dubai" })).status).toBe(201);
    const badZone = await copy(w.teacher.accessToken, w.group.slug, { ...body, timeZone: "Mars/Olympus" });
    expect(badZone.status).toBe(400);
    expect((await copy(w.teacher.accessToken, "no-such-group", body)).status).toBe(404);
    // None of the refused copies left anything behind.
    expect((await db().select().from(s.groups).where(eq(s.groups.title, "Next cohort"))).length).toBe(1);
  });

  it("takes the same number of D1 statements for a group of 1 lecture and of 12", async () => {
    const small = await sourceGroup(1);
    const large = await sourceGroup(12);
    const { ctx, count, reset } = countingContext();
    const viewer = { userId: small.teacher.user.id, role: "instructor" as const, sessionId: small.teacher.sessionId, name: "", email: "", slug: "" } as never;
    reset();
    await copyGroup(ctx, viewer, small.group.id, { title: "Small copy", startDate: "2027-03-01" });
    const forSmall = count();
    const viewerLarge = { userId: large.teacher.user.id, role: "instructor" as const, sessionId: large.teacher.sessionId, name: "", email: "", slug: "" } as never;
    reset();
    const big = await copyGroup(ctx, viewerLarge, large.group.id, { title: "Large copy", startDate: "2027-03-01" });
    expect(big.copied).toEqual({ lectures: 12, tasks: 24, quizzes: 12, questions: 24 });
    expect(count()).toBe(forSmall);
  });
});

describe("copying order", () => {
  it("lists the copy's lectures in the source's order, undated ones with equal positions included", async () => {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const group = await createGroup({ instructorId: teacher.user.id });
    const t0 = Date.now() - 10 * DAY;
    // Same position, no date: the lecture list falls back to when each was made.
    for (const [i, title] of ["Zeta", "Alpha", "Mu", "Beta"].entries()) {
      await db().insert(s.lectures).values({ id: newId(), groupId: group.id, slug: unique("ord"), title, order: 0, createdAt: new Date(t0 + i * 60_000) });
    }
    const { body } = await copy(teacher.accessToken, group.slug, { title: "Ordered copy", startDate: "2027-05-03" });
    const titles = async (slug: string) => ((await (await call(`/api/lectures/group/${slug}`, { token: teacher.accessToken })).json()) as { title: string }[]).map((l) => l.title);
    expect(await titles(body.group.slug)).toEqual(["Zeta", "Alpha", "Mu", "Beta"]);
    expect(await titles(body.group.slug)).toEqual(await titles(group.slug));
  });
});

describe("copying schedules", () => {
  it("a pending schedule moves with the dates and the new group's publisher rings for it", async () => {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const group = await createGroup({ instructorId: teacher.user.id });
    const startsAt = Date.now() + 20 * DAY;
    const publishAt = Date.now() + 10 * DAY;
    await db().insert(s.lectures).values({ id: newId(), groupId: group.id, slug: unique("sched"), title: "Later", startsAt: new Date(startsAt), publishAt: new Date(publishAt), published: false });
    const startDay = new Date(startsAt + 2 * 3_600_000 + 7 * DAY).toISOString().slice(0, 10);
    const { status, body } = await copy(teacher.accessToken, group.slug, { title: "Scheduled copy", startDate: startDay });
    expect(status).toBe(201);
    const [l] = await db().select().from(s.lectures).where(eq(s.lectures.groupId, body.group._id));
    expect(l!.published).toBe(false);
    // Seven days later at the same Cairo hour.
    expect(cairo(l!.publishAt)!.slice(4)).toBe(cairo(new Date(publishAt + 7 * DAY))!.slice(4));
    const publishers = (env as unknown as { Publisher: DurableObjectNamespace<Publisher> }).Publisher;
    const ring = await runInDurableObject(publishers.get(publishers.idFromName(body.group._id)), (_i: Publisher, state) => state.storage.getAlarm());
    expect(ring).toBe(l!.publishAt!.getTime());
  });
});

describe("copying one lecture", () => {
  it("copies a lecture with its tasks and quizzes into another group the instructor runs, at a chosen start", async () => {
    const w = await sourceGroup(1);
    const target = await createGroup({ instructorId: w.teacher.user.id });
    const [lecture] = await db().select().from(s.lectures).where(eq(s.lectures.groupId, w.group.id));
    // The Tuesday after: tasks and quizzes move with it by whole days, at their own hours.
    const res = await call(`/api/lectures/${lecture!.slug}/copy`, { body: { groupId: target.slug, startsAt: "2027-02-02T17:30:00.000Z" }, token: w.teacher.accessToken });
    expect(res.status).toBe(201);
    const out = (await res.json()) as { lecture: { _id: string }; copied: Record<string, number> };
    expect(out.copied).toEqual({ lectures: 1, tasks: 2, quizzes: 1, questions: 2 });
    const [copyRow] = await db().select().from(s.lectures).where(eq(s.lectures.id, out.lecture._id));
    expect(copyRow).toMatchObject({ groupId: target.id, published: false, title: "Week 1" });
    expect(cairo(copyRow!.startsAt)).toBe("Tue 2027-02-02 19:30");
    const tasks = await db().select().from(s.tasks).where(eq(s.tasks.lectureId, out.lecture._id)).orderBy(s.tasks.title);
    expect(cairo(tasks[1]!.dueAt)).toBe("Mon 2027-02-08 23:59");
    // Its rubric came along into the target group.
    const [rubric] = await db().select().from(s.rubrics).where(eq(s.rubrics.groupId, target.id));
    expect(tasks[1]!.rubricId).toBe(rubric!.id);
    const [quiz] = await db().select().from(s.quizzes).where(eq(s.quizzes.lectureId, out.lecture._id));
    expect(quiz).toMatchObject({ groupId: target.id, published: false });
    expect(cairo(quiz!.opensAt)).toBe("Tue 2027-02-02 18:00");

    // Within its own group the copy keeps the group's rubric.
    const again = (await (await call(`/api/lectures/${lecture!.slug}/copy`, { body: { groupId: w.group.slug }, token: w.teacher.accessToken })).json()) as { lecture: { _id: string } };
    const sameGroupTasks = await db().select().from(s.tasks).where(eq(s.tasks.lectureId, again.lecture._id));
    expect(sameGroupTasks.some((t) => t.rubricId === w.rubricId)).toBe(true);
    expect((await db().select().from(s.rubrics).where(eq(s.rubrics.groupId, w.group.id))).length).toBe(1);
  });

  it("brings along the bank questions a copied lecture's quizzes draw from, once, and a quiz short of its bank is neither published nor started", async () => {
    const w = await sourceGroup(1);
    const target = await createGroup({ instructorId: w.teacher.user.id });
    const student = await signIn(await createUser());
    await addMember(student.user, target);
    const bank = (text: string, tags: string[]) => ({ id: newId(), groupId: w.group.id, text, type: "single" as const, options: ["yes", "no"], correct: [0], tags, updatedAt: new Date() });
    await db().insert(s.bankQuestions).values([bank("Is 7 prime?", ["logic"]), bank("Is 9 prime?", ["logic", "math"]), bank("Unused", ["history"])]);
    const [lecture] = await db().select().from(s.lectures).where(eq(s.lectures.groupId, w.group.id));
    await db().update(s.quizzes).set({ draws: [{ tag: "math", count: 2, points: 1 }, { tag: "logic", count: 1, points: 2 }] }).where(eq(s.quizzes.lectureId, lecture!.id));
    const texts = async () => (await db().select().from(s.bankQuestions).where(eq(s.bankQuestions.groupId, target.id))).map((q) => q.text).sort();
    for (let i = 0; i < 2; i++) expect((await call(`/api/lectures/${lecture!.slug}/copy`, { body: { groupId: target.slug }, token: w.teacher.accessToken })).status).toBe(201);
    // The drawn tags' questions ("math": 2 + 2 and 9; "logic": 7 and 9), each once after two copies; not the unused one.
    expect(await texts()).toEqual(["2 + 2?", "Is 7 prime?", "Is 9 prime?"]);

    const [copied] = await db().select().from(s.lectures).where(eq(s.lectures.groupId, target.id)).limit(1);
    const [quiz] = await db().select().from(s.quizzes).where(eq(s.quizzes.lectureId, copied!.id));
    expect((await call(`/api/lectures/${copied!.slug}`, { method: "PUT", body: { published: true }, token: w.teacher.accessToken })).status).toBe(200);
    await db().update(s.quizzes).set({ opensAt: null, closesAt: null, showAnswers: "after-submit" }).where(eq(s.quizzes.id, quiz!.id));
    // A bank emptied since: publishing is refused, naming the draws; a quiz published anyway starts no attempt.
    const removed = await db().delete(s.bankQuestions).where(eq(s.bankQuestions.groupId, target.id)).returning();
    const refused = await call(`/api/quizzes/${quiz!.slug}`, { method: "PUT", body: { published: true }, token: w.teacher.accessToken });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as ErrorBody).fields).toHaveProperty("draws");
    await db().update(s.quizzes).set({ published: true }).where(eq(s.quizzes.id, quiz!.id));
    expect((await call(`/api/quizzes/${quiz!.slug}/start`, { method: "POST", token: student.accessToken })).status).toBe(409);
    expect(await db().select().from(s.attempts).where(eq(s.attempts.quizId, quiz!.id))).toEqual([]);
    // With the bank back, the paper holds both draws: three questions of the bank and the quiz's own two.
    await db().insert(s.bankQuestions).values(removed);
    const started = await call(`/api/quizzes/${quiz!.slug}/start`, { method: "POST", token: student.accessToken });
    expect(started.status).toBe(201);
    const paper = (await (await call(`/api/quizzes/${quiz!.slug}`, { token: student.accessToken })).json()) as { questions: unknown[]; maxScore: number };
    expect(paper.questions).toHaveLength(5);
  });

  it("refuses a start that would move the copy's dates past the year 9999, copying nothing", async () => {
    const w = await sourceGroup(1);
    // Its last date is six days after the first lecture: a start on 9999-12-28 would run into the year 10000.
    const far = await copy(w.teacher.accessToken, w.group.slug, { title: "Far", startDate: "9999-12-28" });
    expect(far.status).toBe(400);
    expect(far.body.fields?.startDate).toMatch(/9999/);
    const target = await createGroup({ instructorId: w.teacher.user.id });
    const [lecture] = await db().select().from(s.lectures).where(eq(s.lectures.groupId, w.group.id));
    const one = await call(`/api/lectures/${lecture!.slug}/copy`, { body: { groupId: target.slug, startsAt: "9999-12-29T10:00:00.000Z" }, token: w.teacher.accessToken });
    expect(one.status).toBe(400);
    expect(await db().select().from(s.lectures).where(eq(s.lectures.groupId, target.id))).toEqual([]);
    // A start a year on is fine.
    expect((await copy(w.teacher.accessToken, w.group.slug, { title: "Next year", startDate: "2028-01-10" })).status).toBe(201);
  });

  it("refuses a group the instructor does not run, and strangers", async () => {
    const w = await sourceGroup(1);
    const foreign = await createGroup({ instructorId: (await createUser({ role: "instructor" })).id });
    const [lecture] = await db().select().from(s.lectures).where(eq(s.lectures.groupId, w.group.id));
    expect((await call(`/api/lectures/${lecture!.slug}/copy`, { body: { groupId: foreign.slug }, token: w.teacher.accessToken })).status).toBe(403);
    const other = await signIn(await createUser({ role: "instructor" }));
    const own = await createGroup({ instructorId: other.user.id });
    expect((await call(`/api/lectures/${lecture!.slug}/copy`, { body: { groupId: own.slug }, token: other.accessToken })).status).toBe(403);
    expect((await call(`/api/lectures/${lecture!.slug}/copy`, { body: { groupId: "" }, token: w.teacher.accessToken })).status).toBe(400);
    expect(await db().select().from(s.lectures).where(eq(s.lectures.groupId, foreign.id))).toEqual([]);
  });
});
