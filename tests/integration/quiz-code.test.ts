/**
 * The quiz question type "code" (issue "Code exercises graded at the edge"): the same sandbox grades it with the
 * rest of the quiz. Its reference must pass its tests before the quiz is saved; its tests and reference never reach
 * a student before the review; right code earns the points, wrong or blank code none; the verdict is stored with
 * the attempt so the review and the statistics agree, also for an attempt the server closes at its deadline.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import "../../worker/index";
import { newId } from "../../worker/services/ids";
import { getQuiz, saveAnswers, startAttempt } from "../../worker/services/quizzes";
import { addMember, call, createGroup, createUser, signIn, type SignedIn, viewerOf } from "./factories";
import { db, serviceContext } from "./helpers";

const SECRET_CALL = "double(21000)";
const REFERENCE = "function double(n) { /* reference-marker */ return n * 2; }";
const codeQuestion = (correct = REFERENCE) => ({
  text: "Write `double(n)`.",
  type: "code",
  correct,
  points: 3,
  code: {
    starterCode: "function double(n) {\n}\n",
    tests: [
      { name: "small", call: "double(2)", expected: "4", points: 1 },
      { name: "large", call: SECRET_CALL, expected: "42000", points: 1 },
    ],
    timeMs: 500,
    memoryMb: 8,
  },
});
const choice = { text: "2 + 2?", type: "single", options: ["3", "4"], correct: 1, points: 1 };

async function world() {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const [a, b] = [await signIn(await createUser()), await signIn(await createUser())];
  await addMember(a.user, group);
  await addMember(b.user, group);
  const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: "Functions", published: true }, token: teacher.accessToken })).json()) as { slug: string };
  return { teacher, group, a, b, lecture };
}

const create = (w: Awaited<ReturnType<typeof world>>, questions: unknown[]) =>
  call("/api/quizzes", { body: { lectureId: w.lecture.slug, title: "Functions check", durationMinutes: 10, maxAttempts: 1, showAnswers: "after-submit", published: true, questions }, token: w.teacher.accessToken });
const submit = (who: SignedIn, slug: string, answers: Record<string, unknown>) => call(`/api/quizzes/${slug}/submit`, { body: { answers }, token: who.accessToken });

/** A published quiz of one code question (3 points, its tests hidden or not) and a member to take it. */
async function codeQuiz(durationMinutes: number | null, hidden: boolean) {
  const teacher = await createUser({ role: "instructor" });
  const group = await createGroup({ instructorId: teacher.id });
  const student = await createUser();
  await addMember(student, group);
  const lecture = { id: newId(), groupId: group.id, slug: `l-${group.slug}`, title: "Week 1", body: "", order: 1, published: true };
  await db().insert(s.lectures).values(lecture);
  const quiz = { id: newId(), lectureId: lecture.id, groupId: group.id, slug: `code-${group.slug}`, title: "Code", durationMinutes, opensAt: null, closesAt: null, maxAttempts: 1, published: true };
  await db().insert(s.quizzes).values(quiz);
  const q = codeQuestion();
  const question = { id: newId(), quizId: quiz.id, text: q.text, type: "code" as const, options: [], correct: [REFERENCE], code: { ...q.code, tests: q.code.tests.map((t) => ({ ...t, hidden })) }, points: 3, order: 0 };
  await db().insert(s.questions).values(question);
  const me = viewerOf(student, "code");
  return { quiz, question, me };
}

