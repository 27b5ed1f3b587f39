/**
 * Read-ahead (worker/http/read-ahead.ts, ADR 0033): a signed-in page starts from the group, lecture or task row this
 * isolate read the last time the same user asked for it, reads it afresh in the same call to D1 as everything else,
 * and is sent only if the fresh row is the same. Each change below is written straight into D1 (as another isolate,
 * a cron or an admin elsewhere would), so only the check can notice it; each test fails if the check is dropped or
 * compares less than the whole row.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { newId } from "../../worker/services/ids";
import { addMember, call, createGroup, createUser, hintSetBy, signIn } from "./factories";
import { db, unique } from "./helpers";

/** A signed-in browser: it carries the hint its first page set, as a real one does (ADR 0030). */
async function browserOf(user: { id: string; email: string }) {
  const session = await signIn(user as Parameters<typeof signIn>[0]);
  const first = await call("/my-courses", { cookie: session.cookie });
  await first.text();
  const hint = hintSetBy(first)!.split(";")[0]!;
  const cookie = `${session.cookie}; ${hint}`;
  return async (path: string) => {
    const res = await call(path, { cookie });
    const body = await res.text();
    return { status: res.status, body, trips: Number(res.headers.get("x-d1-round-trips")) };
  };
}

/** A group with an instructor, a member, a published lecture and a task in it. */
async function course() {
  const teacher = await createUser({ role: "instructor" });
  const group = await createGroup({ instructorId: teacher.id, title: `Web ${unique("g")}` });
  const student = await createUser();
  await addMember(student, group);
  const lecture = { id: newId(), groupId: group.id, slug: `lec-${unique("l")}`, title: `Week ${unique("w")}`, body: "Read *this*.", bodyHtml: "<p>Read <em>this</em>.</p>", order: 0, startsAt: new Date(), published: true };
  await db().insert(s.lectures).values(lecture);
  const task = { id: newId(), lectureId: lecture.id, slug: `task-${unique("t")}`, title: `Task ${unique("t")}`, body: "Build it.", bodyHtml: "<p>Build it.</p>", dueAt: new Date(Date.now() + 86_400_000), maxScore: 10 };
  await db().insert(s.tasks).values(task);
  return { teacher, group, student, lecture, task, home: `/course/${group.slug}`, lecturePage: `/course/${group.slug}/lecture/${lecture.slug}` };
}

describe("read-ahead", () => {
  it("makes a member page one call to D1 once the isolate has read its rows, and each user's kept rows are their own", async () => {
    const c = await course();
    const student = await browserOf(c.student);
    await student(c.home);
    expect((await student(c.home)).trips).toBe(1);
    await student(c.lecturePage);
    expect((await student(c.lecturePage)).trips).toBe(1);
    const teacher = await browserOf(c.teacher);
    const grader = `/instructor/group/${c.group.slug}/lecture/${c.lecture.slug}/tasks/${c.task.slug}/submissions`;
    await teacher(grader);
    expect((await teacher(grader)).trips).toBe(1);

    // Another member of the same group has no row of their own kept yet (a row holds its reader's membership): their
    // first visit reads the group first, then the lists.
    const other = await createUser();
    await addMember(other, c.group);
    const second = await browserOf(other);
    expect((await second(c.home)).trips).toBe(2);
    expect((await second(c.home)).trips).toBe(1);
    // And someone whose request is still pending is refused, whatever the members' kept rows say.
    const waiting = await createUser();
    await addMember(waiting, c.group, "pending");
    expect((await (await browserOf(waiting))(c.home)).status).toBe(403);
  });

  it("a member removed elsewhere gets no member page, though the isolate kept them as a member", async () => {
    const c = await course();
    const student = await browserOf(c.student);
    expect((await student(c.home)).status).toBe(200);
    expect((await student(c.lecturePage)).status).toBe(200);
    await db().update(s.memberships).set({ status: "removed" }).where(eq(s.memberships.userId, c.student.id));
    const home = await student(c.home);
    expect(home.status).toBe(403);
    expect(home.body).not.toContain(c.lecture.title);
    expect((await student(c.lecturePage)).status).toBe(403);
  });

  it("a certificate issued elsewhere shows on the member's very next course home, and its revocation too", async () => {
    const c = await course();
    const student = await browserOf(c.student);
    await student(c.home);
    const before = await student(c.home);
    expect(before.trips).toBe(1);
    expect(before.body).not.toContain("/certificates/");
    // The certificate comes with the group row (group-access.ts), which the isolate kept without one.
    const code = unique("CERT").toUpperCase();
    await db().insert(s.certificates).values({ id: newId(), code, groupId: c.group.id, userId: c.student.id, recipientName: c.student.name, courseTitle: c.group.title, issuedAt: new Date() });
    const issued = await student(c.home);
    expect(issued.body).toContain(`href="/certificates/${code}"`);
    expect(issued.body).toContain("You completed this course.");
    await db().update(s.certificates).set({ revokedAt: new Date(), revokedReason: "Issued by mistake" }).where(eq(s.certificates.code, code));
    const revoked = await student(c.home);
    expect(revoked.body).toContain("Your certificate was revoked: Issued by mistake");
  });

  it("a group renamed elsewhere shows its new title on the very next page", async () => {
    const c = await course();
    const student = await browserOf(c.student);
    expect((await student(c.home)).body).toContain(c.group.title);
    const renamed = `Renamed ${unique("g")}`;
    await db().update(s.groups).set({ title: renamed }).where(eq(s.groups.id, c.group.id));
    const home = await student(c.home);
    expect(home.status).toBe(200);
    expect(home.body).toContain(renamed);
    expect(home.body).not.toContain(c.group.title);
  });

  it("a group's address changed elsewhere: the old one is not found, the new one works", async () => {
    const c = await course();
    const student = await browserOf(c.student);
    expect((await student(c.home)).status).toBe(200);
    const slug = `moved-${unique("g")}`;
    await db().update(s.groups).set({ slug }).where(eq(s.groups.id, c.group.id));
    expect((await student(c.home)).status).toBe(404);
    expect((await student(`/course/${slug}`)).status).toBe(200);
  });

  it("an instructor whose group was given to someone else no longer runs it", async () => {
    const c = await course();
    const teacher = await browserOf(c.teacher);
    const students = `/instructor/group/${c.group.slug}/students`;
    expect((await teacher(students)).status).toBe(200);
    const successor = await createUser({ role: "instructor" });
    await db().update(s.groups).set({ instructorId: successor.id }).where(eq(s.groups.id, c.group.id));
    expect((await teacher(students)).status).toBe(403);
  });

  it("a lecture unpublished or renamed elsewhere, and a task retitled, show as they are now", async () => {
    const c = await course();
    const student = await browserOf(c.student);
    const teacher = await browserOf(c.teacher);
    const grader = `/instructor/group/${c.group.slug}/lecture/${c.lecture.slug}/tasks/${c.task.slug}/submissions`;
    expect((await student(c.lecturePage)).body).toContain(c.lecture.title);
    expect((await teacher(grader)).body).toContain(c.task.title);

    const title = `Retitled ${unique("t")}`;
    await db().update(s.tasks).set({ title }).where(eq(s.tasks.id, c.task.id));
    const graded = await teacher(grader);
    expect(graded.body).toContain(title);
    expect(graded.body).not.toContain(c.task.title);

    const renamed = `Renamed week ${unique("w")}`;
    await db().update(s.lectures).set({ title: renamed }).where(eq(s.lectures.id, c.lecture.id));
    const page = await student(c.lecturePage);
    expect(page.body).toContain(renamed);
    expect(page.body).not.toContain(c.lecture.title);

    await db().update(s.lectures).set({ published: false }).where(eq(s.lectures.id, c.lecture.id));
    expect((await student(c.lecturePage)).status).toBe(404);
  });
});

