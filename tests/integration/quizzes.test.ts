/**
 * Quizzes through the real API (issue "Quizzes"): authoring and its validation, grading of every question type,
 * start/resume/autosave, maxAttempts, the open/close window, solve = submit, retried submits, the review policy,
 * the staff results matrix, and a deep scan of every student-facing answer for correct answers.
 */
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { addMember, call, createGroup, createUser, signIn, type ErrorBody, type SignedIn, viewerOf } from "./factories";
import { db, gatedContext, serviceContext } from "./helpers";
import { startAttempt, updateQuiz } from "../../worker/services/quizzes";

/** A short-text answer that appears nowhere else, so finding it in a response means a correct answer leaked. */
const SECRET = "zebra-accepted-answer";
const HOUR = 3_600_000;

const questions = [
  { text: "Which property makes a **grid** container?", type: "single", options: ["display: flex", "display: grid", "position: grid"], correct: 1, points: 1 },
  { text: "Pick the logical properties.", type: "multiple", options: ["margin-inline-start", "padding-left", "inset-inline-end"], correct: [0, 2], points: 2 },
  { text: "`gap` works in Flexbox.", type: "true-false", correct: 0, points: 1 },
  { text: "Type the secret word.\n\n```js\nconst x = 1;\n```", type: "short-text", correct: [SECRET, "Zèbre"], points: 3 },
];

async function world(quiz: Record<string, unknown> = {}) {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const otherTeacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const otherGroup = await createGroup({ instructorId: otherTeacher.user.id });
  const [a, b, outsider] = [await signIn(await createUser()), await signIn(await createUser()), await signIn(await createUser())];
  await addMember(a.user, group);
  await addMember(b.user, group);
  await addMember(outsider.user, otherGroup);
  const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: "Week 2", published: true }, token: teacher.accessToken })).json()) as { _id: string; slug: string };
  const res = await call("/api/quizzes", {
    body: { lectureId: lecture.slug, title: "CSS check", description: "Ten minutes.", durationMinutes: 10, opensAt: null, closesAt: null, maxAttempts: 2, showAnswers: "after-submit", published: true, questions, ...quiz },
    token: teacher.accessToken,
  });
  expect(res.status).toBe(201);
  const created = (await res.json()) as { _id: string; slug: string; questions: { _id: string; correct?: unknown }[] };
  const [q1, q2, q3, q4] = created.questions.map((q) => q._id) as [string, string, string, string];
  return { teacher, otherTeacher, group, a, b, outsider, lecture, quiz: created, ids: { q1, q2, q3, q4 } };
}

type World = Awaited<ReturnType<typeof world>>;
const allRight = (w: World) => ({ [w.ids.q1]: 1, [w.ids.q2]: [2, 0], [w.ids.q3]: 0, [w.ids.q4]: `  ${SECRET.toUpperCase()} ` });
const submit = (who: SignedIn, w: World, answers: Record<string, unknown>, attemptId?: string) => call(`/api/quizzes/${w.quiz.slug}/submit`, { body: { answers, attemptId }, token: who.accessToken });
const json = async <T = Record<string, unknown>>(res: Response) => (await res.json()) as T;

/** Every key and string anywhere in a JSON value. */
function scan(value: unknown, keys: Set<string> = new Set(), strings: string[] = []) {
  if (Array.isArray(value)) value.forEach((v) => scan(v, keys, strings));
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      keys.add(k);
      scan(v, keys, strings);
    }
  else if (typeof value === "string") strings.push(value);
  return { keys, strings };
}
function expectNoAnswers(body: unknown) {
  const { keys, strings } = scan(body);
  expect(keys.has("correct")).toBe(false);
  expect(strings.join("\n").toLowerCase()).not.toContain(SECRET);
}

