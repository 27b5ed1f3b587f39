/**
 * Code exercises through the real Worker (issue "Code exercises graded at the edge"): staff publish only after the
 * reference passes; students get the visible tests and only the names of hidden ones; a hand-in is graded on the
 * server by every test (right, wrong, partly right, throwing, looping, memory-hungry, hostile), scaled to the task's
 * maximum, rate-limited, and never reveals a hidden test's call, expected value, output or error.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { rerunExercise } from "../../worker/services/exercises";
import { addMember, createUser, signIn, type SignedIn } from "./factories";
import { newId } from "../../worker/services/ids";
import { db, serviceContext, unique } from "./helpers";
import { exercise, HIDDEN_CALL, HIDDEN_EXPECTED, REFERENCE, send, world } from "./exercise-fixtures";

describe("code exercises: authoring", () => {
  it("refuses to publish when the reference fails a test, saving nothing, and publishes once it passes", async () => {
    const w = await world();
    const path = `/api/exercises/${w.task.slug}`;
    const broken = await send(w.teacher, "PUT", path, exercise({ referenceSolution: "function sum(a, b) { return a - b; }" }));
    expect(broken.status).toBe(409);
    expect(broken.body.message).toBe("The reference solution fails 3 of 3 tests: fix it or the tests before publishing.");
    expect(broken.body.fields.referenceSolution).toContain("adds small numbers: got -1, expected 3");
    expect((await send(w.teacher, "GET", path)).status).toBe(404);

    // Saved as a draft (not published), the failing reference is kept and reported, and students cannot see it.
    const draft = await send(w.teacher, "PUT", path, exercise({ referenceSolution: "function sum(a, b) { return a - b; }", published: false }));
    expect(draft.status).toBe(200);
    expect(draft.body).toMatchObject({ published: false, verifiedAt: null, reference: { score: 0, maxScore: 10 } });
    expect((await send(w.student, "GET", path)).status).toBe(404);

    const published = await send(w.admin, "PUT", path, exercise());
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ published: true, isStaff: true, reference: { score: 10, maxScore: 10 } });
    expect(published.body.verifiedAt).not.toBeNull();
    expect((await send(w.teacher, "POST", `${path}/reference`)).body).toMatchObject({ score: 10, maxScore: 10 });
  });

  it("answers 400 with a message for malformed exercises", async () => {
    const w = await world();
    const path = `/api/exercises/${w.task.id}`;
    const cases: [Record<string, unknown>, string][] = [
      [exercise({ tests: [] }), "Add at least one test."],
      [exercise({ tests: [{ name: "x", call: "sum(1, 2)", expected: "three" }] }), 'The expected value must be JSON, e.g. 5, "five", [1, 2] or {"a": 1}.'],
      [exercise({ timeMs: 10_000 }), "The time limit is 100 to 3000 ms per test."],
      [exercise({ memoryMb: 64 }), "The memory limit is 8 to 32 MB."],
      [exercise({ referenceSolution: "" }), "Give a reference solution: it must pass every test before students see the exercise."],
      [exercise({ language: "python" }), "The language must be javascript."],
      [exercise({ tests: Array.from({ length: 51 }, (_, i) => ({ name: `t${i}`, call: "1", expected: "1" })) }), "At most 50 tests."],
    ];
    for (const [body, message] of cases) {
      const res = await send(w.teacher, "PUT", path, body);
      expect(res.status, message).toBe(400);
      expect(res.body.message).toBe(message);
    }
  });
});

describe("code exercises: handing in", () => {
  async function published() {
    const w = await world();
    expect((await send(w.teacher, "PUT", `/api/exercises/${w.task.slug}`, exercise())).status).toBe(200);
    return w;
  }
  const submit = (w: Awaited<ReturnType<typeof world>>, code: string) => send(w.student, "POST", `/api/exercises/${w.task.slug}/submit`, { code });

  it("shows a student the visible tests and only the names of the hidden ones, never the reference", async () => {
    const w = await published();
    const res = await send(w.student, "GET", `/api/exercises/${w.task.slug}`);
    expect(res.status).toBe(200);
    expect(res.body.visibleTests).toEqual([
      { name: "adds small numbers", call: "sum(1, 2)", expected: "3", points: 2 },
      { name: "adds negatives", call: "sum(-4, 1)", expected: "-3", points: 3 },
    ]);
    expect(res.body.hiddenTests).toEqual([{ name: "big numbers", points: 5 }]);
    for (const secret of [HIDDEN_CALL, HIDDEN_EXPECTED, "the reference"]) expect(res.text).not.toContain(secret);
    expect(res.body.tests).toBeUndefined();
  });

  it("grades right, wrong and partly right code on the server, scaled to the task's 50 points", async () => {
    const w = await published();
    const right = await submit(w, "function sum(a, b) { return a + b; }");
    expect(right.status).toBe(201);
    expect(right.body).toMatchObject({ created: true, score: 50, maxScore: 50, report: { score: 10, maxScore: 10 } });
    // Only small positive numbers: 2 of 10 points → 10 of 50.
    const partly = await submit(w, "function sum(a, b) { return a > 0 && b > 0 && a < 100 ? a + b : 0; }");
    expect(partly.status).toBe(200);
    expect(partly.body).toMatchObject({ created: false, score: 10, report: { score: 2 } });
    expect(partly.body.report.results.map((r: { passed: boolean }) => r.passed)).toEqual([true, false, false]);
    const wrong = await submit(w, "function sum(a, b) { return a * b; }");
    expect(wrong.body).toMatchObject({ score: 0 });
    expect(wrong.body.report.results[0]).toMatchObject({ passed: false, actual: "2", expected: "3" });
    // The hand-in is the task's submission: the tasks list shows it graded with the score.
    const list = await send(w.student, "GET", `/api/lectures/groups/${w.group.slug}/tasks`);
    expect(list.body.find((t: { slug: string }) => t.slug === w.task.slug).submission).toMatchObject({ state: "graded", score: 0 });
  });

  it("ends throwing, looping, memory-hungry and host-reaching code in per-test errors, never a 5xx", async () => {
    const w = await published();
    const cases: [string, RegExp][] = [
      ["function sum() { throw new Error('nope'); }", /^Error: nope$/],
      ["function sum() { while (true) {} }", /^Time limit exceeded \(250 ms of work\)/],
      ["function sum() { const a = []; for (;;) a.push({ x: [1, 2, 3] }); }", /^Memory limit exceeded/],
      ["function sum(a, b) { return sum(a, b); }", /^Stack overflow/],
      ["function sum() { return fetch('https://example.com'); }", /^ReferenceError: 'fetch' is not defined$/],
      ["function sum() { setTimeout(() => {}, 1); return 3; }", /^ReferenceError: 'setTimeout' is not defined$/],
      ["function sum( {", /^SyntaxError/],
    ];
    for (const [code, error] of cases) {
      const res = await submit(w, code);
      expect(res.status, code).toBeLessThan(300);
      expect(res.body.score, code).toBe(0);
      expect(res.body.report.results[0].error, code).toMatch(error);
    }
  });

  it("never shows a hidden test's call, expected value, output or error to the student, in the answer or later", async () => {
    const w = await published();
    const res = await submit(w, "function sum(a, b) { console.log('secret-output', a, b); if (a > 1000) throw new Error('boom ' + a); return a + b; }");
    const hidden = res.body.report.results[2];
    expect(hidden).toEqual({ name: "big numbers", points: 5, hidden: true, passed: false });
    // The hidden test's input, its expected value and the error it raised ("boom 40000") appear nowhere.
    for (const leak of ["40000", HIDDEN_EXPECTED, "boom 4"]) expect(res.text).not.toContain(leak);
    const again = await send(w.student, "GET", `/api/exercises/${w.task.slug}`);
    for (const leak of ["40000", HIDDEN_EXPECTED, "boom 4", "the reference"]) expect(again.text).not.toContain(leak);
    expect(again.body.submission).toMatchObject({ score: 25, gradedByStaff: false });
    expect(again.body.draft.code).toContain("secret-output");
  });

  it("keeps a draft, refuses a link hand-in to a code task, and stops after 10 hand-ins in a minute", async () => {
    const w = await published();
    const saved = await send(w.student, "PUT", `/api/exercises/${w.task.slug}/draft`, { code: "function sum(a, b) {" });
    expect(saved.status).toBe(200);
    expect((await send(w.student, "GET", `/api/exercises/${w.task.slug}`)).body.draft.code).toBe("function sum(a, b) {");
    const link = await send(w.student, "POST", `/api/lectures/${w.lecture.slug}/submit-task/${w.task.slug}`, { link: "https://github.com/me/sum" });
    expect(link.status).toBe(409);
    expect(link.body.message).toBe("This task is a code exercise: hand in your code on its page.");
    for (let i = 0; i < 10; i++) expect((await submit(w, "function sum(a, b) { return a + b; }")).status).toBeLessThan(300);
    const eleventh = await submit(w, "function sum(a, b) { return a + b; }");
    expect(eleventh.status).toBe(429);
    expect(eleventh.body.message).toBe("You handed this exercise in many times in a minute. Please wait a moment and try again.");
  });

  it("lets staff override the auto score; then a new hand-in is refused until they ask for one", async () => {
    const w = await published();
    await submit(w, "function sum(a, b) { return a + b; }");
    const subs = await send(w.teacher, "GET", `/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions`);
    const id = subs.body.submissions[0]._id;
    expect((await send(w.teacher, "PUT", `/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions/${id}`, { score: 45, feedback: "Name your variables." })).status).toBe(200);
    const after = await send(w.student, "GET", `/api/exercises/${w.task.slug}`);
    expect(after.body.submission).toMatchObject({ score: 45, gradedByStaff: true, feedback: "Name your variables." });
    const refused = await submit(w, "function sum(a, b) { return b + a; }");
    expect(refused.status).toBe(409);
  });

  it("takes a late hand-in's penalty off its tests' score, as for graded work: 20 % a day, 2.5 days late = 60 %", async () => {
    const w = await published();
    const { eq } = await import("drizzle-orm");
    await db().update(s.tasks).set({ dueAt: new Date(Date.now() - 2.5 * 86_400_000), allowLate: true, latePenaltyPerDay: 20, latePenaltyFloor: 0 }).where(eq(s.tasks.id, w.task.id));
    const late = await submit(w, "function sum(a, b) { return a + b; }");
    expect(late.status).toBe(201);
    // All 10 of 10 test points = 50 of 50, less 60 %: 20.
    expect(late.body).toMatchObject({ score: 20, maxScore: 50, late: true });
    const [row] = await db().select().from(s.submissions).where(eq(s.submissions.taskId, w.task.id));
    expect(row).toMatchObject({ score: 20, rawScore: 50, late: true });
    const progress = await send(w.student, "GET", `/api/users/groups/${w.group.slug}/progress`);
    expect(progress.body.tasks).toMatchObject({ graded: 1, rate: 40 });
  });

  it("while the task holds its grades, a staff grade does not lock the exercise: a new hand-in keeps the grade for staff, marked as changed", async () => {
    const w = await published();
    const { eq } = await import("drizzle-orm");
    await db().update(s.tasks).set({ gradesHeld: true }).where(eq(s.tasks.id, w.task.id));
    await submit(w, "function sum(a, b) { return a + b; }");
    const base = `/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions`;
    const id = (await send(w.teacher, "GET", base)).body.submissions[0]._id;
    expect((await send(w.teacher, "PUT", `${base}/${id}`, { score: 45, feedback: "Name your variables." })).status).toBe(200);
    const seen = await send(w.student, "GET", `/api/exercises/${w.task.slug}`);
    // Its student still reads its tests' score (all 10 of 10 test points: 50 of 50), not the held 45.
    expect(seen.body.submission).toMatchObject({ score: 50, gradedByStaff: false, feedback: null });
    const again = await submit(w, "function sum(a, b) { return b + a; }");
    expect(again.status).toBe(200);
    expect((await send(w.teacher, "GET", `${base}/${id}`)).body).toMatchObject({ score: 45, feedback: "Name your variables.", code: "function sum(a, b) { return b + a; }", changedSinceGraded: true });
  });

  it("while the task holds its grades, a staff grade on an exercise changes nothing its student reads: they see the tests' score until the release", async () => {
    const w = await published();
    const { eq } = await import("drizzle-orm");
    await db().update(s.tasks).set({ gradesHeld: true }).where(eq(s.tasks.id, w.task.id));
    // Partly right: the hidden 5-point test fails, so 5 of 10 test points = 25 of the task's 50.
    const partly = "function sum(a, b) { return a < 1000 ? a + b : 0; }";
    expect((await submit(w, partly)).body).toMatchObject({ score: 25, maxScore: 50 });
    const base = `/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions`;
    const id = (await send(w.teacher, "GET", base)).body.submissions[0]._id as string;
    /** Everything the student reads about their hand-in: the exercise, their submissions, the group's task list, their progress, and the pages' state badges. */
    const reads = async () => {
      const exercise = (await send(w.student, "GET", `/api/exercises/${w.task.slug}`)).body.submission;
      const own = (await send(w.student, "GET", base)).body.submissions;
      const one = (await send(w.student, "GET", `${base}/${id}`)).body;
      const listed = (await send(w.student, "GET", `/api/lectures/groups/${w.group.slug}/tasks`)).body.map((t: { submission: unknown }) => t.submission);
      const progress = (await send(w.student, "GET", `/api/users/groups/${w.group.slug}/progress`)).body;
      const { call } = await import("./factories");
      const page = async (path: string) => (await call(path, { cookie: w.student.cookie, headers: { accept: "text/html" } })).text();
      const html = (await page(`/course/${w.group.slug}/lecture/${w.lecture.slug}`)) + (await page(`/course/${w.group.slug}/lecture/${w.lecture.slug}/Add-Task/${w.task.slug}`));
      const states = [...html.matchAll(/class="badge task-state" data-state="([a-z-]+)"/g)].map((m) => m[1]);
      return { exercise, own, one, listed, tasks: progress.tasks, overall: progress.overall, states };
    };
    const before = await reads();
    expect(before.tasks).toMatchObject({ graded: 1, rate: 50 });
    expect(before.states.length).toBeGreaterThan(0);
    expect((await send(w.teacher, "PUT", `${base}/${id}`, { score: 45, feedback: "Name your variables." })).status).toBe(200);
    expect(await reads()).toEqual(before);
    // Handed in again, right this time: the student reads the new version's tests' score (50); staff keep their 45.
    expect((await submit(w, "function sum(a, b) { return a + b; }")).body).toMatchObject({ score: 50 });
    const afterAgain = await reads();
    expect(afterAgain.exercise).toMatchObject({ score: 50, gradedByStaff: false, feedback: null });
    expect(afterAgain.tasks).toMatchObject({ graded: 1, rate: 100 });
    expect((await send(w.teacher, "GET", `${base}/${id}`)).body).toMatchObject({ score: 45, changedSinceGraded: true });
    // Graded again and released: now the staff grade is what the student reads.
    expect((await send(w.teacher, "PUT", `${base}/${id}`, { score: 40, feedback: "Better." })).status).toBe(200);
    expect((await send(w.teacher, "POST", `/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/release-grades`)).status).toBe(200);
    const released = await reads();
    expect(released.exercise).toMatchObject({ score: 40, gradedByStaff: true, feedback: "Better." });
    expect(released.tasks).toMatchObject({ graded: 1, rate: 80 });
  });

  it("a held exercise grade stays held when its grader's account is gone, and the task's maximum cannot go under the tests' score", async () => {
    const w = await published();
    const { eq } = await import("drizzle-orm");
    await db().update(s.tasks).set({ gradesHeld: true }).where(eq(s.tasks.id, w.task.id));
    const partly = "function sum(a, b) { return a < 1000 ? a + b : 0; }";
    expect((await submit(w, partly)).body).toMatchObject({ score: 25 });
    const base = `/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions`;
    const id = (await send(w.teacher, "GET", base)).body.submissions[0]._id as string;
    // Graded by the tests alone: nothing for the release to show or tell.
    expect((await send(w.teacher, "GET", base)).body.submissions[0]).toMatchObject({ state: "graded", heldGrade: false });
    // An admin grades it (held), then the admin's account is deleted (graded_by becomes null).
    expect((await send(w.admin, "PUT", `${base}/${id}`, { score: 10, feedback: "From a grader who left." })).status).toBe(200);
    expect((await send(w.teacher, "GET", base)).body.submissions[0]).toMatchObject({ score: 10, heldGrade: true });
    await db().delete(s.users).where(eq(s.users.id, w.admin.user.id));
    const seen = (await send(w.student, "GET", `${base}/${id}`)).body;
    expect(seen).toMatchObject({ score: 25, feedback: null, state: "graded" });
    expect(seen.gradedAt).toBe(seen.submittedAt);
    expect((await send(w.student, "GET", `/api/exercises/${w.task.slug}`)).body.submission).toMatchObject({ score: 25, feedback: null });
    expect((await send(w.student, "GET", `/api/users/groups/${w.group.slug}/progress`)).body.tasks).toMatchObject({ graded: 1, rate: 50 });
    expect((await send(w.teacher, "GET", base)).body.submissions[0]).toMatchObject({ score: 10, heldGrade: true });
    // The staff grade is 10 but the student reads 25 of 50: the maximum cannot go under 25.
    const lower = await send(w.teacher, "PUT", `/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}`, { maxScore: 20 });
    expect(lower.status).toBe(409);
    expect(lower.body.message).toContain("25 points");
    expect((await send(w.teacher, "PUT", `/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}`, { maxScore: 25 })).status).toBe(200);
  });

  it("answers 400 for code that is not text or too long", async () => {
    const w = await published();
    expect((await send(w.student, "POST", `/api/exercises/${w.task.slug}/submit`, { code: 42 })).status).toBe(400);
    const long = await send(w.student, "POST", `/api/exercises/${w.task.slug}/submit`, { code: "x".repeat(20_001) });
    expect(long.status).toBe(400);
    expect(long.body.message).toBe("The code must be at most 20000 characters.");
  });
});

