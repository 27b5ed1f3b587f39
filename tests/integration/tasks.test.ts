/**
 * Tasks, submissions and grading through the real API: replace until graded, late work flagged or refused, the
 * graded lock and resubmission, score bounds, notifications and e-mail, and who may read which submission.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { addMember, call, createGroup, createUser, signIn, waitForMails, type ErrorBody, type SignedIn, viewerOf } from "./factories";
import { db, serviceContext } from "./helpers";
import { gradeSubmission, updateTask } from "../../worker/services/tasks";

async function world(opts: { dueAt?: string | null; allowLate?: boolean; maxScore?: number; published?: boolean } = {}) {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const [a, b] = [await signIn(await createUser()), await signIn(await createUser())];
  await addMember(a.user, group);
  await addMember(b.user, group);
  const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: "Week 1", published: opts.published ?? true }, token: teacher.accessToken })).json()) as { _id: string; slug: string };
  const res = await call(`/api/lectures/${lecture.slug}/tasks`, {
    body: { title: "Profile card", body: "Build it with **semantic** HTML.", dueAt: opts.dueAt === undefined ? new Date(Date.now() + 86_400_000).toISOString() : opts.dueAt, maxScore: opts.maxScore ?? 100, allowLate: opts.allowLate ?? true },
    token: teacher.accessToken,
  });
  expect(res.status).toBe(201);
  const task = (await res.json()) as { _id: string; slug: string; lectureSlug: string };
  return { teacher, group, a, b, lecture, task };
}

const submit = (who: SignedIn, w: { lecture: { slug: string }; task: { slug: string } }, link = "https://github.com/me/profile-card", notes = "Tested with a keyboard.") =>
  call(`/api/lectures/${w.lecture.slug}/submit-task/${w.task.slug}`, { body: { link, notes }, token: who.accessToken });

async function submissionOf(who: SignedIn, w: { lecture: { slug: string }; task: { slug: string } }) {
  const res = await call(`/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions`, { token: who.accessToken });
  return ((await res.json()) as { submissions: { _id: string; state: string; score: number | null }[] }).submissions;
}

describe("tasks", () => {
  it("lists a group's tasks with each student's own state, and renders the task's Markdown", async () => {
    const w = await world();
    const list = await call(`/api/lectures/groups/${w.group.slug}/tasks`, { token: w.a.accessToken });
    expect(await list.json()).toEqual([
      expect.objectContaining({ _id: w.task._id, slug: w.task.slug, title: "Profile card", maxScore: 100, allowLate: true, lectureSlug: w.lecture.slug, submission: { state: "not-submitted", score: null, feedback: null, feedbackHtml: null, submittedAt: null } }),
    ]);
    const one = (await (await call(`/api/lectures/${w.lecture._id}/tasks/${w.task._id}`, { token: w.a.accessToken })).json()) as { bodyHtml: string };
    expect(one.bodyHtml).toContain("<strong>semantic</strong>");
    // Members are told of the new task.
    const notes = await db().select().from(s.notifications).where(eq(s.notifications.userId, w.a.user.id));
    expect(notes.map((n) => n.kind)).toEqual(["lecture-published", "task-created"]);
  });

  it("lets the group's staff edit a task and delete it with its submissions", async () => {
    const w = await world();
    await submit(w.a, w);
    const path = `/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}`;
    const edited = await call(path, { method: "PUT", body: { title: "Profile card v2", maxScore: 50, allowLate: false }, token: w.teacher.accessToken });
    expect(edited.status).toBe(200);
    expect(await edited.json()).toMatchObject({ title: "Profile card v2", maxScore: 50, allowLate: false });
    expect((await call(path, { method: "PUT", body: {}, token: w.teacher.accessToken })).status).toBe(400);
    expect((await call(path, { method: "DELETE", token: w.a.accessToken })).status).toBe(403);
    expect((await call(path, { method: "DELETE", token: w.teacher.accessToken })).status).toBe(200);
    expect((await call(path, { token: w.a.accessToken })).status).toBe(404);
    expect(await db().select().from(s.submissions).where(eq(s.submissions.taskId, w.task._id))).toEqual([]);
  });

  it.each([
    [{ maxScore: 10 }, "title"],
    [{ title: "   ", maxScore: 10 }, "title"],
    [{ title: "T", maxScore: 0 }, "maxScore"],
    [{ title: "T", maxScore: 1001 }, "maxScore"],
    [{ title: "T", maxScore: "100" }, "maxScore"],
    [{ title: "T", dueAt: "next friday" }, "dueAt"],
    [{ title: "T", allowLate: "yes" }, "allowLate"],
  ])("refuses the task %j with 400 on %s", async (body, field) => {
    const w = await world();
    const res = await call(`/api/lectures/${w.lecture.slug}/tasks`, { body, token: w.teacher.accessToken });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).fields).toHaveProperty(field);
  });

  it("hides tasks of an unpublished lecture from students", async () => {
    const w = await world({ published: false });
    expect(await (await call(`/api/lectures/groups/${w.group.slug}/tasks`, { token: w.a.accessToken })).json()).toEqual([]);
    expect((await call(`/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}`, { token: w.a.accessToken })).status).toBe(404);
  });
});

describe("submitting", () => {
  it("creates (201), replaces (200) until graded, then refuses (409) until a new version is asked for", async () => {
    const w = await world();
    const first = await submit(w.a, w);
    expect(first.status).toBe(201);
    expect(((await first.json()) as { submission: { state: string; late: boolean } }).submission).toMatchObject({ state: "submitted", late: false });
    const again = await submit(w.a, w, "https://my-card.example.dev");
    expect(again.status).toBe(200);
    expect(((await again.json()) as { submission: { link: string } }).submission.link).toBe("https://my-card.example.dev");
    const [mine] = await submissionOf(w.a, w);
    const graded = await call(`/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions/${mine!._id}`, { method: "PUT", body: { score: 88, feedback: "Good work" }, token: w.teacher.accessToken });
    expect(graded.status).toBe(200);
    expect(await graded.json()).toMatchObject({ score: 88, feedback: "Good work", state: "graded" });
    expect((await submit(w.a, w)).status).toBe(409);
    const reopen = await call(`/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions/${mine!._id}`, { method: "PUT", body: { requestResubmission: true }, token: w.teacher.accessToken });
    expect(await reopen.json()).toMatchObject({ state: "resubmission-requested" });
    const resubmitted = await submit(w.a, w, "https://github.com/me/profile-card-v2");
    expect(resubmitted.status).toBe(200);
    expect(((await resubmitted.json()) as { submission: { state: string; score: number | null } }).submission).toMatchObject({ state: "submitted", score: null });
  });

  it("marks work after the due time late, or refuses it when the task takes no late work", async () => {
    const past = new Date(Date.now() - 60_000).toISOString();
    const lateOk = await world({ dueAt: past, allowLate: true });
    const res = await submit(lateOk.a, lateOk);
    expect(res.status).toBe(201);
    expect(((await res.json()) as { submission: { state: string; late: boolean } }).submission).toMatchObject({ late: true, state: "late" });
    const strict = await world({ dueAt: past, allowLate: false });
    const refused = await submit(strict.a, strict);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as ErrorBody).message).toBe("The due time has passed and this task does not accept late work.");
  });

  it.each([
    [{ link: "not a link" }, "link"],
    [{ link: "javascript:alert(1)" }, "link"],
    [{ link: "ftp://files.example.com/x" }, "link"],
    [{}, "link"],
    [{ link: "https://ok.example.com", notes: "x".repeat(2001) }, "notes"],
  ])("refuses %j with 400 on %s", async (body, field) => {
    const w = await world();
    const res = await call(`/api/lectures/${w.lecture.slug}/submit-task/${w.task.slug}`, { body, token: w.a.accessToken });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).fields).toHaveProperty(field);
  });

  it("tells the group's staff of a new submission, each with a link to the grader in their own area on that hand-in", async () => {
    const admin = await createUser({ role: "admin" });
    const w = await world();
    await submit(w.a, w);
    const [sub] = await db().select().from(s.submissions).where(eq(s.submissions.taskId, w.task._id));
    const bell = async (userId: string) => (await db().select().from(s.notifications).where(eq(s.notifications.userId, userId))).filter((n) => n.kind === "submission-created");
    const grader = `/group/${w.group.slug}/lecture/${w.lecture.slug}/tasks/${w.task.slug}/submissions?submission=${sub!.id}`;
    expect((await bell(w.teacher.user.id)).map((n) => n.link)).toEqual([`/instructor${grader}`]);
    expect((await bell(admin.id)).map((n) => n.link)).toEqual([`/dashboard/admin${grader}`]);
    // Students of the group are not told of each other's work.
    expect(await bell(w.b.user.id)).toEqual([]);
  });
});

describe("grading", () => {
  it("e-mails a grade and a request for a new version in the student's own language", async () => {
    const w = await world({ maxScore: 20 });
    await db().update(s.users).set({ locale: "ar" }).where(eq(s.users.id, w.a.user.id));
    await submit(w.a, w);
    const [sub] = await db().select().from(s.submissions).where(eq(s.submissions.taskId, w.task._id));
    const path = `/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions/${sub!.id}`;
    expect((await call(path, { method: "PUT", body: { score: 17, feedback: "عمل مرتب" }, token: w.teacher.accessToken })).status).toBe(200);
    const [graded] = await waitForMails(w.a.user.email, /^تم تقييم عملك/);
    expect(graded!.subject).toBe("تم تقييم عملك في «Profile card»: 17/20");
    expect(graded!.text).toContain("حصل عملك في «Profile card» على 17 من 20.");
    expect(graded!.text).toContain("الملاحظات:\nعمل مرتب");
    expect(graded!.html).toContain('dir="rtl" lang="ar"');
    expect(graded!.text).not.toMatch(/Hello|Your work|Open the task/);
    expect((await call(path, { method: "PUT", body: { requestResubmission: true }, token: w.teacher.accessToken })).status).toBe(200);
    const [again] = await waitForMails(w.a.user.email, /^طُلبت نسخة جديدة/);
    expect(again!.subject).toBe("طُلبت نسخة جديدة من «Profile card»");
    // Someone who chose English, or never chose, reads English.
    await submit(w.b, w);
    const [subB] = await db().select().from(s.submissions).where(eq(s.submissions.userId, w.b.user.id));
    expect((await call(`/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions/${subB!.id}`, { method: "PUT", body: { score: 12 }, token: w.teacher.accessToken })).status).toBe(200);
    const [english] = await waitForMails(w.b.user.email, /was graded/);
    expect(english!.subject).toBe('Your work on "Profile card" was graded: 12/20');
  });

  // A grade of 10 and a maximum lowered to 5 at the same moment (two tabs, two graders), each checked against the task
  // as it was read: never both, never 10 of 5.
  it("never leaves a score above the task's maximum when grading and lowering the maximum cross", async () => {
    const w = await world({ maxScore: 10 });
    await submit(w.a, w);
    const [mine] = await submissionOf(w.a, w);
    const teacher = viewerOf(w.teacher);
    const [graded, lowered] = await Promise.allSettled([
      gradeSubmission(serviceContext().ctx, teacher, w.lecture.slug, w.task.slug, mine!._id, { score: 10 }),
      updateTask(serviceContext().ctx, teacher, w.lecture.slug, w.task.slug, { maxScore: 5 }),
    ]);
    expect([graded.status, lowered.status].filter((st) => st === "fulfilled")).toHaveLength(1);
    expect([graded, lowered].find((r) => r.status === "rejected")).toMatchObject({ reason: { status: 409, code: "conflict" } });
    const [task] = await db().select({ max: s.tasks.maxScore }).from(s.tasks).where(eq(s.tasks.id, w.task._id));
    const [sub] = await db().select({ score: s.submissions.score }).from(s.submissions).where(eq(s.submissions.id, mine!._id));
    expect(sub!.score === null || sub!.score <= task!.max).toBe(true);
  });

  it("keeps the score between 0 and maxScore, and notifies and e-mails the student", async () => {
    const w = await world({ maxScore: 20 });
    await submit(w.a, w);
    const [mine] = await submissionOf(w.a, w);
    const path = `/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions/${mine!._id}`;
    const myTasks = async () => ((await (await call(`/api/lectures/groups/${w.group.slug}/tasks`, { token: w.a.accessToken })).json()) as { submission: { state: string; score: number | null; feedback: string | null } }[])[0]!.submission;
    expect(await myTasks()).toMatchObject({ state: "submitted", score: null, feedback: null });
    expect((await call(path, { method: "PUT", body: { score: 21 }, token: w.teacher.accessToken })).status).toBe(400);
    expect((await call(path, { method: "PUT", body: { score: -1 }, token: w.teacher.accessToken })).status).toBe(400);
    expect((await call(path, { method: "PUT", body: { score: 2.5 }, token: w.teacher.accessToken })).status).toBe(400);
    expect((await call(path, { method: "PUT", body: { score: 20, feedback: "Perfect." }, token: w.teacher.accessToken })).status).toBe(200);
    const [mail] = await waitForMails(w.a.user.email, /was graded/);
    expect(mail!.subject).toBe('Your work on "Profile card" was graded: 20/20');
    expect(mail!.text).toContain("Perfect.");
    const notes = await db().select().from(s.notifications).where(eq(s.notifications.userId, w.a.user.id));
    expect(notes.find((n) => n.kind === "submission-graded")).toMatchObject({ title: "Your work on Profile card was graded: 20/20" });
    // The course home's list (the same call) now carries the grade and the feedback.
    // The feedback comes rendered as it was stored when given (worker/services/stored-html.ts).
    expect(await myTasks()).toEqual({ state: "graded", score: 20, feedback: "Perfect.", feedbackHtml: "<p>Perfect.</p>", submittedAt: expect.any(String) });
  });

  it("lets only the group's staff grade; a student never reads another's submission; another group's instructor reads nothing", async () => {
    const w = await world();
    await submit(w.a, w);
    await submit(w.b, w);
    const staffView = (await (await call(`/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions`, { token: w.teacher.accessToken })).json()) as { submissions: { user: { _id: string } }[]; missing: unknown[] };
    expect(staffView.submissions).toHaveLength(2);
    const own = (await (await call(`/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions`, { token: w.a.accessToken })).json()) as { submissions: { user: { _id: string } }[] };
    expect(own.submissions.map((x) => x.user._id)).toEqual([w.a.user.id]);
    const bSubmission = (await submissionOf(w.b, w))[0]!;
    expect((await call(`/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions/${bSubmission._id}`, { method: "PUT", body: { score: 100 }, token: w.a.accessToken })).status).toBe(403);
    const stranger = await signIn(await createUser({ role: "instructor" }));
    expect((await call(`/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions`, { token: stranger.accessToken })).status).toBe(403);
    expect((await call(`/api/lectures/groups/${w.group.slug}/tasks`, { token: stranger.accessToken })).status).toBe(403);
  });
});

describe("the student's task page", () => {
  it("shows the task and the state, takes a link through the page's form, then shows the grade with its feedback", async () => {
    const { SELF } = await import("cloudflare:test");
    const w = await world();
    const path = `/course/${w.group.slug}/lecture/${w.lecture.slug}/Add-Task/${w.task.slug}`;
    const page = await SELF.fetch(`http://localhost${path}`, { headers: { cookie: w.a.cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Profile card");
    expect(html).toContain("<strong>semantic</strong>");
    expect(html).toContain("Not submitted");
    const posted = await SELF.fetch(`http://localhost${path}`, {
      method: "POST",
      headers: { cookie: w.a.cookie, origin: "http://localhost", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "submit", link: "https://github.com/me/card" }).toString(),
    });
    expect(posted.status).toBe(200);
    const [mine] = await submissionOf(w.a, w);
    await call(`/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions/${mine!._id}`, { method: "PUT", body: { score: 90, feedback: "Use **more** landmarks." }, token: w.teacher.accessToken });
    const after = await (await SELF.fetch(`http://localhost${path}`, { headers: { cookie: w.a.cookie } })).text();
    expect(after).toContain("GitHub · me/card");
    expect(after).toContain("Grade: 90 / 100");
    expect(after).toContain("<strong>more</strong>");
    // Another group's student cannot open it.
    const outsider = await signIn(await createUser());
    expect((await SELF.fetch(`http://localhost${path}`, { headers: { cookie: outsider.cookie } })).status).toBe(403);
  });
});