describe("quizzes: authoring", () => {
  it("creates a quiz with its questions, tells the members, and shows staff the correct answers", async () => {
    const w = await world();
    expect(w.quiz.questions).toHaveLength(4);
    expect(w.quiz.questions.map((q) => q.correct)).toEqual([[1], [0, 2], [0], [SECRET, "Zèbre"]]);
    const notes = await db().select().from(s.notifications).where(eq(s.notifications.userId, w.a.user.id));
    expect(notes.map((n) => n.kind)).toContain("quiz-published");
    expect(notes.find((n) => n.kind === "quiz-published")?.link).toBe(`/course/${w.group.slug}/lecture/${w.lecture.slug}/quiz/${w.quiz.slug}`);
    // A timed quiz shows its questions with the started attempt (quiz-integrity.test.ts).
    await call(`/api/quizzes/${w.quiz._id}/start`, { method: "POST", token: w.a.accessToken });
    const student = await json<{ questions: { textHtml: string; options: string[] }[]; maxScore: number }>(await call(`/api/quizzes/${w.quiz._id}`, { token: w.a.accessToken }));
    expect(student.maxScore).toBe(7);
    expect(student.questions[0]!.textHtml).toContain("<strong>grid</strong>");
    expect(student.questions[2]!.options).toEqual(["True", "False"]);
    expect(student.questions[3]!.textHtml).toContain('class="hljs language-javascript"');
  });

  it.each([
    [{ questions: [] }, "questions"],
    [{ title: " " }, "title"],
    [{ maxAttempts: 0 }, "maxAttempts"],
    [{ maxAttempts: 11 }, "maxAttempts"],
    [{ durationMinutes: 0 }, "durationMinutes"],
    [{ durationMinutes: "ten" }, "durationMinutes"],
    [{ showAnswers: "sometimes" }, "showAnswers"],
    [{ showAnswers: "after-close", closesAt: null }, "closesAt"],
    [{ opensAt: "2030-01-02T10:00:00Z", closesAt: "2030-01-01T10:00:00Z" }, "closesAt"],
    [{ questions: [{ text: "Q", type: "single", options: ["a", "b"], correct: [0, 1] }] }, "questions"],
    [{ questions: [{ text: "Q", type: "single", options: ["a", "b"], correct: 5 }] }, "questions"],
    [{ questions: [{ text: "Q", type: "single", options: ["a"], correct: 0 }] }, "questions"],
    [{ questions: [{ text: "Q", type: "short-text", correct: ["  "] }] }, "questions"],
    [{ questions: [{ text: "Q", type: "essay", correct: 0 }] }, "questions"],
    [{ questions: [{ text: "", type: "true-false", correct: 0 }] }, "questions"],
    [{ questions: [{ text: "Q", type: "true-false", correct: 0, points: -1 }] }, "questions"],
  ])("refuses the quiz %j with 400 on %s", async (change, field) => {
    const w = await world();
    const res = await call("/api/quizzes", { body: { lectureId: w.lecture.slug, title: "Bad", questions, ...change }, token: w.teacher.accessToken });
    expect(res.status).toBe(400);
    const body = await json<ErrorBody>(res);
    expect(body.message).toBeTruthy();
    expect(Object.keys(body.fields ?? {}).some((k) => k.startsWith(field))).toBe(true);
  });

  it("lists each quiz with its own question count and points, for staff and for a member", async () => {
    const w = await world();
    const small = await call("/api/quizzes", {
      body: { lectureId: w.lecture.slug, title: "Two questions", published: true, questions: questions.slice(0, 2) },
      token: w.teacher.accessToken,
    });
    expect(small.status).toBe(201);
    const one = await call("/api/quizzes", { body: { lectureId: w.lecture.slug, title: "One question", published: true, questions: questions.slice(3) }, token: w.teacher.accessToken });
    expect(one.status).toBe(201);
    for (const who of [w.teacher, w.a]) {
      const list = await json<{ title: string; questionCount: number; maxScore: number }[]>(await call(`/api/quizzes/groups/${w.group.slug}`, { token: who.accessToken }));
      const byTitle = Object.fromEntries(list.map((q) => [q.title, { questionCount: q.questionCount, maxScore: q.maxScore }]));
      expect(byTitle).toEqual({
        "CSS check": { questionCount: 4, maxScore: 7 },
        "Two questions": { questionCount: 2, maxScore: 3 },
        "One question": { questionCount: 1, maxScore: 3 },
      });
    }
  });

  it("lets staff edit and delete; questions freeze once a student has started", async () => {
    const w = await world();
    const path = `/api/quizzes/${w.quiz.slug}`;
    const renamed = await call(path, { method: "PUT", body: { title: "CSS check v2", questions: questions.slice(0, 2) }, token: w.teacher.accessToken });
    expect(renamed.status).toBe(200);
    expect(await json(renamed)).toMatchObject({ title: "CSS check v2", questionCount: 2, maxScore: 3 });
    expect((await call(`${path}/start`, { method: "POST", token: w.a.accessToken })).status).toBe(201);
    const frozen = await call(path, { method: "PUT", body: { questions }, token: w.teacher.accessToken });
    expect(frozen.status).toBe(409);
    expect((await json<ErrorBody>(frozen)).code).toBe("quiz_started");
    expect((await call(path, { method: "PUT", body: { closesAt: "2020-01-01T00:00:00Z", opensAt: "2021-01-01T00:00:00Z" }, token: w.teacher.accessToken })).status).toBe(400);
    expect((await call(path, { method: "PUT", body: {}, token: w.teacher.accessToken })).status).toBe(400);
    expect((await call(path, { method: "DELETE", token: w.a.accessToken })).status).toBe(403);
    expect((await call(path, { method: "DELETE", token: w.otherTeacher.accessToken })).status).toBe(403);
    expect((await call(path, { method: "DELETE", token: w.teacher.accessToken })).status).toBe(200);
    expect((await call(path, { token: w.a.accessToken })).status).toBe(404);
    expect(await db().select().from(s.attempts).where(eq(s.attempts.quizId, w.quiz._id))).toEqual([]);
  });

  it("the editor says in the reader's language that a student started the quiz while it was open", async () => {
    const w = await world();
    const edit = `/instructor/group/${w.group.slug}/lecture/${w.lecture.slug}/quiz/updateQuiz/${w.quiz.slug}`;
    // The editor was opened before anyone started; a student starts; then the questions are saved.
    expect((await call(edit, { cookie: w.teacher.cookie })).status).toBe(200);
    expect((await call(`/api/quizzes/${w.quiz.slug}/start`, { method: "POST", token: w.a.accessToken })).status).toBe(201);
    const saveQuestions = async (lang: "en" | "ar") => {
      const form = new FormData();
      form.set("intent", "save");
      form.set("payload", JSON.stringify({ title: "CSS check", questions: questions.slice(0, 1) }));
      return (await call(edit, { method: "POST", form, cookie: `${w.teacher.cookie}; lang=${lang}` })).text();
    };
    expect(await saveQuestions("en")).toContain("Students have already started this quiz, so its questions can no longer change. Make a new quiz instead.");
    const ar = await saveQuestions("ar");
    expect(ar).toContain("بدأ بعض الطلاب هذا الاختبار بالفعل، فلم يعد من الممكن تغيير أسئلته. أنشئ اختبارًا جديدًا بدلًا من ذلك.");
    // Nothing English on the screen (the page's data, in its scripts, carries the API's own message).
    expect(ar.replace(/<script[^>]*>[\s\S]*?<\/script>/g, "")).not.toContain("Students have already started");
    const [{ n }] = await db().select({ n: sql<number>`count(*)` }).from(s.questions).where(eq(s.questions.quizId, w.quiz._id)) as [{ n: number }];
    expect(n).toBe(questions.length);
  });

  // D1 binds at most 100 values per statement and a question row binds 9: 100 questions (the editor's limit) go in slices.
  it("creates a quiz of 100 questions and replaces them with 37, in order", async () => {
    const many = (n: number, word: string) => Array.from({ length: n }, (_, i) => ({ text: `${word} ${i + 1}`, type: "single", options: ["a", "b"], correct: [0], points: 1 }));
    const w = await world({ questions: many(100, "Question") });
    expect(w.quiz.questions).toHaveLength(100);
    const stored = async () => (await db().select({ text: s.questions.text, order: s.questions.order }).from(s.questions).where(eq(s.questions.quizId, w.quiz._id))).sort((x, y) => x.order - y.order).map((q) => q.text);
    expect(await stored()).toEqual(many(100, "Question").map((q) => q.text));
    const replaced = await call(`/api/quizzes/${w.quiz.slug}`, { method: "PUT", body: { questions: many(37, "Again") }, token: w.teacher.accessToken });
    expect(replaced.status).toBe(200);
    expect(await json(replaced)).toMatchObject({ questionCount: 37, maxScore: 37 });
    expect(await stored()).toEqual(many(37, "Again").map((q) => q.text));
  });

  // The check that nobody started and the replacement of the questions are two steps: a student who starts between
  // them keeps the questions they were given.
  it("keeps the questions of a quiz a student starts between the editor's check and its save", async () => {
    const w = await world();
    const teacher = viewerOf(w.teacher);
    const student = viewerOf(w.a);
    const before = (await db().select({ id: s.questions.id }).from(s.questions).where(eq(s.questions.quizId, w.quiz._id))).map((q) => q.id).sort();
    const background = serviceContext();
    const save = updateQuiz(gatedContext("batch", () => startAttempt(background.ctx, student, w.quiz.slug)), teacher, w.quiz.slug, { title: "Renamed", questions: [{ text: "Only one now", type: "single", options: ["a", "b"], correct: [0], points: 1 }] });
    await expect(save).rejects.toMatchObject({ status: 409, code: "quiz_started" });
    expect((await db().select({ id: s.questions.id }).from(s.questions).where(eq(s.questions.quizId, w.quiz._id))).map((q) => q.id).sort()).toEqual(before);
    expect((await db().select({ title: s.quizzes.title }).from(s.quizzes).where(eq(s.quizzes.id, w.quiz._id)))[0]!.title).toBe("CSS check");
    await background.settle();
  });

  it("hides a draft from students and announces it when it is published", async () => {
    const w = await world({ published: false });
    expect(await json(await call(`/api/quizzes/groups/${w.group.slug}`, { token: w.a.accessToken }))).toEqual([]);
    expect((await call(`/api/quizzes/${w.quiz.slug}`, { token: w.a.accessToken })).status).toBe(404);
    const kinds = async () => (await db().select().from(s.notifications).where(eq(s.notifications.userId, w.b.user.id))).map((n) => n.kind).filter((k) => k === "quiz-published");
    expect(await kinds()).toEqual([]);
    // Published by ten saves at once, each of which read the quiz as a draft before any wrote: one announcement.
    const teacher = viewerOf(w.teacher);
    await Promise.all(Array.from({ length: 10 }, () => updateQuiz(serviceContext().ctx, teacher, w.quiz.slug, { published: true })));
    expect(await kinds()).toEqual(["quiz-published"]);
    expect(await json<unknown[]>(await call(`/api/quizzes/lecture/${w.lecture.slug}`, { token: w.a.accessToken }))).toHaveLength(1);
  });
});

