/**
 * Progress numbers for hand-built students (issue "Progress, dashboards and exports"; PRODUCT.md §3 Progress),
 * through the real Worker: nothing yet, partial work, excused and late, ungraded work, an abandoned quiz attempt
 * the read must grade, another group's records, a removed student; who may read them; and the CSV exports.
 * Every expected number is worked out by hand in the comments from the rule, not taken from the code.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { newId } from "../../worker/services/ids";
import { addMember, call, createGroup, createUser, signIn, type TestUser } from "./factories";
import { db } from "./helpers";

const DAY = 86_400_000;
const HOUR = 3_600_000;

type Lecture = typeof s.lectures.$inferInsert;

async function lectureIn(group: { id: string; slug: string }, name: string, startsAt: number, published = true): Promise<Lecture & { id: string }> {
  const row = { id: newId(), groupId: group.id, slug: `${name}-${group.slug}`, title: `Lecture ${name}`, body: "", order: Number(name.replace(/\D/g, "")) || 0, startsAt: new Date(startsAt), published };
  await db().insert(s.lectures).values(row);
  return row;
}

async function taskOn(lecture: { id: string; slug: string }, name: string, dueAt: number | null, maxScore = 100) {
  const row = { id: newId(), lectureId: lecture.id, slug: `${name}-${lecture.slug}`, title: `Task ${name}`, body: "", dueAt: dueAt === null ? null : new Date(dueAt), maxScore, allowLate: true };
  await db().insert(s.tasks).values(row);
  return row;
}

const mark = (lecture: { id: string }, user: { id: string }, status: (typeof s.ATTENDANCE_STATUSES)[number]) =>
  db().insert(s.attendance).values({ id: newId(), lectureId: lecture.id, userId: user.id, status, method: "manual", markedAt: new Date() });

const handIn = (task: { id: string }, user: { id: string }, score: number | null) =>
  db().insert(s.submissions).values({ id: newId(), taskId: task.id, userId: user.id, link: "https://github.com/me/work", submittedAt: new Date(), late: false, score, gradedAt: score === null ? null : new Date() });

async function get(path: string, who: { accessToken: string } | null) {
  const res = await call(path, who ? { token: who.accessToken } : {});
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { message?: string } };
}

/**
 * Group G, now = the test's start. Held: L1 (2 days ago), L2 (yesterday). Open: L3 (starts in 2 days, its
 * attendance opened an hour ago and closes in an hour: not held until it closes). Not held: L4 (in 5 days), L5 (a
 * draft that "started" yesterday). Tasks of published lectures: T1 due yesterday (out of 100), T2 due in 3 days (out
 * of 50), T4 without a due time; T3 sits on the draft lecture and never counts. Quizzes: Q1 opened 2 days ago (4
 * points) and closes in 7 days (still open); Q2 opens tomorrow; Q3 is a draft.
 */
async function world() {
  const now = Date.now();
  const teacher = await createUser({ role: "instructor" });
  const G = await createGroup({ instructorId: teacher.id });
  const L1 = await lectureIn(G, "l1", now - 2 * DAY);
  const L2 = await lectureIn(G, "l2", now - DAY);
  const L3 = await lectureIn(G, "l3", now + 2 * DAY);
  const L4 = await lectureIn(G, "l4", now + 5 * DAY);
  const L5 = await lectureIn(G, "l5", now - DAY, false);
  await db().insert(s.attendanceSessions).values({ id: newId(), lectureId: L3.id, opensAt: new Date(now - HOUR), closesAt: new Date(now + HOUR), createdBy: teacher.id });
  const T1 = await taskOn(L1, "t1", now - DAY, 100);
  const T2 = await taskOn(L2, "t2", now + 3 * DAY, 50);
  const T3 = await taskOn(L5, "t3", now - DAY, 100);
  const T4 = await taskOn(L1, "t4", null, 100);
  const quiz = (name: string, lecture: { id: string }, opensAt: number, published = true) => ({
    id: newId(),
    lectureId: lecture.id,
    groupId: G.id,
    slug: `${name}-${G.slug}`,
    title: `Quiz ${name}`,
    durationMinutes: 10,
    opensAt: new Date(opensAt),
    closesAt: new Date(now + 7 * DAY),
    maxAttempts: 3,
    published,
  });
  const Q1 = quiz("q1", L1, now - 2 * DAY);
  const Q2 = quiz("q2", L2, now + DAY);
  const Q3 = quiz("q3", L1, now - 2 * DAY, false);
  await db().insert(s.quizzes).values([Q1, Q2, Q3]);
  const single = { id: newId(), quizId: Q1.id, text: "Pick b", type: "single" as const, options: ["a", "b"], correct: [1], points: 1, order: 0 };
  const short = { id: newId(), quizId: Q1.id, text: "Type wrap", type: "short-text" as const, options: [], correct: ["wrap"], points: 3, order: 1 };
  await db().insert(s.questions).values([single, short, { id: newId(), quizId: Q2.id, text: "Later", type: "true-false" as const, options: ["True", "False"], correct: [0], points: 1, order: 0 }]);

  const [A, B, C, D, E] = await Promise.all(["Amal", "Bassem", "Carla", "Dina", "Emad"].map((name) => createUser({ name: `${name} ${newId().slice(0, 6)}` })));
  for (const u of [A!, B!, C!]) await addMember(u, G);
  await addMember(D!, G, "special");
  await addMember(E!, G, "removed");

  // B: partial work. L1 present, L2 absent. T1 80/100, T2 handed in early 25/50. Q1 twice: 1/4, then 3/4.
  await mark(L1, B!, "present");
  await mark(L2, B!, "absent");
  await handIn(T1, B!, 80);
  await handIn(T2, B!, 25);
  const attempt = (user: { id: string }, number: number, score: number | null, submitted: boolean, answers: Record<string, unknown> = {}) => ({
    id: newId(),
    quizId: Q1.id,
    userId: user.id,
    answers,
    score,
    maxScore: score === null ? null : 4,
    number,
    startedAt: new Date(now - 2 * DAY),
    deadlineAt: new Date(now - 2 * DAY + 10 * 60_000),
    savedAt: new Date(now - 2 * DAY + 60_000),
    submittedAt: submitted ? new Date(now - 2 * DAY + 5 * 60_000) : null,
  });
  await db().insert(s.attempts).values([attempt(B!, 1, 1, true), attempt(B!, 2, 3, true)]);

  // C: late at L1, excused from L2, present at L3; a record on L4 (not held yet) makes it held for C. T4 (no due
  // time) 100/100; T1 missing.
  await mark(L1, C!, "late");
  await mark(L2, C!, "excused");
  await mark(L3, C!, "present");
  await mark(L4, C!, "present");
  await handIn(T4, C!, 100);

  // D: present at L1; T1 handed in, not graded; a Q1 attempt left open two days ago with both answers right.
  await mark(L1, D!, "present");
  await handIn(T1, D!, null);
  await db().insert(s.attempts).values(attempt(D!, 1, null, false, { [single.id]: 1, [short.id]: " WRAP " }));

  // E was removed: their records stay in the tables and must count nowhere.
  await mark(L1, E!, "present");
  await mark(L2, E!, "present");
  await handIn(T1, E!, 10);
  await handIn(T3, B!, 100);

  // B also studies in group H, with records that must stay in H.
  const H = await createGroup({ instructorId: teacher.id });
  await addMember(B!, H);
  const H1 = await lectureIn(H, "h1", now - DAY);
  const H2 = await lectureIn(H, "h2", now - 3 * HOUR);
  await mark(H1, B!, "present");
  await mark(H2, B!, "present");
  const HT = await taskOn(H1, "ht", now - HOUR, 10);
  await handIn(HT, B!, 10);

  const admin = await createUser({ role: "admin" });
  const otherTeacher = await createUser({ role: "instructor" });
  const stranger = await createUser();
  return { now, G, H, L1, L2, L3, T1, T2, T4, Q1, teacher, A: A!, B: B!, C: C!, D: D!, E: E!, admin, otherTeacher, stranger };
}

