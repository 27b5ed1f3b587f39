/**
 * Quiz integrity (the hostile student's issue, section "3. Quizzes"): each attack replayed through the Worker, and
 * the rules it broke asserted with their literal numbers (a 60 s grace in which only handing in is allowed, and 5 s
 * of network allowance after the deadline for answers already on their way), not the code's constants.
 *
 * - questions leaked before a quiz opened, and before a timed quiz's attempt started (API and page data);
 * - the after-close review opened at the closing time, while classmates could still hand in;
 * - answers sent up to 60 s after the deadline still counted;
 * - new quizzes showed answers at hand-in by default;
 * - reading the results matrix ran an expired attempt's code (five reads, 6 s each, for one `while (true) {}`).
 */
import { and, eq, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import "../../worker/index";
import type { RunCode } from "../../worker/sandbox/registry";
import type { RunReport } from "../../worker/sandbox/types";
import { newId } from "../../worker/services/ids";
import { getQuiz, getResult, getScore, groupResults, listGroupQuizzes, saveAnswers, startAttempt, submitQuiz } from "../../worker/services/quizzes";
import type { Viewer } from "../../worker/services/sessions";
import { addMember, call, createGroup, createUser, signIn, type ErrorBody, type SignedIn, viewerOf } from "./factories";
import { db, eventually, serviceContext } from "./helpers";

const HOUR = 3_600_000;
const MIN = 60_000;
/** The hand-in grace and the network allowance, as the issue states them. */
const GRACE_MS = 60_000;
const NETWORK_MS = 5_000;

/** Text of the first question and the accepted answer of the second: finding either in a body means a leak. */
const MARK = "leak-marker-flexbox-question";
const SECRET = "walrus-accepted-answer";
const questions = [
  { text: `Which value makes a flex container? ${MARK}`, type: "single", options: ["display: flex", "display: block"], correct: 0, points: 1 },
  { text: "Type the secret word.", type: "short-text", correct: [SECRET], points: 1 },
];

async function world(quiz: Record<string, unknown> = {}) {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const [a, b, c] = [await signIn(await createUser()), await signIn(await createUser()), await signIn(await createUser())];
  for (const who of [a, b, c]) await addMember(who.user, group);
  const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: "Week 3", published: true }, token: teacher.accessToken })).json()) as { slug: string };
  const res = await call("/api/quizzes", {
    body: { lectureId: lecture.slug, title: "Flex check", durationMinutes: 10, maxAttempts: 1, showAnswers: "after-submit", published: true, questions, ...quiz },
    token: teacher.accessToken,
  });
  expect(res.status).toBe(201);
  const created = (await res.json()) as { _id: string; slug: string; showAnswers: string; questions: { _id: string }[] };
  const [q1, q2] = created.questions.map((q) => q._id) as [string, string];
  const base = `/course/${group.slug}/lecture/${lecture.slug}/quiz/${created.slug}`;
  return { teacher, group, lecture, a, b, c, quiz: created, q1, q2, base };
}
type World = Awaited<ReturnType<typeof world>>;

const json = async <T = Record<string, unknown>>(res: Response) => (await res.json()) as T;
const allRight = (w: World) => ({ [w.q1]: 0, [w.q2]: SECRET });
const allWrong = (w: World) => ({ [w.q1]: 1, [w.q2]: "no idea" });
const start = async (who: SignedIn, w: World) => (await json<{ attempt: { _id: string } }>(await call(`/api/quizzes/${w.quiz.slug}/start`, { method: "POST", token: who.accessToken }))).attempt._id;
const save = (who: SignedIn, w: World, answers: Record<string, unknown>, attemptId?: string) => call(`/api/quizzes/${w.quiz.slug}/answers`, { method: "PUT", body: { answers, attemptId }, token: who.accessToken });
const submit = (who: SignedIn, w: World, answers: Record<string, unknown>, attemptId?: string) => call(`/api/quizzes/${w.quiz.slug}/submit`, { body: { answers, attemptId }, token: who.accessToken });
const attemptRow = async (id: string) => (await db().select().from(s.attempts).where(eq(s.attempts.id, id)))[0]!;
/** Moves an attempt's deadline, as if the clock had run: the server compares it with its own Date.now(). */
const deadlineAt = (attemptId: string, at: number) => db().update(s.attempts).set({ deadlineAt: new Date(at) }).where(eq(s.attempts.id, attemptId));

function expectNoLeak(text: string) {
  expect(text).not.toContain(MARK);
  expect(text.toLowerCase()).not.toContain(SECRET);
}

