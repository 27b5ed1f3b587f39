/**
 * An archived group's course has ended: its members keep everything in it (lectures, tasks, their hand-ins and
 * grades, quiz results, the chat's history, certificates) and add nothing more. A hand-in (link, file, exercise), a
 * new quiz attempt, a check-in, the opening of attendance and a chat message (HTTP and socket) are refused with 409
 * `course_ended`, one rule in `can(…, "group.contribute")`; an attempt already open is still handed in, staff still
 * grade (and answer a hand-in's conversation, which the student may no longer write in), and members still give feedback.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { can } from "../../app/lib/permissions";
import { addMember, call, createGroup, createUser, imageFile, signIn, type ErrorBody } from "./factories";
import { db, unique } from "./helpers";
import { joinChat } from "./sockets";

async function world() {
  const admin = await signIn(await createUser({ role: "admin" }));
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const student = await signIn(await createUser());
  await addMember(student.user, group);
  const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: unique("Week"), published: true }, token: teacher.accessToken })).json()) as { _id: string; slug: string };
  const task = (await (await call(`/api/lectures/${lecture.slug}/tasks`, { body: { title: "Landing page" }, token: teacher.accessToken })).json()) as { _id: string; slug: string };
  const fileTask = (await (await call(`/api/lectures/${lecture.slug}/tasks`, { body: { title: "Screenshot", fileKinds: ["image"] }, token: teacher.accessToken })).json()) as { _id: string; slug: string };
  const quizBody = (title: string) => ({ lectureId: lecture.slug, title, published: true, questions: [{ text: "1 + 1?", type: "single", options: ["1", "2"], correct: [1], points: 1 }] });
  const quiz = (await (await call("/api/quizzes", { body: quizBody("Open one"), token: teacher.accessToken })).json()) as { _id: string; slug: string };
  const fresh = (await (await call("/api/quizzes", { body: quizBody("Not started"), token: teacher.accessToken })).json()) as { _id: string; slug: string };
  const codeTask = (await (await call(`/api/lectures/${lecture.slug}/tasks`, { body: { title: "Sum" }, token: teacher.accessToken })).json()) as { _id: string; slug: string };
  await db().insert(s.exercises).values({ taskId: codeTask._id, tests: [{ name: "adds", call: "sum(1, 2)", expected: "3", points: 1, hidden: false }], referenceSolution: "function sum(a, b) { return a + b; }", published: true, timeMs: 200, memoryMb: 8, updatedAt: new Date() });
  return { admin, teacher, group, student, lecture, task, fileTask, quiz, fresh, codeTask };
}

const archive = (w: Awaited<ReturnType<typeof world>>, status: "archived" | "published" = "archived") =>
  call(`/api/groups/${w.group.slug}`, { method: "PUT", body: { status }, token: w.admin.accessToken });

const ended = async (res: Response) => {
  expect(res.status).toBe(409);
  expect(((await res.json()) as ErrorBody).code).toBe("course_ended");
};

describe("a course that has ended (its group archived)", () => {
  it("keeps what its members have and takes nothing new from them, over every way in", async () => {
    const w = await world();
    // Before the end: an exercise's draft saved, a hand-in, and an attempt opened but not handed in.
    expect((await call(`/api/exercises/${w.codeTask.slug}/draft`, { method: "PUT", body: { code: "function sum(a, b) {" }, token: w.student.accessToken })).status).toBe(200);
    expect((await call(`/api/lectures/${w.lecture.slug}/submit-task/${w.task.slug}`, { body: { link: "https://github.com/me/landing" }, token: w.student.accessToken })).status).toBe(201);
    const opened = await call(`/api/quizzes/${w.quiz.slug}/start`, { body: {}, token: w.student.accessToken });
    expect(opened.status).toBeLessThan(300);
    const attemptId = ((await opened.json()) as { attempt: { _id: string } }).attempt._id;
    // Attendance opened in the last lecture, its code on the screen.
    const open = await call(`/api/lectures/${w.lecture.slug}/attendance/open`, { body: { rotateSeconds: 0, lateAfterMinutes: 10, durationMinutes: 30 }, token: w.teacher.accessToken });
    expect(open.status).toBe(200);
    const code = ((await open.json()) as { session: { code: string } }).session.code;
    expect(code).toMatch(/^\d{6}$/);
    expect((await archive(w)).status).toBe(200);
    await ended(await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code }, token: w.student.accessToken }));

    // Nothing new.
    await ended(await call(`/api/lectures/${w.lecture.slug}/submit-task/${w.task.slug}`, { body: { link: "https://github.com/me/landing-v2" }, token: w.student.accessToken }));
    const form = new FormData();
    form.set("file", imageFile("image/png"));
    await ended(await call(`/api/lectures/${w.lecture.slug}/submit-task/${w.fileTask.slug}/file`, { form, token: w.student.accessToken }));
    await ended(await call(`/api/quizzes/${w.fresh.slug}/start`, { body: {}, token: w.student.accessToken }));
    // An exercise's draft is new work too; the draft saved before stays.
    await ended(await call(`/api/exercises/${w.codeTask.slug}/draft`, { method: "PUT", body: { code: "function sum(a, b) { return 3; }" }, token: w.student.accessToken }));
    const [kept] = await db().select({ code: s.exerciseDrafts.code }).from(s.exerciseDrafts).where(eq(s.exerciseDrafts.taskId, w.codeTask._id));
    expect(kept?.code).toBe("function sum(a, b) {");
    // Its page says where typed code goes now, in the student's language.
    for (const [lang, hint] of [["en", "The course has ended: what you type is kept in this browser only."], ["ar", "انتهى الكورس، فما تكتبه يُحفظ في هذا المتصفح فقط."]] as const) {
      const html = await (await call(`/course/${w.group.slug}/lecture/${w.lecture.slug}/Add-Task/${w.codeTask.slug}`, { cookie: `${w.student.cookie}; lang=${lang}`, headers: { accept: "text/html" } })).text();
      expect(html).toContain(hint);
    }
    // The spec's one-call solve (no attemptId) would open a new attempt: refused too.
    await ended(await call("/api/quizzes/solve", { body: { slugQuize: w.fresh.slug, answers: {} }, token: w.student.accessToken }));
    await ended(await call(`/api/lectures/${w.lecture.slug}/attendance/open`, { body: { rotateSeconds: 0, lateAfterMinutes: 10, durationMinutes: 30 }, token: w.teacher.accessToken }));
    await ended(await call("/api/messages", { body: { groupId: w.group.id, text: "Anyone still here?", clientId: unique("cid").replace(/[^A-Za-z0-9_-]/g, "_") }, token: w.student.accessToken }));
    // Staff write in it no more either: its chat is read-only.
    await ended(await call("/api/messages", { body: { groupId: w.group.id, text: "Thanks all", clientId: unique("cid").replace(/[^A-Za-z0-9_-]/g, "_") }, token: w.teacher.accessToken }));
    // Over the socket: the history syncs, a send is refused in words the page can say, and the socket stays open.
    const { client } = await joinChat(w.student, w.group.id);
    const clientId = unique("cid").replace(/[^A-Za-z0-9_-]/g, "_");
    client.send({ type: "chat.send", text: "Over the socket", clientId });
    const refused = await client.next("error");
    expect(refused).toMatchObject({ code: "course_ended", clientId });
    expect(await db().select().from(s.messages).where(eq(s.messages.groupId, w.group.id))).toHaveLength(0);

    // What they had stays theirs: the task and their hand-in, the quiz, the chat's history.
    expect((await call(`/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}`, { token: w.student.accessToken })).status).toBe(200);
    const mine = (await (await call(`/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions`, { token: w.student.accessToken })).json()) as { submissions: { _id: string; link: string }[] };
    expect(mine.submissions.map((x) => x.link)).toEqual(["https://github.com/me/landing"]);
    expect((await call(`/api/messages/group/${w.group.id}`, { token: w.student.accessToken })).status).toBe(200);
    // The attempt open when the course ended is still handed in (its answers are not lost).
    const handedIn = await call(`/api/quizzes/${w.quiz.slug}/submit`, { body: { answers: {}, attemptId }, token: w.student.accessToken });
    expect(handedIn.status).toBeLessThan(300);
    // Staff still grade; members still say how it went.
    expect((await call(`/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions/${mine.submissions[0]!._id}`, { method: "PUT", body: { score: 90 }, token: w.teacher.accessToken })).status).toBe(200);
    // The hand-in's conversation: the student reads it and writes no more (nothing stored); staff may still answer.
    const thread = `/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions/${mine.submissions[0]!._id}/comments`;
    await ended(await call(thread, { body: { body: "Can you look again?" }, token: w.student.accessToken }));
    expect((await call(thread, { body: { body: "Your grade stands: well done." }, token: w.teacher.accessToken })).status).toBe(201);
    const said = (await (await call(thread, { token: w.student.accessToken })).json()) as { body: string }[];
    expect(said.map((c) => c.body)).toEqual(["Your grade stands: well done."]);
    // Its page shows the conversation without a box to write in, and says why, in the student's language.
    for (const [lang, note] of [["en", "This course has ended: you can read this conversation, but you can no longer write in it."], ["ar", "انتهى هذا الكورس: يمكنك قراءة هذه المحادثة، لكن لم يعد بإمكانك الكتابة فيها."]] as const) {
      const html = await (await call(`/course/${w.group.slug}/lecture/${w.lecture.slug}/Add-Task/${w.task.slug}`, { cookie: `${w.student.cookie}; lang=${lang}`, headers: { accept: "text/html" } })).text();
      expect(html).toContain("Your grade stands: well done.");
      expect(html).toContain(note);
      expect(html).not.toContain('name="intent" value="comment"');
    }
    expect((await call("/api/feedback", { body: { groupSlug: w.group.slug, userFeedback: "A good course.", rating: 5 }, token: w.student.accessToken })).status).toBeLessThan(300);

    // Brought back by an admin, it takes work again.
    expect((await archive(w, "published")).status).toBe(200);
    expect((await call(`/api/quizzes/${w.fresh.slug}/start`, { body: {}, token: w.student.accessToken })).status).toBeLessThan(300);
  });

  it("its course home and lecture page list an open quiz as closed, in English and Arabic; a running course's says it is open", async () => {
    const w = await world();
    const pages = async (lang: "en" | "ar") => {
      const get = async (path: string) => (await call(path, { cookie: `${w.student.cookie}; lang=${lang}`, headers: { accept: "text/html" } })).text();
      return [await get(`/course/${w.group.slug}`), await get(`/course/${w.group.slug}/lecture/${w.lecture.slug}`)];
    };
    // Running: both quizzes (no close time) are open now and not taken yet.
    for (const html of await pages("en")) {
      expect(html).toContain("Open now");
      expect(html).toContain("Not taken yet");
      expect(html).not.toContain("Closed: the course has ended");
    }
    // The progress card on the course home agrees: open while the course runs, counted nowhere once it ended.
    expect((await pages("en"))[0]).toContain("Still open: 2");
    expect((await archive(w)).status).toBe(200);
    const [endedHome] = await pages("en");
    expect(endedHome).not.toContain("Still open");
    expect(endedHome).toContain("Not counted: 2 (the course ended before they closed)");
    for (const html of await pages("en")) {
      expect(html).not.toContain("Open now");
      expect(html).not.toContain("Not taken yet");
      expect(html.split("Closed: the course has ended").length - 1).toBe(2);
      expect(html).toContain(">Not taken<");
    }
    for (const html of await pages("ar")) {
      expect(html).not.toContain(">مفتوح الآن<");
      expect(html.split("مغلق: انتهى الكورس").length - 1).toBe(2);
      expect(html).toContain(">لم تأخذه<");
    }
  });

  it("is one rule: a member adds to a running course, nobody to an ended one, and an outsider to neither", () => {
    const member = { userId: "m", role: "user" as const };
    const teacher = { userId: "t", role: "instructor" as const };
    const outsider = { userId: "o", role: "user" as const };
    const group = (status: string, membershipStatus: string | null) => ({ instructorId: "t", membershipStatus, status });
    expect(can(member, "group.contribute", { group: group("published", "approved") })).toBe(true);
    expect(can(member, "group.contribute", { group: group("published", "special") })).toBe(true);
    expect(can(teacher, "group.contribute", { group: group("published", null) })).toBe(true);
    expect(can(member, "group.contribute", { group: group("archived", "approved") })).toBe(false);
    expect(can(teacher, "group.contribute", { group: group("archived", null) })).toBe(false);
    expect(can(outsider, "group.contribute", { group: group("published", null) })).toBe(false);
    expect(can(outsider, "group.contribute", { group: group("published", "pending") })).toBe(false);
  });
});
