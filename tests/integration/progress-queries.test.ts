/**
 * Progress is computed in a constant number of D1 statements: the staff's progress call, a member's own call,
 * the staff progress page and the landings issue as many statements for 10 students as for 1,000. Statements are
 * counted at the D1 binding, so a per-student query (an N+1) would show up as a thousand more.
 */
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { newId } from "../../worker/services/ids";
import { loadStaffProgress } from "../../app/lib/progress.server";
import { staffAttention } from "../../worker/services/dashboard";
import { groupProgress, memberProgress } from "../../worker/services/progress";
import { createGroup, createUser, viewerOf } from "./factories";
import { countingContext, insertAll } from "./helpers";

const DAY = 86_400_000;

async function groupOf(n: number) {
  const now = Date.now();
  const teacher = await createUser({ role: "instructor" });
  const group = await createGroup({ instructorId: teacher.id });
  const lectures = Array.from({ length: 6 }, (_, i) => ({ id: newId(), groupId: group.id, slug: `l${i}-${group.slug}`, title: `Week ${i + 1}`, body: "", order: i, startsAt: new Date(now + (i - 5) * DAY), published: true }));
  await insertAll(s.lectures, lectures);
  const tasks = lectures.slice(0, 3).map((l, i) => ({ id: newId(), lectureId: l.id, slug: `t${i}-${group.slug}`, title: `Task ${i}`, body: "", dueAt: new Date(now + (i - 1) * DAY), maxScore: 100, allowLate: true }));
  await insertAll(s.tasks, tasks);
  const quizzes = lectures.slice(0, 2).map((l, i) => ({ id: newId(), lectureId: l.id, groupId: group.id, slug: `q${i}-${group.slug}`, title: `Quiz ${i}`, opensAt: new Date(now - DAY), closesAt: new Date(now + DAY), maxAttempts: 2, published: true }));
  await insertAll(s.quizzes, quizzes);
  const students = Array.from({ length: n }, (_, i) => ({ id: newId(), slug: `${group.slug}-s${i}`, name: `Student ${String(i).padStart(4, "0")}`, email: `${group.slug}-s${i}@test.example`, role: "user" as const }));
  await insertAll(s.users, students);
  await insertAll(s.memberships, students.map((u, i) => ({ id: newId(), userId: u.id, groupId: group.id, status: i % 10 ? ("approved" as const) : ("special" as const) })));
  await insertAll(
    s.attendance,
    students.flatMap((u, i) => lectures.slice(0, 5).map((l, j) => ({ id: newId(), lectureId: l.id, userId: u.id, status: (i + j) % 4 ? ("present" as const) : ("absent" as const), method: "code" as const, markedAt: new Date(now) }))),
  );
  await insertAll(
    s.submissions,
    students.flatMap((u, i) => tasks.slice(0, 2).map((t) => ({ id: newId(), taskId: t.id, userId: u.id, link: "https://github.com/x/y", submittedAt: new Date(now), score: i % 3 ? 70 + (i % 30) : null }))),
  );
  await insertAll(
    s.attempts,
    students.map((u, i) => ({ id: newId(), quizId: quizzes[0]!.id, userId: u.id, answers: {}, score: i % 5, maxScore: 4, number: 1, startedAt: new Date(now - 3_600_000), submittedAt: new Date(now - 3_000_000) })),
  );
  const viewer = viewerOf(teacher, "count");
  const student = viewerOf(students[1]!, "count");
  return { group, viewer, student };
}

describe("progress: query count", () => {
  it("is the same for 10 and for 1,000 students: the staff's call, a member's call, the progress tab, the landing", async () => {
    const measure = async (n: number) => {
      const w = await groupOf(n);
      const counter = countingContext();
      const report = await groupProgress(counter.ctx, w.viewer, w.group.slug);
      const staff = counter.count();
      counter.reset();
      const own = await memberProgress(counter.ctx, w.student, w.group.slug);
      const member = counter.count();
      counter.reset();
      const page = await loadStaffProgress(counter.ctx, w.viewer, { slug: w.group.slug });
      const tab = counter.count();
      counter.reset();
      const attention = await staffAttention(counter.ctx, w.viewer);
      return { staff, member, tab, landing: counter.count(), students: report.students.length, shown: page.report.students.length, held: report.heldLectures, own, attention };
    };
    const small = await measure(10);
    const large = await measure(1000);
    expect([small.students, large.students]).toEqual([10, 1000]);
    // Lectures 0-4 started 5..1 days ago (held); lecture 5 starts today at the same time: held too.
    expect([small.held, large.held]).toEqual([6, 6]);
    // Student 1: absent at lecture 3 ((1 + 3) % 4 = 0), present at the other four of five recorded, of six held.
    expect(large.own.lectures).toEqual({ attended: 4, held: 6, rate: 67 });
    expect(large.shown).toBe(1000);
    // A third of the hand-ins are ungraded (i % 3 === 0 for two tasks): 2 x 334 of 1,000 students.
    expect(large.attention.ungraded.total).toBe(668);
    expect(large.staff).toBe(small.staff);
    expect(large.member).toBe(small.member);
    expect(large.tab).toBe(small.tab);
    expect(large.landing).toBe(small.landing);
    // The group, then every member's numbers in one row each (with whether they left a quiz attempt to run out, which
    // the figures' own tests grade); the staff's call adds the charts' lecture, task and quiz lists, each with its
    // counts joined in, all three as one statement (each list a JSON column). A member's own call was 10 statements
    // when each of their figures was its own statement, then 3 while the search for attempts whose time ran out was a
    // statement of its own; the staff's was 9, then 6, then 5 with each chart its own statement.
    expect(small.member).toBeLessThanOrEqual(2);
    expect(small.staff).toBeLessThanOrEqual(3);
    // Inserting 1,010 students' records takes most of the time (about 10 s on a busy two-core machine); the
    // progress reads themselves take well under a second. The limit is for the inserts, not a timing assertion.
  }, 60_000);
});