type World = Awaited<ReturnType<typeof world>>;
let shared: Promise<World> | null = null;
const theWorld = () => (shared ??= world());
const as = (u: TestUser) => signIn(u);

describe("progress: the numbers", () => {
  it("a student with nothing yet in a group that has held nothing: every count 0 of 0 and no overall", async () => {
    const group = await createGroup();
    const student = await createUser();
    await addMember(student, group);
    await lectureIn(group, "l1", Date.now() + 3 * DAY);
    const { status, body } = await get(`/api/users/groups/${group.slug}/progress`, await as(student));
    expect(status).toBe(200);
    expect(body).toMatchObject({
      lectures: { attended: 0, held: 0, rate: null },
      tasks: { submitted: 0, given: 0, graded: 0, counted: 0, averageScore: null, rate: null },
      quizzes: { taken: 0, published: 0, counted: 0, averageScore: null, rate: null },
      overall: null,
      atRisk: false,
      atRiskReasons: [],
    });
  });

  it("a member who has done nothing in a running group scores 0 of what is due, and nothing for what is still open", async () => {
    const w = await theWorld();
    const { body } = await get(`/api/users/groups/${w.G.id}/progress`, await as(w.A));
    // Held: L1, L2 (2; L3's attendance is still open). Given: T1 (due, missing: 0). Q1 is open and not taken: it is
    // published but counts nowhere, so there is no quiz rate. Overall (0 + 0) / 2 = 0.
    expect(body).toMatchObject({
      lectures: { attended: 0, held: 2, rate: 0 },
      tasks: { submitted: 0, given: 1, graded: 0, counted: 1, averageScore: 0, rate: 0 },
      quizzes: { taken: 0, published: 1, counted: 0, averageScore: null, rate: null },
      overall: 0,
      atRisk: true,
      atRiskReasons: [
        { kind: "overall", percent: 0 },
        { kind: "attendance", percent: 0 },
      ],
    });
  });

  it("partial work: 1 of 2 lectures, tasks due or handed in early, the best of two attempts", async () => {
    const w = await theWorld();
    const { body } = await get(`/api/users/groups/${w.G.slug}/progress`, await as(w.B));
    // Lectures 1/2 = 50 %. Tasks: T1 (due) + T2 (early) = 2 given, both in and graded; (80/100 + 25/50) / 2 = 65 %.
    // T3 on the draft lecture and H's task do not count. Quiz: taken (so it counts though open), best of 1/4 and
    // 3/4 = 75 %. Overall: (50 + 65 + 75) / 3 = 63.3 → 63, below 70, and attendance 50 below 70 too.
    expect(body).toMatchObject({
      lectures: { attended: 1, held: 2, rate: 50 },
      tasks: { submitted: 2, given: 2, graded: 2, counted: 2, averageScore: 65, rate: 65 },
      quizzes: { taken: 1, published: 1, counted: 1, averageScore: 75, rate: 75 },
      overall: 63,
      atRiskReasons: [
        { kind: "overall", percent: 63 },
        { kind: "attendance", percent: 50 },
      ],
      user: { _id: w.B.id },
      group: { _id: w.G.id, slug: w.G.slug },
    });
  });

  it("excused and late: an excused lecture leaves held, late counts as attended, missing work counts 0, an open quiz not at all", async () => {
    const w = await theWorld();
    const { body } = await get(`/api/users/groups/${w.G.slug}/progress`, await as(w.C));
    // Held for C: L1 (L2 excused) + L3 (open, but C checked in) + L4 (has a record) = 3, all attended. Tasks: T1
    // (due, missing: 0) + T4 (handed in, no due time, 100) = 2 counted: 50 %. Q1 still open and not taken: no quiz
    // rate (before, it counted 0 and the overall read 50). Overall: (100 + 50) / 2 = 75.
    expect(body).toMatchObject({
      lectures: { attended: 3, held: 3, rate: 100 },
      tasks: { submitted: 1, given: 2, graded: 1, counted: 2, averageScore: 50, rate: 50 },
      quizzes: { taken: 0, published: 1, counted: 0, averageScore: null, rate: null },
      overall: 75,
      atRisk: false,
      atRiskReasons: [],
    });
  });

  it("ungraded work stays out of the averages until graded, and an abandoned attempt is graded by the read", async () => {
    const w = await theWorld();
    const { body } = await get(`/api/users/groups/${w.G.slug}/progress`, await as(w.D));
    // Lectures 1/2. T1 in, not graded: it counts nowhere yet, so no task rate. Q1: the open attempt's deadline
    // passed two days ago; its saved answers (b, " WRAP ") are worth 4/4 = 100 %. Overall: (50 + 100) / 2 = 75,
    // not below 70, but attendance 50 is: flagged for attendance alone.
    expect(body).toMatchObject({
      lectures: { attended: 1, held: 2, rate: 50 },
      tasks: { submitted: 1, given: 1, graded: 0, counted: 0, averageScore: null, rate: null },
      quizzes: { taken: 1, published: 1, counted: 1, averageScore: 100, rate: 100 },
      overall: 75,
      atRisk: true,
      atRiskReasons: [{ kind: "attendance", percent: 50 }],
    });
    const [graded] = await db().select().from(s.attempts).where(eq(s.attempts.userId, w.D.id));
    expect(graded).toMatchObject({ score: 4, maxScore: 4 });
    expect(graded!.submittedAt).not.toBeNull();
  });

  it("the very first read counts an attempt abandoned before it: closed and graded by that read, then counted", async () => {
    // A world of its own: nothing has read D's progress yet, so their Q1 attempt is still open in the table.
    const w = await world();
    const [before] = await db().select().from(s.attempts).where(eq(s.attempts.userId, w.D.id));
    expect(before!.submittedAt).toBeNull();
    const { body } = await get(`/api/users/groups/${w.G.slug}/progress`, await as(w.D));
    expect(body).toMatchObject({ quizzes: { taken: 1, counted: 1, averageScore: 100, rate: 100 }, overall: 75 });
  });

  it("the staff's very first read grades a member's abandoned attempt too, and counts it in their row and the quiz's chart", async () => {
    const w = await world();
    const { status, body } = await get(`/api/groups/${w.G.slug}/progress`, await as(w.teacher));
    expect(status).toBe(200);
    const report = body as unknown as { students: { _id: string; progress: { overall: number | null } }[]; quizzes: { taken: number; averageScore: number | null }[] };
    // D: lectures 1/2 (50 %) and the abandoned Q1 attempt graded 4/4 (100 %): overall 75, as in their own read.
    expect(report.students.find((x) => x._id === w.D.id)?.progress.overall).toBe(75);
    const [after] = await db().select().from(s.attempts).where(eq(s.attempts.userId, w.D.id));
    expect(after!.submittedAt).not.toBeNull();
    expect(after).toMatchObject({ score: 4, maxScore: 4 });
  });

  it("another group's records count in that group only", async () => {
    const w = await theWorld();
    const { body } = await get(`/api/users/groups/${w.H.slug}/progress`, await as(w.B));
    // H: 2 lectures held, both attended; its one task 10/10; no quizzes. Overall (1 + 1) / 2 = 100.
    expect(body).toMatchObject({
      lectures: { attended: 2, held: 2, rate: 100 },
      tasks: { submitted: 1, given: 1, graded: 1, averageScore: 100, rate: 100 },
      quizzes: { taken: 0, published: 0, averageScore: null, rate: null },
      overall: 100,
    });
  });

  it("a removed student has no progress here: 403 for them, 404 for staff asking, and nothing of theirs in the group's figures", async () => {
    const w = await theWorld();
    expect((await get(`/api/users/groups/${w.G.slug}/progress`, await as(w.E))).status).toBe(403);
    expect((await get(`/api/users/groups/${w.G.slug}/progress?user=${w.E.id}`, await as(w.teacher))).status).toBe(404);
    const { status, body } = await get(`/api/groups/${w.G.slug}/progress`, await as(w.teacher));
    expect(status).toBe(200);
    const report = body as unknown as {
      students: { _id: string; status: string; progress: { overall: number | null } }[];
      heldLectures: number;
      lectures: { slug: string; startsAt: string | null; held: boolean; present: number; late: number; excused: number; absent: number }[];
      tasks: { slug: string; dueAt: string | null; submitted: number; graded: number; averageScore: number | null; due: boolean }[];
      quizzes: { slug: string; opensAt: string | null; taken: number; averageScore: number | null; opened: boolean }[];
    };
    // Members A, B, C (approved) and D (special seat), by name; never E.
    expect(report.students.map((x) => x._id)).toEqual([w.A.id, w.B.id, w.C.id, w.D.id]);
    expect(report.students.map((x) => x.progress.overall)).toEqual([0, 63, 75, 75]);
    expect(report.heldLectures).toBe(2);
    const lecture = (slug: string) => report.lectures.find((l) => l.slug === slug);
    // L1: B and D present, C late, A absent (E's record is not counted). L2: C excused, the other 3 absent.
    expect(lecture(w.L1.slug)).toMatchObject({ held: true, open: false, present: 2, late: 1, excused: 0, absent: 1 });
    expect(lecture(w.L2.slug)).toMatchObject({ held: true, open: false, present: 0, late: 0, excused: 1, absent: 3 });
    // L3's attendance is open: not held, and the three without a record are not absent (yet).
    expect(lecture(w.L3.slug)).toMatchObject({ held: false, open: true, present: 1, absent: 0 });
    const task = (slug: string) => report.tasks.find((t) => t.slug === slug);
    // T1: B (80) and D (ungraded); E's 10 is not counted, or the average would be 45.
    expect(task(w.T1.slug)).toMatchObject({ due: true, submitted: 2, graded: 1, averageScore: 80 });
    expect(task(w.T2.slug)).toMatchObject({ due: false, submitted: 1, graded: 1, averageScore: 50 });
    expect(report.tasks.map((t) => t.slug)).not.toContain(`t3-l5-${w.G.slug}`);
    // Q1: B's best 75 % and D's 100 % → 87.5 → 88. Q2 is published but not open yet.
    expect(report.quizzes.find((q) => q.slug === w.Q1.slug)).toMatchObject({ opened: true, closed: false, taken: 2, averageScore: 88 });
    expect(report.quizzes.map((q) => q.opened)).toEqual([true, false]);
    // Each chart keeps its order (lectures as the course runs them, tasks by due date with the undated first, quizzes
    // by opening) and its times as ISO strings.
    expect(report.lectures.map((l) => l.slug).slice(0, 3)).toEqual([w.L1.slug, w.L2.slug, w.L3.slug]);
    expect(report.lectures.length).toBe(5);
    expect(lecture(w.L1.slug)!.startsAt).toBe(w.L1.startsAt!.toISOString());
    expect(report.tasks.map((t) => t.slug)).toEqual([w.T4.slug, w.T1.slug, w.T2.slug]);
    expect(task(w.T1.slug)!.dueAt).toBe(w.T1.dueAt!.toISOString());
    expect(task(w.T4.slug)!.dueAt).toBeNull();
    expect(report.quizzes[0]!.slug).toBe(w.Q1.slug);
    expect(report.quizzes[0]!.opensAt).toBe(w.Q1.opensAt.toISOString());
  });
});

