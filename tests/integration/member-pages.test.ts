/**
 * Member pages cheap to render (issue 23): a constant number of D1 statements per page whatever its rows, counted
 * on the request's own session through the real Worker (`X-D1-Statements`, development only), and Markdown rendered
 * once when saved rather than at every read (worker/services/stored-html.ts).
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { newId } from "../../worker/services/ids";
import { addMember, call, createGroup, createUser, hintSetBy, signIn } from "./factories";
import { db, eventually, insertAll } from "./helpers";

const DAY = 86_400_000;

/** A group with `n` lectures, each with a task (graded, with feedback, for the student) and a quiz. */
async function courseOf(n: number) {
  const now = Date.now();
  const teacher = await createUser({ role: "instructor" });
  const group = await createGroup({ instructorId: teacher.id });
  const student = await createUser();
  await addMember(student, group);
  const others = Array.from({ length: n }, (_, i) => ({ id: newId(), slug: `${group.slug}-o${i}`, name: `Other ${i}`, email: `${group.slug}-o${i}@test.example`, role: "user" as const }));
  await insertAll(s.users, others);
  await insertAll(s.memberships, others.map((u) => ({ id: newId(), userId: u.id, groupId: group.id, status: "approved" as const })));
  const lectures = Array.from({ length: n }, (_, i) => ({ id: newId(), groupId: group.id, slug: `l${i}-${group.slug}`, title: `Week ${i + 1}`, body: `## Week ${i + 1}\n\nSome *Markdown*.`, order: i, startsAt: new Date(now + (i - n + 1) * DAY), published: true }));
  await insertAll(s.lectures, lectures);
  const tasks = lectures.map((l, i) => ({ id: newId(), lectureId: l.id, slug: `t${i}-${group.slug}`, title: `Task ${i}`, body: "Do **it**.", dueAt: new Date(now + (i - 1) * DAY), maxScore: 100 }));
  await insertAll(s.tasks, tasks);
  await insertAll(s.quizzes, lectures.map((l, i) => ({ id: newId(), lectureId: l.id, groupId: group.id, slug: `q${i}-${group.slug}`, title: `Quiz ${i}`, opensAt: new Date(now - DAY), closesAt: new Date(now + DAY), maxAttempts: 2, published: true })));
  await insertAll(s.submissions, [...others, student].flatMap((u) => tasks.map((t, i) => ({ id: newId(), taskId: t.id, userId: u.id, link: "https://github.com/x/y", submittedAt: new Date(now), score: 80, gradedAt: new Date(now), feedback: `Good work on **part ${i}**.` }))));
  await insertAll(s.attendance, [...others, student].flatMap((u) => lectures.map((l) => ({ id: newId(), lectureId: l.id, userId: u.id, status: "present" as const, method: "code" as const, markedAt: new Date(now) }))));
  return { group, lectures, tasks, studentCookie: (await signIn(student)).cookie, teacherCookie: (await signIn(teacher)).cookie };
}

/**
 * The statements of a page in the steady state: the first visit renders the Markdown no save stored (rows written
 * straight into the tables here) and stores it in one statement per table; the second reads the rows as stored, and
 * the isolate keeps them for read-ahead (ADR 0033); the third is measured.
 */
async function cost(path: string, cookie: string): Promise<{ statements: number; roundTrips: number }> {
  let cookies = cookie;
  for (let visit = 0; visit < 3; visit++) {
    const res = await call(path, { cookie: cookies });
    await res.text();
    expect(res.status, path).toBe(200);
    if (visit === 2) return { statements: Number(res.headers.get("x-d1-statements")), roundTrips: Number(res.headers.get("x-d1-round-trips")) };
    if (visit > 0) continue;
    // As a browser does: the next visits carry the viewer hint this answer set (worker/auth/viewer-hint.ts).
    const hint = hintSetBy(res);
    expect(hint, `${path} names its viewer for the next page`).not.toBeNull();
    cookies = `${cookie}; ${hint!.split(";")[0]}`;
  }
  throw new Error("unreachable");
}
const statements = async (path: string, cookie: string) => (await cost(path, cookie)).statements;

