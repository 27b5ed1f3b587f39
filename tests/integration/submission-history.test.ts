/**
 * A hand-in's history and private conversation (issue 21): every version the student handed in is kept and readable
 * by them and the group's staff; each hand-in has a private thread between its student and the staff, and a message
 * notifies the other side. Classmates and other groups' staff read nothing.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { addMember, call, createGroup, createUser, signIn } from "./factories";
import { db, unique } from "./helpers";

async function world() {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const [me, mate] = [await signIn(await createUser()), await signIn(await createUser())];
  await addMember(me.user, group);
  await addMember(mate.user, group);
  const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: unique("Week"), published: true }, token: teacher.accessToken })).json()) as { slug: string };
  const task = (await (await call(`/api/lectures/${lecture.slug}/tasks`, { body: { title: unique("Portfolio"), maxScore: 10 }, token: teacher.accessToken })).json()) as { _id: string; slug: string };
  const base = `/api/lectures/${lecture.slug}/tasks/${task.slug}`;
  const handIn = (link: string) => call(`/api/lectures/${lecture.slug}/submit-task/${task.slug}`, { body: { link }, token: me.accessToken });
  return { teacher, group, me, mate, lecture, task, base, handIn };
}

describe("hand-in history", () => {
  it("keeps every version handed in, the first first, for the student and the group's staff only", async () => {
    const w = await world();
    expect((await w.handIn("https://github.com/me/v1")).status).toBe(201);
    expect((await w.handIn("https://github.com/me/v2")).status).toBe(200);
    const [sub] = await db().select().from(s.submissions).where(and(eq(s.submissions.taskId, w.task._id), eq(s.submissions.userId, w.me.user.id)));
    // Graded, then a new version asked for and handed in: three versions.
    await call(`${w.base}/submissions/${sub!.id}`, { method: "PUT", body: { requestResubmission: true, feedback: "Add tests" }, token: w.teacher.accessToken });
    expect((await w.handIn("https://github.com/me/v3")).status).toBe(200);
    for (const token of [w.me.accessToken, w.teacher.accessToken]) {
      const versions = (await (await call(`${w.base}/submissions/${sub!.id}/versions`, { token })).json()) as { number: number; link: string }[];
      expect(versions.map((v) => [v.number, v.link])).toEqual([
        [1, "https://github.com/me/v1"],
        [2, "https://github.com/me/v2"],
        [3, "https://github.com/me/v3"],
      ]);
    }
    expect((await call(`${w.base}/submissions/${sub!.id}/versions`, { token: w.mate.accessToken })).status).toBe(404);
    const stranger = await signIn(await createUser({ role: "instructor" }));
    expect((await call(`${w.base}/submissions/${sub!.id}/versions`, { token: stranger.accessToken })).status).toBe(403);
  });

  it("keeps no version for a replace that was refused (graded work)", async () => {
    const w = await world();
    await w.handIn("https://github.com/me/v1");
    const [sub] = await db().select().from(s.submissions).where(eq(s.submissions.taskId, w.task._id));
    await call(`${w.base}/submissions/${sub!.id}`, { method: "PUT", body: { score: 8 }, token: w.teacher.accessToken });
    expect((await w.handIn("https://github.com/me/late-change")).status).toBe(409);
    expect((await db().select().from(s.submissionVersions).where(eq(s.submissionVersions.submissionId, sub!.id))).map((v) => v.link)).toEqual(["https://github.com/me/v1"]);
  });
});

describe("a hand-in sent twice at once (a double click, a retried request)", () => {
  const versionsOf = async (submissionId: string) => (await db().select().from(s.submissionVersions).where(eq(s.submissionVersions.submissionId, submissionId))).map((v) => v.link);
  const notesIn = (w: Awaited<ReturnType<typeof world>>, link: string, notes: string) => call(`/api/lectures/${w.lecture.slug}/submit-task/${w.task.slug}`, { body: { link, notes }, token: w.me.accessToken });

  it("is one hand-in and one version, the first time and for a new version alike", async () => {
    const w = await world();
    const first = await Promise.all([w.handIn("https://github.com/me/v1"), w.handIn("https://github.com/me/v1")]);
    expect(first.map((r) => r.status).sort()).toEqual([200, 201]);
    const [sub] = await db().select().from(s.submissions).where(and(eq(s.submissions.taskId, w.task._id), eq(s.submissions.userId, w.me.user.id)));
    expect(await versionsOf(sub!.id)).toEqual(["https://github.com/me/v1"]);

    const again = await Promise.all([w.handIn("https://github.com/me/v2"), w.handIn("https://github.com/me/v2")]);
    expect(again.map((r) => r.status)).toEqual([200, 200]);
    expect(await versionsOf(sub!.id)).toEqual(["https://github.com/me/v1", "https://github.com/me/v2"]);
  });

  it("counts as a repeat for 10 seconds only, and only with the same link and notes", async () => {
    const w = await world();
    expect((await notesIn(w, "https://github.com/me/site", "first")).status).toBe(201);
    const [sub] = await db().select().from(s.submissions).where(eq(s.submissions.taskId, w.task._id));
    // Other notes within the window: a new version.
    expect((await notesIn(w, "https://github.com/me/site", "second")).status).toBe(200);
    expect(await versionsOf(sub!.id)).toHaveLength(2);
    // The same link and notes 9 seconds later: the same hand-in.
    await db().update(s.submissions).set({ submittedAt: new Date(Date.now() - 9_000) }).where(eq(s.submissions.id, sub!.id));
    expect((await notesIn(w, "https://github.com/me/site", "second")).status).toBe(200);
    expect(await versionsOf(sub!.id)).toHaveLength(2);
    // 11 seconds later (the student updated the site behind the same link): a new version.
    await db().update(s.submissions).set({ submittedAt: new Date(Date.now() - 11_000) }).where(eq(s.submissions.id, sub!.id));
    expect((await notesIn(w, "https://github.com/me/site", "second")).status).toBe(200);
    expect(await versionsOf(sub!.id)).toHaveLength(3);
  });
});

describe("the private conversation about a hand-in", () => {
  it("takes 20 messages from one person in 10 minutes; the 21st is refused (429), stored nowhere and rings no bell", async () => {
    const w = await world();
    await w.handIn("https://github.com/me/v1");
    const [sub] = await db().select().from(s.submissions).where(eq(s.submissions.taskId, w.task._id));
    const thread = `${w.base}/submissions/${sub!.id}/comments`;
    for (let i = 1; i <= 20; i++) expect((await call(thread, { body: { body: `Question ${i}` }, token: w.me.accessToken })).status).toBe(201);
    const refused = await call(thread, { body: { body: "Question 21" }, token: w.me.accessToken });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(9 * 60);
    expect((await db().select().from(s.submissionComments).where(eq(s.submissionComments.submissionId, sub!.id))).length).toBe(20);
    const bells = await db().select().from(s.notifications).where(and(eq(s.notifications.userId, w.teacher.user.id), eq(s.notifications.kind, "submission-comment")));
    expect(bells).toHaveLength(20);
    // Per person: the instructor still answers.
    expect((await call(thread, { body: { body: "Slow down, I'm reading." }, token: w.teacher.accessToken })).status).toBe(201);
  });

  it("lets the student and the staff write to each other, notifying the other side, and nobody else read it", async () => {
    const w = await world();
    await w.handIn("https://github.com/me/v1");
    const [sub] = await db().select().from(s.submissions).where(eq(s.submissions.taskId, w.task._id));
    const thread = `${w.base}/submissions/${sub!.id}/comments`;
    expect((await call(thread, { body: { body: "Is the README enough?" }, token: w.me.accessToken })).status).toBe(201);
    expect((await call(thread, { body: { body: "Add how to run the tests." }, token: w.teacher.accessToken })).status).toBe(201);
    const messages = (await (await call(thread, { token: w.me.accessToken })).json()) as { body: string; author: { name: string; staff: boolean } }[];
    expect(messages.map((m) => [m.body, m.author.staff])).toEqual([
      ["Is the README enough?", false],
      ["Add how to run the tests.", true],
    ]);
    const kinds = async (userId: string) => (await db().select().from(s.notifications).where(and(eq(s.notifications.userId, userId), eq(s.notifications.kind, "submission-comment")))).length;
    expect(await kinds(w.teacher.user.id)).toBe(1);
    expect(await kinds(w.me.user.id)).toBe(1);
    // A classmate can neither read nor write; an empty message is refused.
    expect((await call(thread, { token: w.mate.accessToken })).status).toBe(404);
    expect((await call(thread, { body: { body: "Me too?" }, token: w.mate.accessToken })).status).toBe(404);
    expect((await call(thread, { body: { body: "  " }, token: w.me.accessToken })).status).toBe(400);
    expect((await db().select().from(s.submissionComments).where(eq(s.submissionComments.submissionId, sub!.id))).length).toBe(2);
  });

  it("is closed to its student once they leave the group, as the hand-in itself is", async () => {
    const w = await world();
    await w.handIn("https://github.com/me/v1");
    const [sub] = await db().select().from(s.submissions).where(eq(s.submissions.taskId, w.task._id));
    const thread = `${w.base}/submissions/${sub!.id}/comments`;
    expect((await call(thread, { body: { body: "Before I go" }, token: w.me.accessToken })).status).toBe(201);
    expect((await call("/api/users/leave-group", { body: { groupSlug: w.group.slug }, token: w.me.accessToken })).status).toBe(200);
    for (const path of [`${w.base}/submissions/${sub!.id}`, `${w.base}/submissions/${sub!.id}/versions`, thread]) {
      expect((await call(path, { token: w.me.accessToken })).status, path).toBe(403);
    }
    expect((await call(thread, { body: { body: "Still here?" }, token: w.me.accessToken })).status).toBe(403);
    expect((await db().select().from(s.submissionComments).where(eq(s.submissionComments.submissionId, sub!.id))).map((c) => c.body)).toEqual(["Before I go"]);
    // Staff still read the whole thread.
    expect((await call(thread, { token: w.teacher.accessToken })).status).toBe(200);
  });
});
