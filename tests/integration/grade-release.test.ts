/**
 * Grade release (issue 21, ADR 0021): a task can hold the grades staff give until staff release them. Until then no
 * student-facing response or page says the score or the feedback (the API's lists and reads, the lecture and task
 * pages, the student's progress), nobody is notified or e-mailed, and progress counts the hand-in as not graded yet;
 * staff see everything, and the grades CSV says `held`. Releasing tells every graded student at once.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { addMember, call, createGroup, createUser, mailbox, signIn, viewerOf, waitForMails, type SignedIn } from "./factories";
import { db, gatedContext, serviceContext, unique } from "./helpers";
import { submitTask, updateTask } from "../../worker/services/tasks";

const FEEDBACK = "Tidy grid; the alt texts are missing";

async function world(gradesHeld = true) {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const [a, b] = [await signIn(await createUser()), await signIn(await createUser())];
  await addMember(a.user, group);
  await addMember(b.user, group);
  const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: unique("Week"), published: true }, token: teacher.accessToken })).json()) as { _id: string; slug: string };
  const created = await call(`/api/lectures/${lecture.slug}/tasks`, {
    body: { title: unique("Landing page"), dueAt: new Date(Date.now() + 86_400_000).toISOString(), maxScore: 100, gradesHeld },
    token: teacher.accessToken,
  });
  expect(created.status).toBe(201);
  const task = (await created.json()) as { _id: string; slug: string; title: string; gradesHeld: boolean };
  const base = `/api/lectures/${lecture.slug}/tasks/${task.slug}`;
  return { teacher, group, a, b, lecture, task, base };
}
type World = Awaited<ReturnType<typeof world>>;

async function handInAndGrade(w: World, who: SignedIn, score: number) {
  expect((await call(`/api/lectures/${w.lecture.slug}/submit-task/${w.task.slug}`, { body: { link: "https://github.com/me/landing" }, token: who.accessToken })).status).toBe(201);
  const [row] = await db().select().from(s.submissions).where(and(eq(s.submissions.taskId, w.task._id), eq(s.submissions.userId, who.user.id)));
  const graded = await call(`${w.base}/submissions/${row!.id}`, { method: "PUT", body: { score, feedback: FEEDBACK }, token: w.teacher.accessToken });
  expect(graded.status).toBe(200);
  // Staff always see the grade they gave.
  expect(await graded.json()).toMatchObject({ score, feedback: FEEDBACK, state: "graded" });
  return row!.id;
}

/** Everything the student can read about their hand-in, through the API and the pages. */
async function studentSees(w: World, who: SignedIn, submissionId: string) {
  const list = (await (await call(`/api/lectures/groups/${w.group.slug}/tasks`, { token: who.accessToken })).json()) as { submission: { state: string; score: number | null; feedback: string | null } }[];
  const own = (await (await call(`${w.base}/submissions`, { token: who.accessToken })).json()) as { submissions: { state: string; score: number | null; feedback: string | null; gradedAt: string | null }[] };
  const one = (await (await call(`${w.base}/submissions/${submissionId}`, { token: who.accessToken })).json()) as { state: string; score: number | null; feedback: string | null; gradedAt: string | null; locked: boolean };
  const progress = (await (await call(`/api/users/groups/${w.group.slug}/progress`, { token: who.accessToken })).json()) as { tasks: { graded: number; rate: number | null } };
  const page = async (path: string) => {
    const res = await call(path, { cookie: who.cookie, headers: { accept: "text/html" } });
    expect(res.status, path).toBe(200);
    return res.text();
  };
  const taskPage = await page(`/course/${w.group.slug}/lecture/${w.lecture.slug}/Add-Task/${w.task.slug}`);
  const lecturePage = await page(`/course/${w.group.slug}/lecture/${w.lecture.slug}`);
  const coursePage = await page(`/course/${w.group.slug}`);
  // The state badges the pages draw (data-state on the lecture's work list and the task card).
  const states = [...(taskPage + lecturePage).matchAll(/class="badge task-state" data-state="([a-z-]+)"/g)].map((m) => m[1]);
  return { listed: list[0]!.submission, own: own.submissions[0]!, one, tasks: progress.tasks, pages: taskPage + lecturePage + coursePage, states };
}