describe("attack: reading the questions before the quiz lets you", () => {
  it("a quiz that has not opened shows its title, rules, question count and points, and no question (API and pages)", async () => {
    for (const durationMinutes of [10, null]) {
      const w = await world({ durationMinutes, opensAt: new Date(Date.now() + HOUR).toISOString(), closesAt: new Date(Date.now() + 2 * HOUR).toISOString() });
      const res = await call(`/api/quizzes/${w.quiz.slug}`, { token: w.a.accessToken });
      expect(res.status).toBe(200);
      const text = await res.text();
      expectNoLeak(text);
      expect(JSON.parse(text)).toMatchObject({ title: "Flex check", window: "upcoming", durationMinutes, questionCount: 2, maxScore: 2, maxAttempts: 1, questions: [] });
      for (const path of [w.base, `${w.base}.data`, `${w.base}/questions`, `${w.base}/questions.data`]) expectNoLeak(await (await call(path, { cookie: w.a.cookie })).text());
      // The intro still tells the student what to expect.
      expect(await (await call(w.base, { cookie: w.a.cookie })).text()).toContain("2 questions, 2 points");
    }
  });

  it("a timed quiz gives its questions only with the started attempt (the countdown cannot be sidestepped)", async () => {
    const w = await world({ durationMinutes: 10, maxAttempts: 2 });
    const before = await call(`/api/quizzes/${w.quiz.slug}`, { token: w.a.accessToken });
    const text = await before.text();
    expectNoLeak(text);
    expect(JSON.parse(text)).toMatchObject({ window: "open", questionCount: 2, maxScore: 2, attempt: null, questions: [] });
    for (const path of [w.base, `${w.base}.data`, `${w.base}/questions`, `${w.base}/questions.data`]) expectNoLeak(await (await call(path, { cookie: w.a.cookie })).text());

    const attemptId = await start(w.a, w);
    const during = await json<{ questions: { text: string }[]; attempt: { _id: string } }>(await call(`/api/quizzes/${w.quiz.slug}`, { token: w.a.accessToken }));
    expect(during.attempt._id).toBe(attemptId);
    expect(during.questions.map((q) => q.text)).toEqual([questions[0]!.text, questions[1]!.text]);
    expect(await (await call(`${w.base}/questions.data`, { cookie: w.a.cookie })).text()).toContain(MARK);
    // A classmate who has not started still sees none.
    expectNoLeak(await (await call(`/api/quizzes/${w.quiz.slug}`, { token: w.b.accessToken })).text());
    // Handed in, with an attempt left: none again until the next attempt starts.
    await submit(w.a, w, allWrong(w), attemptId);
    expect((await json<{ questions: unknown[] }>(await call(`/api/quizzes/${w.quiz.slug}`, { token: w.a.accessToken }))).questions).toEqual([]);
  });

  it("an untimed quiz shows its questions while it is open, not after it has closed", async () => {
    const w = await world({ durationMinutes: null, closesAt: new Date(Date.now() + HOUR).toISOString() });
    expect((await json<{ questions: unknown[] }>(await call(`/api/quizzes/${w.quiz.slug}`, { token: w.a.accessToken }))).questions).toHaveLength(2);
    await db().update(s.quizzes).set({ opensAt: new Date(Date.now() - 2 * HOUR), closesAt: new Date(Date.now() - HOUR) }).where(eq(s.quizzes.id, w.quiz._id));
    expectNoLeak(await (await call(`/api/quizzes/${w.quiz.slug}`, { token: w.a.accessToken })).text());
  });
});

