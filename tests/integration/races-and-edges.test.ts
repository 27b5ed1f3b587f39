/**
 * What a stranger found by sending the API everything at once and everything odd (ADR 60), replayed through the real
 * Worker: items of one title made at the same moment all get made; an outline's new items each get their own place;
 * links with invisible characters or credentials are refused, nothing stored; a body Hono cannot read is answered
 * in words a person can act on; an instructor who runs groups is not deleted; late cannot start after attendance
 * closes.
 */
import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { newId } from "../../worker/services/ids";
import { addMember, call, createGroup, createUser, imageFile, ORIGIN, signIn, type ErrorBody } from "./factories";
import { db, unique } from "./helpers";

async function teaching() {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const lecture = { id: newId(), groupId: group.id, slug: unique("race-lecture"), title: "Week 1", body: "", order: 1, published: true };
  await db().insert(s.lectures).values(lecture);
  return { teacher, group, lecture };
}

const at = (n: number) => Array.from({ length: n }, (_, i) => i);

describe("ten of the same at the same moment", () => {
  it("tasks and quizzes of one title: all ten made (201), each with its own address", async () => {
    const w = await teaching();
    const title = `Same ${unique("t")}`;
    const tasks = await Promise.all(at(10).map(() => call(`/api/lectures/${w.lecture.slug}/tasks`, { body: { title }, token: w.teacher.accessToken })));
    expect(tasks.map((r) => r.status)).toEqual(at(10).map(() => 201));
    const taskSlugs = await Promise.all(tasks.map(async (r) => ((await r.json()) as { slug: string }).slug));
    expect(new Set(taskSlugs).size).toBe(10);

    const quiz = { lectureId: w.lecture.id, title, questions: [{ text: "Is it?", type: "true-false", correct: 0 }] };
    const quizzes = await Promise.all(at(10).map(() => call("/api/quizzes", { body: quiz, token: w.teacher.accessToken })));
    expect(quizzes.map((r) => r.status)).toEqual(at(10).map(() => 201));
    const rows = await db().select({ slug: s.quizzes.slug, id: s.quizzes.id }).from(s.quizzes).where(eq(s.quizzes.lectureId, w.lecture.id));
    expect(new Set(rows.map((r) => r.slug)).size).toBe(10);
    // Each quiz has its one question: no batch was half-written by a lost race.
    for (const row of rows) expect(await db().select({ id: s.questions.id }).from(s.questions).where(eq(s.questions.quizId, row.id))).toHaveLength(1);
  });

  it("groups of one title, made by an admin: all ten made", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    const title = `Same group ${unique("g")}`;
    const made = await Promise.all(at(10).map(() => call("/api/groups", { body: { title }, token: admin.accessToken })));
    expect(made.map((r) => r.status)).toEqual(at(10).map(() => 201));
    expect(new Set(await Promise.all(made.map(async (r) => ((await r.json()) as { slug: string }).slug))).size).toBe(10);
  });

  it("outline items added together each take their own place, one after another", async () => {
    const w = await teaching();
    const added = await Promise.all(at(10).map((i) => call(`/api/groups/${w.group.slug}/content`, { body: { title: `Part ${i}` }, token: w.teacher.accessToken })));
    expect(added.map((r) => r.status)).toEqual(at(10).map(() => 201));
    const orders = (await db().select({ order: s.courseContents.order }).from(s.courseContents).where(eq(s.courseContents.groupId, w.group.id))).map((r) => r.order).sort((a, b) => a - b);
    expect(orders).toEqual(at(10));
  });
});