async function pageCounts(n: number) {
  const c = await courseOf(n);
  const base = `/course/${c.group.slug}`;
  const staff = `/instructor/group/${c.group.slug}`;
  const lecture = c.lectures[0]!.slug;
  const task = c.tasks[0]!.slug;
  return {
    courseHome: await cost(base, c.studentCookie),
    lecturePage: await cost(`${base}/lecture/${lecture}`, c.studentCookie),
    taskPage: await cost(`${base}/lecture/${lecture}/Add-Task/${task}`, c.studentCookie),
    myCourses: await cost("/my-courses", c.studentCookie),
    students: await cost(`${staff}/students`, c.teacherCookie),
    lectures: await cost(`${staff}/lectures`, c.teacherCookie),
    progress: await cost(`${staff}/progress`, c.teacherCookie),
    tasks: await cost(`${staff}/tasks`, c.teacherCookie),
    grader: await cost(`${staff}/lecture/${lecture}/tasks/${task}/submissions`, c.teacherCookie),
  };
}

describe("member pages", () => {
  it("prepare as many D1 statements, in as many calls to D1, for 2 lectures, tasks, quizzes and members as for 12", async () => {
    const small = await pageCounts(2);
    const large = await pageCounts(12);
    for (const count of Object.values(small)) expect(count.statements).toBeGreaterThan(0);
    expect(large).toEqual(small);
  });

  it("send the reads they issue together to D1 together: each page in a few calls, however many statements", async () => {
    const pages = await pageCounts(2);
    // With the viewer hint a browser carries (worker/auth/viewer-hint.ts) and the rows the isolate kept from the
    // visit before (the group, the lecture, the task: ADR 0033), nothing waits for anything: the session, the group
    // with the viewer's membership and every list go to D1 in one call. (Without the hint the session is one more
    // call before everything, tests/integration/viewer-hint.test.ts; without kept rows the group is one more,
    // tests/integration/read-ahead.test.ts.)
    const { taskPage, ...listed } = pages;
    for (const [name, page] of Object.entries(listed)) expect(page.roundTrips, name).toBe(1);
    // The task page (not on the list): its services (hand-ins, exercise, history) still look up one after
    // another, 3 calls.
    expect(taskPage.roundTrips).toBeLessThanOrEqual(3);
    // The course home's statements (9 when this was written: the session, the group, the outline, announcements,
    // certificate, lectures, tasks, quizzes with the student's attempts, progress) all in that one call.
    expect(pages.courseHome.statements).toBeGreaterThan(5);
    // The staff's Progress tab: the session, the group, every member's figures and the three charts' lists as one
    // statement (each list a JSON column): 4. It was 6 while each chart was its own statement.
    expect(pages.progress.statements).toBeLessThanOrEqual(4);
  });

  it("reuse what one request already read: the course home asks for the viewer and the group once each", async () => {
    const c = await courseOf(1);
    const home = await statements(`/course/${c.group.slug}`, c.studentCookie);
    // Before the request-scoped reads it took 27 (the viewer three times, the group five times); 21 before the
    // header's figures came with the session read and the quiz list's question counts with the quizzes (ADR 31); 18
    // before the student's progress became one row of one statement (ADR 32).
    expect(home).toBeLessThanOrEqual(11);
  });
});