describe("code exercises: who may do what", () => {
  it("refuses strangers, students of other groups, other instructors, and staff handing in", async () => {
    const w = await world();
    const path = `/api/exercises/${w.task.slug}`;
    expect((await send(null, "GET", path)).status).toBe(401);
    expect((await send(w.student, "PUT", path, exercise())).status).toBe(403);
    expect((await send(w.otherTeacher, "PUT", path, exercise())).status).toBe(403);
    expect((await send(w.teacher, "PUT", path, exercise())).status).toBe(200);
    expect((await send(w.stranger, "GET", path)).status).toBe(403);
    expect((await send(w.otherTeacher, "GET", path)).status).toBe(403);
    expect((await send(w.otherTeacher, "POST", `${path}/reference`)).status).toBe(403);
    expect((await send(w.teacher, "POST", `${path}/submit`, { code: REFERENCE })).status).toBe(403);
    expect((await send(w.admin, "PUT", `${path}/draft`, { code: REFERENCE })).status).toBe(403);
    expect((await send(w.stranger, "POST", `${path}/submit`, { code: REFERENCE })).status).toBe(403);
    expect((await send(w.student, "GET", `/api/exercises/no-such-task`)).status).toBe(404);
  });
});

describe("code exercises: running the tests again on every hand-in", () => {
  const PARTLY = "function sum(a, b) { return a > 0 && b > 0 && a < 100 ? a + b : 0; }";
  const RIGHT = "function sum(a, b) { return a + b; }";
  /** The exercise with its tests cut to the one the partly right code passes (2 points): what a fix of the tests looks like. */
  const onlySmall = () => exercise({ tests: [{ name: "adds small numbers", call: "sum(1, 2)", expected: "3", points: 2 }] });
  const regradedOf = async (userId: string) => (await db().select().from(s.notifications).where(eq(s.notifications.userId, userId))).filter((n) => n.kind === "exercise-retested");
  const rowOf = async (taskId: string, userId: string) => (await db().select().from(s.submissions).where(and(eq(s.submissions.taskId, taskId), eq(s.submissions.userId, userId))))[0]!;

  async function classOfThree() {
    const w = await world();
    expect((await send(w.teacher, "PUT", `/api/exercises/${w.task.slug}`, exercise())).status).toBe(200);
    const more = await Promise.all([createUser(), createUser()]);
    for (const u of more) await addMember(u, w.group);
    const [late, graded] = await Promise.all(more.map((u) => signIn(u)));
    return { ...w, late: late!, graded: graded! };
  }
  /** A student row to insert in a batch (insertUser writes one at a time). */
  const insertUserRow = () => {
    const slug = unique("user");
    return { id: newId(), slug, name: `User ${slug}`, email: `${slug}@test.example`, role: "user" as const };
  };
  const handIn = (w: { task: { slug: string } }, who: SignedIn, code: string) => send(who, "POST", `/api/exercises/${w.task.slug}/submit`, { code });

  it("grades every hand-in again by the tests as saved: auto grades follow, a staff grade stays, lateness keeps its penalty, and the students whose grade changed are told", async () => {
    const w = await classOfThree();
    // Due 2.5 days ago with 20 % a day off; the first student has an extension, so only the others hand in late.
    await db().update(s.tasks).set({ dueAt: new Date(Date.now() - 2.5 * 86_400_000), allowLate: true, latePenaltyPerDay: 20, latePenaltyFloor: 0 }).where(eq(s.tasks.id, w.task.id));
    expect((await send(w.teacher, "PUT", `/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/extensions`, { userIds: [w.student.user.id], dueAt: new Date(Date.now() + 86_400_000).toISOString() })).status).toBeLessThan(300);
    // 10 of 10 test points on time: 50 of 50. 2 of 10, 2.5 days late: 10 less 60 % = 4. 7 of 10 late, then graded by hand.
    expect((await handIn(w, w.student, RIGHT)).body).toMatchObject({ score: 50 });
    expect((await handIn(w, w.late, PARTLY)).body).toMatchObject({ score: 4, late: true });
    expect((await handIn(w, w.graded, "function sum(a, b) { return a > 0 ? a + b : 0; }")).body).toMatchObject({ score: 14, late: true });
    const gradedRow = await rowOf(w.task.id, w.graded.user.id);
    expect((await send(w.teacher, "PUT", `/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions/${gradedRow.id}`, { score: 45, feedback: "Good." })).status).toBe(200);
    const staffGrade = (await rowOf(w.task.id, w.graded.user.id)).score;

    // The tests change (only the small-numbers test is kept); the editor offers the three hand-ins.
    const saved = await send(w.teacher, "PUT", `/api/exercises/${w.task.slug}`, onlySmall());
    expect(saved.body).toMatchObject({ handIns: 3 });
    const before = { late: (await regradedOf(w.late.user.id)).length, student: (await regradedOf(w.student.user.id)).length, graded: (await regradedOf(w.graded.user.id)).length };
    const rerun = await send(w.teacher, "POST", `/api/exercises/${w.task.slug}/rerun`);
    expect(rerun.status).toBe(200);
    // Three ran; two tests' scores changed (the late student's and the hand-graded one's), the first student's did not.
    expect(rerun.body).toEqual({ ran: 3, changed: 2 });

    expect(await rowOf(w.task.id, w.student.user.id)).toMatchObject({ score: 50, testsScore: 50, late: false });
    // 2 of 2 points = 50, still 2.5 days late: 20.
    expect(await rowOf(w.task.id, w.late.user.id)).toMatchObject({ score: 20, rawScore: 50, testsScore: 20, testsRawScore: 50, late: true });
    const lateReport = (await rowOf(w.task.id, w.late.user.id)).report!;
    expect(lateReport.results.map((r) => r.name)).toEqual(["adds small numbers"]);
    // The hand grade is the staff's: unchanged; the tests' own figure beside it moved to 20.
    expect(await rowOf(w.task.id, w.graded.user.id)).toMatchObject({ score: staffGrade, testsScore: 20 });
    // Told: the student whose grade moved, once; nobody whose grade they read stayed the same.
    expect((await regradedOf(w.late.user.id)).length).toBe(before.late + 1);
    // Told why: the tests ran again (not a late penalty's change), in the words of the reader's language.
    expect((await regradedOf(w.late.user.id)).at(-1)).toMatchObject({ title: `Your grade on ${w.task.title} is now 20/50: the tests were run again on your code`, params: { task: w.task.title, score: 20, max: 50 } });
    expect((await regradedOf(w.student.user.id)).length).toBe(before.student);
    expect((await regradedOf(w.graded.user.id)).length).toBe(before.graded);
    // What the student reads follows: their page's score and their progress.
    expect((await send(w.late, "GET", `/api/exercises/${w.task.slug}`)).body.submission).toMatchObject({ score: 20 });
    // Run again with nothing changed: every hand-in runs, no score moves, nobody is told twice.
    expect((await send(w.teacher, "POST", `/api/exercises/${w.task.slug}/rerun`)).body).toEqual({ ran: 3, changed: 0 });
    expect((await regradedOf(w.late.user.id)).length).toBe(before.late + 1);
  });

  it("is staff's alone, needs tests, and is offered only to staff", async () => {
    const w = await classOfThree();
    const path = `/api/exercises/${w.task.slug}/rerun`;
    expect((await send(null, "POST", path)).status).toBe(401);
    expect((await send(w.student, "POST", path)).status).toBe(403);
    expect((await send(w.otherTeacher, "POST", path)).status).toBe(403);
    expect((await send(w.admin, "POST", path)).body).toEqual({ ran: 0, changed: 0 });
    expect((await send(w.teacher, "POST", `/api/exercises/no-such-task/rerun`)).status).toBe(404);
    // A student's view of the exercise says nothing about the class's hand-ins.
    expect((await send(w.student, "GET", `/api/exercises/${w.task.slug}`)).body).not.toHaveProperty("handIns");
    // An exercise without tests has nothing to run: 409 with a message, nothing written.
    await db().update(s.exercises).set({ tests: [] }).where(eq(s.exercises.taskId, w.task.id));
    const none = await send(w.teacher, "POST", path);
    expect(none.status).toBe(409);
    expect(none.body).toMatchObject({ code: "no_tests", message: "This exercise has no tests to run yet." });
  });

  it("runs once at a time per exercise: a second run while the first is going is told so and runs nothing", async () => {
    const w = await classOfThree();
    expect((await handIn(w, w.student, PARTLY)).body).toMatchObject({ score: 10 });
    const { ctx } = serviceContext();
    const realRun = ctx.runCode;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let runs = 0;
    ctx.runCode = async (...args) => {
      runs++;
      await held;
      return realRun(...args);
    };
    const staff = { userId: w.teacher.user.id, role: "instructor" as const };
    const first = rerunExercise(ctx, staff, w.task.slug);
    while (runs === 0) await new Promise((r) => setTimeout(r, 5));
    const second = await send(w.admin, "POST", `/api/exercises/${w.task.slug}/rerun`);
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: "rerun_running", message: "The tests are already running again on this exercise's hand-ins. Wait a moment, then reload." });
    release();
    expect(await first).toEqual({ ran: 1, changed: 0 });
    expect(runs).toBe(1);
    // Once the first is done, the next may run.
    expect((await send(w.admin, "POST", `/api/exercises/${w.task.slug}/rerun`)).body).toEqual({ ran: 1, changed: 0 });
  });

  it("counts an auto grade stored before the tests' own figure was kept as that figure: the same result is no change", async () => {
    const w = await classOfThree();
    expect((await handIn(w, w.student, RIGHT)).body).toMatchObject({ score: 50 });
    await db().update(s.submissions).set({ testsScore: null, testsRawScore: null }).where(eq(s.submissions.taskId, w.task.id));
    expect((await send(w.teacher, "POST", `/api/exercises/${w.task.slug}/rerun`)).body).toEqual({ ran: 1, changed: 0 });
    expect(await rowOf(w.task.id, w.student.user.id)).toMatchObject({ score: 50, testsScore: 50 });
  });

  it("runs the tests again on at most 200 hand-ins at once: at 201 it runs none and changes nothing", async () => {
    const w = await classOfThree();
    expect((await handIn(w, w.student, PARTLY)).body).toMatchObject({ score: 10 });
    // 199 more hand-ins of the same code, written straight to the database (the rule is about their number).
    const others = Array.from({ length: 200 }, () => insertUserRow());
    const handInOf = (u: { id: string }) => ({ id: newId(), taskId: w.task.id, userId: u.id, link: "", code: PARTLY, submittedAt: new Date(), score: 10, testsScore: 10 });
    await db().batch([...others.slice(0, 199).map((u) => db().insert(s.users).values(u)), ...others.slice(0, 199).map((u) => db().insert(s.submissions).values(handInOf(u)))] as never);
    const { ctx } = serviceContext();
    const realRun = ctx.runCode;
    let runs = 0;
    let report: Awaited<ReturnType<typeof realRun>> | undefined;
    ctx.runCode = async (...args) => {
      runs++;
      return (report ??= await realRun(...args));
    };
    const staff = { userId: w.teacher.user.id, role: "instructor" as const };
    expect(await rerunExercise(ctx, staff, w.task.slug)).toEqual({ ran: 200, changed: 0 });
    expect(runs).toBe(200);

    await db().batch([db().insert(s.users).values(others[199]!), db().insert(s.submissions).values(handInOf(others[199]!))]);
    await send(w.teacher, "PUT", `/api/exercises/${w.task.slug}`, onlySmall());
    const refused = await send(w.teacher, "POST", `/api/exercises/${w.task.slug}/rerun`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "too_many_hand_ins", fields: { n: "201", max: "200" }, message: "This exercise has 201 hand-ins; the tests run again on at most 200 at once." });
    // Under the new tests the partly right code would score 100: nobody's hand-in moved.
    expect(await rowOf(w.task.id, w.student.user.id)).toMatchObject({ score: 10, testsScore: 10 });
  });

  it("keeps a grade staff gave while the tests ran, and one whose grader's account is gone", async () => {
    const w = await classOfThree();
    expect((await handIn(w, w.late, PARTLY)).body).toMatchObject({ score: 10 });
    expect((await handIn(w, w.graded, PARTLY)).body).toMatchObject({ score: 10 });
    // The grader's account was deleted: graded_by is null, the graded time (later than the hand-in) still says staff.
    const gone = await rowOf(w.task.id, w.graded.user.id);
    await db().update(s.submissions).set({ score: 33, gradedBy: null, gradedAt: new Date(gone.submittedAt.getTime() + 60_000) }).where(eq(s.submissions.id, gone.id));
    await send(w.teacher, "PUT", `/api/exercises/${w.task.slug}`, onlySmall());
    const lateRow = await rowOf(w.task.id, w.late.user.id);
    const { ctx } = serviceContext();
    const realRun = ctx.runCode;
    let graded = false;
    ctx.runCode = async (...args) => {
      // While the tests run, the instructor grades the late student's hand-in by hand.
      if (!graded) {
        graded = true;
        expect((await send(w.teacher, "PUT", `/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions/${lateRow.id}`, { score: 44, feedback: "By hand." })).status).toBe(200);
      }
      return realRun(...args);
    };
    const toldBefore = (await regradedOf(w.late.user.id)).length + (await regradedOf(w.graded.user.id)).length;
    expect(await rerunExercise(ctx, { userId: w.teacher.user.id, role: "instructor" }, w.task.slug)).toEqual({ ran: 2, changed: 2 });
    // Both grades stay the staff's; the tests' own figures beside them follow the new tests (2 of 2 points: 50).
    expect(await rowOf(w.task.id, w.late.user.id)).toMatchObject({ score: 44, testsScore: 50 });
    expect(await rowOf(w.task.id, w.graded.user.id)).toMatchObject({ score: 33, testsScore: 50 });
    // Nobody is told of a score they do not read.
    expect((await regradedOf(w.late.user.id)).length + (await regradedOf(w.graded.user.id)).length).toBe(toldBefore);
  });

  it("tells a student whose held grade hides a staff score that the tests' score they read moved", async () => {
    const w = await classOfThree();
    expect((await handIn(w, w.graded, PARTLY)).body).toMatchObject({ score: 10 });
    await db().update(s.tasks).set({ gradesHeld: true }).where(eq(s.tasks.id, w.task.id));
    const row = await rowOf(w.task.id, w.graded.user.id);
    expect((await send(w.teacher, "PUT", `/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions/${row.id}`, { score: 45, feedback: "Held." })).status).toBe(200);
    await send(w.teacher, "PUT", `/api/exercises/${w.task.slug}`, onlySmall());
    expect((await send(w.teacher, "POST", `/api/exercises/${w.task.slug}/rerun`)).body).toEqual({ ran: 1, changed: 1 });
    // The student reads the tests' score while the grade is held: it moved from 10 to 50, and they are told 50, never 45.
    expect((await send(w.graded, "GET", `/api/exercises/${w.task.slug}`)).body.submission).toMatchObject({ score: 50 });
    expect((await regradedOf(w.graded.user.id)).map((n) => n.params)).toEqual([{ task: w.task.title, score: 50, max: 50 }]);
  });

  it("runs only published tests: a draft's, which the reference solution may fail, grade nobody", async () => {
    const w = await classOfThree();
    expect((await handIn(w, w.late, PARTLY)).body).toMatchObject({ score: 10 });
    // Saved as a draft with a test nobody can pass (the reference fails it too): the save answers 200, unverified.
    const impossible = exercise({ published: false, tests: [{ name: "adds small numbers", call: "sum(1, 2)", expected: "3", points: 2 }, { name: "impossible", call: "sum(1, 1)", expected: "42", points: 5, hidden: true }] });
    expect((await send(w.teacher, "PUT", `/api/exercises/${w.task.slug}`, impossible)).body).toMatchObject({ published: false, verifiedAt: null });
    const refused = await send(w.teacher, "POST", `/api/exercises/${w.task.slug}/rerun`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "not_published", message: "Publish the exercise first: its tests run again on the hand-ins only once the reference solution passes them all." });
    expect(await rowOf(w.task.id, w.late.user.id)).toMatchObject({ score: 10, testsScore: 10 });
    expect(await regradedOf(w.late.user.id)).toEqual([]);
  });

  it("leaves a hand-in replaced while the tests ran to its own run", async () => {
    const w = await classOfThree();
    expect((await handIn(w, w.late, PARTLY)).body).toMatchObject({ score: 10 });
    await send(w.teacher, "PUT", `/api/exercises/${w.task.slug}`, onlySmall());
    // The student's newer hand-in lands between the read and the write of a run: simulated by moving the stored
    // hand-in's time, which is what a newer hand-in changes.
    const row = await rowOf(w.task.id, w.late.user.id);
    const { ctx } = serviceContext();
    const realRun = ctx.runCode;
    ctx.runCode = async (...args) => {
      await db().update(s.submissions).set({ submittedAt: new Date(row.submittedAt.getTime() + 1000), score: 33 }).where(eq(s.submissions.id, row.id));
      return realRun(...args);
    };
    expect(await rerunExercise(ctx, { userId: w.teacher.user.id, role: "instructor" }, w.task.slug)).toEqual({ ran: 0, changed: 0 });
    expect(await rowOf(w.task.id, w.late.user.id)).toMatchObject({ score: 33 });
  });
});