describe("quizzes: grading", () => {
  it("grades every type: all right earns every point", async () => {
    const w = await world();
    const res = await submit(w.a, w, allRight(w));
    expect(res.status).toBe(201);
    expect((await json<{ attempt: { score: number; maxScore: number } }>(res)).attempt).toMatchObject({ score: 7, maxScore: 7 });
  });

  it.each([
    ["single: another option", { q1: 0 }, 6],
    ["multiple: one of two right options is not enough", { q2: [0] }, 5],
    ["multiple: an extra option spoils it", { q2: [0, 1, 2] }, 5],
    ["true-false: false", { q3: 1 }, 6],
    ["short-text: a near miss", { q4: `${SECRET}s` }, 4],
    ["short-text: the other accepted answer, differently cased", { q4: "zÈBRE" }, 7],
    ["short-text: blank", { q4: "   " }, 4],
  ])("%s", async (_name, change, expected) => {
    const w = await world();
    const answers: Record<string, unknown> = allRight(w);
    for (const [k, v] of Object.entries(change)) answers[w.ids[k as keyof World["ids"]]] = v;
    const body = await json<{ attempt: { score: number } }>(await submit(w.a, w, answers));
    expect(body.attempt.score).toBe(expected);
  });

  it("counts unanswered questions as wrong", async () => {
    const w = await world();
    expect((await json<{ attempt: { score: number } }>(await submit(w.a, w, { [w.ids.q3]: 0 }))).attempt.score).toBe(1);
  });

  it.each([
    ["an answer to another quiz's question", (w: World) => ({ answers: { nope: 1 } })],
    ["an option that does not exist", (w: World) => ({ answers: { [w.ids.q1]: 7 } })],
    ["text for a choice question", (w: World) => ({ answers: { [w.ids.q1]: "display: grid" } })],
    ["a number for a short-text question", (w: World) => ({ answers: { [w.ids.q4]: 3 } })],
    ["answers that are not a map", () => ({ answers: [1, 2] })],
    ["no answers at all", () => ({})],
    ["an over-long text", (w: World) => ({ answers: { [w.ids.q4]: "x".repeat(501) } })],
  ])("refuses %s with 400 and saves nothing", async (_name, body) => {
    const w = await world();
    for (const path of ["submit", "answers"]) {
      if (path === "answers") await call(`/api/quizzes/${w.quiz.slug}/start`, { method: "POST", token: w.a.accessToken });
      const res = await call(`/api/quizzes/${w.quiz.slug}/${path}`, { method: path === "answers" ? "PUT" : "POST", body: body(w), token: w.a.accessToken });
      expect(res.status).toBe(400);
      expect((await json<ErrorBody>(res)).message).toBeTruthy();
    }
    const rows = await db().select().from(s.attempts).where(eq(s.attempts.quizId, w.quiz._id));
    expect(rows.map((r) => [r.answers, r.submittedAt])).toEqual([[{}, null]]);
  });

  it("refuses a malformed JSON body with 400", async () => {
    const w = await world();
    const res = await call(`/api/quizzes/${w.quiz.slug}/submit`, { headers: { "content-type": "application/json" }, method: "POST", token: w.a.accessToken, body: undefined });
    expect(res.status).toBe(400);
  });
});