describe("Markdown rendered once", () => {
  it("is stored when a lecture or task is saved, and a read serves the stored HTML without rendering again", async () => {
    const teacher = await createUser({ role: "instructor" });
    const group = await createGroup({ instructorId: teacher.id });
    const token = `Bearer ${(await signIn(teacher)).accessToken}`;
    const created = await call(`/api/lectures/group/${group.id}`, { token, body: { title: "Stored HTML", body: "Hello **world**", published: true } });
    expect(created.status).toBe(201);
    const { _id: lectureId } = (await created.json()) as { _id: string };
    const [row] = await db().select({ bodyHtml: s.lectures.bodyHtml }).from(s.lectures).where(eq(s.lectures.id, lectureId));
    expect(row!.bodyHtml).toContain("<strong>world</strong>");

    // What a read shows is what was stored: a stand-in in the column is served as it is.
    await db().update(s.lectures).set({ bodyHtml: "<p>from the column</p>" }).where(eq(s.lectures.id, lectureId));
    const read = (await (await call(`/api/lectures/${lectureId}`, { token })).json()) as { bodyHtml: string };
    expect(read.bodyHtml).toBe("<p>from the column</p>");

    // Saving through the API stores the new HTML at once.
    const put = await call(`/api/lectures/${lectureId}`, { method: "PUT", token, body: { body: "Now *emphasis*" } });
    expect(put.status).toBe(200);
    const [after] = await db().select({ bodyHtml: s.lectures.bodyHtml }).from(s.lectures).where(eq(s.lectures.id, lectureId));
    expect(after!.bodyHtml).toContain("<em>emphasis</em>");

    const task = await call(`/api/lectures/${lectureId}/tasks`, { token, body: { title: "A task", body: "Use `code`", maxScore: 10 } });
    expect(task.status).toBe(201);
    const { _id: taskId } = (await task.json()) as { _id: string };
    const [t] = await db().select({ bodyHtml: s.tasks.bodyHtml }).from(s.tasks).where(eq(s.tasks.id, taskId));
    expect(t!.bodyHtml).toContain("<code>code</code>");
  });

  it("is cleared when the Markdown changes by any other path, rendered by the next read and stored for the one after", async () => {
    const teacher = await createUser({ role: "instructor" });
    const group = await createGroup({ instructorId: teacher.id });
    const token = `Bearer ${(await signIn(teacher)).accessToken}`;
    const lectureId = newId();
    await db().insert(s.lectures).values({ id: lectureId, groupId: group.id, slug: `raw-${lectureId.toLowerCase()}`, title: "Raw", body: "first", bodyHtml: "<p>first</p>", published: true });
    await db().update(s.lectures).set({ body: "second **bold**" }).where(eq(s.lectures.id, lectureId));
    const [cleared] = await db().select({ bodyHtml: s.lectures.bodyHtml }).from(s.lectures).where(eq(s.lectures.id, lectureId));
    expect(cleared!.bodyHtml).toBeNull();

    const read = (await (await call(`/api/lectures/${lectureId}`, { token })).json()) as { bodyHtml: string };
    expect(read.bodyHtml).toContain("<strong>bold</strong>");
    const stored = await eventually(async () => {
      const [r] = await db().select({ bodyHtml: s.lectures.bodyHtml }).from(s.lectures).where(eq(s.lectures.id, lectureId));
      return r?.bodyHtml ?? undefined;
    }, 2_000, "the rendered HTML to be stored");
    expect(stored).toBe(read.bodyHtml);
  });

  it("stores a grader's feedback as HTML when it is given, and the course home shows it", async () => {
    const c = await courseOf(1);
    const [sub] = await db().select({ id: s.submissions.id, html: s.submissions.feedbackHtml }).from(s.submissions).where(eq(s.submissions.taskId, c.tasks[0]!.id)).limit(1);
    // Written by the test straight into the table: no HTML yet; the first read renders and stores it.
    expect(sub!.html).toBeNull();
    const home = await call(`/course/${c.group.slug}`, { cookie: c.studentCookie });
    expect((await home.text()).includes("<strong>part 0</strong>")).toBe(true);
  });
});