describe("an outline's size", () => {
  it("is at most 500 parts: the 501st is refused (409) and not written, and the outline can still be reordered", async () => {
    const w = await teaching();
    const rows = at(499).map((i) => ({ id: newId(), groupId: w.group.id, title: `Part ${i}`, body: "", order: i }));
    for (let i = 0; i < rows.length; i += 15) await db().insert(s.courseContents).values(rows.slice(i, i + 15));
    const add = (title: string) => call(`/api/groups/${w.group.slug}/content`, { body: { title }, token: w.teacher.accessToken });
    expect((await add("Part 500")).status).toBe(201);
    const refused = await add("Part 501");
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as ErrorBody).message).toBe("An outline has at most 500 parts. Remove one to add another.");
    const ids = (await db().select({ id: s.courseContents.id, order: s.courseContents.order }).from(s.courseContents).where(eq(s.courseContents.groupId, w.group.id))).sort((a, b) => a.order - b.order).map((r) => r.id);
    expect(ids).toHaveLength(500);
    expect((await call(`/api/groups/${w.group.slug}/content/order`, { method: "PUT", body: { ids: [...ids].reverse() }, token: w.teacher.accessToken })).status).toBe(200);
  });
});

describe("links as people share them", () => {
  const BAD_LINKS = [
    "https://example.com/\u0000x",
    "https://example.com/\nx",
    // A right-to-left override makes "gnp.exe" read as "exe.png".
    "https://example.com/\u202egnp.exe",
    "https://example.com/a b",
    "https:/example.com",
    "https://user:pass@example.com",
    "https://@example.com/x",
  ];

  it("a hand-in's link: each refused with the field's message, nothing stored; a plain link still goes in", async () => {
    const w = await teaching();
    const student = await signIn(await createUser());
    await addMember(student.user, w.group);
    const task = { id: newId(), lectureId: w.lecture.id, slug: unique("links-task"), title: "Links", body: "" };
    await db().insert(s.tasks).values(task);
    const path = `/api/lectures/${w.lecture.slug}/submit-task/${task.slug}`;
    for (const link of BAD_LINKS) {
      const res = await call(path, { body: { link }, token: student.accessToken });
      expect(res.status, JSON.stringify(link)).toBe(400);
      expect(((await res.json()) as ErrorBody).fields?.link).toBe("Give a full link to your work, starting with https:// or http://");
    }
    expect(await db().select({ id: s.submissions.id }).from(s.submissions).where(eq(s.submissions.taskId, task.id))).toHaveLength(0);
    expect((await call(path, { body: { link: "http://my-site.example.com/work?a=1#top" }, token: student.accessToken })).status).toBe(201);
  });

  it("a lecture's video and resource links: refused the same way", async () => {
    const w = await teaching();
    for (const link of BAD_LINKS) {
      const video = await call(`/api/lectures/${w.lecture.id}`, { method: "PUT", body: { videoUrl: link }, token: w.teacher.accessToken });
      expect(video.status, JSON.stringify(link)).toBe(400);
      const resource = await call(`/api/lectures/${w.lecture.id}`, { method: "PUT", body: { resources: [{ title: "Docs", url: link }] }, token: w.teacher.accessToken });
      expect(resource.status, JSON.stringify(link)).toBe(400);
    }
    const [row] = await db().select({ videoUrl: s.lectures.videoUrl, resources: s.lectures.resources }).from(s.lectures).where(eq(s.lectures.id, w.lecture.id));
    expect(row).toEqual({ videoUrl: null, resources: [] });
  });
});

describe("a body the API cannot read", () => {
  const send = (path: string, token: string, contentType: string, body: string) =>
    SELF.fetch(`${ORIGIN}${path}`, { method: "POST", headers: { origin: ORIGIN, authorization: token, "content-type": contentType }, body });

  it("is answered in words a person can act on, not the parser's", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    const noBoundary = await send("/api/uploads/course-image", admin.accessToken, "multipart/form-data", "x");
    expect(noBoundary.status).toBe(400);
    expect(((await noBoundary.json()) as ErrorBody).message).toBe("The form could not be read: send the file as multipart/form-data, as a browser's file field does.");
    const jsonToUpload = await send("/api/uploads/course-image", admin.accessToken, "application/json", "{}");
    expect(jsonToUpload.status).toBe(415);
    expect(((await jsonToUpload.json()) as ErrorBody).message).toBe("Send the file as a form (multipart/form-data), as a browser's file field does.");
    const textToJson = await send("/api/groups", admin.accessToken, "text/plain", '{"title":"x"}');
    expect(textToJson.status).toBe(415);
    expect(((await textToJson.json()) as ErrorBody).message).toBe("Send the body as JSON, with the header Content-Type: application/json.");
    const broken = await send("/api/groups", admin.accessToken, "application/json", '{"title":');
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as ErrorBody).message).toBe("The body is not valid JSON.");
  });
});