describe("attack: relaying the after-close review to a classmate still in the grace", () => {
  it("the review stays closed while any attempt can still be handed in, and opens after that", async () => {
    const w = await world({ durationMinutes: 10, showAnswers: "after-close", closesAt: new Date(Date.now() + HOUR).toISOString() });
    const [aId, bId] = [await start(w.a, w), await start(w.b, w)];
    expect((await submit(w.a, w, allRight(w), aId)).status).toBe(201);
    // The quiz closed 100 ms ago; B's attempt ends with it (a deadline is never later than the closing time).
    const closedAt = Date.now() - 100;
    await db().update(s.quizzes).set({ closesAt: new Date(closedAt) }).where(eq(s.quizzes.id, w.quiz._id));
    await deadlineAt(bId, closedAt);
    const early = await call(`/api/quizzes/${w.quiz.slug}/result`, { token: w.a.accessToken });
    const earlyText = await early.text();
    expect(JSON.parse(earlyText)).toMatchObject({ reviewWhen: "after-close", review: null, score: 2 });
    expect(earlyText.toLowerCase()).not.toContain(SECRET);
    expectNoLeak(await (await call(`${w.base}/answers.data`, { cookie: w.a.cookie })).text());
    // 30 s into the 60 s grace: still closed.
    await db().update(s.quizzes).set({ closesAt: new Date(Date.now() - 30_000) }).where(eq(s.quizzes.id, w.quiz._id));
    await deadlineAt(bId, Date.now() - 30_000);
    expect(await json(await call(`/api/quizzes/${w.quiz.slug}/result`, { token: w.a.accessToken }))).toMatchObject({ reviewWhen: "after-close", review: null });
    // B hands in (graded on what was saved in time). The closing time plus the grace has passed: the review opens.
    await submit(w.b, w, allRight(w), bId);
    await db().update(s.quizzes).set({ closesAt: new Date(Date.now() - GRACE_MS - 1_000) }).where(eq(s.quizzes.id, w.quiz._id));
    const after = await json<{ reviewWhen: string; review: { questions: { correct: unknown }[] } }>(await call(`/api/quizzes/${w.quiz.slug}/result`, { token: w.a.accessToken }));
    expect(after.reviewWhen).toBe("now");
    expect(after.review.questions[1]!.correct).toEqual([SECRET]);
  });

  it("an attempt whose deadline outlives the closing time (the quiz was edited) keeps the review closed until it is over", async () => {
    const w = await world({ durationMinutes: 10, showAnswers: "after-close", closesAt: new Date(Date.now() + HOUR).toISOString() });
    const [aId, cId] = [await start(w.a, w), await start(w.c, w)];
    await submit(w.a, w, allRight(w), aId);
    await db().update(s.quizzes).set({ closesAt: new Date(Date.now() - 2 * MIN) }).where(eq(s.quizzes.id, w.quiz._id));
    await deadlineAt(cId, Date.now() - 10_000);
    expect(await json(await call(`/api/quizzes/${w.quiz.slug}/result`, { token: w.a.accessToken }))).toMatchObject({ reviewWhen: "after-close", review: null });
    await deadlineAt(cId, Date.now() - GRACE_MS - 1_000);
    expect(await json(await call(`/api/quizzes/${w.quiz.slug}/result`, { token: w.a.accessToken }))).toMatchObject({ reviewWhen: "now" });
  });

  it("after-submit with attempts left follows the same rule when the quiz closes", async () => {
    const w = await world({ durationMinutes: 10, maxAttempts: 2, showAnswers: "after-submit", closesAt: new Date(Date.now() + HOUR).toISOString() });
    const [aId, bId] = [await start(w.a, w), await start(w.b, w)];
    await submit(w.a, w, allRight(w), aId);
    const closedAt = Date.now() - 100;
    await db().update(s.quizzes).set({ closesAt: new Date(closedAt) }).where(eq(s.quizzes.id, w.quiz._id));
    await deadlineAt(bId, closedAt);
    const result = await call(`/api/quizzes/${w.quiz.slug}/result`, { token: w.a.accessToken });
    const text = await result.text();
    expect(JSON.parse(text)).toMatchObject({ review: null });
    expect(text.toLowerCase()).not.toContain(SECRET);
  });
});