describe("progress: flags for staff", () => {
  type Flagged = { _id: string; atRisk: boolean; atRiskReasons: { kind: string; percent: number }[]; progress: { overall: number | null; lectures: { rate: number | null } } };
  /** A group with `held` lectures held and one task due an hour ago (out of 100); each student's plan. */
  async function flagged(held: number, students: { attended: number; excused?: number; score?: number }[]) {
    const now = Date.now();
    const teacher = await createUser({ role: "instructor" });
    const group = await createGroup({ instructorId: teacher.id });
    const lectures = [];
    for (let i = 0; i < held; i++) lectures.push(await lectureIn(group, `l${i + 1}`, now - (held - i) * DAY));
    // The task sits on a lecture of its own when none is held (a future one: its task can still be due).
    const task = await taskOn(lectures[0] ?? (await lectureIn(group, "l99", now + DAY)), "t", now - HOUR);
    const ids: string[] = [];
    for (const plan of students) {
      const u = await createUser();
      ids.push(u.id);
      await addMember(u, group);
      for (let i = 0; i < plan.attended; i++) await mark(lectures[i]!, u, "present");
      for (let i = 0; i < (plan.excused ?? 0); i++) await mark(lectures[plan.attended + i]!, u, "excused");
      if (plan.score !== undefined) await handIn(task, u, plan.score);
    }
    const { body } = await get(`/api/groups/${group.slug}/progress`, await as(teacher));
    const list = (body as unknown as { students: Flagged[] }).students;
    return { group, teacher, students: ids.map((id) => list.find((x) => x._id === id)!) };
  }
  const summary = (x: Flagged) => [x.progress.overall, x.progress.lectures.rate, x.atRisk, x.atRiskReasons];

  it("the issue's student: 29 % overall and 50 % attendance after 2 held lectures is flagged, with both reasons", async () => {
    // 1 of 2 lectures = 50 %; the task 8/100 = 8 %; overall (50 + 8) / 2 = 29. Before: not flagged (under 5 held).
    const { students } = await flagged(2, [{ attended: 1, score: 8 }]);
    expect(summary(students[0]!)).toEqual([
      29,
      50,
      true,
      [
        { kind: "overall", percent: 29 },
        { kind: "attendance", percent: 50 },
      ],
    ]);
  });

  it("attendance alone: 50 % attendance after 2 held lectures with a fine overall is flagged for attendance", async () => {
    // 1 of 2 = 50 %; the task 100/100; overall (50 + 100) / 2 = 75, not below 70.
    const { students } = await flagged(2, [{ attended: 1, score: 100 }]);
    expect(summary(students[0]!)).toEqual([75, 50, true, [{ kind: "attendance", percent: 50 }]]);
  });

  it("overall alone after the first held lecture: 29 % overall with no attendance to count (excused) is flagged", async () => {
    // Excused from the only held lecture: no attendance rate; the task 29/100; overall 29. The group has held 1.
    const { students } = await flagged(1, [{ attended: 0, excused: 1, score: 29 }]);
    expect(summary(students[0]!)).toEqual([29, null, true, [{ kind: "overall", percent: 29 }]]);
  });

  it("the line is below 70 %, for overall and for attendance alike: 70 is not flagged, 69 and 60 are", async () => {
    // 1 held, attended: (100 + 40) / 2 = 70 → not flagged; (100 + 38) / 2 = 69 → flagged.
    const one = await flagged(1, [{ attended: 1, score: 40 }, { attended: 1, score: 38 }]);
    expect(one.students.map(summary)).toEqual([
      [70, 100, false, []],
      [69, 100, true, [{ kind: "overall", percent: 69 }]],
    ]);
    // 10 held: 7 of 10 = 70 % (overall (70 + 100) / 2 = 85) → not flagged; 6 of 10 = 60 % (overall 80) → flagged.
    const ten = await flagged(10, [{ attended: 7, score: 100 }, { attended: 6, score: 100 }]);
    expect(ten.students.map(summary)).toEqual([
      [85, 70, false, []],
      [80, 60, true, [{ kind: "attendance", percent: 60 }]],
    ]);
  });

  it("nothing is flagged before the first lecture is held, though a missed task reads 0 %", async () => {
    const { students } = await flagged(0, [{ attended: 0 }]);
    expect(summary(students[0]!)).toEqual([0, null, false, []]);
  });

  it("staff read the reason on the progress tab and on the student's page, in English and in Arabic", async () => {
    const { group, teacher, students } = await flagged(2, [{ attended: 1, score: 8 }]);
    const cookie = (await signIn(teacher)).cookie;
    const [student] = await db().select().from(s.users).where(eq(s.users.id, students[0]!._id));
    const html = async (path: string, lang: string) => (await (await call(path, { cookie: `${cookie}; lang=${lang}`, headers: { accept: "text/html" } })).text()).replace(/<!-- -->/g, "").replace(/[\u200e\u200f\u061c]/g, ""); // bidi marks around numbers aside
    for (const path of [`/instructor/group/${group.slug}/progress`, `/instructor/${group.slug}/student/${student!.slug}`]) {
      const en = await html(path, "en");
      expect(en, path).toContain('data-reason="overall">Overall 29%</li>');
      expect(en, path).toContain('data-reason="attendance">Attendance 50%</li>');
      const ar = await html(path, "ar");
      expect(ar, path).toContain('data-reason="overall">الإجمالي 29%</li>');
      expect(ar, path).toContain('data-reason="attendance">الحضور 50%</li>');
    }
    expect(await html(`/instructor/group/${group.slug}/progress`, "en")).toContain("A student needs support when their overall or attendance is below 70%, from the first lecture held.");
  });
});