describe("an instructor who runs a group", () => {
  it("is not deleted, by an admin or by themselves (409 runs_groups), and the group keeps its instructor", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    const w = await teaching();
    const byAdmin = await call("/api/users", { method: "DELETE", body: { userId: w.teacher.user.id }, token: admin.accessToken });
    expect(byAdmin.status).toBe(409);
    expect(await byAdmin.json()).toMatchObject({ code: "runs_groups", message: "This instructor runs groups. Give their groups to another instructor first, then delete the account." });
    const [group] = await db().select({ instructorId: s.groups.instructorId }).from(s.groups).where(eq(s.groups.id, w.group.id));
    expect(group?.instructorId).toBe(w.teacher.user.id);

    // Given their group to someone else, they can go.
    const other = await createUser({ role: "instructor" });
    expect((await call(`/api/groups/${w.group.id}`, { method: "PUT", body: { instructorId: other.id }, token: admin.accessToken })).status).toBe(200);
    expect((await call("/api/users", { method: "DELETE", body: { userId: w.teacher.user.id }, token: admin.accessToken })).status).toBe(200);
  });
});

describe("opening attendance", () => {
  it("refuses late from a minute at or after it closes (400 at lateAfterMinutes); one minute before is taken", async () => {
    const w = await teaching();
    const open = (lateAfterMinutes: number | null) => call(`/api/lectures/${w.lecture.id}/attendance/open`, { body: { rotateSeconds: 0, lateAfterMinutes, durationMinutes: 10 }, token: w.teacher.accessToken });
    for (const late of [200, 10]) {
      const res = await open(late);
      expect(res.status).toBe(400);
      expect(((await res.json()) as ErrorBody).fields?.lateAfterMinutes).toBe("Late must start before attendance closes: choose fewer minutes than it stays open.");
    }
    expect(await db().select({ id: s.attendanceSessions.id }).from(s.attendanceSessions).where(eq(s.attendanceSessions.lectureId, w.lecture.id))).toHaveLength(0);
    expect((await open(9)).status).toBe(200);
  });
});