describe("attack: answering after the clock shows zero", () => {
  it(`answers sent ${NETWORK_MS / 1000}+ s after the deadline do not count, though the hand-in is accepted within the ${GRACE_MS / 1000} s grace`, async () => {
    const w = await world({ durationMinutes: 10, maxAttempts: 1 });
    const [aId, bId, cId] = [await start(w.a, w), await start(w.b, w), await start(w.c, w)];
    for (const [who, id] of [[w.a, aId], [w.b, bId], [w.c, cId]] as const) expect((await save(who, w, allWrong(w), id)).status).toBe(200);
    const deadline = Date.now() - 10_000;
    for (const id of [aId, bId]) await deadlineAt(id, deadline);

    // B hands in the right answers 10 s after zero: accepted, graded on what was saved in time, dated at the deadline.
    const late = await submit(w.b, w, allRight(w), bId);
    expect(late.status).toBe(201);
    expect((await json<{ gradedOnSaved: boolean; attempt: { score: number; submittedAt: string } }>(late))).toMatchObject({ gradedOnSaved: true, attempt: { score: 0, submittedAt: new Date(deadline).toISOString() } });
    expect((await attemptRow(bId)).answers).toEqual(allWrong(w));

    // A keeps answering 10 s after zero: refused, and the attempt is handed in on what was saved in time.
    const lateSave = await save(w.a, w, allRight(w), aId);
    expect(lateSave.status).toBe(409);
    const body = await json<ErrorBody>(lateSave);
    expect(body.code).toBe("time_up");
    expect(body.message).toMatch(/saved before the deadline/);
    expect(await attemptRow(aId)).toMatchObject({ answers: allWrong(w), score: 0, submittedAt: new Date(deadline) });

    // C's hand-in sent at zero arrives 2 s later over a slow network: inside the allowance, its answers count.
    await deadlineAt(cId, Date.now() - 2_000);
    expect(await json(await submit(w.c, w, allRight(w), cId))).toMatchObject({ gradedOnSaved: false, attempt: { score: 2 } });
  });

  it("the exact limits, on a fixed clock: answers count up to 5 s after the deadline, a hand-in is accepted up to 60 s", async () => {
    const T0 = Date.parse("2027-03-01T09:00:00Z");
    const deadline = T0 + 10 * MIN;
    const w = await serviceWorld();
    /** A new student starts at T0, saves a wrong answer a minute in, then does `late` with the right one. */
    const run = async (late: (me: Viewer, attemptId: string) => Promise<unknown>) => {
      const me = await w.student();
      const { attempt } = await startAttempt(w.ctx, me, w.quiz.slug, T0);
      await saveAnswers(w.ctx, me, w.quiz.slug, { answers: { [w.choice.id]: 0 }, attemptId: attempt._id }, T0 + MIN);
      return { attemptId: attempt._id, out: await late(me, attempt._id).catch((e: unknown) => e) };
    };
    const handIn = (at: number) => (me: Viewer, id: string) => submitQuiz(w.ctx, me, w.quiz.slug, { answers: { [w.choice.id]: 1 }, attemptId: id }, at);
    const saveAt = (at: number) => (me: Viewer, id: string) => saveAnswers(w.ctx, me, w.quiz.slug, { answers: { [w.choice.id]: 1 }, attemptId: id }, at);
    expect((await run(handIn(deadline + NETWORK_MS))).out).toMatchObject({ gradedOnSaved: false, attempt: { score: 1 } });
    expect((await run(handIn(deadline + NETWORK_MS + 1))).out).toMatchObject({ gradedOnSaved: true, attempt: { score: 0, submittedAt: new Date(deadline).toISOString() } });
    expect((await run(handIn(deadline + GRACE_MS))).out).toMatchObject({ created: true, gradedOnSaved: true, attempt: { score: 0 } });
    expect((await run(saveAt(deadline + NETWORK_MS))).out).toMatchObject({ savedAt: new Date(deadline + NETWORK_MS).toISOString() });
    const refused = await run(saveAt(deadline + NETWORK_MS + 1));
    expect(refused.out).toMatchObject({ status: 409, code: "time_up" });
    expect(await attemptRow(refused.attemptId)).toMatchObject({ score: 0, answers: { [w.choice.id]: 0 }, submittedAt: new Date(deadline) });
  });

  it("answers saved after an earlier read handed the attempt in at its deadline: time is up, not 'already handed in'", async () => {
    const T0 = Date.parse("2027-03-02T09:00:00Z");
    const w = await serviceWorld();
    const me = await w.student();
    // Never started: there is nothing to save to, and the answer says so.
    const none = await saveAnswers(w.ctx, me, w.quiz.slug, { answers: { [w.choice.id]: 1 } }, T0).catch((e: unknown) => e);
    expect(none).toMatchObject({ status: 409, message: "Start the quiz before answering: you have no attempt to save answers to." });
    const { attempt } = await startAttempt(w.ctx, me, w.quiz.slug, T0);
    // Ten minutes and a minute later the student's page reads the quiz: that read hands the attempt in at its deadline.
    await getQuiz(w.ctx, me, w.quiz.slug, T0 + 11 * MIN);
    expect(await attemptRow(attempt._id)).toMatchObject({ submittedAt: new Date(T0 + 10 * MIN) });
    for (const named of [attempt._id, undefined]) {
      const late = await saveAnswers(w.ctx, me, w.quiz.slug, { answers: { [w.choice.id]: 1 }, ...(named ? { attemptId: named } : {}) }, T0 + 12 * MIN).catch((e: unknown) => e);
      expect(late).toMatchObject({ status: 409, code: "time_up" });
    }
  });

  it("the screens say so, in English and Arabic", async () => {
    const w = await world({ durationMinutes: 10 });
    const en = await (await call(w.base, { cookie: w.a.cookie })).text();
    expect(en).toContain("<li>Answers that reach the server more than a few seconds after the time is up do not count: a late hand-in is graded on the answers saved in time.</li>");
    const ar = await (await call(w.base, { cookie: `${w.a.cookie}; lang=ar` })).text();
    expect(ar).toContain("<li>الإجابات التي تصل إلى الخادم بعد انتهاء الوقت بأكثر من بضع ثوانٍ لا تُحتسب: التسليم المتأخر يُصحَّح على الإجابات المحفوظة في الوقت.</li>");
    await start(w.a, w);
    expect(await (await call(`${w.base}/questions`, { cookie: w.a.cookie })).text()).toContain('<p class="quiz-late-note">At zero your answers are handed in. Changes that reach the server after that do not count.</p>');
    expect(await (await call(`${w.base}/questions`, { cookie: `${w.a.cookie}; lang=ar` })).text()).toContain('<p class="quiz-late-note">عند الصفر تُسلَّم إجاباتك. التغييرات التي تصل إلى الخادم بعد ذلك لا تُحتسب.</p>');
  });
});