describe("quizzes: taking", () => {
  it("starts, resumes the same attempt, saves answers any number of times and finds them again", async () => {
    const w = await world();
    const start = await call(`/api/quizzes/${w.quiz.slug}/start`, { method: "POST", token: w.a.accessToken });
    expect(start.status).toBe(201);
    const first = await json<{ attempt: { _id: string; number: number; deadline: string; startedAt: string } }>(start);
    expect(first.attempt.number).toBe(1);
    // The deadline is the start plus the quiz's 10 minutes.
    expect(Date.parse(first.attempt.deadline) - Date.parse(first.attempt.startedAt)).toBe(10 * 60_000);
    const again = await call(`/api/quizzes/${w.quiz.slug}/start`, { method: "POST", token: w.a.accessToken });
    expect(again.status).toBe(200);
    expect((await json<{ attempt: { _id: string } }>(again)).attempt._id).toBe(first.attempt._id);
    const answers = { [w.ids.q1]: 1, [w.ids.q4]: "half-way" };
    for (let i = 0; i < 3; i++) {
      const saved = await call(`/api/quizzes/${w.quiz.slug}/answers`, { method: "PUT", body: { answers, attemptId: first.attempt._id }, token: w.a.accessToken });
      expect(saved.status).toBe(200);
    }
    const back = await json<{ attempt: { _id: string; answers: unknown; savedAt: string } }>(await call(`/api/quizzes/${w.quiz.slug}`, { token: w.a.accessToken }));
    expect(back.attempt).toMatchObject({ _id: first.attempt._id, answers });
    expect(back.attempt.savedAt).toBeTruthy();
    expect(await db().select().from(s.attempts).where(eq(s.attempts.quizId, w.quiz._id))).toHaveLength(1);
  });

  it("allows maxAttempts attempts and refuses the next with a clear message", async () => {
    const w = await world({ maxAttempts: 2 });
    expect((await submit(w.a, w, { [w.ids.q1]: 0 })).status).toBe(201);
    expect((await submit(w.a, w, { [w.ids.q1]: 1 })).status).toBe(201);
    const third = await call(`/api/quizzes/${w.quiz.slug}/start`, { method: "POST", token: w.a.accessToken });
    expect(third.status).toBe(409);
    const body = await json<ErrorBody>(third);
    expect(body.code).toBe("no_attempts_left");
    expect(body.message).toContain("2");
    expect((await submit(w.a, w, { [w.ids.q1]: 0, [w.ids.q3]: 1 })).status).toBe(409);
    // The best of the two counts.
    expect(await json(await call(`/api/quizzes/score/${w.quiz.slug}`, { token: w.a.accessToken }))).toEqual({ score: 1, maxScore: 7 });
  });

  it("refuses before opensAt and after closesAt", async () => {
    const early = await world({ opensAt: new Date(Date.now() + HOUR).toISOString(), closesAt: new Date(Date.now() + 2 * HOUR).toISOString() });
    const res = await call(`/api/quizzes/${early.quiz.slug}/start`, { method: "POST", token: early.a.accessToken });
    expect(res.status).toBe(409);
    expect((await json<ErrorBody>(res)).code).toBe("quiz_not_open");
    expect((await submit(early.a, early, allRight(early))).status).toBe(409);
    const late = await world({ opensAt: new Date(Date.now() - 2 * HOUR).toISOString(), closesAt: new Date(Date.now() - HOUR).toISOString() });
    const closed = await submit(late.a, late, allRight(late));
    expect(closed.status).toBe(409);
    expect((await json<ErrorBody>(closed)).code).toBe("quiz_closed");
    expect(await db().select().from(s.attempts).where(eq(s.attempts.userId, late.a.user.id))).toEqual([]);
  });

  it("a timed quiz that closes sooner than its duration: the deadline is the closing time", async () => {
    const closesAt = new Date(Date.now() + 4 * 60_000).toISOString();
    const w = await world({ durationMinutes: 30, closesAt });
    const start = await json<{ attempt: { deadline: string } }>(await call(`/api/quizzes/${w.quiz.slug}/start`, { method: "POST", token: w.a.accessToken }));
    expect(start.attempt.deadline).toBe(closesAt);
  });

  it("solve by slug grades like submit by id", async () => {
    const w = await world();
    const byId = await json<{ attempt: { score: number } }>(await submit(w.a, w, allRight(w)));
    const bySlug = await call("/api/quizzes/solve", { body: { slugQuize: w.quiz.slug, answers: allRight(w) }, token: w.b.accessToken });
    expect(bySlug.status).toBe(201);
    expect((await json<{ attempt: { score: number } }>(bySlug)).attempt.score).toBe(byId.attempt.score);
    expect((await call("/api/quizzes/solve", { body: { answers: {} }, token: w.b.accessToken })).status).toBe(400);
    expect((await call("/api/quizzes/solve", { body: { slugQuize: "no-such-quiz", answers: {} }, token: w.b.accessToken })).status).toBe(404);
  });

  it("a retried submit answers the same graded attempt and never makes a second one", async () => {
    const w = await world();
    const start = await json<{ attempt: { _id: string } }>(await call(`/api/quizzes/${w.quiz.slug}/start`, { method: "POST", token: w.a.accessToken }));
    const first = await submit(w.a, w, allRight(w), start.attempt._id);
    expect(first.status).toBe(201);
    const retry = await submit(w.a, w, allRight(w), start.attempt._id);
    expect(retry.status).toBe(200);
    expect((await json<{ created: boolean; attempt: { _id: string } }>(retry)).attempt._id).toBe(start.attempt._id);
    // Without the attempt id (the spec's solve payload), the same answers within minutes are the same hand-in.
    const solveRetry = await call("/api/quizzes/solve", { body: { slugQuize: w.quiz.slug, answers: allRight(w) }, token: w.a.accessToken });
    expect(solveRetry.status).toBe(200);
    // Both at once from two tabs: still one attempt.
    const [x, y] = await Promise.all([submit(w.b, w, allRight(w)), submit(w.b, w, allRight(w))]);
    expect([x.status, y.status].sort()).toEqual([200, 201]);
    const rows = await db().select().from(s.attempts).where(eq(s.attempts.quizId, w.quiz._id));
    expect(rows.filter((r) => r.userId === w.a.user.id)).toHaveLength(1);
    expect(rows.filter((r) => r.userId === w.b.user.id)).toHaveLength(1);
  });

  it("two tabs starting at once share one open attempt", async () => {
    const w = await world();
    const both = await Promise.all([1, 2, 3].map(() => call(`/api/quizzes/${w.quiz.slug}/start`, { method: "POST", token: w.a.accessToken })));
    const ids = new Set(await Promise.all(both.map(async (r) => (await json<{ attempt: { _id: string } }>(r)).attempt._id)));
    expect(ids.size).toBe(1);
    expect(await db().select().from(s.attempts).where(and(eq(s.attempts.quizId, w.quiz._id), eq(s.attempts.userId, w.a.user.id)))).toHaveLength(1);
  });
});