describe("a page form that does not say what it does", () => {
  const fields = (values: Record<string, string>) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(values)) f.set(k, v);
    return f;
  };
  // `path?index` posts to an index route, as its form does.
  const post = (cookie: string, path: string, values: Record<string, string>) => {
    const [route, query] = path.split("?");
    return call(`${route}.data${query ? `?${query}` : ""}`, { method: "POST", form: fields(values), cookie });
  };

  it("is refused (400) and changes nothing: a task's edit, the grader, a quiz's editors, My Courses, joining, an admin's role change", async () => {
    const w = await teaching();
    const base = `/instructor/group/${w.group.slug}`;
    const task = { id: newId(), lectureId: w.lecture.id, slug: unique("intent-task"), title: "Kept title", body: "Kept body", dueAt: new Date(Date.now() + 86_400_000), allowLate: true };
    await db().insert(s.tasks).values(task);
    const student = await signIn(await createUser());
    await addMember(student.user, w.group);
    const submission = { id: newId(), taskId: task.id, userId: student.user.id, link: "https://example.com/work", submittedAt: new Date() };
    await db().insert(s.submissions).values(submission);
    const quiz = { id: newId(), groupId: w.group.id, lectureId: w.lecture.id, slug: unique("intent-quiz"), title: "Kept quiz" };
    await db().insert(s.quizzes).values(quiz);
    const other = await createGroup();
    await addMember(student.user, other);
    const admin = await signIn(await createUser({ role: "admin" }));
    const someone = await createUser();
    const asker = await signIn(someone);

    for (const intent of [undefined, "bogus"]) {
      const named = (values: Record<string, string>) => (intent === undefined ? values : { intent, ...values });
      const refused = async (cookie: string, path: string, values: Record<string, string>) => expect((await post(cookie, path, named(values))).status, `${path} ${intent}`).toBe(400);
      await refused(w.teacher.cookie, `${base}/lecture/${w.lecture.slug}/tasks/updateTask/${task.slug}`, { title: "Renamed" });
      await refused(w.teacher.cookie, `${base}/lecture/${w.lecture.slug}/tasks/${task.slug}/submissions`, { submissionId: submission.id, score: "7", feedback: "" });
      await refused(w.teacher.cookie, `${base}/lectures/${w.lecture.slug}/newQuiz`, { payload: JSON.stringify({ title: "Made anyway", questions: [{ text: "Q", type: "true-false", correct: 0 }] }) });
      await refused(w.teacher.cookie, `${base}/lecture/${w.lecture.slug}/quiz/updateQuiz/${quiz.slug}`, { payload: JSON.stringify({ title: "Renamed quiz" }) });
      await refused(w.teacher.cookie, `${base}/lectures/${w.lecture.slug}/newTask`, { title: "Made anyway" });
      await refused(student.cookie, "/my-courses", { groupSlug: other.slug });
      await refused(asker.cookie, `/content/${w.group.slug}?index`, { message: "Hello" });
      await refused(admin.cookie, `/dashboard/admin/allStudent/student/${someone.slug}`, { role: "instructor" });
    }

    const [kept] = await db().select().from(s.tasks).where(eq(s.tasks.id, task.id));
    expect(kept).toMatchObject({ title: "Kept title", body: "Kept body", allowLate: true });
    expect(kept!.dueAt?.getTime()).toBe(task.dueAt.getTime());
    expect((await db().select({ score: s.submissions.score }).from(s.submissions).where(eq(s.submissions.id, submission.id)))[0]?.score).toBeNull();
    expect((await db().select({ title: s.quizzes.title }).from(s.quizzes).where(eq(s.quizzes.lectureId, w.lecture.id))).map((q) => q.title)).toEqual(["Kept quiz"]);
    expect(await db().select({ id: s.tasks.id }).from(s.tasks).where(eq(s.tasks.lectureId, w.lecture.id))).toHaveLength(1);
    const mine = await db().select({ status: s.memberships.status, groupId: s.memberships.groupId }).from(s.memberships).where(eq(s.memberships.userId, student.user.id));
    expect(mine.find((m) => m.groupId === other.id)?.status).toBe("approved");
    expect(await db().select().from(s.memberships).where(eq(s.memberships.userId, someone.id))).toHaveLength(0);
    expect((await db().select({ role: s.users.role }).from(s.users).where(eq(s.users.id, someone.id)))[0]?.role).toBe("user");

    // Named, the same posts do what they say (so the refusals above were the routes' own).
    expect((await post(asker.cookie, `/content/${w.group.slug}?index`, { intent: "join", message: "Hello" })).status).toBe(200);
    expect((await post(student.cookie, "/my-courses", { intent: "leave", groupSlug: other.slug })).status).toBe(200);
    expect((await post(w.teacher.cookie, `${base}/lecture/${w.lecture.slug}/tasks/${task.slug}/submissions`, { intent: "grade", submissionId: submission.id, score: "7", feedback: "" })).status).toBe(200);
    expect((await post(admin.cookie, `/dashboard/admin/allStudent/student/${someone.slug}`, { intent: "role", role: "instructor" })).status).toBe(200);
  });

  it("reads a file posted where a text belongs as no text, never as the words [object File]", async () => {
    const w = await teaching();
    const task = { id: newId(), lectureId: w.lecture.id, slug: unique("file-task"), title: "Files", body: "" };
    await db().insert(s.tasks).values(task);
    const student = await signIn(await createUser());
    await addMember(student.user, w.group);
    const submission = { id: newId(), taskId: task.id, userId: student.user.id, link: "https://example.com/work", submittedAt: new Date() };
    await db().insert(s.submissions).values(submission);
    const withFile = (values: Record<string, string>, fileField: string) => {
      const f = fields(values);
      f.set(fileField, new File(["not text"], "note.txt", { type: "text/plain" }));
      return f;
    };
    const grader = `/instructor/group/${w.group.slug}/lecture/${w.lecture.slug}/tasks/${task.slug}/submissions.data`;
    const graded = await call(grader, { method: "POST", form: withFile({ intent: "grade", submissionId: submission.id, score: "7" }, "feedback"), cookie: w.teacher.cookie });
    expect(graded.status).toBe(200);
    const [row] = await db().select({ score: s.submissions.score, feedback: s.submissions.feedback }).from(s.submissions).where(eq(s.submissions.id, submission.id));
    expect(row?.score).toBe(7);
    expect(row?.feedback ?? "").not.toContain("[object File]");

    const shared = await call("/add-feedback.data", { method: "POST", form: withFile({ groupSlug: w.group.slug, rating: "5" }, "userFeedback"), cookie: student.cookie });
    expect(shared.status).toBe(400);
    expect(await db().select({ id: s.feedback.id }).from(s.feedback).where(eq(s.feedback.email, student.user.email))).toHaveLength(0);
  });

  it("a group's save the service refuses keeps no uploaded image, and a number is written plainly or not at all", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    const group = await createGroup({ capacity: 30 });
    await addMember(await createUser(), group);
    await addMember(await createUser(), group);
    const images = async () => (await env.IMAGES.list({ prefix: "courses/" })).objects.length;
    const before = await images();
    const save = (values: Record<string, string>) => {
      const f = fields({ intent: "save", title: group.title, status: "published", ...values });
      f.set("file", imageFile("image/png"));
      return call(`/dashboard/admin/group/${group.slug}/update.data`, { method: "POST", form: f, cookie: admin.cookie });
    };
    // Two members: one seat is refused by the service, after the image was uploaded.
    expect((await save({ capacity: "1" })).status).toBe(409);
    expect(await images()).toBe(before);
    // "0x10" is not sixteen.
    expect((await save({ capacity: "0x10" })).status).toBe(400);
    expect((await db().select({ capacity: s.groups.capacity }).from(s.groups).where(eq(s.groups.id, group.id)))[0]?.capacity).toBe(30);
    // Saved, the image is kept and is the group's.
    expect((await save({ capacity: "20" })).status).toBe(200);
    expect(await images()).toBe(before + 1);
    expect((await db().select({ image: s.groups.imageCourse }).from(s.groups).where(eq(s.groups.id, group.id)))[0]?.image).toMatch(/^\/media\/courses\//);
  });

  it("moving an outline item that is not in the group's outline is a 404 that moves nothing; a real one moves a place", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    const w = await teaching();
    const other = await teaching();
    const add = async (slug: string, title: string) => ((await (await call(`/api/groups/${slug}/content`, { body: { title }, token: admin.accessToken })).json()) as { _id: string })._id;
    const first = await add(w.group.slug, "First");
    const second = await add(w.group.slug, "Second");
    const elsewhere = await add(other.group.slug, "Another group's");
    const order = async () => (await db().select({ id: s.courseContents.id, order: s.courseContents.order }).from(s.courseContents).where(eq(s.courseContents.groupId, w.group.id))).sort((a, b) => a.order - b.order).map((r) => r.id);
    const move = (id: string, direction: string) => call(`/dashboard/admin/group/${w.group.slug}/update.data`, { method: "POST", form: fields({ intent: "content-move", id, direction }), cookie: admin.cookie });
    for (const id of ["no-such-item", elsewhere]) {
      const res = await move(id, "up");
      expect(res.status).toBe(404);
      expect(await res.text()).toContain("No such item in this group's outline.");
      expect(await order()).toEqual([first, second]);
    }
    expect((await move(second, "up")).status).toBe(200);
    expect(await order()).toEqual([second, first]);
  });

  it("says a refused field in words, never Zod's own ('Invalid input: expected object')", async () => {
    const w = await teaching();
    const res = await call(`/instructor/group/${w.group.slug}/quizzes.data`, { method: "POST", form: fields({ intent: "bank-save", payload: "{}" }), cookie: w.teacher.cookie });
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).not.toMatch(/Invalid input|expected object|received undefined/);
  });
});
