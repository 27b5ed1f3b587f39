/**
 * What a stranger found by sending the API everything at once and everything odd (ADR 60), replayed through the real
 * Worker: items of one title made at the same moment all get made; an outline's new items each get their own place;
 * links with invisible characters or credentials are refused, nothing stored; a body Hono cannot read is answered
 * in words a person can act on; an instructor who runs groups is not deleted; late cannot start after attendance
 * closes.
 */
import { SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { newId } from "../../worker/services/ids";
import { addMember, call, createGroup, createUser, ORIGIN, signIn, type ErrorBody } from "./factories";
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
      expect(((await res.json()) as ErrorBody).fields?.link).toBe("Give a full link to your work, starting with https://");
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