describe("showing answers at hand-in is no longer the default", () => {
  it("a new quiz shows its answers after it closes (never, when it has no closing time); after-submit stays available", async () => {
    const w = await world();
    const make = async (extra: Record<string, unknown>) => {
      const res = await call("/api/quizzes", { body: { lectureId: w.lecture.slug, title: "Defaults", questions, ...extra }, token: w.teacher.accessToken });
      expect(res.status).toBe(201);
      return json<{ slug: string; showAnswers: string }>(res);
    };
    expect((await make({ closesAt: new Date(Date.now() + HOUR).toISOString() })).showAnswers).toBe("after-close");
    expect((await make({})).showAnswers).toBe("never");
    expect(w.quiz.showAnswers).toBe("after-submit");
  });

  it("a new quiz's editor never starts on showing answers at hand-in (never, without a closing time), and warns, in both languages, that those can be passed on", async () => {
    const w = await world();
    const newPage = await (await call(`/instructor/group/${w.group.slug}/lectures/${w.lecture.slug}/newQuiz`, { cookie: w.teacher.cookie })).text();
    // The server's own default for a quiz without a closing time; a closing time typed turns it to after-close (e2e).
    expect(newPage).toMatch(/<option value="never" selected="">/);
    expect(newPage).not.toMatch(/<option value="after-submit" selected="">/);
    const edit = `/instructor/group/${w.group.slug}/lecture/${w.lecture.slug}/quiz/updateQuiz/${w.quiz.slug}`;
    const en = await (await call(edit, { cookie: w.teacher.cookie })).text();
    expect(en).toContain(">Answers shown at hand-in can be passed to classmates while the quiz is still open.</p>");
    const ar = await (await call(edit, { cookie: `${w.teacher.cookie}; lang=ar` })).text();
    expect(ar).toContain(">الإجابات التي تظهر عند التسليم يمكن أن تُنقل إلى الزملاء ما دام الاختبار مفتوحًا.</p>");
  });
});

/* ---------------------------------------------------------------------------------------------------------------
 * Code questions: never graded on the read path
 * ------------------------------------------------------------------------------------------------------------- */

const REFERENCE = "function double(n) { return n * 2; }";
const LOOP = "function double(n) { while (true) {} }";
const codeSpec = {
  starterCode: "function double(n) {\n}\n",
  tests: [
    { name: "small", call: "double(2)", expected: "4", points: 1, hidden: true },
    { name: "large", call: "double(21000)", expected: "42000", points: 1, hidden: true },
  ],
  timeMs: 3000,
  memoryMb: 8,
};

/** A group with a timed quiz (one choice question, one code question) inserted directly, for the services on a fixed clock. */
async function serviceWorld() {
  const teacher = await createUser({ role: "instructor" });
  const group = await createGroup({ instructorId: teacher.id });
  const lecture = { id: newId(), groupId: group.id, slug: `l-${group.slug}`, title: "Week 1", body: "", order: 1, published: true };
  await db().insert(s.lectures).values(lecture);
  const quiz = { id: newId(), lectureId: lecture.id, groupId: group.id, slug: `qi-${group.slug}`, title: "Code", durationMinutes: 10, opensAt: null, closesAt: null, maxAttempts: 1, showAnswers: "never" as const, published: true };
  await db().insert(s.quizzes).values(quiz);
  const choice = { id: newId(), quizId: quiz.id, text: "2 + 2?", type: "single" as const, options: ["3", "4"], correct: [1], points: 1, order: 0 };
  const code = { id: newId(), quizId: quiz.id, text: "Write double(n).", type: "code" as const, options: [], correct: [REFERENCE], code: codeSpec, points: 3, order: 1 };
  await db().insert(s.questions).values([choice, code]);
  const student = async (): Promise<Viewer> => {
    const u = await createUser();
    await addMember(u, group);
    return viewerOf(u, "integrity");
  };
  const staff = viewerOf(teacher, "integrity");
  const { ctx, settle } = serviceContext();
  return { ctx, settle, group, quiz, choice, code, staff, student };
}

/** A runner that counts its calls and answers only when the test says so (as a `while (true) {}` would: late). */
function gatedRunner() {
  let calls = 0;
  let open!: (passed: boolean) => void;
  const gate = new Promise<boolean>((resolve) => (open = resolve));
  const runCode: RunCode = async (_language, _code, tests) => {
    calls += 1;
    const passed = await gate;
    return { results: tests.map((t) => ({ name: t.name, passed, points: t.points })), score: 0, maxScore: 0, ms: 0 } as unknown as RunReport;
  };
  return { runCode, calls: () => calls, release: (passed: boolean) => open(passed) };
}