describe("progress: a lecture whose attendance is open", () => {
  it("is said to staff as in progress beside the held count (0), while it counts for the student who checked in", async () => {
    const now = Date.now();
    const teacher = await createUser({ role: "instructor" });
    const group = await createGroup({ instructorId: teacher.id });
    const [here, notYet] = [await createUser(), await createUser()];
    await addMember(here, group);
    await addMember(notYet, group);
    const lecture = await lectureIn(group, "live1", now + DAY);
    await db().insert(s.attendanceSessions).values({ id: newId(), lectureId: lecture.id, opensAt: new Date(now - 10 * 60_000), closesAt: new Date(now + HOUR), createdBy: teacher.id });
    await db().insert(s.attendance).values({ id: newId(), lectureId: lecture.id, userId: here.id, status: "present", method: "code", markedAt: new Date(now - 5 * 60_000) });
    const cookie = (await signIn(teacher)).cookie;
    const page = async (lang: string) => (await (await call(`/instructor/group/${group.slug}/progress`, { cookie: `${cookie}; lang=${lang}` })).text()).replace(/<!-- -->/g, "");
    const en = await page("en");
    expect(en).toContain("1 in progress (attendance open)");
    expect(en).toContain("No lecture has finished yet: one is in progress. It counts for the students who have checked in, and for everyone once attendance closes.");
    expect(en).not.toContain("No lecture has been held yet.");
    const ar = await page("ar");
    expect(ar).toContain("محاضرة جارية (الحضور مفتوح)");
    // The student who checked in: 1 of 1; the one who has not: nothing held for them yet.
    const staffToken = (await signIn(teacher)).accessToken;
    const report = (await (await call(`/api/groups/${group.slug}/progress`, { token: staffToken })).json()) as { heldLectures: number; students: { _id: string; progress: { lectures: { attended: number; held: number } } }[] };
    expect(report.heldLectures).toBe(0);
    const of = (id: string) => report.students.find((x) => x._id === id)!.progress.lectures;
    expect(of(here.id)).toMatchObject({ attended: 1, held: 1 });
    expect(of(notYet.id)).toMatchObject({ attended: 0, held: 0 });
  });
});

