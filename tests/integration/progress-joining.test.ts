/**
 * Progress of a student who joins a group that is already running (ADR 15, "work from before joining"): what was held,
 * due or closed before they were let in, and that they have no record of, counts nowhere for them; what they did do
 * counts as anyone's does; what comes after counts as usual. Their joining time is set by the real decisions.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { newId } from "../../worker/services/ids";
import { addMember, call, createGroup, createUser, signIn } from "./factories";
import { db } from "./helpers";
import { connectAs } from "./sockets";

const DAY = 86_400_000;
const HOUR = 3_600_000;

async function lectureIn(group: { id: string; slug: string }, name: string, startsAt: number) {
  const row = { id: newId(), groupId: group.id, slug: `${name}-${group.slug}`, title: `Lecture ${name}`, body: "", order: Number(name.replace(/\D/g, "")) || 0, startsAt: new Date(startsAt), published: true };
  await db().insert(s.lectures).values(row);
  return row;
}
async function taskOn(lecture: { id: string; slug: string }, name: string, dueAt: number) {
  const row = { id: newId(), lectureId: lecture.id, slug: `${name}-${lecture.slug}`, title: `Task ${name}`, body: "", dueAt: new Date(dueAt), maxScore: 100, allowLate: true };
  await db().insert(s.tasks).values(row);
  return row;
}
async function quizOn(group: { id: string; slug: string }, lecture: { id: string }, name: string, opensAt: number, closesAt: number) {
  const row = { id: newId(), lectureId: lecture.id, groupId: group.id, slug: `${name}-${group.slug}`, title: `Quiz ${name}`, durationMinutes: 10, opensAt: new Date(opensAt), closesAt: new Date(closesAt), maxAttempts: 1, published: true };
  await db().insert(s.quizzes).values(row);
  await db().insert(s.questions).values({ id: newId(), quizId: row.id, text: "Yes?", type: "true-false", options: ["True", "False"], correct: [0], points: 4, order: 0 });
  return row;
}
const mark = (lecture: { id: string }, user: { id: string }, status: (typeof s.ATTENDANCE_STATUSES)[number]) =>
  db().insert(s.attendance).values({ id: newId(), lectureId: lecture.id, userId: user.id, status, method: "manual", markedAt: new Date() });
const handIn = (task: { id: string }, user: { id: string }, score: number) =>
  db().insert(s.submissions).values({ id: newId(), taskId: task.id, userId: user.id, link: "https://github.com/me/work", submittedAt: new Date(), late: true, score, gradedAt: new Date() });

async function get(path: string, who: { accessToken: string }) {
  const res = await call(path, { token: who.accessToken });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

/** A group that has run for a week: two lectures held (one with its attendance closed), a task due and a quiz closed. */
async function runningGroup() {
  const now = Date.now();
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const L1 = await lectureIn(group, "l1", now - 6 * DAY);
  const L2 = await lectureIn(group, "l2", now - 3 * DAY);
  await db().insert(s.attendanceSessions).values({ id: newId(), lectureId: L2.id, opensAt: new Date(now - 3 * DAY), closesAt: new Date(now - 3 * DAY + HOUR), createdBy: teacher.user.id });
  const L3 = await lectureIn(group, "l3", now + 4 * DAY);
  const T1 = await taskOn(L1, "t1", now - 2 * DAY);
  const T2 = await taskOn(L3, "t2", now + 5 * DAY);
  const Q1 = await quizOn(group, L1, "q1", now - 5 * DAY, now - 2 * DAY);
  const Q2 = await quizOn(group, L1, "q2", now - 5 * DAY, now + 5 * DAY);
  // A student who was there from the start and did nothing: the group's work counts for them as before.
  const early = await signIn(await createUser());
  await addMember(early.user, group);
  await mark(L2, early.user, "absent");
  return { now, teacher, group, L1, L2, L3, T1, T2, Q1, Q2, early };
}

/** Asks to join through the API and is let in by the group's teacher (the real decision sets their joining time). */
async function joinToday(w: Awaited<ReturnType<typeof runningGroup>>, decision: "approved" | "special" = "approved") {
  const student = await signIn(await createUser());
  const asked = await call("/api/users/joinGroupRequest", { body: { groupSlug: w.group.slug }, token: student.accessToken });
  expect(asked.status).toBe(201);
  const { request } = (await asked.json()) as { request: { _id: string } };
  const decided = await call(`/api/membership-requests/${request._id}`, { method: "PUT", body: { decision }, token: w.teacher.accessToken });
  expect(decided.status).toBe(200);
  return student;
}

