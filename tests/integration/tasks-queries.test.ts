/**
 * The grader's queries do not grow with the group: the submissions screen's loader (and the API call it shares)
 * issues the same number of D1 statements for 10 and for 500 submissions. Statements are counted at the D1
 * binding, so a loop of per-student queries (an N+1) would show up as hundreds more.
 */
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { loadGrader, loadStaffTasks } from "../../app/lib/tasks.server";
import { newId } from "../../worker/services/ids";
import { listSubmissions } from "../../worker/services/tasks";
import { createGroup, createUser, viewerOf } from "./factories";
import { countingContext, db, insertAll } from "./helpers";

async function groupWithSubmissions(n: number) {
  const teacher = await createUser({ role: "instructor" });
  const group = await createGroup({ instructorId: teacher.id });
  const lecture = { id: newId(), groupId: group.id, slug: `q-${group.slug}`, title: "Week 1", body: "", order: 1, published: true };
  await db().insert(s.lectures).values(lecture);
  const task = { id: newId(), lectureId: lecture.id, slug: `t-${group.slug}`, title: "Landing page", body: "", maxScore: 100, allowLate: true };
  await db().insert(s.tasks).values(task);
  const students = Array.from({ length: n }, (_, i) => ({ id: newId(), slug: `${group.slug}-s${i}`, name: `Student ${i}`, email: `${group.slug}-s${i}@test.example`, role: "user" as const }));
  await insertAll(s.users, students);
  await insertAll(s.memberships, students.map((u) => ({ id: newId(), userId: u.id, groupId: group.id, status: "approved" as const })));
  const now = Date.now();
  await insertAll(
    s.submissions,
    students.map((u, i) => ({ id: newId(), taskId: task.id, userId: u.id, link: `https://github.com/s${i}/landing`, submittedAt: new Date(now - i * 1000), late: i % 3 === 0, score: i % 2 ? 80 : null, gradedAt: i % 2 ? new Date(now) : null })),
  );
  const viewer = viewerOf(teacher, "count");
  return { group, lecture, task, viewer };
}

describe("the grader's query count", () => {
  it("is the same for 10 and for 500 submissions, on the screen and in the API", async () => {
    const measure = async (n: number) => {
      const w = await groupWithSubmissions(n);
      const counter = countingContext();
      const page = await loadGrader(counter.ctx, w.viewer, { slug: w.group.slug, slugLecture: w.lecture.slug, slugTask: w.task.slug });
      const screen = counter.count();
      counter.reset();
      const api = await listSubmissions(counter.ctx, w.viewer, w.lecture.slug, w.task.slug);
      const apiCount = counter.count();
      counter.reset();
      const list = await loadStaffTasks(counter.ctx, w.viewer, { slug: w.group.slug });
      return { screen, api: apiCount, tasks: counter.count(), shown: page.submissions.length, listed: api.submissions.length, submitted: list.tasks[0]?.submitted, row: list.tasks[0] };
    };
    const small = await measure(10);
    const large = await measure(500);
    // Every submission is on the screen, and the counts on the tasks list are right.
    expect([small.shown, small.listed, small.submitted]).toEqual([10, 10, 10]);
    expect([large.shown, large.listed, large.submitted]).toEqual([500, 500, 500]);
    expect(large.row).toMatchObject({ title: "Landing page", lectureTitle: "Week 1", graded: 250, members: 500 });
    // The statements issued do not depend on the number of rows.
    expect(large.screen).toBe(small.screen);
    expect(large.api).toBe(small.api);
    expect(large.tasks).toBe(small.tasks);
    // And they are few: a handful of lookups, not one per student (with issue 21's rubric, students' own due times, the
    // grader's comment bank, and every hand-in's versions and messages: one statement each, two for the history).
    expect(small.screen).toBeLessThanOrEqual(12);
  });
});