/**
 * The issue's numbers ("Progress Overall disagrees with the numbers beside it"): a student at 75 % attendance,
 * 94 % tasks and 100 % quizzes read 73 % overall, because a quiz still open with days left counted as 0. Group I:
 * lectures M1-M4 held (3 attended, 1 absent), M5's attendance open now (no record yet); task K1 due yesterday,
 * 94/100; task K2 due in 3 days and K3 without a due time, neither handed in; quiz Z1 closed yesterday, 5/5; quiz Z2
 * open, closing in 3 days, not taken.
 */
describe("progress: work still open does not count against anyone", () => {
  async function issueWorld() {
    const now = Date.now();
    const teacher = await createUser({ role: "instructor" });
    const I = await createGroup({ instructorId: teacher.id });
    const lectures = [];
    for (let i = 1; i <= 5; i++) lectures.push(await lectureIn(I, `m${i}`, now - (6 - i) * DAY));
    const [M1, M2, M3, M4, M5] = lectures as [Lecture & { id: string }, Lecture & { id: string }, Lecture & { id: string }, Lecture & { id: string }, Lecture & { id: string }];
    await db().insert(s.attendanceSessions).values({ id: newId(), lectureId: M5.id, opensAt: new Date(now - 10 * 60_000), closesAt: new Date(now + 50 * 60_000), createdBy: teacher.id });
    const K1 = await taskOn(M1, "k1", now - DAY, 100);
    await taskOn(M2, "k2", now + 3 * DAY, 100);
    await taskOn(M2, "k3", null, 100);
    const quiz = (name: string, closesAt: number) => ({ id: newId(), lectureId: M1.id, groupId: I.id, slug: `${name}-${I.slug}`, title: `Quiz ${name}`, durationMinutes: 10, opensAt: new Date(now - 4 * DAY), closesAt: new Date(closesAt), maxAttempts: 1, published: true });
    const Z1 = quiz("z1", now - DAY);
    const Z2 = quiz("z2", now + 3 * DAY);
    await db().insert(s.quizzes).values([Z1, Z2]);
    await db().insert(s.questions).values([Z1, Z2].map((q) => ({ id: newId(), quizId: q.id, text: "Yes?", type: "true-false" as const, options: ["True", "False"], correct: [0], points: 5, order: 0 })));
    const student = await createUser({ name: `Issue Student ${newId().slice(0, 6)}` });
    await addMember(student, I);
    for (const l of [M1, M2, M3]) await mark(l, student, "present");
    await mark(M4, student, "absent");
    await handIn(K1, student, 94);
    await db().insert(s.attempts).values({ id: newId(), quizId: Z1.id, userId: student.id, answers: {}, score: 5, maxScore: 5, number: 1, startedAt: new Date(now - 2 * DAY), deadlineAt: new Date(now - 2 * DAY + 600_000), submittedAt: new Date(now - 2 * DAY + 300_000) });
    return { I, teacher, student, M5, Z2 };
  }
  let shared: ReturnType<typeof issueWorld> | undefined;
  const issue = () => (shared ??= issueWorld());

  it("75 % attendance, 94 % tasks and 100 % quizzes read 90 % overall, not 73 %", async () => {
    const w = await issue();
    const { body } = await get(`/api/users/groups/${w.I.slug}/progress`, await as(w.student));
    // Attendance: M1-M4 held (M5's attendance is still open and the student has no record: not held for them), 3 of
    // 4 = 75 %. Tasks: only K1 counts (K2 not due, K3 without a due time, neither handed in): 94 %. Quizzes: Z1
    // closed and taken, 5/5 = 100 %; Z2 open with days left, not taken: counts nowhere. Overall, the mean of the
    // three percentages: (75 + 94 + 100) / 3 = 89.67 → 90. Counting Z2 as 0 gave a quiz rate of 50 % and
    // (75 + 94 + 50) / 3 = 73, the issue's number.
    expect(body).toMatchObject({
      lectures: { attended: 3, held: 4, rate: 75 },
      tasks: { submitted: 1, given: 1, graded: 1, counted: 1, rate: 94, averageScore: 94 },
      quizzes: { taken: 1, published: 2, counted: 1, rate: 100, averageScore: 100 },
      overall: 90,
      atRisk: false,
    });
  });

  it("the same numbers on the staff's API, in progress.csv and grades.csv, and on the course home, to the digit", async () => {
    const w = await issue();
    const token = (await as(w.teacher)).accessToken;
    const report = (await get(`/api/groups/${w.I.slug}/progress`, await as(w.teacher))).body as unknown as { students: { _id: string; progress: { overall: number } }[] };
    expect(report.students.find((x) => x._id === w.student.id)!.progress.overall).toBe(90);
    const csv = async (file: string) => {
      const rows = parseCsv(new TextDecoder().decode(new Uint8Array(await (await call(`/api/groups/${w.I.slug}/export/${file}`, { token })).arrayBuffer()).slice(3)));
      const row = rows.find((r) => r[1] === w.student.email)!;
      return Object.fromEntries(rows[0]!.map((h, i) => [h, row[i]]));
    };
    const progress = await csv("progress.csv");
    expect([progress.attendance_percent, progress.task_percent, progress.quiz_percent, progress.overall_percent]).toEqual(["75", "94", "100", "90"]);
    const grades = await csv("grades.csv");
    expect([grades.task_percent, grades.quiz_percent]).toEqual(["94", "100"]);
    // Z2 is open and not taken: `open`, not `not_taken` (which counts as 0).
    expect(grades[`quiz:${w.Z2.slug}:status`]).toBe("open");
    const home = await (await call(`/course/${w.I.slug}`, { cookie: (await signIn(w.student)).cookie, headers: { accept: "text/html" } })).text();
    const values = [...home.matchAll(/class="progress-(?:overall|meter)-value" dir="ltr">([^<]*)</g)].map((m) => m[1]);
    expect(values).toEqual(["90%", "75%", "94%", "100%"]);
    expect(home).toContain("Overall is the average of the attendance, task and quiz percentages");
  });

  it("a session still open shows `open` in attendance.csv and does not lower attendance; closing it makes it count", async () => {
    const w = await issueWorld();
    const token = (await as(w.teacher)).accessToken;
    const attendance = async () => {
      const rows = parseCsv(new TextDecoder().decode(new Uint8Array(await (await call(`/api/groups/${w.I.slug}/export/attendance.csv`, { token })).arrayBuffer()).slice(3)));
      const row = rows.find((r) => r[1] === w.student.email)!;
      return Object.fromEntries(rows[0]!.map((h, i) => [h, row[i]]));
    };
    const open = await attendance();
    expect(open[`lecture:${w.M5.slug}:status`]).toBe("open");
    expect([open.lectures_attended, open.lectures_held, open.attendance_percent]).toEqual(["3", "4", "75"]);
    // Once the session has closed, a member without a record was absent: 3 of 5 = 60 %.
    await db().update(s.attendanceSessions).set({ closesAt: new Date(Date.now() - 1000) }).where(eq(s.attendanceSessions.lectureId, w.M5.id));
    const closed = await attendance();
    expect(closed[`lecture:${w.M5.slug}:status`]).toBe("absent");
    expect([closed.lectures_attended, closed.lectures_held, closed.attendance_percent]).toEqual(["3", "5", "60"]);
  });
});

