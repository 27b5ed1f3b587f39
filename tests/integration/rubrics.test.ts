/**
 * Rubrics (issue 21): a group's staff make rubrics (criteria with levels and points) and put one on any task of the
 * group; the task's maximum becomes the rubric's total; the grader gives a level per criterion and the score is their
 * points (then the late penalty, as for a typed score); the student sees the rubric on the task and the filled rubric
 * with the grade, never while the grade is held; a rubric's points cannot change under grades given with it.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { addMember, call, createGroup, createUser, signIn, viewerOf, type SignedIn } from "./factories";
import { db, gatedContext, unique } from "./helpers";
import { updateRubric } from "../../worker/services/rubrics";
import { gradeSubmission } from "../../worker/services/tasks";

const level = (title: string, points: number) => ({ title, description: `${title} work`, points });
/** Two criteria whose best levels add up to 10 + 6 = 16 points. */
const RUBRIC = {
  title: "Landing page rubric",
  criteria: [
    { id: "layout", title: "Layout", description: "Grid and Flexbox", levels: [level("Excellent", 10), level("Good", 7), level("Missing", 0)] },
    { id: "a11y", title: "Accessibility", description: "", levels: [level("Excellent", 6), level("Partial", 3)] },
  ],
};

async function world() {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const student = await signIn(await createUser());
  await addMember(student.user, group);
  const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: unique("Week"), published: true }, token: teacher.accessToken })).json()) as { _id: string; slug: string };
  const made = await call(`/api/groups/${group.slug}/rubrics`, { body: RUBRIC, token: teacher.accessToken });
  expect(made.status).toBe(201);
  const rubric = (await made.json()) as { _id: string; total: number };
  return { teacher, group, student, lecture, rubric };
}
type World = Awaited<ReturnType<typeof world>>;

async function newTask(w: World, body: Record<string, unknown>) {
  // A task graded by a rubric is sent without a maximum (the rubric's total is its maximum); others are out of 50.
  const res = await call(`/api/lectures/${w.lecture.slug}/tasks`, { body: { title: unique("Task"), ...(body.rubricId ? {} : { maxScore: 50 }), ...body }, token: w.teacher.accessToken });
  return { status: res.status, body: (await res.json()) as { _id: string; slug: string; maxScore: number; rubricId: string | null; code?: string; fields?: Record<string, string> } };
}

async function handIn(w: World, task: { _id: string; slug: string }, who: SignedIn = w.student) {
  expect((await call(`/api/lectures/${w.lecture.slug}/submit-task/${task.slug}`, { body: { link: "https://github.com/me/landing" }, token: who.accessToken })).status).toBe(201);
  const [row] = await db().select().from(s.submissions).where(and(eq(s.submissions.taskId, task._id), eq(s.submissions.userId, who.user.id)));
  return row!.id;
}

const grade = (w: World, task: { slug: string }, id: string, body: unknown) =>
  call(`/api/lectures/${w.lecture.slug}/tasks/${task.slug}/submissions/${id}`, { method: "PUT", body, token: w.teacher.accessToken });