async function notificationsOf(who: SignedIn) {
  return (await db().select().from(s.notifications).where(eq(s.notifications.userId, who.user.id))).map((n) => n.kind);
}

describe("grade release", () => {
  it("holds a grade from every student-facing response and page until staff release it, then tells every graded student at once", async () => {
    const w = await world();
    expect(w.task.gradesHeld).toBe(true);
    const idA = await handInAndGrade(w, w.a, 83);

    const held = await studentSees(w, w.a, idA);
    expect(held.listed).toMatchObject({ state: "submitted", score: null, feedback: null });
    expect(held.own).toMatchObject({ state: "submitted", score: null, feedback: null, gradedAt: null });
    expect(held.one).toMatchObject({ state: "submitted", score: null, feedback: null, gradedAt: null });
    // Not graded yet as far as progress goes: open work counts against nobody.
    expect(held.tasks).toMatchObject({ graded: 0, rate: null });
    expect(held.pages).not.toContain(FEEDBACK);
    expect(held.states.length).toBeGreaterThanOrEqual(2);
    expect(new Set(held.states)).toEqual(new Set(["submitted"]));
    expect(held.pages).not.toMatch(/83\s*\/\s*100|83 of 100/);
    // The task page says the grades come out together, and still offers to replace the hand-in, as before it was
    // graded: a lock would say that it was.
    expect(held.one).toMatchObject({ locked: false });
    expect(held.pages).toContain("releases this task&#x27;s grades together");
    expect(held.pages).toMatch(/<input[^>]*name="link"/);
    expect(await notificationsOf(w.a)).not.toContain("submission-graded");
    expect((await mailbox(w.a.user.email)).filter((m) => /graded/.test(m.subject))).toEqual([]);

    // Staff: the grader's list has the grade; the grades CSV says held, with the points, counting nowhere yet.
    const staffList = (await (await call(`${w.base}/submissions`, { token: w.teacher.accessToken })).json()) as { submissions: { score: number | null; state: string }[] };
    expect(staffList.submissions).toEqual([expect.objectContaining({ score: 83, state: "graded" })]);
    const csv = await (await call(`/api/groups/${w.group.slug}/export/grades.csv`, { token: w.teacher.accessToken })).text();
    const [head, ...rows] = csv.replace(/^\uFEFF/, "").trim().split("\r\n");
    const cols = head!.split(",");
    const rowOf = (email: string) => rows.find((r) => r.includes(email))!.split(",");
    const at = (name: string) => cols.indexOf(name);
    const aRow = rowOf(w.a.user.email);
    expect([aRow[at(`task:${w.task.slug}:score`)], aRow[at(`task:${w.task.slug}:status`)], aRow[at("task_percent")]]).toEqual(["83", "held", ""]);
    // The student's progress says the work waits for a grade; the staff's page of that student says it may be graded
    // and not released (they may have graded it themselves), never that nobody has graded it.
    expect(held.pages).toContain("Waiting for a grade: 1");
    const aSlug = (await db().select({ slug: s.users.slug }).from(s.users).where(eq(s.users.id, w.a.user.id)))[0]!.slug;
    const staffPage = await (await call(`/instructor/${w.group.slug}/student/${aSlug}`, { cookie: w.teacher.cookie, headers: { accept: "text/html" } })).text();
    expect(staffPage).toContain("Not graded or not released: 1");
    expect(staffPage).not.toContain("Waiting for a grade");

    // Release: one call, every graded student told (b handed in nothing, so b hears nothing).
    const released = await call(`${w.base}/release-grades`, { method: "POST", token: w.teacher.accessToken });
    expect(released.status).toBe(200);
    expect(await released.json()).toMatchObject({ released: 1, task: { gradesHeld: false } });
    const after = await studentSees(w, w.a, idA);
    expect(after.listed).toMatchObject({ state: "graded", score: 83, feedback: FEEDBACK });
    expect(after.one).toMatchObject({ state: "graded", score: 83, feedback: FEEDBACK });
    expect(after.tasks).toMatchObject({ graded: 1, rate: 83 });
    expect(after.pages).toContain("Tidy grid");
    expect(new Set(after.states)).toEqual(new Set(["graded"]));
    expect(await notificationsOf(w.a)).toContain("grades-released");
    expect(await notificationsOf(w.b)).not.toContain("grades-released");
    const [mail] = await waitForMails(w.a.user.email, /was graded: 83\/100/);
    expect(mail!.text).toContain("got 83 of 100");

    // A second release has nothing to release and notifies nobody twice.
    const again = await call(`${w.base}/release-grades`, { method: "POST", token: w.teacher.accessToken });
    expect(again.status).toBe(409);
    expect(((await notificationsOf(w.a)).filter((k) => k === "grades-released")).length).toBe(1);
  });

  it("a held grade cannot be told from no grade: the hand-in stays replaceable, staff keep the grade marked as changed, and the release waits for it", async () => {
    const w = await world();
    const idA = await handInAndGrade(w, w.a, 83);
    expect((await call(`/api/lectures/${w.lecture.slug}/submit-task/${w.task.slug}`, { body: { link: "https://github.com/me/landing" }, token: w.b.accessToken })).status).toBe(201);
    const [rowB] = await db().select().from(s.submissions).where(and(eq(s.submissions.taskId, w.task._id), eq(s.submissions.userId, w.b.user.id)));
    // What a reads of their graded hand-in is what b reads of one nobody graded, but for whose it is and when.
    const [seenA, seenB] = [await studentSees(w, w.a, idA), await studentSees(w, w.b, rowB!.id)];
    const shape = (x: object) => Object.fromEntries(Object.entries(x).filter(([k]) => !["_id", "user", "submittedAt"].includes(k)));
    expect(shape(seenA.one)).toEqual(shape(seenB.one));
    expect(seenA.states).toEqual(seenB.states);

    // a hands in a new version: accepted as before grading. The grade stays with staff, marked as changed since.
    const replaced = await call(`/api/lectures/${w.lecture.slug}/submit-task/${w.task.slug}`, { body: { link: "https://github.com/me/landing-v2" }, token: w.a.accessToken });
    expect(replaced.status).toBe(200);
    expect((await replaced.json()) as object).toMatchObject({ submission: { link: "https://github.com/me/landing-v2", state: "submitted", score: null, feedback: null, locked: false, changedSinceGraded: false } });
    const staffOne = () => call(`${w.base}/submissions/${idA}`, { token: w.teacher.accessToken }).then((r) => r.json() as Promise<{ score: number; feedback: string; state: string; changedSinceGraded: boolean }>);
    expect(await staffOne()).toMatchObject({ score: 83, feedback: FEEDBACK, state: "submitted", changedSinceGraded: true });
    // The grader's release waits, and says why; the task is still held and nobody was told.
    const html = await (await call(`/instructor/group/${w.group.slug}/lecture/${w.lecture.slug}/tasks/${w.task.slug}/submissions`, { cookie: w.teacher.cookie, headers: { accept: "text/html" } })).text();
    expect(html).toContain("Changed since graded");
    expect(html).toContain("handed in again after you graded them");
    const refused = await call(`${w.base}/release-grades`, { method: "POST", token: w.teacher.accessToken });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: "changed_since_graded", message: expect.stringMatching(/^One hand-in was handed in again/) });
    expect((await db().select({ held: s.tasks.gradesHeld }).from(s.tasks).where(eq(s.tasks.id, w.task._id)))[0]!.held).toBe(true);
    expect(await notificationsOf(w.a)).not.toContain("grades-released");
    expect((await studentSees(w, w.a, idA)).one).toMatchObject({ score: null, feedback: null, state: "submitted" });

    // Graded again, the release goes out with the new grade; from then on the hand-in is locked, as any graded one.
    expect((await call(`${w.base}/submissions/${idA}`, { method: "PUT", body: { score: 88, feedback: FEEDBACK }, token: w.teacher.accessToken })).status).toBe(200);
    expect(await staffOne()).toMatchObject({ score: 88, state: "graded", changedSinceGraded: false });
    const released = await call(`${w.base}/release-grades`, { method: "POST", token: w.teacher.accessToken });
    expect(released.status).toBe(200);
    expect(await released.json()).toMatchObject({ released: 1 });
    expect((await studentSees(w, w.a, idA)).one).toMatchObject({ score: 88, state: "graded", locked: true });
    expect((await call(`/api/lectures/${w.lecture.slug}/submit-task/${w.task.slug}`, { body: { link: "https://github.com/me/landing-v3" }, token: w.a.accessToken })).status).toBe(409);
  });

  it("marks a new version changed even when the grade was saved while it was on its way, and refuses a grade for a version the grader did not see", async () => {
    const w = await world();
    const idA = await handInAndGrade(w, w.a, 60);
    const graded = (await db().select().from(s.submissions).where(eq(s.submissions.id, idA)))[0]!;
    // The new version arrived a second before the grade was saved (its time is the arrival's), and is written after.
    const viewer = { userId: w.a.user.id, role: "user" as const, sessionId: "race", name: w.a.user.name, email: w.a.user.email };
    await submitTask(serviceContext().ctx, viewer, w.lecture.slug, w.task.slug, { link: "https://github.com/me/landing-v2", notes: "" }, graded.gradedAt!.getTime() - 1_000);
    const staffOne = () => call(`${w.base}/submissions/${idA}`, { token: w.teacher.accessToken }).then((r) => r.json() as Promise<{ score: number; submittedAt: string; changedSinceGraded: boolean; link: string }>);
    const now = await staffOne();
    expect(now).toMatchObject({ score: 60, link: "https://github.com/me/landing-v2", changedSinceGraded: true });
    expect((await call(`${w.base}/release-grades`, { method: "POST", token: w.teacher.accessToken })).status).toBe(409);
    // A grade sent for the version the grader had open, after a newer one came in, is refused and changes nothing.
    const stale = await call(`${w.base}/submissions/${idA}`, { method: "PUT", body: { score: 70, version: graded.submittedAt.toISOString() }, token: w.teacher.accessToken });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({ code: "changed_since_opened" });
    expect(await staffOne()).toMatchObject({ score: 60, changedSinceGraded: true });
    // For the version on screen it lands, and the release goes out.
    expect((await call(`${w.base}/submissions/${idA}`, { method: "PUT", body: { score: 75, version: now.submittedAt }, token: w.teacher.accessToken })).status).toBe(200);
    expect(await staffOne()).toMatchObject({ score: 75, changedSinceGraded: false });
    expect((await call(`${w.base}/release-grades`, { method: "POST", token: w.teacher.accessToken })).status).toBe(200);
  });

  it("refuses a grade over one given meanwhile elsewhere (two tabs, two graders), names that grade, and lands when it says it replaces it", async () => {
    const w = await world();
    const idA = await handInAndGrade(w, w.a, 60);
    const staffOne = () => call(`${w.base}/submissions/${idA}`, { token: w.teacher.accessToken }).then((r) => r.json() as Promise<{ score: number; feedback: string | null; gradedAt: string; submittedAt: string }>);
    const first = await staffOne();
    // Tab A and tab B both opened it graded 60. A saves 70; B, still believing 60, saves 90.
    const fromA = await call(`${w.base}/submissions/${idA}`, { method: "PUT", body: { score: 70, feedback: "From tab A", version: first.submittedAt, graded: first.gradedAt }, token: w.teacher.accessToken });
    expect(fromA.status).toBe(200);
    const fromB = await call(`${w.base}/submissions/${idA}`, { method: "PUT", body: { score: 90, feedback: "From tab B", version: first.submittedAt, graded: first.gradedAt }, token: w.teacher.accessToken });
    expect(fromB.status).toBe(409);
    const refused = (await fromB.json()) as { code: string; message: string; fields: { graded: string; score: string } };
    const afterA = await staffOne();
    expect(refused).toMatchObject({ code: "graded_elsewhere", fields: { graded: afterA.gradedAt, score: "70" } });
    expect(refused.message).toContain("(70 of 100)");
    expect(afterA).toMatchObject({ score: 70, feedback: "From tab A" });
    // Said again knowing it replaces A's grade, it lands.
    expect((await call(`${w.base}/submissions/${idA}`, { method: "PUT", body: { score: 90, feedback: "From tab B", version: first.submittedAt, graded: refused.fields.graded }, token: w.teacher.accessToken })).status).toBe(200);
    expect(await staffOne()).toMatchObject({ score: 90, feedback: "From tab B" });
    // A hand-in never graded is named by an empty grade; an API client that names none grades as before.
    expect((await call(`/api/lectures/${w.lecture.slug}/submit-task/${w.task.slug}`, { body: { link: "https://github.com/b/landing" }, token: w.b.accessToken })).status).toBe(201);
    const idB = (await db().select().from(s.submissions).where(and(eq(s.submissions.taskId, w.task._id), eq(s.submissions.userId, w.b.user.id))))[0]!.id;
    const opened = (await call(`${w.base}/submissions/${idB}`, { token: w.teacher.accessToken }).then((r) => r.json())) as { submittedAt: string };
    expect((await call(`${w.base}/submissions/${idB}`, { method: "PUT", body: { score: 50, version: opened.submittedAt, graded: "" }, token: w.teacher.accessToken })).status).toBe(200);
    expect((await call(`${w.base}/submissions/${idB}`, { method: "PUT", body: { score: 55, version: opened.submittedAt, graded: "" }, token: w.teacher.accessToken })).status).toBe(409);
    expect((await call(`${w.base}/submissions/${idB}`, { method: "PUT", body: { score: 56 }, token: w.teacher.accessToken })).status).toBe(200);
    expect((await call(`${w.base}/submissions/${idB}`, { method: "PUT", body: { score: 57, graded: "not a time" }, token: w.teacher.accessToken })).status).toBe(400);
  });

  it("keeps a held grade held when its grader's account is deleted, and releases it to its student", async () => {
    const w = await world();
    const idA = await handInAndGrade(w, w.a, 41);
    const admin = await signIn(await createUser({ role: "admin" }));
    await db().update(s.groups).set({ instructorId: null }).where(eq(s.groups.id, w.group.id));
    await db().delete(s.users).where(eq(s.users.id, w.teacher.user.id));
    expect((await db().select().from(s.submissions).where(eq(s.submissions.id, idA)))[0]).toMatchObject({ gradedBy: null, score: 41 });
    const seen = (await (await call(`${w.base}/submissions/${idA}`, { token: w.a.accessToken })).json()) as object;
    expect(seen).toMatchObject({ score: null, feedback: null, gradedAt: null, state: "submitted" });
    const progress = (await (await call(`/api/users/groups/${w.group.slug}/progress`, { token: w.a.accessToken })).json()) as { tasks: { graded: number } };
    expect(progress.tasks.graded).toBe(0);
    const released = await call(`${w.base}/release-grades`, { method: "POST", token: admin.accessToken });
    expect(await released.json()).toMatchObject({ released: 1 });
    expect(await notificationsOf(w.a)).toContain("grades-released");
  });

  it("shows a grade given after release at once; a grade once out is not held again, nor its hand-in reopened", async () => {
    const w = await world();
    expect((await call(`${w.base}/release-grades`, { method: "POST", token: w.teacher.accessToken })).status).toBe(200);
    const idA = await handInAndGrade(w, w.a, 70);
    expect((await studentSees(w, w.a, idA)).one).toMatchObject({ state: "graded", score: 70 });
    expect(await notificationsOf(w.a)).toContain("submission-graded");

    const hold = await call(w.base, { method: "PUT", body: { gradesHeld: true }, token: w.teacher.accessToken });
    expect(hold.status).toBe(409);
    expect(await hold.json()).toMatchObject({ code: "grades_out" });
    // The student still reads their grade, and the graded work stays as graded: no new hand-in over it.
    expect((await studentSees(w, w.a, idA)).one).toMatchObject({ state: "graded", score: 70 });
    const again = await call(`/api/lectures/${w.lecture.slug}/submit-task/${w.task.slug}`, { body: { link: "https://github.com/me/after-the-grade" }, token: w.a.accessToken });
    expect(again.status).toBe(409);

    // Before its first grade a task that shows its grades may start holding them; un-holding through an edit is
    // refused: only a release (which notifies) shows the grades again.
    const fresh = await world(false);
    expect((await call(fresh.base, { method: "PUT", body: { gradesHeld: true }, token: fresh.teacher.accessToken })).status).toBe(200);
    const unhold = await call(fresh.base, { method: "PUT", body: { gradesHeld: false }, token: fresh.teacher.accessToken });
    expect(unhold.status).toBe(409);
    expect(((await unhold.json()) as { message: string }).message).toMatch(/release-grades/);
  });

  it("shows a grade of 0 plainly on the task page, without the check mark of a grade earned", async () => {
    const w = await world(false);
    await handInAndGrade(w, w.a, 0);
    await handInAndGrade(w, w.b, 70);
    const grade = async (who: SignedIn) => {
      const html = await (await call(`/course/${w.group.slug}/lecture/${w.lecture.slug}/Add-Task/${w.task.slug}`, { cookie: who.cookie, headers: { accept: "text/html" } })).text();
      return /<p class="task-grade"[^>]*>.*?<\/p>/s.exec(html)?.[0] ?? "";
    };
    const nothing = await grade(w.a);
    expect(nothing).toContain("data-nothing");
    expect(nothing).not.toContain("<svg");
    const earned = await grade(w.b);
    expect(earned).not.toContain("data-nothing");
    expect(earned).toContain("<svg");
  });

  it("refuses to start holding when a grade lands between the check and the write", async () => {
    const w = await world(false);
    expect((await call(`/api/lectures/${w.lecture.slug}/submit-task/${w.task.slug}`, { body: { link: "https://github.com/me/landing" }, token: w.a.accessToken })).status).toBe(201);
    const [row] = await db().select().from(s.submissions).where(eq(s.submissions.taskId, w.task._id));
    // The hold has found nothing graded; the grade lands before its write.
    const ctx = gatedContext(/^update "tasks"/, async () => expect((await call(`${w.base}/submissions/${row!.id}`, { method: "PUT", body: { score: 80 }, token: w.teacher.accessToken })).status).toBe(200));
    await expect(updateTask(ctx, viewerOf(w.teacher), w.lecture.slug, w.task.slug, { gradesHeld: true })).rejects.toMatchObject({ status: 409, code: "grades_out" });
    const [task] = await db().select().from(s.tasks).where(eq(s.tasks.id, w.task._id));
    expect(task!.gradesHeld).toBe(false);
  });

  it("never holds a request for a new version: the student is told at once and may hand in again", async () => {
    const w = await world();
    expect((await call(`/api/lectures/${w.lecture.slug}/submit-task/${w.task.slug}`, { body: { link: "https://github.com/me/landing" }, token: w.a.accessToken })).status).toBe(201);
    const [row] = await db().select().from(s.submissions).where(eq(s.submissions.taskId, w.task._id));
    expect((await call(`${w.base}/submissions/${row!.id}`, { method: "PUT", body: { requestResubmission: true, feedback: "Add the alt texts." }, token: w.teacher.accessToken })).status).toBe(200);
    const seen = (await (await call(`${w.base}/submissions/${row!.id}`, { token: w.a.accessToken })).json()) as { state: string; feedback: string };
    expect(seen).toMatchObject({ state: "resubmission-requested", feedback: "Add the alt texts." });
    expect(await notificationsOf(w.a)).toContain("submission-returned");
  });

  it("a release shows and tells a held grade that waits for a new version too: the student reads the grade beside the request", async () => {
    const w = await world();
    const idA = await handInAndGrade(w, w.a, 37);
    expect((await call(`${w.base}/submissions/${idA}`, { method: "PUT", body: { requestResubmission: true }, token: w.teacher.accessToken })).status).toBe(200);
    const released = await call(`${w.base}/release-grades`, { method: "POST", token: w.teacher.accessToken });
    expect(await released.json()).toMatchObject({ released: 1 });
    const seen = await studentSees(w, w.a, idA);
    expect(seen.one).toMatchObject({ state: "resubmission-requested", score: 37 });
    expect(await notificationsOf(w.a)).toContain("grades-released");
    const [mail] = await waitForMails(w.a.user.email, /was graded/);
    expect(mail!.text).toContain("37 of 100");
  });

  it("does not release a held grade by asking for a new version: the request shows, with only the feedback written with it", async () => {
    const w = await world();
    const idA = await handInAndGrade(w, w.a, 37);
    // A request with no feedback of its own: the held score, its feedback, the rubric and the graded time stay hidden.
    expect((await call(`${w.base}/submissions/${idA}`, { method: "PUT", body: { requestResubmission: true }, token: w.teacher.accessToken })).status).toBe(200);
    const asked = await studentSees(w, w.a, idA);
    for (const seen of [asked.listed, asked.own, asked.one]) expect(seen).toMatchObject({ state: "resubmission-requested", score: null, feedback: null });
    expect(asked.one).toMatchObject({ gradedAt: null, locked: false });
    expect(asked.pages).not.toContain(FEEDBACK);
    expect(asked.pages).not.toMatch(/37\s*\/\s*100|37 of 100/);
    expect(asked.tasks).toMatchObject({ graded: 0 });
    const [mail] = await waitForMails(w.a.user.email, /new version/);
    expect(mail!.text).not.toContain(FEEDBACK);
    // The held score is nowhere in it (the random names, title and link of the test's world are left out of the check:
    // "g-8l37rad2w4" is a slug, not a score).
    const words = mail!.text.replaceAll(w.a.user.name, "").replaceAll(w.task.title, "").replace(/https?:\/\/\S+/g, "");
    expect(words).not.toContain("37");
    // Staff still see the grade they gave, with its feedback.
    const staff = (await (await call(`${w.base}/submissions/${idA}`, { token: w.teacher.accessToken })).json()) as { score: number; feedback: string };
    expect(staff).toMatchObject({ score: 37, feedback: FEEDBACK });

    // A second request that says what to change: that note is the student's to read (the grade still is not).
    const NOTE = "Add the alt texts, then hand in again.";
    expect((await call(`${w.base}/submissions/${idA}`, { method: "PUT", body: { requestResubmission: true, feedback: NOTE }, token: w.teacher.accessToken })).status).toBe(200);
    const noted = await studentSees(w, w.a, idA);
    for (const seen of [noted.listed, noted.own, noted.one]) expect(seen).toMatchObject({ state: "resubmission-requested", score: null, feedback: NOTE });
    expect(noted.pages).toContain("Add the alt texts, then hand in again.");
    expect(noted.pages).not.toMatch(/37\s*\/\s*100|37 of 100/);
    const mails = await waitForMails(w.a.user.email, /new version/, 2);
    expect(mails[0]!.text).toContain(NOTE);

    // Handing in the new version starts afresh: nothing of the old request or grade carries over.
    expect((await call(`/api/lectures/${w.lecture.slug}/submit-task/${w.task.slug}`, { body: { link: "https://github.com/me/landing-2" }, token: w.a.accessToken })).status).toBe(200);
    const [row] = await db().select().from(s.submissions).where(eq(s.submissions.id, idA));
    expect(row).toMatchObject({ feedback: null, feedbackWithRequest: false, resubmitRequestedAt: null, score: null });
  });

  it("releases from the grader page too (intent=release), for the group's staff only", async () => {
    const w = await world();
    await handInAndGrade(w, w.a, 91);
    const page = `/instructor/group/${w.group.slug}/lecture/${w.lecture.slug}/tasks/${w.task.slug}/submissions`;
    const html = await (await call(page, { cookie: w.teacher.cookie, headers: { accept: "text/html" } })).text();
    expect(html).toContain("Release 1 grade");
    const form = () => {
      const f = new FormData();
      f.set("intent", "release");
      return f;
    };
    const stranger = await signIn(await createUser({ role: "instructor" }));
    const refused = await call(page, { cookie: stranger.cookie, form: form(), headers: { accept: "text/html" } });
    expect(refused.status).toBe(403);
    const res = await call(page, { cookie: w.teacher.cookie, form: form(), headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    const [task] = await db().select({ held: s.tasks.gradesHeld }).from(s.tasks).where(eq(s.tasks.id, w.task._id));
    expect(task!.held).toBe(false);
    expect(await notificationsOf(w.a)).toContain("grades-released");
  });

  it("does not hold a task's grades unless asked", async () => {
    const w = await world(false);
    expect(w.task.gradesHeld).toBe(false);
    const idA = await handInAndGrade(w, w.a, 64);
    expect((await studentSees(w, w.a, idA)).one).toMatchObject({ state: "graded", score: 64 });
    expect((await call(`${w.base}/release-grades`, { method: "POST", token: w.teacher.accessToken })).status).toBe(409);
  });
});
