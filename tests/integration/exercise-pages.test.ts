/**
 * Code exercises through the pages (issue "Code exercises graded at the edge"): the student's task page and its
 * background save route, the staff's exercise editor on the task form, a new task made a code exercise, and the
 * grader's data. Hidden tests and the reference never reach a student's HTML or loader data.
 */
import { describe, expect, it } from "vitest";
import { call, type SignedIn } from "./factories";
import { exercise, HIDDEN_CALL, HIDDEN_EXPECTED, send, world } from "./exercise-fixtures";

type World = Awaited<ReturnType<typeof world>>;

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};
const post = async (who: SignedIn | null, path: string, fields: Record<string, string>) => {
  const res = await call(path, { method: "POST", form: form(fields), cookie: who?.cookie, headers: { accept: "application/json" } });
  const text = await res.text();
  return { status: res.status, text, body: (text.startsWith("{") ? JSON.parse(text) : null) as Record<string, any> };
};
/** A page action as the browser's Remix sends it (single fetch: `{path}.data`); the answer is turbo-stream text. */
const action = async (who: SignedIn, path: string, fields: Record<string, string>) => {
  const res = await call(`${path}.data`, { method: "POST", form: form(fields), cookie: who.cookie });
  return { status: res.status, text: await res.text() };
};
const page = async (who: SignedIn, path: string) => {
  const res = await call(path, { cookie: who.cookie });
  return { status: res.status, text: await res.text() };
};

const taskPath = (w: World) => `/course/${w.group.slug}/lecture/${w.lecture.slug}/Add-Task/${w.task.slug}`;
const savePath = (w: World) => `/course/${w.group.slug}/exercise/${w.task.slug}/save`;
const editPath = (w: World) => `/instructor/group/${w.group.slug}/lecture/${w.lecture.slug}/tasks/updateTask/${w.task.slug}`;
// The reference solution carries this comment (exercise-fixtures.ts).
const SECRETS = [HIDDEN_CALL, HIDDEN_EXPECTED, "/* the reference */"];

async function published() {
  const w = await world();
  expect((await send(w.teacher, "PUT", `/api/exercises/${w.task.slug}`, exercise())).status).toBe(200);
  return w;
}