/** A lecture page lists its quizzes as the course home does: when each opens or closes, and the student's standing. */
describe("the lecture page's quizzes", () => {
  it("say for the student when each opens or closes, and which is running, scored (best of the attempts) or not taken", async () => {
    const teacher = await createUser({ role: "instructor" });
    const student = await createUser();
    const group = await createGroup({ instructorId: teacher.id });
    await addMember(student, group);
    const now = Date.now();
    const lecture = { id: newId(), groupId: group.id, slug: `quizzes-${group.slug}`, title: "Quizzes", body: "", order: 0, startsAt: new Date(now - DAY), published: true };
    await insertAll(s.lectures, [lecture]);
    const quiz = (slug: string, title: string, opensAt: number, closesAt: number, published = true, maxAttempts = 3) =>
      ({ id: newId(), lectureId: lecture.id, groupId: group.id, slug: `${slug}-${group.slug}`, title, opensAt: new Date(opensAt), closesAt: new Date(closesAt), maxAttempts, published });
    const scored = quiz("scored", "Scored quiz", now - DAY, now + DAY);
    const running = quiz("running", "Running quiz", now - DAY, now + DAY);
    const fresh = quiz("fresh", "Fresh quiz", now - DAY, now + DAY);
    const later = quiz("later", "Later quiz", now + 2 * DAY, now + 3 * DAY);
    const shut = quiz("shut", "Shut quiz", now - 3 * DAY, now - DAY);
    const draft = quiz("draft", "Draft quiz", now - DAY, now + DAY, false);
    const zero = quiz("zero", "Zero quiz", now - DAY, now + DAY);
    const used = quiz("used", "Used quiz", now - DAY, now + DAY, true, 1);
    await insertAll(s.quizzes, [scored, running, fresh, later, shut, draft, zero, used]);
    // Four points a quiz: one question of 4.
    await insertAll(s.questions, [scored, running, fresh, later, shut, draft, zero, used].map((q) => ({ id: newId(), quizId: q.id, text: "Q", type: "single" as const, options: ["a", "b"], correct: [0], points: 4 })));
    const attempt = (quizId: string, number: number, score: number | null, submitted: boolean) =>
      ({ id: newId(), quizId, userId: student.id, number, score, startedAt: new Date(now - 60_000), deadlineAt: new Date(now + DAY), submittedAt: submitted ? new Date(now - 30_000) : null });
    await insertAll(s.attempts, [attempt(scored.id, 1, 1, true), attempt(scored.id, 2, 3, true), attempt(running.id, 1, null, false), attempt(zero.id, 1, 0, true), attempt(used.id, 1, 2, true)]);

    const path = `/course/${group.slug}/lecture/${lecture.slug}`;
    const rowsOf = async (cookie: string) => {
      const html = await (await call(path, { cookie })).text();
      return new Map([...html.matchAll(/<li class="lecture-work-item" data-window="(\w+)">([\s\S]*?)<\/li>/g)].map((m) => [/lecture-work-title"[^>]*>([^<]+)</.exec(m[2]!)![1]!, { window: m[1], html: m[2]!, text: m[2]!.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim() }]));
    };
    const rows = await rowsOf((await signIn(student)).cookie);
    expect([...rows.keys()].sort()).toEqual(["Fresh quiz", "Later quiz", "Running quiz", "Scored quiz", "Shut quiz", "Used quiz", "Zero quiz"]);
    // Still open, but this student has used their one attempt: said beside the grade; two of three used is not.
    expect(rows.get("Used quiz")!.text).toContain("No attempts left");
    expect(rows.get("Used quiz")!.text).toContain("Grade: 2 / 4");
    expect(rows.get("Scored quiz")!.text).not.toContain("No attempts left");
    expect(rows.get("Scored quiz")!.text).toContain("Grade: 3 / 4");
    expect(rows.get("Scored quiz")!.text).not.toContain("Not taken yet");
    expect(rows.get("Running quiz")!.text).toContain("In progress");
    expect(rows.get("Fresh quiz")!.text).toContain("Not taken yet");
    expect(rows.get("Later quiz")).toMatchObject({ window: "upcoming" });
    expect(rows.get("Later quiz")!.text).toMatch(/Opens \w{3}, /);
    expect(rows.get("Shut quiz")).toMatchObject({ window: "closed" });
    expect(rows.get("Shut quiz")!.text).toContain("This quiz has closed.");
    // Closed before it was taken: missed (progress counts it as 0), not "not taken yet".
    expect(rows.get("Shut quiz")!.text).toContain("Missed");
    expect(rows.get("Shut quiz")!.text).not.toContain("Not taken yet");
    expect(rows.get("Later quiz")!.text).toContain("Not taken yet");
    // A best score of 0 reads plainly: no check mark, not the green of a grade earned.
    expect(rows.get("Zero quiz")!.text).toContain("Grade: 0 / 4");
    expect(rows.get("Zero quiz")!.html).toMatch(/class="course-task-grade" data-nothing="true">Grade/);
    expect(rows.get("Scored quiz")!.html).toMatch(/class="course-task-grade"><svg/);
    expect(rows.get("Fresh quiz")!.text).toMatch(/Closes \w{3}, /);

    // The group's instructor: the same published quizzes, no standing of their own.
    const staffRows = await rowsOf((await signIn(teacher)).cookie);
    expect([...staffRows.keys()].sort()).toEqual([...rows.keys()].sort());
    for (const row of staffRows.values()) expect(row.text).not.toMatch(/Not taken yet|In progress|Grade:|No attempts left/);
  });
});