describe("rubrics", () => {
  it("sets a task's maximum to the rubric's total and scores a level per criterion, the student seeing the filled rubric", async () => {
    const w = await world();
    expect(w.rubric.total).toBe(16);
    // Another maximum sent with a rubric is refused, not silently dropped: the rubric decides.
    const other = await newTask(w, { rubricId: w.rubric._id, maxScore: 50 });
    expect(other.status).toBe(400);
    expect(other.body.fields?.maxScore).toBe("This task is graded by its rubric, so its maximum score is the rubric's total, 16. Leave maxScore out, or choose no rubric.");
    expect((await newTask(w, { rubricId: w.rubric._id, maxScore: 16 })).status).toBe(201);
    const { status, body: task } = await newTask(w, { rubricId: w.rubric._id });
    expect(status).toBe(201);
    // 10 + 6.
    expect(task).toMatchObject({ maxScore: 16, rubricId: w.rubric._id });
    // And on an update: a new maximum for a task graded by its rubric is refused; the task keeps 16.
    const changed = await call(`/api/lectures/${w.lecture.slug}/tasks/${task.slug}`, { method: "PUT", body: { maxScore: 50 }, token: w.teacher.accessToken });
    expect(changed.status).toBe(400);
    expect((await db().select({ maxScore: s.tasks.maxScore }).from(s.tasks).where(eq(s.tasks.id, task._id)))[0]!.maxScore).toBe(16);

    // Everyone who reads the task sees how it is graded.
    const read = (await (await call(`/api/lectures/${w.lecture.slug}/tasks/${task.slug}`, { token: w.student.accessToken })).json()) as { rubric: { criteria: { id: string }[]; total: number } };
    expect(read.rubric.total).toBe(16);
    expect(read.rubric.criteria.map((c) => c.id)).toEqual(["layout", "a11y"]);

    const id = await handIn(w, task);
    // "Good" layout (7) and "Partial" accessibility (3).
    const graded = await grade(w, task, id, { rubric: { layout: 1, a11y: 1 }, feedback: "Nice grid" });
    expect(graded.status).toBe(200);
    expect(await graded.json()).toMatchObject({ score: 10, state: "graded", rubric: { rubricId: w.rubric._id, criteria: [{ id: "layout", chosen: 1 }, { id: "a11y", chosen: 1 }] } });

    const own = (await (await call(`/api/lectures/${w.lecture.slug}/tasks/${task.slug}/submissions/${id}`, { token: w.student.accessToken })).json()) as { score: number; rubric: { criteria: { chosen: number; levels: { title: string }[] }[] } };
    expect(own.score).toBe(10);
    expect(own.rubric.criteria.map((c) => c.levels[c.chosen]!.title)).toEqual(["Good", "Partial"]);
    // The task page draws the filled rubric, the given levels marked.
    const page = await (await call(`/course/${w.group.slug}/lecture/${w.lecture.slug}/Add-Task/${task.slug}`, { cookie: w.student.cookie, headers: { accept: "text/html" } })).text();
    const chosen = [...page.matchAll(/<li class="rubric-level" data-chosen="true"><span class="rubric-level-title user-text">([^<]+)</g)].map((m) => m[1]);
    expect(chosen).toEqual(["Good", "Partial"]);
  });

  it("refuses a rubric grade that misses a criterion, names a level that does not exist or a criterion the rubric lacks, and changes nothing", async () => {
    const w = await world();
    const { body: task } = await newTask(w, { rubricId: w.rubric._id });
    const id = await handIn(w, task);
    for (const rubric of [{ layout: 0 }, { layout: 0, a11y: 2 }, { layout: 3, a11y: 0 }]) {
      const res = await grade(w, task, id, { rubric });
      expect(res.status, JSON.stringify(rubric)).toBe(400);
      const body = (await res.json()) as { message: string; fields?: Record<string, string> };
      expect(body.fields?.rubric ?? body.message).toMatch(/Pick a level for/);
    }
    // A level for a criterion the rubric does not have is refused by name, not dropped.
    const extra = await grade(w, task, id, { rubric: { layout: 0, a11y: 0, bogus: 1 } });
    expect(extra.status).toBe(400);
    expect(((await extra.json()) as { fields?: Record<string, string> }).fields?.rubric).toMatch(/^The rubric has no criterion "bogus"/);
    const [row] = await db().select().from(s.submissions).where(eq(s.submissions.id, id));
    expect(row).toMatchObject({ score: null, gradedAt: null, rubric: null });
    // A plain task takes no rubric grade.
    const { body: plain } = await newTask(w, {});
    const plainId = await handIn(w, plain);
    expect((await grade(w, plain, plainId, { rubric: { layout: 0, a11y: 0 } })).status).toBe(400);
  });

  it("applies the late penalty to the rubric's points", async () => {
    const w = await world();
    const { body: task } = await newTask(w, { rubricId: w.rubric._id, dueAt: new Date(Date.now() - 30 * 3_600_000).toISOString(), allowLate: true, latePenaltyPerDay: 10 });
    const id = await handIn(w, task);
    // 10 + 6 = 16 raw; two started days late at 10 % a day keep 80 %: 12.8, rounded to 13.
    const res = await grade(w, task, id, { rubric: { layout: 0, a11y: 0 } });
    expect(await res.json()).toMatchObject({ rawScore: 16, score: 13 });
  });

  it("holds the filled rubric with the grade until release", async () => {
    const w = await world();
    const { body: task } = await newTask(w, { rubricId: w.rubric._id, gradesHeld: true });
    const id = await handIn(w, task);
    expect((await grade(w, task, id, { rubric: { layout: 0, a11y: 0 } })).status).toBe(200);
    const own = (await (await call(`/api/lectures/${w.lecture.slug}/tasks/${task.slug}/submissions/${id}`, { token: w.student.accessToken })).json()) as { score: number | null; rubric: unknown };
    expect(own).toMatchObject({ score: null, rubric: null });
    const page = await (await call(`/course/${w.group.slug}/lecture/${w.lecture.slug}/Add-Task/${task.slug}`, { cookie: w.student.cookie, headers: { accept: "text/html" } })).text();
    expect(page).not.toMatch(/data-chosen="true"/);
    expect((await call(`/api/lectures/${w.lecture.slug}/tasks/${task.slug}/release-grades`, { method: "POST", token: w.teacher.accessToken })).status).toBe(200);
    const after = (await (await call(`/api/lectures/${w.lecture.slug}/tasks/${task.slug}/submissions/${id}`, { token: w.student.accessToken })).json()) as { score: number | null; rubric: { criteria: unknown[] } | null };
    expect(after.score).toBe(16);
    expect(after.rubric?.criteria).toHaveLength(2);
  });

  it("is reused across the group's tasks, follows edits of its points until work is graded with it, and keeps grades when deleted", async () => {
    const w = await world();
    const first = (await newTask(w, { rubricId: w.rubric._id })).body;
    const second = (await newTask(w, { rubricId: w.rubric._id })).body;
    const base = `/api/groups/${w.group.slug}/rubrics/${w.rubric._id}`;
    const listed = (await (await call(`/api/groups/${w.group.slug}/rubrics`, { token: w.teacher.accessToken })).json()) as { _id: string; tasks: { _id: string }[] }[];
    expect(listed.find((r) => r._id === w.rubric._id)!.tasks.map((t) => t._id).sort()).toEqual([first._id, second._id].sort());

    // Before any grade, points may change and both tasks take the new total (12 + 6).
    const bigger = { ...RUBRIC, criteria: [{ ...RUBRIC.criteria[0]!, levels: [level("Excellent", 12), level("Good", 7), level("Missing", 0)] }, RUBRIC.criteria[1]!] };
    expect((await call(base, { method: "PUT", body: bigger, token: w.teacher.accessToken })).status).toBe(200);
    const maxOf = async (id: string) => (await db().select({ max: s.tasks.maxScore }).from(s.tasks).where(eq(s.tasks.id, id)))[0]!.max;
    expect([await maxOf(first._id), await maxOf(second._id)]).toEqual([18, 18]);

    const id = await handIn(w, first);
    expect((await grade(w, first, id, { rubric: { layout: 0, a11y: 0 } })).status).toBe(200);
    // Now points are fixed (409 with a code), words are not.
    const refused = await call(base, { method: "PUT", body: RUBRIC, token: w.teacher.accessToken });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { code: string }).code).toBe("rubric_in_use");
    const renamed = await call(base, { method: "PUT", body: { ...bigger, title: "Renamed rubric" }, token: w.teacher.accessToken });
    expect(renamed.status).toBe(200);

    // Deleted: the tasks keep their maximum and lose the rubric; the grade keeps its filled rubric.
    expect((await call(base, { method: "DELETE", token: w.teacher.accessToken })).status).toBe(200);
    const [task] = await db().select().from(s.tasks).where(eq(s.tasks.id, first._id));
    expect(task).toMatchObject({ rubricId: null, maxScore: 18 });
    const [kept] = await db().select().from(s.submissions).where(eq(s.submissions.id, id));
    expect(kept!.score).toBe(18);
    expect(kept!.rubric?.title).toBe("Landing page rubric");
  });

  it("refuses another group's rubric on a task, and a rubric whose total differs from grades already given", async () => {
    const w = await world();
    const other = await world();
    const foreign = await newTask(w, { rubricId: other.rubric._id });
    expect(foreign.status).toBe(400);
    expect(foreign.body.fields?.rubricId).toBeTruthy();
    // Other staff cannot read, edit or delete this group's rubrics.
    expect((await call(`/api/groups/${w.group.slug}/rubrics`, { token: other.teacher.accessToken })).status).toBe(403);
    expect((await call(`/api/groups/${w.group.slug}/rubrics/${w.rubric._id}`, { method: "DELETE", token: other.teacher.accessToken })).status).toBe(403);
    expect((await call(`/api/groups/${other.group.slug}/rubrics/${w.rubric._id}`, { method: "DELETE", token: other.teacher.accessToken })).status).toBe(404);

    const { body: plain } = await newTask(w, { maxScore: 50 });
    const id = await handIn(w, plain);
    expect((await grade(w, plain, id, { score: 40 })).status).toBe(200);
    const swap = await call(`/api/lectures/${w.lecture.slug}/tasks/${plain.slug}`, { method: "PUT", body: { rubricId: w.rubric._id }, token: w.teacher.accessToken });
    expect(swap.status).toBe(409);
    const [task] = await db().select().from(s.tasks).where(eq(s.tasks.id, plain._id));
    expect(task).toMatchObject({ rubricId: null, maxScore: 50 });
  });

  it("a grade with the rubric that lands between an edit's check and its write refuses the edit: no score above the maximum", async () => {
    const w = await world();
    const task = (await newTask(w, { rubricId: w.rubric._id })).body;
    const id = await handIn(w, task);
    const smaller = { ...RUBRIC, criteria: [{ ...RUBRIC.criteria[0]!, levels: [level("Excellent", 2), level("Good", 1), level("Missing", 0)] }, { ...RUBRIC.criteria[1]!, levels: [level("Excellent", 2), level("Partial", 1)] }] };
    // The edit has found no grade; the grade (10 + 6 of 16) lands before the edit writes.
    const ctx = gatedContext("batch", async () => expect((await grade(w, task, id, { rubric: { layout: 0, a11y: 0 } })).status).toBe(200));
    await expect(updateRubric(ctx, viewerOf(w.teacher), w.group.slug, w.rubric._id, smaller)).rejects.toMatchObject({ status: 409, code: "rubric_in_use" });
    const [row] = await db().select({ max: s.tasks.maxScore }).from(s.tasks).where(eq(s.tasks.id, task._id));
    const [graded] = await db().select({ score: s.submissions.score }).from(s.submissions).where(eq(s.submissions.id, id));
    expect([graded!.score, row!.max]).toEqual([16, 16]);
    const [rubric] = await db().select().from(s.rubrics).where(eq(s.rubrics.id, w.rubric._id));
    expect(rubric!.criteria[0]!.levels[0]!.points).toBe(10);
  });

  it("an edit of the rubric's points that lands while a grade is being given refuses the grade, read with the old points", async () => {
    const w = await world();
    const task = (await newTask(w, { rubricId: w.rubric._id })).body;
    const id = await handIn(w, task);
    // Same total (16), other points per level: the grader's "Good" layout (7) is worth 9 after the edit.
    const moved = { ...RUBRIC, criteria: [{ ...RUBRIC.criteria[0]!, levels: [level("Excellent", 10), level("Good", 9), level("Missing", 0)] }, RUBRIC.criteria[1]!] };
    const ctx = gatedContext(/^update "submissions"/, async () => expect((await call(`/api/groups/${w.group.slug}/rubrics/${w.rubric._id}`, { method: "PUT", body: moved, token: w.teacher.accessToken })).status).toBe(200));
    await expect(gradeSubmission(ctx, viewerOf(w.teacher), w.lecture.slug, task.slug, id, { rubric: { layout: 1, a11y: 1 } })).rejects.toMatchObject({ status: 409 });
    const [row] = await db().select({ score: s.submissions.score, gradedAt: s.submissions.gradedAt }).from(s.submissions).where(eq(s.submissions.id, id));
    expect(row).toEqual({ score: null, gradedAt: null });
    // Graded again, it counts the points as they are now: 9 + 3.
    expect(await (await grade(w, task, id, { rubric: { layout: 1, a11y: 1 } })).json()).toMatchObject({ score: 12 });
  });

  it("refuses a malformed rubric with the field's message", async () => {
    const w = await world();
    const cases: [unknown, RegExp][] = [
      [{ title: "One level", criteria: [{ id: "x", title: "X", levels: [level("Only", 5)] }] }, /at least 2 levels/],
      [{ title: "No points", criteria: [{ id: "x", title: "X", levels: [level("A", 0), level("B", 0)] }] }, /at least 1 point/],
      [{ title: "Twins", criteria: [{ id: "x", title: "X", levels: [level("A", 1), level("B", 0)] }, { id: "x", title: "Y", levels: [level("A", 1), level("B", 0)] }] }, /same id/],
      [{ title: "Fraction", criteria: [{ id: "x", title: "X", levels: [level("A", 1.5), level("B", 0)] }] }, /whole number/],
      [{ title: "", criteria: [{ id: "x", title: "X", levels: [level("A", 1), level("B", 0)] }] }, /title/],
    ];
    for (const [body, message] of cases) {
      const res = await call(`/api/groups/${w.group.slug}/rubrics`, { body, token: w.teacher.accessToken });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(await res.json())).toMatch(message);
    }
    // Nothing was written.
    expect((await db().select().from(s.rubrics).where(eq(s.rubrics.groupId, w.group.id))).length).toBe(1);
  });

  it("keeps every score within its task's maximum: a plain score on a rubric task, or a lower maximum, stops a change below it", async () => {
    const w = await world();
    const task = (await newTask(w, { rubricId: w.rubric._id })).body;
    const id = await handIn(w, task);
    // Graded with a plain score (the grader may): the rubric's total may not fall under it.
    expect((await grade(w, task, id, { score: 16 })).status).toBe(200);
    const lower = { ...RUBRIC, criteria: [{ ...RUBRIC.criteria[0]!, levels: [level("Excellent", 2), level("Missing", 0)] }, RUBRIC.criteria[1]!] };
    const refused = await call(`/api/groups/${w.group.slug}/rubrics/${w.rubric._id}`, { method: "PUT", body: lower, token: w.teacher.accessToken });
    expect(refused.status).toBe(409);
    expect((await db().select({ max: s.tasks.maxScore }).from(s.tasks).where(eq(s.tasks.id, task._id)))[0]!.max).toBe(16);
    // A task without a rubric: 40 of 50 given, so the maximum may go to 40, not to 39.
    const plain = (await newTask(w, { maxScore: 50 })).body;
    expect((await grade(w, plain, await handIn(w, plain), { score: 40 })).status).toBe(200);
    const edit = (maxScore: number) => call(`/api/lectures/${w.lecture.slug}/tasks/${plain.slug}`, { method: "PUT", body: { maxScore }, token: w.teacher.accessToken });
    const under = await edit(39);
    expect(under.status).toBe(409);
    expect(((await under.json()) as { fields: Record<string, string> }).fields.maxScore).toMatch(/40/);
    expect((await edit(40)).status).toBe(200);
  });

  it("refuses a criterion id every object already has, and a grade that says two things at once", async () => {
    const w = await world();
    for (const id of ["__proto__", "constructor", "toString"]) {
      const res = await call(`/api/groups/${w.group.slug}/rubrics`, { body: { ...RUBRIC, criteria: [{ ...RUBRIC.criteria[0]!, id }] }, token: w.teacher.accessToken });
      expect(res.status, id).toBe(400);
    }
    const task = (await newTask(w, {})).body;
    const id = await handIn(w, task);
    const both = await grade(w, task, id, { requestResubmission: true, score: 2 });
    expect(both.status).toBe(400);
    // Each wrong grade is told what is wrong, on the field at fault, not a union's "Invalid input".
    const oneKind = "Give a score, a rubric's levels or a request for a new version: one of them.";
    const refusals: [unknown, string, string][] = [
      [{ requestResubmission: true, score: 2 }, "requestResubmission", oneKind],
      [{}, "score", oneKind],
      [{ feedback: "Nice" }, "score", oneKind],
      [{ score: 1.5 }, "score", "Give a whole-number score."],
      [{ score: "abc" }, "score", "Give a whole-number score."],
      [{ score: null }, "score", "Give a whole-number score."],
      [{ score: -1 }, "score", "The score cannot be negative."],
      [{ requestResubmission: false }, "requestResubmission", "Send requestResubmission: true to ask for a new version."],
      [{ score: 2, feedback: "x".repeat(5001) }, "feedback", "Feedback is limited to 5000 characters."],
    ];
    for (const [body, field, message] of refusals) {
      const res = await grade(w, task, id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const refusal = (await res.json()) as { message: string; fields: Record<string, string> };
      expect(refusal.fields[field], JSON.stringify(body)).toBe(message);
      expect(refusal.message, JSON.stringify(body)).not.toBe("Invalid input");
    }
    expect((await db().select().from(s.submissions).where(eq(s.submissions.id, id)))[0]).toMatchObject({ score: null, resubmitRequestedAt: null });
    // Saying nothing new of a task is no error (it holds no grades to release).
    expect((await call(`/api/lectures/${w.lecture.slug}/tasks/${task.slug}`, { method: "PUT", body: { gradesHeld: false }, token: w.teacher.accessToken })).status).toBe(200);
  });
});