describe("code exercises: the student's pages", () => {
  it("puts the starter code and visible tests in the task page, never a hidden test or the reference", async () => {
    const w = await published();
    for (const path of [taskPath(w), `${taskPath(w)}.data`]) {
      const res = await page(w.student, path);
      expect(res.status, path).toBe(200);
      expect(res.text, path).toContain("sum(-4, 1)");
      expect(res.text, path).toContain("big numbers");
      for (const secret of SECRETS) expect(res.text, `${path} ${secret}`).not.toContain(secret);
    }
  });

  it("saves drafts and grades hand-ins through the save route, and the page then shows them without hidden values", async () => {
    const w = await published();
    const draft = await post(w.student, savePath(w), { intent: "draft", code: "function sum(a, b) { /* typing */ }" });
    expect(draft.status).toBe(200);
    expect((await send(w.student, "GET", `/api/exercises/${w.task.slug}`)).body.draft.code).toContain("typing");
    // Code near its 20,000 characters with Arabic comments, sent as the page sends it (a URL-encoded form: 9 bytes an
    // Arabic letter, well over the forms' 64 KB), is kept.
    const arabic = `function sum(a, b) {\n${"  // نجمع العددين ونعيد الناتج\n".repeat(600)}  return a + b;\n}`;
    expect(arabic.length).toBeLessThan(20_000);
    const encoded = await call(savePath(w), { method: "POST", cookie: w.student.cookie, headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" }, form: new URLSearchParams({ intent: "draft", code: arabic }) as unknown as FormData });
    expect(new URLSearchParams({ intent: "draft", code: arabic }).toString().length).toBeGreaterThan(64 * 1024);
    expect(encoded.status).toBe(200);
    expect((await send(w.student, "GET", `/api/exercises/${w.task.slug}`)).body.draft.code).toBe(arabic);

    const handIn = await post(w.student, savePath(w), { intent: "submit", code: "function sum(a, b) { if (a > 1000) throw new Error('boom ' + a); return a + b; }" });
    expect(handIn.status).toBe(201);
    // 2 + 3 of 10 test points, scaled to the task's 50.
    expect(handIn.body).toMatchObject({ ok: true, created: true, score: 25, maxScore: 50 });
    for (const leak of [...SECRETS, "boom 4"]) expect(handIn.text).not.toContain(leak);

    const again = await page(w.student, `${taskPath(w)}.data`);
    expect(again.text).toContain("boom");
    for (const leak of [...SECRETS, "boom 4"]) expect(again.text).not.toContain(leak);
    // The tasks API's own view of the submission carries the same filtered report.
    const mine = await send(w.student, "GET", `/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions`);
    expect(mine.status).toBe(200);
    expect(mine.body.submissions[0].report.results[2]).toEqual({ name: "big numbers", points: 5, hidden: true, passed: false });
    for (const leak of [...SECRETS, "boom 4"]) expect(mine.text).not.toContain(leak);
  });

  it("hands in without JavaScript through the page's own form", async () => {
    const w = await published();
    const res = await call(taskPath(w), { method: "POST", form: form({ intent: "submit-code", code: "function sum(a, b) { return a + b; }" }), cookie: w.student.cookie });
    expect(res.status).toBeLessThan(400);
    expect((await send(w.student, "GET", `/api/exercises/${w.task.slug}`)).body.submission).toMatchObject({ score: 50, gradedByStaff: false });
  });

  it("answers the save route's refusals as JSON: signed out 401, strangers 403, bad intents and code 400", async () => {
    const w = await published();
    expect((await post(null, savePath(w), { intent: "draft", code: "x" })).status).toBe(401);
    const stranger = await post(w.stranger, savePath(w), { intent: "draft", code: "x" });
    expect(stranger.status).toBe(403);
    expect(stranger.body.message).toBe("Only the group's members and staff can see its exercises.");
    expect((await post(w.otherTeacher, savePath(w), { intent: "submit", code: "x" })).status).toBe(403);
    expect((await post(w.teacher, savePath(w), { intent: "submit", code: "x" })).status).toBe(403);
    expect((await post(w.student, savePath(w), { intent: "dance", code: "x" })).body).toMatchObject({ code: "bad_request" });
    const long = await post(w.student, savePath(w), { intent: "draft", code: "x".repeat(20_001) });
    expect(long.status).toBe(400);
    expect(long.body.message).toBe("The code must be at most 20000 characters.");
    const get = await call(savePath(w), { cookie: w.student.cookie });
    expect(get.status).toBe(405);
  });
});

describe("code exercises: the staff's pages", () => {
  it("makes a new task a code exercise that students see as being prepared, and that refuses links", async () => {
    const w = await world();
    const newTask = `/instructor/group/${w.group.slug}/lectures/${w.lecture.slug}/newTask`;
    const made = await action(w.teacher, newTask, { intent: "save", title: "Reverse a string", body: "Write `reverse(s)`.", maxScore: "10", kind: "code" });
    expect(made.status).toBe(200);
    const slug = /reverse-a-string[\w-]*/.exec(made.text)?.[0] ?? "";
    expect(slug).not.toBe("");
    const staffView = await send(w.teacher, "GET", `/api/exercises/${slug}`);
    expect(staffView.body).toMatchObject({ published: false, tests: [] });
    const studentPage = await page(w.student, `/course/${w.group.slug}/lecture/${w.lecture.slug}/Add-Task/${slug}.data`);
    expect(studentPage.text).toContain("preparing");
    const link = await send(w.student, "POST", `/api/lectures/${w.lecture.slug}/submit-task/${slug}`, { link: "https://github.com/a/b" });
    expect(link.status).toBe(409);
  });

  it("runs the form's reference without saving, refuses to publish a failing one, and publishes a passing one", async () => {
    const w = await world();
    const failing = exercise({ referenceSolution: "function sum(a, b) { return a - b; }" });
    const check = await action(w.teacher, editPath(w), { intent: "exercise-check", exercise: JSON.stringify(failing) });
    expect(check.status).toBe(200);
    expect(check.text).toContain(`"actual","-1","expected","3"`);
    // Only a run: nothing was saved.
    expect((await send(w.teacher, "GET", `/api/exercises/${w.task.slug}`)).status).toBe(404);

    const refused = await action(w.teacher, editPath(w), { intent: "exercise-save", exercise: JSON.stringify(failing) });
    expect(refused.status).toBe(409);
    expect((await send(w.teacher, "GET", `/api/exercises/${w.task.slug}`)).status).toBe(404);

    const saved = await action(w.teacher, editPath(w), { intent: "exercise-save", exercise: JSON.stringify(exercise()) });
    expect(saved.status).toBe(200);
    expect((await send(w.teacher, "GET", `/api/exercises/${w.task.slug}`)).body).toMatchObject({ published: true, tests: exercise().tests.map((t) => ({ hidden: false, ...t })) });
    expect((await page(w.student, taskPath(w))).text).toContain("sum(1, 2)");

    expect((await action(w.teacher, editPath(w), { intent: "exercise-save", exercise: "{not json" })).status).toBe(400);
    // Another group's instructor is stopped by the page's guard before any code runs.
    const other = await action(w.otherTeacher, editPath(w), { intent: "exercise-check", exercise: JSON.stringify(exercise()) });
    expect(other.status).toBeGreaterThanOrEqual(400);
    expect(other.status).toBeLessThan(500);
  });

  it("lists hand-ins with report summaries only, and gives the grader one whole report at a time (staff of the group only)", async () => {
    const w = await published();
    const flood = "function sum(a, b) { console.log('printed-by-the-student ' + 'z'.repeat(900)); return a + b; }";
    await post(w.student, savePath(w), { intent: "submit", code: flood });
    const grader = await page(w.teacher, `/instructor/group/${w.group.slug}/lecture/${w.lecture.slug}/tasks/${w.task.slug}/submissions.data`);
    expect(grader.status).toBe(200);
    expect(grader.text).toContain("printed-by-the-student ' + ");
    // The list: verdicts and names, no console output and no values.
    expect(grader.text).not.toContain("printed-by-the-student zzz");
    expect(grader.text).not.toContain(HIDDEN_EXPECTED);
    const list = await send(w.teacher, "GET", `/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions`);
    const id = list.body.submissions[0]._id;
    expect(list.body.submissions[0].report).toMatchObject({ partial: true, score: 10, maxScore: 10 });
    expect(list.text).not.toContain("printed-by-the-student zzz");

    // The whole one: through the API and the grader's own route.
    const whole = await send(w.teacher, "GET", `/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions/${id}`);
    expect(whole.status).toBe(200);
    expect(whole.text).toContain(HIDDEN_EXPECTED);
    expect(whole.text).toContain("printed-by-the-student zzz");
    const route = await page(w.teacher, `/staff/submission/${w.task.id}/${id}`);
    expect(route.status).toBe(200);
    expect(route.text).toContain(HIDDEN_EXPECTED);
    // Its student gets their own without hidden values; a classmate and another group's instructor get nothing.
    const own = await send(w.student, "GET", `/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions/${id}`);
    expect(own.status).toBe(200);
    expect(own.text).not.toContain(HIDDEN_EXPECTED);
    expect((await page(w.student, `/staff/submission/${w.task.id}/${id}`)).status).toBe(403);
    expect((await send(w.stranger, "GET", `/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions/${id}`)).status).toBeGreaterThanOrEqual(403);
    expect((await page(w.otherTeacher, `/staff/submission/${w.task.id}/${id}`)).status).toBe(404);
  });
});