describe("quizzes: results and the review policy", () => {
  it("after-submit with one attempt: the review shows own answers beside the correct ones", async () => {
    const w = await world({ maxAttempts: 1 });
    await submit(w.a, w, { ...allRight(w), [w.ids.q1]: 0 });
    const result = await json<{ score: number; reviewWhen: string; review: { questions: { answer: unknown; correct: unknown; right: boolean; earned: number }[] } }>(
      await call(`/api/quizzes/${w.quiz.slug}/result`, { token: w.a.accessToken }),
    );
    expect(result.score).toBe(6);
    expect(result.reviewWhen).toBe("now");
    expect(result.review.questions[0]).toMatchObject({ answer: 0, correct: [1], right: false, earned: 0 });
    expect(result.review.questions[3]).toMatchObject({ right: true, earned: 3 });
  });

  it("after-submit with attempts left: the score only, until the last attempt is used", async () => {
    const w = await world({ maxAttempts: 2 });
    await submit(w.a, w, { [w.ids.q1]: 0 });
    const first = await json<{ reviewWhen: string; review: unknown; attemptsLeft: number }>(await call(`/api/quizzes/${w.quiz.slug}/result`, { token: w.a.accessToken }));
    expect(first).toMatchObject({ reviewWhen: "after-attempts", review: null, attemptsLeft: 1 });
    expectNoAnswers(first);
    // An open second attempt never unlocks it either.
    await call(`/api/quizzes/${w.quiz.slug}/start`, { method: "POST", token: w.a.accessToken });
    expectNoAnswers(await json(await call(`/api/quizzes/${w.quiz.slug}/result`, { token: w.a.accessToken })));
    await submit(w.a, w, { [w.ids.q1]: 1 });
    const last = await json<{ reviewWhen: string; review: { attemptNumber: number } }>(await call(`/api/quizzes/${w.quiz.slug}/result`, { token: w.a.accessToken }));
    expect(last.reviewWhen).toBe("now");
    expect(last.review.attemptNumber).toBe(2);
  });

  it("after-close: no review while the quiz is open; never: no review at all", async () => {
    const open = await world({ maxAttempts: 1, showAnswers: "after-close", closesAt: new Date(Date.now() + HOUR).toISOString() });
    await submit(open.a, open, allRight(open));
    expect(await json(await call(`/api/quizzes/${open.quiz.slug}/result`, { token: open.a.accessToken }))).toMatchObject({ reviewWhen: "after-close", review: null });
    const never = await world({ maxAttempts: 1, showAnswers: "never" });
    await submit(never.a, never, allRight(never));
    const result = await json(await call(`/api/quizzes/${never.quiz.slug}/result`, { token: never.a.accessToken }));
    expect(result).toMatchObject({ reviewWhen: "never", review: null, score: 7 });
    expectNoAnswers(result);
  });

  it("after-close: the review appears once the quiz has closed and its 60 s grace has passed", async () => {
    const w = await world({ maxAttempts: 1, showAnswers: "after-close", closesAt: new Date(Date.now() + HOUR).toISOString() });
    await submit(w.a, w, allRight(w));
    await db().update(s.quizzes).set({ closesAt: new Date(Date.now() - 61_000) }).where(eq(s.quizzes.id, w.quiz._id));
    expect(await json(await call(`/api/quizzes/${w.quiz.slug}/result`, { token: w.a.accessToken }))).toMatchObject({ reviewWhen: "now" });
  });

  it("before any hand-in: result is 404 with a message and score is null", async () => {
    const w = await world();
    const res = await call(`/api/quizzes/${w.quiz.slug}/result`, { token: w.a.accessToken });
    expect(res.status).toBe(404);
    expect((await json<ErrorBody>(res)).message).toMatch(/not handed in/);
    expect(await json(await call(`/api/quizzes/score/${w.quiz.slug}`, { token: w.a.accessToken }))).toEqual({ score: null, maxScore: 7 });
  });

  it("no student-facing answer carries a correct answer before the policy allows", async () => {
    const w = await world({ maxAttempts: 2 });
    const t = w.a.accessToken;
    const bodies: unknown[] = [];
    const take = async (res: Response) => bodies.push(await json(res));
    await take(await call(`/api/quizzes/groups/${w.group.slug}`, { token: t }));
    await take(await call(`/api/quizzes/lecture/${w.lecture.slug}`, { token: t }));
    await take(await call(`/api/quizzes/${w.quiz.slug}`, { token: t }));
    const start = (await json<{ attempt: { _id: string } }>(await call(`/api/quizzes/${w.quiz.slug}/start`, { method: "POST", token: t }))) as { attempt: { _id: string } };
    bodies.push(start);
    await take(await call(`/api/quizzes/${w.quiz.slug}/answers`, { method: "PUT", body: { answers: { [w.ids.q1]: 2 } }, token: t }));
    await take(await call(`/api/quizzes/${w.quiz.slug}`, { token: t }));
    await take(await submit(w.a, w, { [w.ids.q1]: 2 }, start.attempt._id));
    await take(await call(`/api/quizzes/${w.quiz.slug}/result`, { token: t }));
    await take(await call(`/api/quizzes/score/${w.quiz.slug}`, { token: t }));
    await take(await call(`/api/quizzes/groups/${w.group.slug}`, { token: t }));
    for (const body of bodies) expectNoAnswers(body);
    // The staff view of the same quiz does carry them (the scan can tell).
    expect(() => expectNoAnswers(w.quiz)).toThrow();
  });

  it("no quiz page's HTML or loader data carries a correct answer before the policy allows", async () => {
    const w = await world({ maxAttempts: 2 });
    const base = `/course/${w.group.slug}/lecture/${w.lecture.slug}/quiz/${w.quiz.slug}`;
    const html = async (path: string) => {
      const res = await call(path, { cookie: w.a.cookie });
      expect(res.status, path).toBe(200);
      return (await res.text()).toLowerCase();
    };
    expect(await html(base)).not.toContain(SECRET);
    expect(await html(`/course/${w.group.slug}`)).not.toContain(SECRET);
    expect(await html(`/course/${w.group.slug}/lecture/${w.lecture.slug}`)).not.toContain(SECRET);
    await call(`/api/quizzes/${w.quiz.slug}/start`, { method: "POST", token: w.a.accessToken });
    expect(await html(`${base}/questions`)).not.toContain(SECRET);
    expect(await html(`${base}/questions.data`)).not.toContain(SECRET);
    await submit(w.a, w, { [w.ids.q1]: 0 });
    expect(await html(`${base}/result`)).not.toContain(SECRET);
    expect(await html(`${base}/answers`)).not.toContain(SECRET);
    // With the last attempt used the review is allowed, and the same scan finds the answer.
    await submit(w.a, w, { [w.ids.q1]: 1 });
    expect(await html(`${base}/answers`)).toContain(SECRET);
  });

  it("gives staff the matrix of best scores with per-question counts", async () => {
    const w = await world({ maxAttempts: 2 });
    await submit(w.a, w, { [w.ids.q1]: 0 });
    await submit(w.a, w, allRight(w));
    await submit(w.b, w, { [w.ids.q1]: 1, [w.ids.q3]: 1 });
    const res = await call(`/api/quizzes/groups/${w.group.slug}/results`, { token: w.teacher.accessToken });
    expect(res.status).toBe(200);
    const body = await json<{ quizzes: { _id: string; taken: number; averagePercent: number; questions: { right: number; answered: number }[] }[]; students: { _id: string; results: { best: number | null; attempts: number }[] }[] }>(res);
    expect(body.quizzes[0]).toMatchObject({ _id: w.quiz._id, taken: 2, averagePercent: Math.round(((7 + 1) / 2 / 7) * 100) });
    expect(body.quizzes[0]!.questions.map((q) => [q.right, q.answered])).toEqual([[2, 2], [1, 2], [1, 2], [1, 2]]);
    // Item statistics: how many best attempts chose each option (the key marked); none for a text answer.
    const choices = (body.quizzes[0]!.questions as unknown as { choices: { text: string; chosen: number; correct: boolean }[] | null }[]).map((q) => q.choices);
    expect(choices).toEqual([
      [
        { text: "display: flex", chosen: 0, correct: false },
        { text: "display: grid", chosen: 2, correct: true },
        { text: "position: grid", chosen: 0, correct: false },
      ],
      [
        { text: "margin-inline-start", chosen: 1, correct: true },
        { text: "padding-left", chosen: 0, correct: false },
        { text: "inset-inline-end", chosen: 1, correct: true },
      ],
      [
        { text: "True", chosen: 1, correct: true },
        { text: "False", chosen: 1, correct: false },
      ],
      null,
    ]);
    const row = (id: string) => body.students.find((st) => st._id === id)!.results[0];
    expect(row(w.a.user.id)).toEqual({ quizId: w.quiz._id, best: 7, bestAttemptId: expect.any(String), attempts: 2, inProgress: false });
    expect(row(w.b.user.id)).toEqual({ quizId: w.quiz._id, best: 1, bestAttemptId: expect.any(String), attempts: 1, inProgress: false });
  });

  it("shows staff an attempt in progress (the API and the page), not \"Not taken\"", async () => {
    const w = await world({ maxAttempts: 2 });
    await call(`/api/quizzes/${w.quiz.slug}/start`, { method: "POST", token: w.a.accessToken });
    await submit(w.b, w, allRight(w));
    await call(`/api/quizzes/${w.quiz.slug}/start`, { method: "POST", token: w.b.accessToken });
    const body = await json<{ students: { _id: string; results: unknown[] }[] }>(await call(`/api/quizzes/groups/${w.group.slug}/results`, { token: w.teacher.accessToken }));
    const row = (id: string) => body.students.find((st) => st._id === id)!.results[0];
    expect(row(w.a.user.id)).toEqual({ quizId: w.quiz._id, best: null, bestAttemptId: null, attempts: 0, inProgress: true });
    expect(row(w.b.user.id)).toEqual({ quizId: w.quiz._id, best: 7, bestAttemptId: expect.any(String), attempts: 1, inProgress: true });
    const cells = async (cookie: string) => {
      const html = await (await call(`/instructor/group/${w.group.slug}/quizzes`, { cookie })).text();
      const matrix = html.slice(html.indexOf('class="gtable quiz-matrix"'));
      // What the cell shows (its link's words for screen readers aside).
      return [...matrix.matchAll(/<td data-label="[^"]*">([\s\S]*?)<\/td>/g)].map((m) => m[1]!.replace(/<span class="visually-hidden">[\s\S]*?<\/span>/g, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim());
    };
    expect((await cells(w.teacher.cookie)).sort()).toEqual(["7 / 7 1 attempt In progress", "In progress"].sort());
    expect((await cells(`${w.teacher.cookie}; lang=ar`)).filter((c) => c.includes("قيد الحل"))).toHaveLength(2);
  });

  it("gives two quizzes with the same title distinct columns, each with its lecture's title", async () => {
    const w = await world();
    const week3 = await json<{ slug: string }>(await call(`/api/lectures/group/${w.group.slug}`, { body: { title: "Week 3", published: true }, token: w.teacher.accessToken }));
    const again = await call("/api/quizzes", { body: { lectureId: week3.slug, title: "CSS check", maxAttempts: 1, published: true, questions }, token: w.teacher.accessToken });
    expect(again.status).toBe(201);
    const third = await call("/api/quizzes", { body: { lectureId: week3.slug, title: "CSS check", maxAttempts: 1, published: true, questions }, token: w.teacher.accessToken });
    expect(third.status).toBe(201);
    const html = await (await call(`/instructor/group/${w.group.slug}/quizzes`, { cookie: w.teacher.cookie })).text();
    const matrix = html.slice(html.indexOf('class="gtable quiz-matrix"'), html.indexOf("</thead>", html.indexOf('class="gtable quiz-matrix"')));
    // Bidi isolates (U+2068, U+2069) keep a title's order beside other words; the test reads the words.
    const heads = [...matrix.matchAll(/<th scope="col">([\s\S]*?)<\/th>/g)].map((m) => m[1]!.replace(/<!-- -->/g, "").replace(/[\u2068\u2069]/g, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim());
    expect(heads.slice(1).sort()).toEqual(["CSS check Week 2", "CSS check (1) Week 3", "CSS check (2) Week 3"].sort());
    expect(new Set(heads).size).toBe(heads.length);
  });

  it("the review shows the attempt whose score counts (the best), not the last one", async () => {
    const w = await world({ maxAttempts: 2 });
    await submit(w.a, w, allRight(w));
    await submit(w.a, w, { [w.ids.q1]: 0 });
    const result = await json<{ score: number; bestAttempt: number; review: { attemptNumber: number; questions: { answer: unknown; right: boolean; earned: number }[] } }>(
      await call(`/api/quizzes/${w.quiz.slug}/result`, { token: w.a.accessToken }),
    );
    expect(result).toMatchObject({ score: 7, bestAttempt: 1, review: { attemptNumber: 1 } });
    expect(result.review.questions.map((q) => q.earned)).toEqual([1, 2, 1, 3]);
    const base = `/course/${w.group.slug}/lecture/${w.lecture.slug}/quiz/${w.quiz.slug}`;
    expect((await (await call(`${base}/answers`, { cookie: w.a.cookie })).text()).replace(/<!-- -->/g, "")).toContain("Attempt 1: the attempt whose score counts.");
    expect((await (await call(`${base}/answers`, { cookie: `${w.a.cookie}; lang=ar` })).text()).replace(/<!-- -->/g, "")).toContain("المحاولة 1: المحاولة التي تُحتسب درجتها.");
  });

  it("keeps strangers out", async () => {
    const w = await world();
    const slug = w.quiz.slug;
    expect((await call(`/api/quizzes/${slug}`)).status).toBe(401);
    expect((await call(`/api/quizzes/${slug}`, { token: w.outsider.accessToken })).status).toBe(403);
    expect((await call(`/api/quizzes/${slug}/start`, { method: "POST", token: w.outsider.accessToken })).status).toBe(403);
    expect((await call(`/api/quizzes/groups/${w.group.slug}/results`, { token: w.a.accessToken })).status).toBe(403);
    expect((await call(`/api/quizzes/groups/${w.group.slug}/results`, { token: w.otherTeacher.accessToken })).status).toBe(403);
    expect((await call(`/api/quizzes/groups/${w.group.slug}`, { token: w.otherTeacher.accessToken })).status).toBe(403);
    // Staff do not take quizzes.
    expect((await call(`/api/quizzes/${slug}/start`, { method: "POST", token: w.teacher.accessToken })).status).toBe(403);
    const create = await call("/api/quizzes", { body: { lectureId: w.lecture.slug, title: "Mine", questions }, token: w.a.accessToken });
    expect(create.status).toBe(403);
    expect((await call("/api/quizzes", { body: { lectureId: w.lecture.slug, title: "Mine", questions }, token: w.otherTeacher.accessToken })).status).toBe(403);
  });
});