describe("quizzes: code questions", () => {
  it("refuses a code question whose reference fails its tests, writing nothing", async () => {
    const w = await world();
    const res = await create(w, [choice, codeQuestion("function double(n) { return n + 2; }")]);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string; fields: Record<string, string> };
    expect(body.message).toBe('Question 2: the reference solution fails "large". Fix it or the tests.');
    expect(body.fields["questions.1"]).toBe(body.message);
    const list = (await (await call(`/api/quizzes/groups/${w.group.slug}`, { token: w.teacher.accessToken })).json()) as unknown[];
    expect(list).toEqual([]);
    const missing = await create(w, [{ ...codeQuestion(), code: undefined }]);
    expect(missing.status).toBe(400);
  });

  it("grades right code with the rest of the quiz, wrong code not, and never shows a student the tests first", async () => {
    const w = await world();
    const res = await create(w, [choice, codeQuestion()]);
    expect(res.status).toBe(201);
    const quiz = (await res.json()) as { slug: string; questions: { _id: string }[] };
    const [q1, q2] = quiz.questions.map((q) => q._id) as [string, string];

    // A timed quiz shows its questions with the started attempt (quiz-integrity.test.ts).
    await call(`/api/quizzes/${quiz.slug}/start`, { method: "POST", token: w.a.accessToken });
    const view = await call(`/api/quizzes/${quiz.slug}`, { token: w.a.accessToken });
    const text = await view.text();
    expect(JSON.parse(text).questions[1].code).toEqual({ starterCode: "function double(n) {\n}\n", timeMs: 500, memoryMb: 8, tests: 2 });
    for (const secret of [SECRET_CALL, "42000", "reference-marker"]) expect(text).not.toContain(secret);

    const right = await submit(w.a, quiz.slug, { [q1]: 1, [q2]: "function double(n) { return n + n; }" });
    expect(right.status).toBe(201);
    expect(((await right.json()) as { attempt: { score: number; maxScore: number } }).attempt).toMatchObject({ score: 4, maxScore: 4 });
    // One test of two passes: a code question counts only when every test passes.
    const wrong = await submit(w.b, quiz.slug, { [q1]: 1, [q2]: "function double(n) { return n < 100 ? n * 2 : 0; }" });
    expect(((await wrong.json()) as { attempt: { score: number } }).attempt.score).toBe(1);

    const review = (await (await call(`/api/quizzes/${quiz.slug}/result`, { token: w.b.accessToken })).json()) as { review: { questions: { right: boolean; correct: string[]; tests: unknown }[] } };
    expect(review.review.questions[1]).toMatchObject({ right: false, correct: [REFERENCE] });
    // Which test failed, not only "Wrong, 0 of 3 points" (as judged at the hand-in; nothing runs for the review).
    expect(review.review.questions[1]!.tests).toEqual([
      { name: "small", passed: true, hidden: false },
      { name: "large", passed: false, hidden: false },
    ]);
    expect(review.review.questions[0]!.tests).toBeNull();
    const rightReview = (await (await call(`/api/quizzes/${quiz.slug}/result`, { token: w.a.accessToken })).json()) as { review: { questions: { tests: unknown }[] } };
    expect(rightReview.review.questions[1]!.tests).toEqual([
      { name: "small", passed: true, hidden: false },
      { name: "large", passed: true, hidden: false },
    ]);
    const page = async (lang: string) =>
      (await (await call(`/course/${w.group.slug}/lecture/${w.lecture.slug}/quiz/${quiz.slug}/answers`, { cookie: `${w.b.cookie}; lang=${lang}` })).text()).replace(/<!-- -->/g, "");
    const en = await page("en");
    expect(en).toContain("1 of 2 tests passed");
    // Each question is a heading (h2) its tests' heading (h3) sits under: a screen reader moves from one to the next.
    expect(en).toContain('<h2 class="quiz-q-number">Question 2 of 2</h2>');
    expect(en.indexOf('<h2 class="quiz-q-number">Question 2 of 2</h2>')).toBeLessThan(en.indexOf('class="quiz-tests-title"'));
    expect(en).toMatch(/<li class="test-row" data-passed="false">[\s\S]*?large[\s\S]*?Failed/);
    expect(await page("ar")).toContain("نجح 1 من اختبارين");
    const results = (await (await call(`/api/quizzes/groups/${w.group.slug}/results`, { token: w.teacher.accessToken })).json()) as { quizzes: { questions: { right: number; answered: number }[] }[] };
    expect(results.quizzes[0]!.questions[1]).toMatchObject({ right: 1, answered: 2 });
    // The staff's view of that attempt says why the code earned nothing: each test as judged, as the student's review does.
    const [attempt] = await db().select({ id: s.attempts.id }).from(s.attempts).where(eq(s.attempts.userId, w.b.user.id));
    const staffView = (await (await call(`/api/quizzes/${quiz.slug}/attempts/${attempt!.id}`, { token: w.teacher.accessToken })).json()) as { questions: { tests: unknown }[] };
    expect(staffView.questions[1]!.tests).toEqual([
      { name: "small", passed: true, hidden: false },
      { name: "large", passed: false, hidden: false },
    ]);
    expect(staffView.questions[0]!.tests).toBeNull();
    const staffPage = (await (await call(`/instructor/group/${w.group.slug}/quiz-attempt/${quiz.slug}/${attempt!.id}`, { cookie: w.teacher.cookie })).text()).replace(/<!-- -->/g, "");
    expect(staffPage).toContain("1 of 2 tests passed");
    expect(staffPage).toMatch(/<li class="test-row" data-passed="false">[\s\S]*?large[\s\S]*?Failed/);
  });

  it("grades an attempt's code when the server closes it at the deadline", async () => {
    const T0 = Date.parse("2027-03-01T09:00:00Z");
    const { quiz, question, me } = await codeQuiz(10, true);
    const { ctx, settle } = serviceContext();
    const { attempt } = await startAttempt(ctx, me, quiz.slug, T0);
    await db().update(s.attempts).set({ answers: { [question.id]: "function double(n) { return 2 * n; }" } }).where(eq(s.attempts.id, attempt._id));
    // Read 61 s after the deadline: the server closes the attempt, and runs the code after the read (never during it).
    await getQuiz(ctx, me, quiz.slug, T0 + 11 * 60_000 + 1_000);
    await settle();
    const [row] = await db().select().from(s.attempts).where(eq(s.attempts.id, attempt._id));
    expect(row).toMatchObject({ score: 3, maxScore: 3, verdicts: { [question.id]: true } });
    // Each test's outcome is kept with the verdict (hidden tests: name and result only) for the review.
    expect(row!.codeChecks?.[question.id]).toMatchObject({ passed: true, tests: [{ name: "small", passed: true, hidden: true }, { name: "large", passed: true, hidden: true }] });
  });

  it("checks autosaved code one run at a time per attempt, the newest code only, and at most 10 runs a minute", async () => {
    const { quiz, question, me } = await codeQuiz(null, false);
    const { ctx, settle } = serviceContext();
    // The code runner, counted, and held until released: a student's code that runs long.
    const judged: string[] = [];
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const counting = { ...ctx, runCode: (async (...args: Parameters<typeof ctx.runCode>) => (judged.push(args[1]), await held, ctx.runCode(...args))) as typeof ctx.runCode };
    await startAttempt(counting, me, quiz.slug);
    const version = (n: number) => `function double(n) { /* v${n} */ return n * 2; }`;
    // Fifteen saves while the first check runs: the runner is asked once; the saves between leave only the newest.
    for (let n = 1; n <= 15; n++) await saveAnswers(counting, me, quiz.slug, { answers: { [question.id]: version(n) } });
    expect(judged.map((code) => code.match(/v\d+/)?.[0])).toEqual(["v1"]);
    release();
    await settle();
    expect(judged.map((code) => code.match(/v\d+/)?.[0])).toEqual(["v1", "v15"]);
    // Then a save at a time, each waited for: runs until ten in the minute, then saves still save but check nothing.
    for (let n = 16; n <= 27; n++) {
      await saveAnswers(counting, me, quiz.slug, { answers: { [question.id]: version(n) } });
      await settle();
    }
    expect(judged).toHaveLength(10);
    const [row] = await db().select().from(s.attempts).where(eq(s.attempts.quizId, quiz.id));
    expect((row!.answers as Record<string, string>)[question.id]).toBe(version(27));
  });

  it("counts every code question's run against the 10 a minute: a quiz of two questions runs no more", async () => {
    const { quiz, question, me } = await codeQuiz(null, false);
    const second = { ...question, id: newId(), order: 1 };
    await db().insert(s.questions).values(second);
    const { ctx, settle } = serviceContext();
    let runs = 0;
    const counting = { ...ctx, runCode: ((...args: Parameters<typeof ctx.runCode>) => (runs++, ctx.runCode(...args))) as typeof ctx.runCode };
    await startAttempt(counting, me, quiz.slug);
    // Six saves, each changing both answers, each waited for: twelve runs asked, ten made.
    for (let n = 1; n <= 6; n++) {
      const code = `function double(n) { /* v${n} */ return n * 2; }`;
      await saveAnswers(counting, me, quiz.slug, { answers: { [question.id]: code, [second.id]: `${code} ` } });
      await settle();
    }
    expect(runs).toBe(10);
  });

  it("takes long code answers in Arabic from the questions screen and the API, up to 2 MB, and refuses more with 413", async () => {
    const w = await world();
    const made = await create(w, [codeQuestion(), codeQuestion(), codeQuestion()]);
    expect(made.status).toBe(201);
    const quiz = (await made.json()) as { slug: string };
    const full = (await (await call(`/api/quizzes/${quiz.slug}`, { token: w.teacher.accessToken })).json()) as { questions: { _id: string }[] };
    // Three answers near the 20,000-character limit, half of them Arabic comments: about 48 KB of JSON, 82 KB as a form.
    const long = `function double(n) {\n${"  // ضعف العدد: نعيد القيمة مضروبة في اثنين\n".repeat(300)}  return n * 2;\n}`.slice(0, 14_000);
    const answers = Object.fromEntries(full.questions.map((q) => [q._id, long]));
    const started = await call(`/api/quizzes/${quiz.slug}/start`, { body: {}, token: w.a.accessToken });
    expect(started.status).toBeLessThan(300);
    const page = (fields: Record<string, string>) =>
      call(`/course/${w.group.slug}/quiz/${quiz.slug}/save`, { method: "POST", cookie: w.a.cookie, headers: { "content-type": "application/x-www-form-urlencoded" }, form: new URLSearchParams(fields) as unknown as FormData });
    const form = new URLSearchParams({ intent: "save", answers: JSON.stringify(answers) }).toString();
    expect(form.length).toBeGreaterThan(64 * 1024);
    const saved = await page({ intent: "save", answers: JSON.stringify(answers) });
    expect(saved.status).toBe(200);
    expect((await call(`/api/quizzes/${quiz.slug}/answers`, { method: "PUT", body: { answers }, token: w.a.accessToken })).status).toBe(200);
    const handedIn = await page({ intent: "submit", answers: JSON.stringify(answers) });
    expect(handedIn.status).toBe(200);
    expect(((await handedIn.json()) as { attempt: { score: number } }).attempt.score).toBe(9);
    // Past 2 MB: refused before it is read, on both ways in.
    const huge = "x".repeat(2 * 1024 * 1024);
    const tooBig = await call(`/api/quizzes/${quiz.slug}/answers`, { method: "PUT", body: { answers: { a: huge } }, token: w.b.accessToken });
    expect(tooBig.status).toBe(413);
    expect(((await tooBig.json()) as { message: string }).message).toBe("Request bodies are limited to 2048 KB here.");
    expect((await page({ intent: "save", answers: huge })).status).toBe(413);
    // Any other form keeps its 64 KB.
    expect((await call(`/course/${w.group.slug}`, { method: "POST", cookie: w.a.cookie, headers: { "content-type": "application/x-www-form-urlencoded" }, form: new URLSearchParams({ intent: "x", big: "y".repeat(70 * 1024) }) as unknown as FormData })).status).toBe(413);
  });

  it("takes staff's long Arabic course work from the editor's form and the API: a quiz of long questions, a task's long text", async () => {
    const w = await world();
    const arabic = (n: number) => "سؤال طويل عن الدوال والمتغيرات في جافاسكريبت. ".repeat(Math.ceil(n / 45)).slice(0, n);
    const payload = { title: "اختبار طويل", published: false, questions: Array.from({ length: 4 }, () => ({ text: arabic(4_800), type: "single", options: ["نعم", "لا"], correct: 0, points: 1 })) };
    const form = new URLSearchParams({ intent: "save", payload: JSON.stringify(payload) });
    expect(form.toString().length).toBeGreaterThan(64 * 1024);
    const page = await call(`/instructor/group/${w.group.slug}/lectures/${w.lecture.slug}/newQuiz`, { method: "POST", cookie: w.teacher.cookie, headers: { "content-type": "application/x-www-form-urlencoded" }, form: form as unknown as FormData });
    expect(page.status, await page.clone().text()).toBeLessThan(400);
    const list = (await (await call(`/api/quizzes/groups/${w.group.slug}`, { token: w.teacher.accessToken })).json()) as { title: string }[];
    expect(list.map((q) => q.title)).toContain("اختبار طويل");
    // A task's text near its 50,000 characters in Arabic: about 90 KB of JSON.
    const task = await call(`/api/lectures/${w.lecture.slug}/tasks`, { body: { title: "مهمة طويلة", body: arabic(45_000) }, token: w.teacher.accessToken });
    expect(task.status).toBe(201);
    // Forms elsewhere keep 64 KB (the contact form, signed out).
    expect((await call("/contact", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, form: new URLSearchParams({ message: "x".repeat(70 * 1024) }) as unknown as FormData })).status).toBe(413);
  });
});