/** Fails if `work` has not finished within `ms` (a read that waits for the sandbox). */
async function within<T>(work: Promise<T>, ms = 2_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms: the read waited for the code runner`)), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

const T0 = Date.parse("2027-03-01T09:00:00Z");
const AFTER = T0 + 10 * MIN + GRACE_MS + 1_000;

describe("runner finding: code questions are never graded while someone reads", () => {
  it("five reads of the results matrix (and the student's own reads) close an expired attempt without waiting for the runner", async () => {
    const w = await serviceWorld();
    const me = await w.student();
    const runner = gatedRunner();
    const ctx = { ...w.ctx, runCode: runner.runCode };
    const { attempt } = await startAttempt(ctx, me, w.quiz.slug, T0);
    // The answers as saved (the background check of this code never finished: its isolate went away).
    await db().update(s.attempts).set({ answers: { [w.choice.id]: 1, [w.code.id]: LOOP } }).where(eq(s.attempts.id, attempt._id));

    for (let i = 0; i < 5; i++) {
      const matrix = await within(groupResults(ctx, w.staff, w.group.slug, AFTER + i * 1_000));
      expect(matrix.students[0]!.results[0]).toEqual({ quizId: w.quiz.id, best: 1, bestAttemptId: expect.any(String), attempts: 1, inProgress: false });
    }
    await within(getResult(ctx, me, w.quiz.slug, AFTER));
    await within(getScore(ctx, me, w.quiz.slug, AFTER));
    await within(listGroupQuizzes(ctx, me, w.group.slug, AFTER));
    await within(getQuiz(ctx, me, w.quiz.slug, AFTER));
    expect(await attemptRow(attempt._id)).toMatchObject({ submittedAt: new Date(T0 + 10 * MIN), score: 1, codePending: true });
    expect((await within(getResult(ctx, me, w.quiz.slug, AFTER))).grading).toBe(true);
    // The code runs once, in the background, whatever the number of reads.
    await eventually(() => (runner.calls() === 1 ? true : undefined), 2_000, "the background run");
    expect(runner.calls()).toBe(1);

    runner.release(false);
    await w.settle();
    expect(await attemptRow(attempt._id)).toMatchObject({ score: 1, codePending: false, verdicts: { [w.code.id]: false } });
    expect(runner.calls()).toBe(1);
  });

  it("the background run corrects the score once the code passes", async () => {
    const w = await serviceWorld();
    const me = await w.student();
    const runner = gatedRunner();
    const ctx = { ...w.ctx, runCode: runner.runCode };
    const { attempt } = await startAttempt(ctx, me, w.quiz.slug, T0);
    await db().update(s.attempts).set({ answers: { [w.choice.id]: 1, [w.code.id]: REFERENCE } }).where(eq(s.attempts.id, attempt._id));
    expect((await within(getScore(ctx, me, w.quiz.slug, AFTER))).score).toBe(1);
    runner.release(true);
    await w.settle();
    expect((await getScore(ctx, me, w.quiz.slug, AFTER)).score).toBe(4);
    const matrix = await groupResults(ctx, w.staff, w.group.slug, AFTER);
    expect(matrix.quizzes[0]!.questions[1]).toMatchObject({ right: 1, answered: 1 });
  });

  it("a saved code answer is judged in the background once; a read and a hand-in then use that verdict while the code is unchanged", async () => {
    const w = await serviceWorld();
    let calls = 0;
    const counting: RunCode = (...args) => {
      calls += 1;
      return w.ctx.runCode(...args);
    };
    const ctx = { ...w.ctx, runCode: counting };
    // Saved, then left: the read that closes it needs no runner.
    const me = await w.student();
    const { attempt } = await startAttempt(ctx, me, w.quiz.slug, T0);
    await saveAnswers(ctx, me, w.quiz.slug, { answers: { [w.choice.id]: 1, [w.code.id]: REFERENCE }, attemptId: attempt._id }, T0 + MIN);
    await saveAnswers(ctx, me, w.quiz.slug, { answers: { [w.choice.id]: 1, [w.code.id]: REFERENCE }, attemptId: attempt._id }, T0 + 2 * MIN);
    await w.settle();
    expect(calls).toBe(1);
    expect(Object.keys((await attemptRow(attempt._id)).codeChecks ?? {})).toEqual([w.code.id]);
    await groupResults(ctx, w.staff, w.group.slug, AFTER);
    expect(await attemptRow(attempt._id)).toMatchObject({ score: 4, codePending: false, verdicts: { [w.code.id]: true } });
    expect(calls).toBe(1);

    // Handed in with the code it saved: no second run. With other code: one run, at the hand-in.
    const other = await w.student();
    const second = await startAttempt(ctx, other, w.quiz.slug, T0);
    await saveAnswers(ctx, other, w.quiz.slug, { answers: { [w.code.id]: REFERENCE }, attemptId: second.attempt._id }, T0 + MIN);
    await w.settle();
    calls = 0;
    expect((await submitQuiz(ctx, other, w.quiz.slug, { answers: { [w.code.id]: REFERENCE }, attemptId: second.attempt._id }, T0 + 2 * MIN)).attempt.score).toBe(3);
    expect(calls).toBe(0);
    const third = await w.student();
    const t = await startAttempt(ctx, third, w.quiz.slug, T0);
    await saveAnswers(ctx, third, w.quiz.slug, { answers: { [w.code.id]: REFERENCE }, attemptId: t.attempt._id }, T0 + MIN);
    await w.settle();
    calls = 0;
    expect((await submitQuiz(ctx, third, w.quiz.slug, { answers: { [w.code.id]: "function double(n) { return n + n; }" }, attemptId: t.attempt._id }, T0 + 2 * MIN)).attempt.score).toBe(3);
    expect(calls).toBe(1);
  });

  it("through the Worker: the matrix closes an expired attempt without running its code, which is judged after the response", async () => {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const group = await createGroup({ instructorId: teacher.user.id });
    const student = await signIn(await createUser());
    await addMember(student.user, group);
    const lecture = (await json<{ slug: string }>(await call(`/api/lectures/group/${group.slug}`, { body: { title: "Functions", published: true }, token: teacher.accessToken })));
    const made = await call("/api/quizzes", {
      body: { lectureId: lecture.slug, title: "Code check", durationMinutes: 10, showAnswers: "never", published: true, questions: [{ text: "Write `double(n)`.", type: "code", correct: REFERENCE, points: 3, code: { ...codeSpec, timeMs: 500 } }] },
      token: teacher.accessToken,
    });
    expect(made.status).toBe(201);
    const quiz = await json<{ _id: string; slug: string; questions: { _id: string }[] }>(made);
    const attemptId = (await json<{ attempt: { _id: string } }>(await call(`/api/quizzes/${quiz.slug}/start`, { method: "POST", token: student.accessToken }))).attempt._id;
    // Saved straight into the row (no background check), then the clock runs out.
    await db().update(s.attempts).set({ answers: { [quiz.questions[0]!._id]: REFERENCE }, deadlineAt: new Date(Date.now() - GRACE_MS - 1_000) }).where(eq(s.attempts.id, attemptId));
    type Matrix = { students: { results: { best: number | null; attempts: number; inProgress: boolean }[] }[] };
    const matrix = async () => {
      const res = await call(`/api/quizzes/groups/${group.slug}/results`, { token: teacher.accessToken });
      expect(res.status).toBe(200);
      return (await json<Matrix>(res)).students[0]!.results[0]!;
    };
    // The read that closes the attempt answers without running the code: the code counts as not yet passed.
    expect(await matrix()).toEqual({ quizId: quiz._id, best: 0, bestAttemptId: expect.any(String), attempts: 1, inProgress: false });
    const open = await db().select().from(s.attempts).where(and(eq(s.attempts.id, attemptId), isNull(s.attempts.submittedAt)));
    expect(open).toEqual([]);
    for (let i = 0; i < 4; i++) await matrix();
    const graded = await eventually(async () => {
      const row = await attemptRow(attemptId);
      return row.codePending ? undefined : row;
    }, 10_000, "the background grading");
    expect((await matrix()).best).toBe(3);
    expect(graded).toMatchObject({ score: 3, verdicts: { [quiz.questions[0]!._id]: true } });
  });
});

describe("one attempt answered in two tabs (or on a phone and a laptop)", () => {
  type Saved = { savedAt: string };
  type Changed = ErrorBody & { fields: { savedAt: string; answers: string } };
  const saveFrom = (who: SignedIn, w: World, answers: Record<string, unknown>, attemptId: string, basedOn?: string | null) =>
    call(`/api/quizzes/${w.quiz.slug}/answers`, { method: "PUT", body: { answers, attemptId, basedOn }, token: who.accessToken });
  const submitFrom = (who: SignedIn, w: World, answers: Record<string, unknown>, attemptId: string, basedOn?: string | null) =>
    call(`/api/quizzes/${w.quiz.slug}/submit`, { body: { answers, attemptId, basedOn }, token: who.accessToken });

  it("a save written over answers saved meanwhile elsewhere is refused with those answers, not taken unseen; chosen knowingly, it is", async () => {
    const w = await world();
    const started = await json<{ attempt: { _id: string; savedAt: string | null } }>(await call(`/api/quizzes/${w.quiz.slug}/start`, { method: "POST", token: w.a.accessToken }));
    const id = started.attempt._id;
    const opened = started.attempt.savedAt;
    // Both tabs opened the attempt at the same save. Tab one saves first.
    const first = await saveFrom(w.a, w, { [w.q1]: 0 }, id, opened);
    expect(first.status).toBe(200);
    const one = (await json<Saved>(first)).savedAt;
    expect(one).not.toBe(opened);

    // Tab two, still on the save it opened at, answers differently: refused, and told what tab one saved and when.
    const second = await saveFrom(w.a, w, { [w.q1]: 1 }, id, opened);
    expect(second.status).toBe(409);
    const changed = await json<Changed>(second);
    expect(changed.code).toBe("answers_changed");
    expect(JSON.parse(changed.fields.answers)).toEqual({ [w.q1]: 0 });
    expect(changed.fields.savedAt).toBe(one);
    expect((await attemptRow(id)).answers).toEqual({ [w.q1]: 0 });

    // The same answers as the save it missed (tab one's save repeated after its reply was lost): taken, nothing changed.
    const repeated = await saveFrom(w.a, w, { [w.q1]: 0 }, id, opened);
    expect(repeated.status).toBe(200);
    expect((await json<Saved>(repeated)).savedAt).toBe(one);

    // Tab two keeps its own answers, knowing tab one's save: they replace them.
    const kept = await saveFrom(w.a, w, { [w.q1]: 1 }, id, one);
    expect(kept.status).toBe(200);
    const two = (await json<Saved>(kept)).savedAt;
    expect((await attemptRow(id)).answers).toEqual({ [w.q1]: 1 });

    // Tab one now hands in its older answers: refused, and the attempt stays open (nothing graded, no attempt spent).
    const handIn = await submitFrom(w.a, w, allRight(w), id, one);
    expect(handIn.status).toBe(409);
    expect((await json<Changed>(handIn)).code).toBe("answers_changed");
    const row = await attemptRow(id);
    expect(row.submittedAt).toBeNull();
    expect(row.answers).toEqual({ [w.q1]: 1 });

    // A client that names no save keeps the last-save-wins behaviour (the spec's payload has no such field).
    expect((await save(w.a, w, { [w.q1]: 0 }, id)).status).toBe(200);
    const now = (await attemptRow(id)).savedAt!.toISOString();
    expect(now).not.toBe(two);

    // Named at the current save, the hand-in is graded on the answers sent.
    const graded = await submitFrom(w.a, w, allRight(w), id, now);
    expect(graded.status).toBe(201);
    expect((await json<{ attempt: { score: number } }>(graded)).attempt.score).toBe(2);
  });

  it("two tabs saving at the same moment over the same save: one is taken, the other refused, never both", async () => {
    const w = await world();
    const started = await json<{ attempt: { _id: string; savedAt: string | null } }>(await call(`/api/quizzes/${w.quiz.slug}/start`, { method: "POST", token: w.a.accessToken }));
    const id = started.attempt._id;
    // Both saves read the attempt before either writes (one isolate, interleaved at every await): the write itself
    // must hold the save it follows, or both would be taken.
    const { ctx } = serviceContext();
    const viewer = viewerOf(w.a.user, "two-tabs");
    for (let round = 0; round < 3; round++) {
      const seen = (await attemptRow(id)).savedAt?.toISOString() ?? null;
      const [x, y] = await Promise.allSettled([
        saveAnswers(ctx, viewer, w.quiz.slug, { answers: { [w.q1]: 0, [w.q2]: `x${round}` }, attemptId: id, basedOn: seen }),
        saveAnswers(ctx, viewer, w.quiz.slug, { answers: { [w.q1]: 1, [w.q2]: `y${round}` }, attemptId: id, basedOn: seen }),
      ]);
      expect([x.status, y.status].sort()).toEqual(["fulfilled", "rejected"]);
      const refused = (x.status === "rejected" ? x : y) as PromiseRejectedResult;
      expect(refused.reason).toMatchObject({ status: 409, code: "answers_changed" });
      // The answers kept are the taken save's.
      expect((await attemptRow(id)).answers[w.q2]).toBe(x.status === "fulfilled" ? `x${round}` : `y${round}`);
    }
  });

  it("the quiz page's own save carries the save it follows; a malformed one is a 400 that changes nothing", async () => {
    const w = await world();
    const id = await start(w.a, w);
    const post = (fields: Record<string, string>) =>
      call(`/course/${w.group.slug}/quiz/${w.quiz.slug}/save`, {
        method: "POST",
        cookie: w.a.cookie,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        form: new URLSearchParams({ intent: "save", attemptId: id, ...fields }) as unknown as FormData,
      });
    // Tab one's first save names none yet (empty); tab two's, also opened before any save, is then refused.
    expect((await post({ answers: JSON.stringify({ [w.q1]: 0 }), basedOn: "" })).status).toBe(200);
    const refused = await post({ answers: JSON.stringify({ [w.q1]: 1 }), basedOn: "" });
    expect(refused.status).toBe(409);
    const body = await json<Changed>(refused);
    expect(body.code).toBe("answers_changed");
    expect(JSON.parse(body.fields.answers)).toEqual({ [w.q1]: 0 });
    const bad = await post({ answers: JSON.stringify({ [w.q1]: 1 }), basedOn: "yesterday" });
    expect(bad.status).toBe(400);
    expect((await json<ErrorBody>(bad)).code).toBe("validation_failed");
    expect((await attemptRow(id)).answers).toEqual({ [w.q1]: 0 });
  });
});
