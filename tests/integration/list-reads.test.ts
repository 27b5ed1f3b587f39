/**
 * Lists read what they show (issue 23, member pages cheap whatever their rows): the course home's task and quiz lists,
 * the staff's Tasks tab and the API's lists read the same from D1 for tasks and quizzes of a page of Markdown each as
 * for tasks and quizzes of one line. The bodies are read by the task's and the quiz's own pages only.
 */
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { newId } from "../../worker/services/ids";
import { listGroupQuizzes } from "../../worker/services/quizzes";
import type { Viewer } from "../../worker/services/sessions";
import { listGroupTasks, listTasksForStaff } from "../../worker/services/tasks";
import { addMember, createGroup, createUser } from "./factories";
import { insertAll, readingContext } from "./helpers";

const DAY = 86_400_000;
const TASKS = 6;
const QUIZZES = 3;

/** A group of `TASKS` tasks and `QUIZZES` quizzes whose Markdown (and its stored HTML) is `text`, with one student. */
async function groupWith(text: string) {
  const now = Date.now();
  const teacher = await createUser({ role: "instructor" });
  const student = await createUser();
  const group = await createGroup({ instructorId: teacher.id });
  await addMember(student, group);
  const lecture = { id: newId(), groupId: group.id, slug: `l-${group.slug}`, title: "Week 1", body: text, order: 1, startsAt: new Date(now - DAY), published: true };
  await insertAll(s.lectures, [lecture]);
  const html = `<p>${text}</p>`;
  await insertAll(
    s.tasks,
    Array.from({ length: TASKS }, (_, i) => ({ id: newId(), lectureId: lecture.id, slug: `t${i}-${group.slug}`, title: `Task ${i}`, body: text, bodyHtml: html, dueAt: new Date(now + (i + 1) * DAY), maxScore: 100, allowLate: true })),
  );
  await insertAll(
    s.quizzes,
    Array.from({ length: QUIZZES }, (_, i) => ({ id: newId(), lectureId: lecture.id, groupId: group.id, slug: `q${i}-${group.slug}`, title: `Quiz ${i}`, description: text, descriptionHtml: html, opensAt: new Date(now - DAY), closesAt: new Date(now + DAY), maxAttempts: 2, published: true })),
  );
  const as = (u: { id: string; name: string; email: string }, role: Viewer["role"]): Viewer => ({ userId: u.id, role, sessionId: "reads", name: u.name, email: u.email });
  return { group, staff: as(teacher, "instructor"), member: as(student, "user") };
}

/** Bytes D1 answered for each list, for one group. */
async function reads(w: Awaited<ReturnType<typeof groupWith>>) {
  // Each list is measured on a context of its own, so no list is answered from another's memo.
  const own = async (run: (ctx: ReturnType<typeof readingContext>["ctx"]) => Promise<unknown[]>, expected: number) => {
    const c = readingContext();
    expect(await run(c.ctx)).toHaveLength(expected);
    return c.bytes();
  };
  return {
    memberTasks: await own((ctx) => listGroupTasks(ctx, w.member, w.group.slug), TASKS),
    staffTasks: await own((ctx) => listGroupTasks(ctx, w.staff, w.group.slug), TASKS),
    tasksTab: await own((ctx) => listTasksForStaff(ctx, w.staff, w.group.slug), TASKS),
    memberQuizzes: await own((ctx) => listGroupQuizzes(ctx, w.member, w.group.slug), QUIZZES),
    staffQuizzes: await own((ctx) => listGroupQuizzes(ctx, w.staff, w.group.slug), QUIZZES),
  };
}

describe("lists read what they show", () => {
  it("read as much for tasks and quizzes of 20,000 characters of Markdown each as for those of one line", async () => {
    const short = await reads(await groupWith("Build it."));
    const long = await reads(await groupWith("Build it, step by step. ".repeat(834)));
    for (const list of Object.keys(short) as (keyof typeof short)[]) {
      expect(short[list], list).toBeGreaterThan(0);
      // The groups differ in their ids and names only (same lengths, give or take a few characters); their Markdown
      // differs by 2 x 20 kB per task and quiz, which a list reading it would show as 240 kB or 120 kB more.
      expect(Math.abs(long[list] - short[list]), list).toBeLessThan(1_000);
    }
  });
});