const joinedAt = async (user: { id: string }, group: { id: string }) =>
  (await db().select({ joinedAt: s.memberships.joinedAt }).from(s.memberships).where(and(eq(s.memberships.userId, user.id), eq(s.memberships.groupId, group.id))))[0]?.joinedAt ?? null;

describe("progress of a student who joins a running group", () => {
  it("approved today: two lectures held, a task due and a quiz closed before are not held against them; not flagged", async () => {
    const w = await runningGroup();
    const late = await joinToday(w);
    const mine = await get(`/api/users/groups/${w.group.slug}/progress`, late);
    expect(mine).toMatchObject({
      lectures: { attended: 0, held: 0, rate: null },
      tasks: { submitted: 0, given: 0, counted: 0, rate: null },
      // Q2 is open: published to them, counted nowhere until taken or closed. Q1 closed before they joined.
      quizzes: { taken: 0, published: 1, counted: 0, rate: null },
      overall: null,
      atRisk: false,
    });
    // The student who was there all along still owes all of it.
    const theirs = await get(`/api/users/groups/${w.group.slug}/progress`, w.early);
    expect(theirs).toMatchObject({ lectures: { attended: 0, held: 2, rate: 0 }, tasks: { given: 1, counted: 1, rate: 0 }, quizzes: { published: 2, counted: 1, rate: 0 }, overall: 0, atRisk: true });

    // The staff's figures: the newcomer is not among those who need support, and not absent from lectures before them.
    const report = (await get(`/api/groups/${w.group.slug}/progress`, w.teacher)) as {
      students: { _id: string; atRisk: boolean; progress: { overall: number | null } }[];
      lectures: { slug: string; absent: number }[];
    };
    expect(report.students.find((x) => x._id === late.user.id)).toMatchObject({ atRisk: false, progress: { overall: null } });
    expect(report.students.find((x) => x._id === w.early.user.id)).toMatchObject({ atRisk: true });
    expect(report.lectures.find((l) => l.slug === w.L1.slug)?.absent).toBe(1);
    expect(report.lectures.find((l) => l.slug === w.L2.slug)?.absent).toBe(1);

    // The exports say why each cell counts nowhere (`before_joining`), where the student from the start has 0s.
    const csv = async (file: string) => {
      const res = await call(`/api/groups/${w.group.slug}/export/${file}`, { token: w.teacher.accessToken });
      expect(res.status).toBe(200);
      const rows = (await res.text()).replace(/^\uFEFF/, "").trim().split("\r\n").map((line) => line.split(","));
      const header = rows[0]!;
      const of = (email: string) => Object.fromEntries(header.map((h, i) => [h, rows.find((r) => r[1] === email)![i]]));
      return { of };
    };
    const attendanceCsv = await csv("attendance.csv");
    const lecture = (l: { slug: string }) => `lecture:${l.slug}:status`;
    expect(attendanceCsv.of(late.user.email)).toMatchObject({ [lecture(w.L1)]: "before_joining", [lecture(w.L2)]: "before_joining", lectures_held: "0" });
    expect(attendanceCsv.of(w.early.user.email)).toMatchObject({ [lecture(w.L1)]: "absent", [lecture(w.L2)]: "absent", lectures_held: "2" });
    const gradesCsv = await csv("grades.csv");
    expect(gradesCsv.of(late.user.email)).toMatchObject({ [`task:${w.T1.slug}:status`]: "before_joining", [`quiz:${w.Q1.slug}:status`]: "before_joining", [`quiz:${w.Q2.slug}:status`]: "open" });
    expect(gradesCsv.of(w.early.user.email)).toMatchObject({ [`task:${w.T1.slug}:status`]: "missing", [`quiz:${w.Q1.slug}:status`]: "not_taken" });

    // The course home says so, in the student's words and under the numbers, in both languages, without claiming
    // that the two lectures on the same page were never held.
    for (const [lang, words, nothing, start, wrong] of [
      ["en", "work from before the student joined that they did not do, does not count", "No lectures counted yet", "Your numbers start with what happens while you are in the group", "No lectures held yet"],
      ["ar", "وما سبق انضمام الطالب ولم يؤدِّه، فلا يُحسب", "لا محاضرات محسوبة بعد", "تبدأ أرقامك بما يجري وأنت في المجموعة", "لم تُعقد محاضرات"],
    ] as const) {
      const res = await call(`/course/${w.group.slug}`, { cookie: `${late.cookie}; lang=${lang}`, headers: { accept: "text/html" } });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain(words);
      expect(html).toContain(nothing);
      expect(html).toContain(start);
      expect(html).not.toContain(wrong);
    }
  });

  it("attendance taken now for a lecture held before they joined marks them nothing: closed by hand or run out", async () => {
    const w = await runningGroup();
    const late = await joinToday(w);
    const records = async (lecture: { id: string }) => (await db().select().from(s.attendance).where(and(eq(s.attendance.lectureId, lecture.id), eq(s.attendance.userId, late.user.id))));
    // Opened today on the lecture of 6 days ago, then closed: the student from the start is absent, the newcomer not.
    expect((await call(`/api/lectures/${w.L1.slug}/attendance/open`, { body: { rotateSeconds: 0, lateAfterMinutes: 10, durationMinutes: 30 }, token: w.teacher.accessToken })).status).toBe(200);
    expect((await call(`/api/lectures/${w.L1.slug}/attendance/close`, { body: {}, token: w.teacher.accessToken })).status).toBe(200);
    expect(await records(w.L1)).toEqual([]);
    expect((await db().select().from(s.attendance).where(and(eq(s.attendance.lectureId, w.L1.id), eq(s.attendance.userId, w.early.user.id))))[0]).toMatchObject({ status: "absent" });
    // A session on the lecture of 3 days ago that runs out by itself, settled when staff next look.
    const opened = await call(`/api/lectures/${w.L2.slug}/attendance/open`, { body: { rotateSeconds: 0, lateAfterMinutes: 1, durationMinutes: 5 }, token: w.teacher.accessToken });
    expect(opened.status).toBe(200);
    await db().update(s.attendanceSessions).set({ opensAt: new Date(Date.now() - 2 * 60_000), closesAt: new Date(Date.now() - 60_000) }).where(eq(s.attendanceSessions.lectureId, w.L2.id));
    expect((await call(`/api/lectures/${w.L2.slug}/attendance`, { token: w.teacher.accessToken })).status).toBe(200);
    expect(await records(w.L2)).toEqual([]);
    expect(await get(`/api/users/groups/${w.group.slug}/progress`, late)).toMatchObject({ lectures: { attended: 0, held: 0, rate: null }, atRisk: false });
    // A lecture today, after they joined, marks them as anyone.
    const L4 = await lectureIn(w.group, "l4", Date.now() + 60_000);
    expect((await call(`/api/lectures/${L4.slug}/attendance/open`, { body: { rotateSeconds: 0, lateAfterMinutes: 10, durationMinutes: 30 }, token: w.teacher.accessToken })).status).toBe(200);
    expect((await call(`/api/lectures/${L4.slug}/attendance/close`, { body: {}, token: w.teacher.accessToken })).status).toBe(200);
    expect((await records(L4))[0]).toMatchObject({ status: "absent" });
  });

  it("what they do of the earlier work counts: the task handed in and graded 80, the lecture they were marked present at", async () => {
    const w = await runningGroup();
    const late = await joinToday(w, "special");
    await handIn(w.T1, late.user, 80);
    await mark(w.L1, late.user, "present");
    const mine = await get(`/api/users/groups/${w.group.slug}/progress`, late);
    expect(mine).toMatchObject({ lectures: { attended: 1, held: 1, rate: 100 }, tasks: { submitted: 1, given: 1, counted: 1, rate: 80 }, overall: 90 });
  });

  it("joined 4 days ago: the lecture 3 days ago, the task due 2 days ago and the quiz closed 2 days ago count (as 0); the lecture 6 days ago does not", async () => {
    const w = await runningGroup();
    const student = await signIn(await createUser());
    const row = await addMember(student.user, w.group);
    await db().update(s.memberships).set({ joinedAt: new Date(w.now - 4 * DAY) }).where(eq(s.memberships.id, row.id));
    const mine = await get(`/api/users/groups/${w.group.slug}/progress`, student);
    expect(mine).toMatchObject({ lectures: { attended: 0, held: 1, rate: 0 }, tasks: { given: 1, counted: 1, rate: 0 }, quizzes: { published: 2, counted: 1, rate: 0 }, overall: 0 });
    // Joined a day later (3 days ago less an hour): L2 started before them as well; T1 and Q1 came after.
    await db().update(s.memberships).set({ joinedAt: new Date(w.now - 3 * DAY + HOUR) }).where(eq(s.memberships.id, row.id));
    expect(await get(`/api/users/groups/${w.group.slug}/progress`, student)).toMatchObject({ lectures: { held: 0, rate: null }, tasks: { given: 1, rate: 0 }, quizzes: { counted: 1, rate: 0 } });
  });

  it("an extension that moves earlier work past their joining makes it theirs: due by their own time, after they joined", async () => {
    const w = await runningGroup();
    const student = await signIn(await createUser());
    const row = await addMember(student.user, w.group);
    // Joined a day ago: T1 (due 2 days ago) came before them and counts nowhere...
    await db().update(s.memberships).set({ joinedAt: new Date(w.now - DAY) }).where(eq(s.memberships.id, row.id));
    expect(await get(`/api/users/groups/${w.group.slug}/progress`, student)).toMatchObject({ tasks: { given: 0, counted: 0, rate: null } });
    // ...until it is extended for them to 12 hours ago: due by their own time after they joined, missed, 0.
    await db().insert(s.extensions).values({ id: newId(), taskId: w.T1.id, userId: student.user.id, dueAt: new Date(w.now - 12 * HOUR), grantedBy: w.teacher.user.id });
    expect(await get(`/api/users/groups/${w.group.slug}/progress`, student)).toMatchObject({ tasks: { given: 1, counted: 1, rate: 0 } });
    // The same for a quiz: Q1 (closed 2 days ago) reopened for them until 12 hours ago, not taken: 0.
    expect(await get(`/api/users/groups/${w.group.slug}/progress`, student)).toMatchObject({ quizzes: { published: 1, counted: 0 } });
    await db().insert(s.extensions).values({ id: newId(), quizId: w.Q1.id, userId: student.user.id, closesAt: new Date(w.now - 12 * HOUR), grantedBy: w.teacher.user.id });
    expect(await get(`/api/users/groups/${w.group.slug}/progress`, student)).toMatchObject({ quizzes: { published: 2, counted: 1, rate: 0 } });
  });

  it("the joining time is the first time they were let in: kept through a change of terms, removal, restoring, leaving and asking again", async () => {
    const w = await runningGroup();
    const rejected = await signIn(await createUser());
    const asked = await call("/api/users/joinGroupRequest", { body: { groupSlug: w.group.slug }, token: rejected.accessToken });
    const { request } = (await asked.json()) as { request: { _id: string } };
    expect((await call(`/api/membership-requests/${request._id}`, { method: "PUT", body: { decision: "rejected" }, token: w.teacher.accessToken })).status).toBe(200);
    expect(await joinedAt(rejected.user, w.group)).toBeNull();

    const before = Date.now();
    const late = await joinToday(w);
    const first = await joinedAt(late.user, w.group);
    expect(first).not.toBeNull();
    expect(first!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(first!.getTime()).toBeLessThanOrEqual(Date.now() + 1000);

    const put = (status: string) => call(`/api/groups/${w.group.id}/students/${late.user.id}`, { method: "PUT", body: { status }, token: w.teacher.accessToken });
    for (const status of ["special", "removed", "approved"]) {
      expect((await put(status)).status).toBe(200);
      expect((await joinedAt(late.user, w.group))?.getTime()).toBe(first!.getTime());
    }
    expect((await call("/api/users/leave-group", { body: { groupSlug: w.group.slug }, token: late.accessToken })).status).toBe(200);
    const again = await call("/api/users/joinGroupRequest", { body: { groupSlug: w.group.slug }, token: late.accessToken });
    expect(again.status).toBe(201);
    const { request: second } = (await again.json()) as { request: { _id: string } };
    expect((await call(`/api/membership-requests/${second._id}`, { method: "PUT", body: { decision: "approved" }, token: w.teacher.accessToken })).status).toBe(200);
    expect((await joinedAt(late.user, w.group))?.getTime()).toBe(first!.getTime());
  });
  it("the roster, the course home and the lecture page say of each lecture what Progress counts", async () => {
    const w = await runningGroup();
    const late = await joinToday(w);
    type Roster = { held: boolean; counts: Record<string, number>; roster: { user: { _id: string }; status: string | null; joinedAfter: boolean }[] };
    const roster = async (lecture: { id: string }) => (await get(`/api/lectures/${lecture.id}/attendance`, w.teacher)) as unknown as Roster;
    const row = (r: Roster, who: { user: { id: string } }) => r.roster.find((x) => x.user._id === who.user.id)!;
    const report = (await get(`/api/groups/${w.group.slug}/progress`, w.teacher)) as unknown as { lectures: { slug: string; absent: number }[] };
    const absentInProgress = (l: { slug: string }) => report.lectures.find((x) => x.slug === l.slug)!.absent;

    // L1 took place 6 days ago without a roll call: held, the student from the start has no record and counts as
    // absent, the newcomer joined after it and counts nowhere. The roster's counts are Progress's.
    const l1 = await roster(w.L1);
    expect(l1.held).toBe(true);
    expect(row(l1, w.early)).toMatchObject({ status: null, joinedAfter: false });
    expect(row(l1, late)).toMatchObject({ status: null, joinedAfter: true });
    expect(l1.counts).toEqual({ present: 0, late: 0, excused: 0, absent: 1, members: 1 });
    expect(l1.counts.absent).toBe(absentInProgress(w.L1));
    // L2's closed session marked the student from the start absent; the newcomer is not on its count either.
    const l2 = await roster(w.L2);
    expect(l2).toMatchObject({ held: true, counts: { absent: 1, members: 1 } });
    expect(l2.counts.absent).toBe(absentInProgress(w.L2));
    // L3 is in 4 days: not held, both count (the newcomer joined before it).
    const l3 = await roster(w.L3);
    expect(l3).toMatchObject({ held: false, counts: { absent: 2, members: 2 } });
    expect(row(l3, late).joinedAfter).toBe(false);

    // Marked by hand, the newcomer counts for L1 like anyone (and in Progress: one lecture attended of one held).
    expect((await call("/api/attendance", { body: { lectureId: w.L1.id, userId: late.user.id, status: "present" }, token: w.teacher.accessToken })).status).toBe(200);
    expect((await roster(w.L1)).counts).toEqual({ present: 1, late: 0, excused: 0, absent: 1, members: 2 });
    expect(await get(`/api/users/groups/${w.group.slug}/progress`, late)).toMatchObject({ lectures: { attended: 1, held: 1 } });

    // The student's own lists: L1 is missed for the student from the start (no record, held while a member), L2 has
    // its absent record, L3 has not happened. The newcomer missed nothing.
    type Listed = { slug: string; myAttendance: string | null; missed: boolean }[];
    const listed = async (who: { accessToken: string }) => (await get(`/api/lectures/group/${w.group.slug}`, who)) as unknown as Listed;
    const early = await listed(w.early);
    expect(early.find((l) => l.slug === w.L1.slug)).toMatchObject({ myAttendance: null, missed: true });
    expect(early.find((l) => l.slug === w.L2.slug)).toMatchObject({ myAttendance: "absent", missed: false });
    expect(early.find((l) => l.slug === w.L3.slug)).toMatchObject({ myAttendance: null, missed: false });
    const newcomer = await listed(late);
    expect(newcomer.find((l) => l.slug === w.L1.slug)).toMatchObject({ myAttendance: "present", missed: false });
    expect(newcomer.find((l) => l.slug === w.L2.slug)).toMatchObject({ myAttendance: null, missed: false });
    expect((await get(`/api/lectures/${w.L1.id}`, w.early)).missed).toBe(true);
    expect(await get(`/api/lectures/${w.L2.id}`, late)).toMatchObject({ missed: false, joinedAfter: true });
    expect(await get(`/api/lectures/${w.L1.id}`, w.early)).toMatchObject({ missed: true, joinedAfter: false });
    // The lecture pages say so in the student's words (not "attendance is not open right now").
    const lecturePage = async (who: { cookie: string }, slug: string, lang: "en" | "ar") =>
      (await call(`/course/${w.group.slug}/lecture/${slug}`, { cookie: `${who.cookie}; lang=${lang}`, headers: { accept: "text/html" } })).text();
    expect(await lecturePage(late, w.L2.slug, "en")).toContain("You joined the group after this lecture, so it does not count in your progress.");
    expect(await lecturePage(late, w.L2.slug, "ar")).toContain("انضممت إلى المجموعة بعد هذه المحاضرة، لذا لا تُحتسب في تقدّمك.");
    expect(await lecturePage(w.early, w.L1.slug, "en")).toContain("Attendance is closed and you have no check-in for this lecture");
    expect((await get(`/api/lectures/${w.L3.id}`, w.early)).missed).toBe(false);
    // The staff's list claims nothing of anyone.
    expect(((await get(`/api/lectures/group/${w.group.slug}`, w.teacher)) as unknown as Listed).every((l) => l.missed === false)).toBe(true);

    // The staff's live count says the same: excusing the student from the start for L2 leaves the newcomer uncounted.
    const staffSocket = await connectAs(w.teacher, "group-room", w.group.id);
    expect((await call("/api/attendance", { body: { lectureId: w.L2.id, userId: w.early.user.id, status: "excused" }, token: w.teacher.accessToken })).status).toBe(200);
    const frame = await staffSocket.next("attendance.marked");
    expect(frame).toMatchObject({ record: { user: { _id: w.early.user.id }, status: "excused", joinedAfter: false }, counts: { present: 0, late: 0, excused: 1, absent: 0, members: 1 } });
    staffSocket.close();
  });
});