describe("progress: who may read it", () => {
  it("members read their own; staff read a member's with ?user=; everyone else is refused with a message", async () => {
    const w = await theWorld();
    const path = `/api/users/groups/${w.G.slug}/progress`;
    expect((await get(path, null)).status).toBe(401);
    const stranger = await get(path, await as(w.stranger));
    expect(stranger.status).toBe(403);
    expect(stranger.body.message).toBe("Only the group's students have progress in it.");
    const staffOwn = await get(path, await as(w.teacher));
    expect(staffOwn.status).toBe(403);
    expect(staffOwn.body.message).toContain("?user=");
    for (const staff of [w.teacher, w.admin]) {
      const one = await get(`${path}?user=${w.B.slug}`, await as(staff));
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ overall: 63, user: { _id: w.B.id } });
    }
    expect((await get(`${path}?user=${w.B.id}`, await as(w.otherTeacher))).status).toBe(403);
    // A member may not read another member's numbers, by id or slug; naming themselves, either way, reads their own.
    expect((await get(`${path}?user=${w.C.id}`, await as(w.B))).status).toBe(403);
    expect((await get(`${path}?user=${w.C.slug}`, await as(w.B))).status).toBe(403);
    expect((await get(`${path}?user=nobody-here`, await as(w.B))).status).toBe(403);
    for (const self of [w.B.id, w.B.slug]) expect((await get(`${path}?user=${self}`, await as(w.B))).body).toMatchObject({ overall: 63, user: { _id: w.B.id } });
    expect((await get(`${path}?user=nobody-here`, await as(w.teacher))).status).toBe(404);
    // A staff member of the group who is not a student of it.
    expect((await get(`${path}?user=${w.otherTeacher.id}`, await as(w.teacher))).status).toBe(404);
    const bad = await get(`${path}?user=${encodeURIComponent("a b!")}`, await as(w.teacher));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBeTruthy();
    expect((await get(`/api/users/groups/no-such-group/progress`, await as(w.B))).status).toBe(404);
  });

  it("the group's progress and exports are its staff's only", async () => {
    const w = await theWorld();
    for (const path of [`/api/groups/${w.G.slug}/progress`, `/api/groups/${w.G.slug}/export/progress.csv`, `/api/groups/${w.G.slug}/export/attendance.csv`, `/api/groups/${w.G.slug}/export/grades.csv`]) {
      expect((await call(path)).status, path).toBe(401);
      for (const who of [w.B, w.stranger, w.otherTeacher]) expect((await call(path, { token: (await as(who)).accessToken })).status, path).toBe(403);
      for (const who of [w.teacher, w.admin]) expect((await call(path, { token: (await as(who)).accessToken })).status, path).toBe(200);
    }
    expect((await call(`/api/groups/${w.G.slug}/export/secrets.csv`, { token: (await as(w.admin)).accessToken })).status).toBe(404);
    const badLang = await call(`/api/groups/${w.G.slug}/export/progress.csv?lang=fr`, { token: (await as(w.admin)).accessToken });
    expect(badLang.status).toBe(400);
  });
});