describe("read-ahead's kept rows and checks", () => {
  it("keeps at most 500 rows, dropping the one kept longest ago; a row kept again counts as new", async () => {
    const { keepRow, readAhead } = await import("../../worker/http/read-ahead");
    const run = unique("keep");
    keepRow(`${run}:first`, { n: 0 });
    keepRow(`${run}:second`, { n: 1 });
    for (let i = 0; i < 498; i++) keepRow(`${run}:${i}`, { n: i });
    keepRow(`${run}:first`, { n: 0 });
    // 500 kept: the 501st drops the oldest, which is now "second" ("first" was kept again).
    keepRow(`${run}:one more`, { n: 501 });
    const ahead = readAhead();
    expect(ahead.assume(`${run}:first`)).toEqual({ n: 0 });
    expect(ahead.assume(`${run}:second`)).toBeUndefined();
    expect(ahead.assume(`${run}:0`)).toEqual({ n: 0 });
    // A row the database no longer has is forgotten.
    keepRow(`${run}:first`, null);
    expect(ahead.assume(`${run}:first`)).toBeUndefined();
  });

  it("holds only if every fresh row equals the one assumed, and keeps a render's errors only until it closes", async () => {
    const { readAhead } = await import("../../worker/http/read-ahead");
    const same = readAhead();
    same.check({ id: "g", title: "Web" }, Promise.resolve({ id: "g", title: "Web" }));
    expect(same.defer(new Error("while open"))).toBe(true);
    expect(await same.held()).toBe(true);
    expect(same.deferred()).toHaveLength(1);
    // Closed: nothing more is assumed or kept back.
    expect(same.defer(new Error("after"))).toBe(false);
    expect(same.assume("anything")).toBeUndefined();

    const changed = readAhead();
    changed.check({ id: "g", title: "Web" }, Promise.resolve({ id: "g", title: "Web" }));
    changed.check({ id: "g", title: "Web", membershipStatus: "approved" }, Promise.resolve({ id: "g", title: "Web", membershipStatus: "removed" }));
    expect(await changed.held()).toBe(false);

    const gone = readAhead();
    gone.check({ id: "g" }, Promise.resolve(null));
    expect(await gone.held()).toBe(false);

    const failed = readAhead();
    failed.check({ id: "g" }, Promise.reject(new Error("D1 is down")));
    expect(await failed.held()).toBe(false);
  });
});