/** Splits CSV text (RFC 4180, as written by the export) into rows of cells. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += ch;
  }
  return rows;
}

describe("progress: CSV exports", () => {
  async function exportOf(file: string, opts: { lang?: string; names?: string[] } = {}) {
    const w = await theWorld();
    const res = await call(`/api/groups/${w.G.slug}/export/${file}${opts.lang ? `?lang=${opts.lang}` : ""}`, { token: (await as(w.teacher)).accessToken });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${w.G.slug}-${file}"`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    // UTF-8 byte order mark first.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    expect(text.endsWith("\r\n")).toBe(true);
    return { w, rows: parseCsv(text) };
  }

  it("progress.csv: a header and one row per member, name and e-mail first, the same numbers as the API", async () => {
    const { w, rows } = await exportOf("progress.csv");
    // The same machine-readable header in every language (tests/integration/exports.test.ts checks the rest).
    expect(rows[0]).toEqual([
      "student_name",
      "email",
      "lectures_attended",
      "lectures_held",
      "attendance_percent",
      "tasks_submitted",
      "tasks_given",
      "tasks_graded",
      "tasks_counted",
      "task_percent",
      "quizzes_taken",
      "quizzes_published",
      "quizzes_counted",
      "quiz_percent",
      "overall_percent",
      "at_risk",
      "at_risk_reasons",
    ]);
    expect(rows).toHaveLength(5);
    // B: 1 of 2 lectures; 2 graded, none missing: 65; Q1 taken: 75; overall 63, flagged for overall and attendance.
    expect(rows.find((r) => r[1] === w.B.email)).toEqual([w.B.name, w.B.email, "1", "2", "50", "2", "2", "2", "2", "65", "1", "1", "1", "75", "63", "true", "overall attendance"]);
    // D: nothing graded and nothing missing: no task percentage; flagged for attendance alone.
    expect(rows.find((r) => r[1] === w.D.email)).toEqual([w.D.name, w.D.email, "1", "2", "50", "1", "1", "0", "0", "", "1", "1", "1", "100", "75", "true", "attendance"]);
    // C: Q1 is open and not taken: published 1, counted 0, no quiz percentage; overall (100 + 50) / 2 = 75.
    expect(rows.find((r) => r[1] === w.C.email)).toEqual([w.C.name, w.C.email, "3", "3", "100", "1", "2", "1", "2", "50", "0", "1", "0", "", "75", "false", ""]);
    expect(rows.some((r) => r[1] === w.E.email)).toBe(false);
  });

  it("attendance.csv: a column per held or open lecture with each member's status; no record on a held lecture is absent, on an open one open", async () => {
    const { w, rows } = await exportOf("attendance.csv");
    const header = rows[0]!;
    expect(header.slice(0, 2)).toEqual(["student_name", "email"]);
    // L1, L2 are held; L3's attendance is open; L4 has a record (C's), so it is a column too; L5 never is.
    expect(header.slice(2, 6)).toEqual(["l1", "l2", "l3", "l4"].map((l) => `lecture:${l}-${w.G.slug}:status`));
    expect(header.slice(6)).toEqual(["lectures_attended", "lectures_held", "attendance_percent"]);
    expect(rows.find((r) => r[1] === w.C.email)!.slice(2)).toEqual(["late", "excused", "present", "present", "3", "3", "100"]);
    // A has no record at L3 while its attendance is open: `open`, and not held for A (0 of 2, not 0 of 3).
    expect(rows.find((r) => r[1] === w.A.email)!.slice(2)).toEqual(["absent", "absent", "open", "not_held", "0", "2", "0"]);
  });

  it("grades.csv: each task's and opened quiz's score (a number or empty), what it is out of, and a status word", async () => {
    const { w, rows } = await exportOf("grades.csv");
    const header = rows[0]!;
    const item = (kind: string, slug: string) => ["score", "max_score", "status"].map((f) => `${kind}:${slug}:${f}`);
    expect(header).toEqual(["student_name", "email", ...item("task", w.T4.slug), ...item("task", w.T1.slug), ...item("task", w.T2.slug), ...item("quiz", w.Q1.slug), "task_percent", "quiz_percent"]);
    expect(rows.find((r) => r[1] === w.B.email)!.slice(2)).toEqual(["", "100", "not_due", "80", "100", "graded", "25", "50", "graded", "3", "4", "taken", "65", "75"]);
    // C: T4 100 and T1 missing (0): (1 + 0) / 2 = 50 %, the number the overall uses. Q1 open, not taken: `open`.
    expect(rows.find((r) => r[1] === w.C.email)!.slice(2)).toEqual(["100", "100", "graded", "", "100", "missing", "", "50", "not_due", "", "4", "open", "50", ""]);
    expect(rows.find((r) => r[1] === w.D.email)!.slice(2)).toEqual(["", "100", "not_due", "", "100", "submitted", "", "50", "not_due", "4", "4", "taken", "", "100"]);
  });

  it("escapes cells a spreadsheet would run as formulas, keeps Arabic names, and writes the same header when asked in Arabic", async () => {
    const teacher = await createUser({ role: "instructor" });
    const group = await createGroup({ instructorId: teacher.id });
    const names = ['=HYPERLINK("http://evil.example","click")', "+1+1", "-2+3", "@SUM(A1:A9)", "نور علي", 'Quote "Q", comma'];
    for (const name of names) await addMember(await createUser({ name }), group);
    const res = await call(`/api/groups/${group.slug}/export/progress.csv?lang=ar`, { token: (await signIn(teacher)).accessToken });
    const text = new TextDecoder().decode(new Uint8Array(await res.arrayBuffer()).slice(3));
    const rows = parseCsv(text);
    expect(rows[0]!.slice(0, 3)).toEqual(["student_name", "email", "lectures_attended"]);
    const written = rows.slice(1).map((r) => r[0]);
    expect(written).toEqual(
      expect.arrayContaining(["'=HYPERLINK(\"http://evil.example\",\"click\")", "'+1+1", "'-2+3", "'@SUM(A1:A9)", "نور علي", 'Quote "Q", comma']),
    );
    // The quoted cell is written as RFC 4180 asks.
    expect(text).toContain('"Quote ""Q"", comma"');
    expect(rows.slice(1).every((r) => r[r.length - 2] === "false" && r[r.length - 1] === "")).toBe(true);
  });
});

describe("progress: the pages", () => {
  const page = async (path: string, who: TestUser | null) => {
    const res = await call(path, { cookie: who ? (await signIn(who)).cookie : undefined, headers: { accept: "text/html" } });
    return { status: res.status, type: res.headers.get("content-type") ?? "", location: res.headers.get("location"), text: await res.text() };
  };

  it("the course home leads with the member's numbers; staff and other students see no progress card", async () => {
    const w = await theWorld();
    const home = await page(`/course/${w.G.slug}`, w.B);
    expect(home.status).toBe(200);
    expect(home.text).toContain('class="card progress-card"');
    expect(home.text).toContain("63%");
    expect(home.text).toContain("1 of 2 lectures attended");
    // Up next: T2 (due in 3 days, handed in) is not listed; Q1 has attempts left (3 allowed, 2 used).
    expect(home.text).toContain("Attempts left: 1");
    const staffView = await page(`/course/${w.G.slug}`, w.teacher);
    expect(staffView.status).toBe(200);
    expect(staffView.text).not.toContain('class="card progress-card"');
    expect((await page(`/course/${w.G.slug}`, w.stranger)).status).toBe(403);
  });

  it("the progress tab and its downloads are the group's staff's", async () => {
    const w = await theWorld();
    const tab = await page(`/instructor/group/${w.G.slug}/progress`, w.teacher);
    expect(tab.status).toBe(200);
    for (const name of [w.A.name, w.B.name, w.C.name, w.D.name]) expect(tab.text).toContain(name);
    expect(tab.text).not.toContain(w.E.name);
    expect(tab.text).toContain(`href="/instructor/group/${w.G.slug}/export/grades.csv"`);
    expect((await page(`/dashboard/admin/group/${w.G.slug}/progress`, w.admin)).status).toBe(200);
    expect((await page(`/instructor/group/${w.G.slug}/progress`, w.otherTeacher)).status).toBe(403);
    expect((await page(`/instructor/group/${w.G.slug}/progress`, w.B)).status).toBe(403);
    expect((await page(`/dashboard/admin/group/${w.G.slug}/progress`, w.teacher)).status).toBe(403);
    const signedOut = await page(`/instructor/group/${w.G.slug}/progress`, null);
    expect(signedOut.status).toBe(302);
    expect(signedOut.location).toContain("/auth/login");

    const csv = await page(`/instructor/group/${w.G.slug}/export/progress.csv`, w.teacher);
    expect(csv.status).toBe(200);
    expect(csv.type).toBe("text/csv; charset=utf-8");
    expect(csv.text).toContain(w.B.email);
    expect((await page(`/dashboard/admin/group/${w.G.slug}/export/attendance.csv`, w.admin)).status).toBe(200);
    expect((await page(`/instructor/group/${w.G.slug}/export/progress.csv`, w.otherTeacher)).status).toBe(403);
    expect((await page(`/instructor/group/${w.G.slug}/export/passwords.csv`, w.teacher)).status).toBe(404);
  });

  it("the staff's student pages show the student's numbers in each of their groups the viewer runs", async () => {
    const w = await theWorld();
    const mine = await page(`/instructor/${w.G.slug}/student/${w.B.slug}`, w.teacher);
    expect(mine.status).toBe(200);
    expect(mine.text).toContain("Progress in their groups");
    // G: 63 % overall; H: 100 %.
    expect(mine.text).toContain("63%");
    expect(mine.text).toContain("100%");
    const admin = await page(`/dashboard/admin/allStudent/student/${w.B.slug}`, w.admin);
    expect(admin.text).toContain(`href="/dashboard/admin/group/${w.H.slug}/progress"`);
  });
});

describe("the staff's quiz figures", () => {
  it("count a quiz's bank draws in its points: one question of 1 point and three drawn at 2 make 7", async () => {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const group = await createGroup({ instructorId: teacher.user.id });
    const lecture = { id: newId(), groupId: group.id, slug: `l-${group.slug}`, title: "Week 1", body: "", order: 1, published: true };
    await db().insert(s.lectures).values(lecture);
    const quiz = { id: newId(), lectureId: lecture.id, groupId: group.id, slug: `drawn-${group.slug}`, title: "Drawn", durationMinutes: null, maxAttempts: 1, published: true, draws: [{ tag: "t", count: 3, points: 2 }] };
    await db().insert(s.quizzes).values(quiz);
    await db().insert(s.questions).values({ id: newId(), quizId: quiz.id, text: "Own", type: "single", options: ["a", "b"], correct: [0], points: 1, order: 0 });
    const res = await call(`/api/groups/${group.slug}/progress`, { token: teacher.accessToken });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { quizzes: { slug: string; maxScore: number }[] }).quizzes).toEqual([expect.objectContaining({ slug: quiz.slug, maxScore: 7 })]);
  });
});


describe("a quiz worth nothing", () => {
  it("counts as all earned once taken: a practice quiz of 0-point questions beside a 2 of 4 reads (100 + 50) / 2 = 75 %, for the student, the charts and the results", async () => {
    const now = Date.now();
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const group = await createGroup({ instructorId: teacher.user.id });
    const student = await createUser();
    await addMember(student, group);
    const me = await signIn(student);
    const lecture = { id: newId(), groupId: group.id, slug: `l-${group.slug}`, title: "Week 1", body: "", order: 1, published: true, startsAt: new Date(now + DAY) };
    await db().insert(s.lectures).values(lecture);
    const quiz = (name: string) => ({ id: newId(), lectureId: lecture.id, groupId: group.id, slug: `${name}-${group.slug}`, title: name, durationMinutes: null, maxAttempts: 1, published: true, opensAt: new Date(now - DAY) });
    const practice = quiz("practice");
    const graded = quiz("graded");
    await db().insert(s.quizzes).values([practice, graded]);
    await db().insert(s.questions).values([
      { id: newId(), quizId: practice.id, text: "Warm up", type: "single", options: ["a", "b"], correct: [0], points: 0, order: 0 },
      { id: newId(), quizId: graded.id, text: "Counts", type: "single", options: ["a", "b"], correct: [0], points: 4, order: 0 },
    ]);
    const taken = (q: { id: string }, score: number, maxScore: number) => ({
      id: newId(), quizId: q.id, userId: student.id, answers: {}, score, maxScore, number: 1,
      startedAt: new Date(now - HOUR), deadlineAt: new Date(now + HOUR), savedAt: new Date(now - HOUR), submittedAt: new Date(now - HOUR),
    });
    await db().insert(s.attempts).values([taken(practice, 0, 0), taken(graded, 2, 4)]);

    const mine = await get(`/api/users/groups/${group.slug}/progress`, me);
    expect(mine.status).toBe(200);
    expect(mine.body.quizzes).toMatchObject({ taken: 2, counted: 2, rate: 75 });
    const charts = (await get(`/api/groups/${group.slug}/progress`, teacher)).body as { quizzes: { slug: string; averageScore: number | null }[] };
    expect(charts.quizzes.find((q) => q.slug === practice.slug)).toMatchObject({ averageScore: 100 });
    const results = (await get(`/api/quizzes/groups/${group.slug}/results`, teacher)).body as { quizzes: { _id: string; averagePercent: number | null }[] };
    expect(results.quizzes.find((q) => q._id === practice.id)).toMatchObject({ averagePercent: 100 });
    // Its result page reads 100 % and says why.
    const res = await call(`/course/${group.slug}/lecture/${lecture.slug}/quiz/${practice.slug}/result`, { cookie: me.cookie, headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    const html = await res.text();
    // The percentage is said once, in its line; the bar beside it is drawing (hidden from screen readers).
    expect(html).toContain('<p class="muted">100%</p>');
    expect(html).not.toContain('aria-label="100%"');
    expect(html).toContain('class="quiz-meter" aria-hidden="true"');
    expect(html).toContain("This quiz is worth no points");
  });
});
