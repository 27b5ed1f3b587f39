/**
 * Question banks (issue 21): a group's staff keep tagged questions; a quiz draws N of a tag for each attempt, at the
 * points the draw sets, and can shuffle questions and options. Each attempt's paper is fixed when it opens (the same
 * on every reload), copies what it drew, and is what every read, grade, review and statistic follows. A drawn quiz
 * never shows a student a question they were not given.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { deleteBankQuestion } from "../../worker/services/question-bank";
import { setSchedule } from "../../worker/services/schedule";
import { createQuiz, getQuiz, getResult, groupResults, startAttempt, submitQuiz, updateQuiz } from "../../worker/services/quizzes";
import type { Viewer } from "../../worker/services/sessions";
import { addMember, call, createGroup, createUser, signIn, viewerOf } from "./factories";
import { db, gatedContext, serviceContext } from "./helpers";

/** Six bank questions tagged "hooks" (single choice, the right option's text says "RIGHT"), two tagged "css". */
async function world(quiz: { draws?: { tag: string; count: number; points: number }[]; shuffleQuestions?: boolean; shuffleOptions?: boolean; students?: number; maxAttempts?: number } = {}) {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const students: Viewer[] = [];
  for (let i = 0; i < (quiz.students ?? 2); i++) {
    const u = await createUser();
    await addMember(u, group);
    students.push(viewerOf(u, "bank"));
  }
  const bank = [];
  for (let i = 1; i <= 6; i++) {
    const res = await call(`/api/groups/${group.slug}/question-bank`, {
      body: { question: { text: `Hooks question ${i}`, type: "single", options: [`wrong ${i}a`, `RIGHT ${i}`, `wrong ${i}b`], correct: 1, points: 1 }, tags: ["hooks"] },
      token: teacher.accessToken,
    });
    expect(res.status).toBe(201);
    bank.push((await res.json()) as { _id: string; text: string });
  }
  for (let i = 1; i <= 2; i++) {
    await call(`/api/groups/${group.slug}/question-bank`, { body: { question: { text: `CSS question ${i}`, type: "true-false", correct: 0 }, tags: ["css"] }, token: teacher.accessToken });
  }
  const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: "Week 3", published: true }, token: teacher.accessToken })).json()) as { slug: string };
  const made = await call("/api/quizzes", {
    body: {
      lectureId: lecture.slug,
      title: "Hooks draw",
      maxAttempts: quiz.maxAttempts ?? 2,
      showAnswers: "after-submit",
      published: true,
      questions: [{ text: "Own question", type: "multiple", options: ["own RIGHT a", "own wrong", "own RIGHT b", "own wrong 2"], correct: [0, 2], points: 2 }],
      draws: quiz.draws ?? [{ tag: "hooks", count: 2, points: 3 }],
      shuffleQuestions: quiz.shuffleQuestions ?? true,
      shuffleOptions: quiz.shuffleOptions ?? true,
    },
    token: teacher.accessToken,
  });
  expect(made.status).toBe(201);
  const q = (await made.json()) as { _id: string; slug: string; questionCount: number; maxScore: number };
  return { ctx: serviceContext().ctx, teacher, group, students, bank, quiz: q };
}

type Shown = { _id: string; text: string; type: string; options: string[] };
/** The right answer for a question as shown: the options whose text says RIGHT. */
const rightAnswer = (q: Shown) => {
  const idx = q.options.flatMap((o, i) => (o.includes("RIGHT") ? [i] : []));
  return q.type === "multiple" ? idx : idx[0]!;
};

describe("question banks", () => {
  it("keeps tagged questions for the group's staff, refuses code questions and other staff", async () => {
    const w = await world();
    const bank = (await (await call(`/api/groups/${w.group.slug}/question-bank`, { token: w.teacher.accessToken })).json()) as { questions: unknown[]; tags: Record<string, number> };
    expect(bank.tags).toEqual({ hooks: 6, css: 2 });
    const code = await call(`/api/groups/${w.group.slug}/question-bank`, {
      body: { question: { text: "Write f", type: "code", correct: "function f() { return 1; }", code: { starterCode: "", tests: [{ name: "one", call: "f()", expected: "1" }], timeMs: 200, memoryMb: 8 } }, tags: ["code"] },
      token: w.teacher.accessToken,
    });
    expect(code.status).toBe(400);
    const stranger = await signIn(await createUser({ role: "instructor" }));
    expect((await call(`/api/groups/${w.group.slug}/question-bank`, { token: stranger.accessToken })).status).toBe(403);
    const student = await signIn(await createUser());
    expect((await call(`/api/groups/${w.group.slug}/question-bank`, { token: student.accessToken })).status).toBe(403);
  });

  it("refuses a draw the bank cannot fill", async () => {
    const w = await world();
    const lecture = (await (await call(`/api/lectures/group/${w.group.slug}`, { body: { title: "Week 4", published: true }, token: w.teacher.accessToken })).json()) as { slug: string };
    const res = await call("/api/quizzes", { body: { lectureId: lecture.slug, title: "Too many", questions: [], draws: [{ tag: "css", count: 3, points: 1 }] }, token: w.teacher.accessToken });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { fields: Record<string, string> }).fields.draws).toContain('2 questions tagged "css"');
  });

  it("refuses draws that share questions when some paper could leave a draw short, and lets every student start one that cannot", async () => {
    const w = await world({ students: 6 });
    // One question in both tags: seven "hooks", three "css".
    expect((await call(`/api/groups/${w.group.slug}/question-bank`, { body: { question: { text: "Both", type: "true-false", correct: 0 }, tags: ["hooks", "css"] }, token: w.teacher.accessToken })).status).toBe(201);
    const lecture = (await (await call(`/api/lectures/group/${w.group.slug}`, { body: { title: "Week 5", published: true }, token: w.teacher.accessToken })).json()) as { slug: string };
    const make = (draws: { tag: string; count: number; points: number }[]) => call("/api/quizzes", { body: { lectureId: lecture.slug, title: "Mixed", questions: [], draws, published: true }, token: w.teacher.accessToken });
    // Six hooks first may take the shared one: two css would be left for a draw of three.
    const refused = await make([{ tag: "hooks", count: 6, points: 1 }, { tag: "css", count: 3, points: 1 }]);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { fields: Record<string, string> }).fields.draws).toContain('tagged both "hooks" and "css"');
    // The other way round every paper fills: three css (the shared one among them), then six of the six hooks left.
    const made = await make([{ tag: "css", count: 3, points: 1 }, { tag: "hooks", count: 6, points: 1 }]);
    expect(made.status).toBe(201);
    const quiz = (await made.json()) as { slug: string };
    for (const st of w.students) {
      await startAttempt(w.ctx, st, quiz.slug);
      expect((await getQuiz(w.ctx, st, quiz.slug)).questions).toHaveLength(9);
    }
  });

  it("refuses a bank change that would leave a published quiz short of its draws, and changes nothing", async () => {
    // "Hooks draw" (published, open) draws 2 of the 6 "hooks" questions; the two "css" ones are drawn by nothing yet.
    const w = await world();
    const lecture = (await (await call(`/api/lectures/group/${w.group.slug}`, { body: { title: "Week 7", published: true }, token: w.teacher.accessToken })).json()) as { slug: string };
    expect((await call("/api/quizzes", { body: { lectureId: lecture.slug, title: "CSS check", questions: [], draws: [{ tag: "css", count: 2, points: 1 }], published: true }, token: w.teacher.accessToken })).status).toBe(201);
    const bank = (await (await call(`/api/groups/${w.group.slug}/question-bank`, { token: w.teacher.accessToken })).json()) as { questions: { _id: string; text: string; type: string; options: string[]; correct: number[]; points: number; tags: string[] }[] };
    const css = bank.questions.filter((q) => q.tags.includes("css"));
    // Deleting one css question, or retagging it, would leave "CSS check" one short.
    const del = await call(`/api/groups/${w.group.slug}/question-bank/${css[0]!._id}`, { method: "DELETE", token: w.teacher.accessToken });
    expect(del.status).toBe(409);
    expect(await del.json()).toMatchObject({ code: "draws_short", message: expect.stringContaining('"CSS check"') });
    const q = css[0]!;
    const retag = await call(`/api/groups/${w.group.slug}/question-bank/${q._id}`, { method: "PUT", body: { question: { text: q.text, type: "true-false", correct: 0 }, tags: ["hooks"] }, token: w.teacher.accessToken });
    expect(retag.status).toBe(409);
    expect((await db().select().from(s.bankQuestions).where(eq(s.bankQuestions.id, q._id)))[0]!.tags).toEqual(["css"]);
    // A hooks question may go: five are left for a draw of two.
    expect((await call(`/api/groups/${w.group.slug}/question-bank/${w.bank[0]!._id}`, { method: "DELETE", token: w.teacher.accessToken })).status).toBe(200);
  });

  it("lets deletes and retags sent at once leave the published quiz's draw whole: each is judged against the bank it lands on", async () => {
    // "Hooks draw" (published, open) draws 2 of the 6 "hooks" questions: at most four may go, however they are sent.
    const w = await world();
    const url = (id: string) => `/api/groups/${w.group.slug}/question-bank/${id}`;
    const sent = await Promise.all([
      ...w.bank.slice(0, 4).map((q) => call(url(q._id), { method: "DELETE", token: w.teacher.accessToken })),
      ...w.bank.slice(4).map((q, i) => call(url(q._id), { method: "PUT", body: { question: { text: `Moved ${i}`, type: "true-false", correct: 0 }, tags: ["css"] }, token: w.teacher.accessToken })),
    ]);
    const statuses = sent.map((r) => r.status);
    expect(statuses.filter((st) => st === 200)).toHaveLength(4);
    expect(statuses.filter((st) => st === 409)).toHaveLength(2);
    const left = await db().select().from(s.bankQuestions).where(eq(s.bankQuestions.groupId, w.group.id));
    expect(left.filter((q) => q.tags.includes("hooks"))).toHaveLength(2);
    // Every student can still be given a paper.
    expect((await startAttempt(w.ctx, w.students[0]!, w.quiz.slug)).attempt).toBeDefined();
  });

  it("never leaves a quiz short when it is made to draw more while a question of its tag is taken out", async () => {
    // "Hooks draw" (published) draws 2 of the 6 "hooks" questions. Its staff make it draw all 6 while, in between
    // the quiz's check of the bank and its write, someone deletes a hooks question (allowed then: 2 of 5 is fine).
    const w = await world();
    const teacher = viewerOf(w.teacher.user);
    const url = (id: string) => `/api/groups/${w.group.slug}/question-bank/${id}`;
    const deleted = { status: 0 };
    const ctx = gatedContext("batch", async () => {
      deleted.status = (await call(url(w.bank[0]!._id), { method: "DELETE", token: w.teacher.accessToken })).status;
    });
    await expect(updateQuiz(ctx, teacher, w.quiz.slug, { draws: [{ tag: "hooks", count: 6, points: 3 }] })).rejects.toMatchObject({ status: 409, code: "bank_changed" });
    expect(deleted.status).toBe(200);
    const [quiz] = await db().select().from(s.quizzes).where(eq(s.quizzes.slug, w.quiz.slug));
    expect(quiz!.draws).toEqual([{ tag: "hooks", count: 2, points: 3 }]);
    // Asked again, it is judged against the bank as it now is: 5 hooks questions cannot fill a draw of 6.
    const again = await call(`/api/quizzes/${w.quiz.slug}`, { method: "PUT", body: { draws: [{ tag: "hooks", count: 6, points: 3 }] }, token: w.teacher.accessToken });
    expect(again.status).toBe(400);

    // The other way round: the quiz comes to draw all 5 between the delete's check and its write. The delete is judged
    // again against the quiz as it now is, and refused; the bank keeps its 5.
    const draws5 = { status: 0 };
    const deleting = gatedContext(/^delete from "bank_questions"/, async () => {
      draws5.status = (await call(`/api/quizzes/${w.quiz.slug}`, { method: "PUT", body: { draws: [{ tag: "hooks", count: 5, points: 3 }] }, token: w.teacher.accessToken })).status;
    });
    await expect(deleteBankQuestion(deleting, teacher, w.group.slug, w.bank[1]!._id)).rejects.toMatchObject({ status: 409, code: "draws_short" });
    expect(draws5.status).toBe(200);
    const hooks = (await db().select().from(s.bankQuestions).where(eq(s.bankQuestions.groupId, w.group.id))).filter((q) => q.tags.includes("hooks"));
    expect(hooks).toHaveLength(5);
    expect((await startAttempt(w.ctx, w.students[0]!, w.quiz.slug)).attempt).toBeDefined();
  });

  it("never makes, publishes or schedules a drawing quiz on a bank that lost questions since its check", async () => {
    const w = await world();
    const teacher = viewerOf(w.teacher.user);
    const lecture = (await (await call(`/api/lectures/group/${w.group.slug}`, { body: { title: "Week 8", published: true }, token: w.teacher.accessToken })).json()) as { slug: string };
    const deleteHooks = (i: number) => async () => expect((await call(`/api/groups/${w.group.slug}/question-bank/${w.bank[i]!._id}`, { method: "DELETE", token: w.teacher.accessToken })).status).toBe(200);
    // A new quiz drawing all 6 hooks questions, one of them deleted between its check and its write: not made.
    await expect(
      createQuiz(gatedContext("batch", deleteHooks(0)), teacher, { lectureId: lecture.slug, title: "All hooks", maxAttempts: 1, showAnswers: "never", published: true, questions: [], draws: [{ tag: "hooks", count: 6, points: 1 }], shuffleQuestions: false, shuffleOptions: false }),
    ).rejects.toMatchObject({ status: 409, code: "bank_changed" });
    expect(await db().select().from(s.quizzes).where(eq(s.quizzes.title, "All hooks"))).toHaveLength(0);
    // A draft drawing all 5 left, published while one more is deleted: stays a draft, and says why.
    const draft = await call("/api/quizzes", { body: { lectureId: lecture.slug, title: "Five hooks", questions: [], draws: [{ tag: "hooks", count: 5, points: 1 }], published: false }, token: w.teacher.accessToken });
    expect(draft.status).toBe(201);
    const { slug } = (await draft.json()) as { slug: string };
    await expect(updateQuiz(gatedContext("batch", deleteHooks(1)), teacher, slug, { published: true })).rejects.toMatchObject({ status: 409, code: "bank_changed" });
    const [five] = await db().select().from(s.quizzes).where(eq(s.quizzes.slug, slug));
    expect(five!.published).toBe(false);
    // A draft drawing the 4 left, scheduled while one more is deleted: not scheduled.
    const four = await call("/api/quizzes", { body: { lectureId: lecture.slug, title: "Four hooks", questions: [], draws: [{ tag: "hooks", count: 4, points: 1 }], published: false }, token: w.teacher.accessToken });
    expect(four.status).toBe(201);
    const fourSlug = ((await four.json()) as { slug: string }).slug;
    await expect(setSchedule(gatedContext(/^update "quizzes" set "publish_at"/, deleteHooks(2)), teacher, "quiz", fourSlug, Date.now() + 3_600_000)).rejects.toMatchObject({ status: 409, code: "bank_changed" });
    const [scheduled] = await db().select().from(s.quizzes).where(eq(s.quizzes.slug, fourSlug));
    expect(scheduled!.publishAt).toBeNull();
  });

  it("keeps a drawn question's key out of a review while another quiz that never shows answers may still give it", async () => {
    const w = await world({ maxAttempts: 1 });
    const [me] = w.students;
    const lecture = (await (await call(`/api/lectures/group/${w.group.slug}`, { body: { title: "Week 6", published: true }, token: w.teacher.accessToken })).json()) as { slug: string };
    const strict = await call("/api/quizzes", { body: { lectureId: lecture.slug, title: "Final", questions: [], draws: [{ tag: "hooks", count: 1, points: 10 }], showAnswers: "never", published: true }, token: w.teacher.accessToken });
    expect(strict.status).toBe(201);
    const final = (await strict.json()) as { _id: string };
    await startAttempt(w.ctx, me!, w.quiz.slug);
    const shown = (await getQuiz(w.ctx, me!, w.quiz.slug)).questions as Shown[];
    await submitQuiz(w.ctx, me!, w.quiz.slug, { answers: Object.fromEntries(shown.map((q) => [q._id, rightAnswer(q)])) });
    const result = await getResult(w.ctx, me!, w.quiz.slug);
    expect(result.reviewWhen).toBe("now");
    const drawnIds = new Set(w.bank.map((b) => b._id));
    const review = result.review!.questions;
    // The two drawn questions: the answer given, nothing of the key, not even whether it was right.
    for (const q of review.filter((x) => drawnIds.has(x._id))) expect(q).toMatchObject({ withheld: true, correct: [], right: null, earned: null, override: null });
    expect(review.filter((x) => x.withheld)).toHaveLength(2);
    // The quiz's own question is reviewed as usual; the score is still the score (2 + 3 + 3).
    expect(review.find((x) => !drawnIds.has(x._id))).toMatchObject({ withheld: false, right: true, earned: 2 });
    expect(result.score).toBe(8);
    // Once the other quiz is over for everyone, the keys show.
    await db().update(s.quizzes).set({ closesAt: new Date(Date.now() - 2 * 60_000), opensAt: new Date(Date.now() - 86_400_000) }).where(eq(s.quizzes.id, final._id));
    const later = (await getResult(w.ctx, me!, w.quiz.slug)).review!.questions;
    expect(later.filter((x) => x.withheld)).toHaveLength(0);
    for (const q of later.filter((x) => drawnIds.has(x._id))) expect(q).toMatchObject({ right: true, earned: 3 });
  });

  it("a review that kept every key back has shown none: it stands in the way of no extra attempt and no make-up", async () => {
    const w = await world({ students: 3 });
    const [sara, nour, omar] = w.students;
    const lecture = (await (await call(`/api/lectures/group/${w.group.slug}`, { body: { title: "Week 9", published: true }, token: w.teacher.accessToken })).json()) as { slug: string };
    const hour = 3_600_000;
    // Only drawn questions, from the tag the open "Hooks draw" quiz also draws from: every key is kept back.
    const made = await call("/api/quizzes", {
      body: { lectureId: lecture.slug, title: "Hooks quick check", maxAttempts: 1, showAnswers: "after-submit", published: true, questions: [], draws: [{ tag: "hooks", count: 2, points: 1 }], opensAt: new Date(Date.now() - hour).toISOString(), closesAt: new Date(Date.now() + hour).toISOString() },
      token: w.teacher.accessToken,
    });
    expect(made.status).toBe(201);
    const quick = (await made.json()) as { _id: string; slug: string };
    const takeAndReview = async (who: Viewer) => {
      await startAttempt(w.ctx, who, quick.slug);
      const shown = (await getQuiz(w.ctx, who, quick.slug)).questions as Shown[];
      await submitQuiz(w.ctx, who, quick.slug, { answers: Object.fromEntries(shown.map((q) => [q._id, rightAnswer(q)])) });
      return getResult(w.ctx, who, quick.slug);
    };
    const saraReview = await takeAndReview(sara!);
    expect(saraReview.reviewWhen).toBe("now");
    expect(saraReview.review!.questions.every((q) => q.withheld)).toBe(true);
    expect((await db().select().from(s.quizzes).where(eq(s.quizzes.id, quick._id)))[0]!.answersShownAt).toBeNull();
    const extend = (body: object) => call(`/api/quizzes/${quick._id}/extensions`, { method: "PUT", body, token: w.teacher.accessToken });
    // Sara saw no key: she may have another attempt; Nour, who never took it, a make-up with a later close.
    expect((await extend({ userIds: [sara!.userId], extraAttempts: 1 })).status).toBe(200);
    expect((await extend({ userIds: [nour!.userId], closesAt: new Date(Date.now() + 2 * hour).toISOString(), extraAttempts: 1 })).status).toBe(200);
    // Once the other quiz is over, a review shows the keys: from then on a later close is refused, and so is an
    // extra attempt for whoever read them.
    await db().update(s.quizzes).set({ opensAt: new Date(Date.now() - 2 * hour), closesAt: new Date(Date.now() - 2 * 60_000) }).where(eq(s.quizzes.id, w.quiz._id));
    const omarReview = await takeAndReview(omar!);
    expect(omarReview.review!.questions.some((q) => !q.withheld)).toBe(true);
    expect((await db().select().from(s.quizzes).where(eq(s.quizzes.id, quick._id)))[0]!.answersShownAt).not.toBeNull();
    const refused = await extend({ userIds: [omar!.userId], extraAttempts: 1 });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toMatch(/can already see the answers/);
    const makeUp = await extend({ userIds: [nour!.userId], closesAt: new Date(Date.now() + 3 * hour).toISOString() });
    expect(makeUp.status).toBe(409);
    expect(((await makeUp.json()) as { code: string }).code).toBe("answers_seen");
  });

  it("says ahead of time that keys wait: the editor names the quiz that shares its tag, the student's intro warns", async () => {
    const w = await world();
    const lecture = (await (await call(`/api/lectures/group/${w.group.slug}`, { body: { title: "Week 10", published: true }, token: w.teacher.accessToken })).json()) as { slug: string };
    const made = await call("/api/quizzes", {
      body: { lectureId: lecture.slug, title: "Hooks recap", maxAttempts: 1, showAnswers: "after-submit", published: true, questions: [], draws: [{ tag: "hooks", count: 1, points: 1 }] },
      token: w.teacher.accessToken,
    });
    expect(made.status).toBe(201);
    const recap = (await made.json()) as { slug: string };
    const student = await createUser();
    await addMember(student, w.group);
    const reader = await signIn(student);
    const editor = `/instructor/group/${w.group.slug}/lecture/${lecture.slug}/quiz/updateQuiz/${recap.slug}`;
    const intro = `/course/${w.group.slug}/lecture/${lecture.slug}/quiz/${recap.slug}`;
    const en = await (await call(editor, { cookie: w.teacher.cookie })).text();
    expect(en).toContain("Students will see no answer to a question drawn here while “Hooks draw” can still draw it");
    // Whatever the answers policy, it says that a score can tell whether a shared question was right (naming the
    // quizzes once).
    expect(en).toContain("a score can tell a student whether their answer to a question those quizzes may also give was right");
    const ar = await (await call(editor, { cookie: `${w.teacher.cookie}; lang=ar` })).text();
    expect(ar).toContain("ما دام بإمكان «Hooks draw» سحبه");
    expect(ar).toContain("عن سؤال قد تعطيه تلك الاختبارات أيضًا");
    expect(await (await call(intro, { cookie: reader.cookie })).text()).toContain("Answers to questions drawn from the group&#x27;s question bank stay hidden while another quiz still uses those questions.");
    // A quiz that never shows answers still shows scores: the editor says so.
    expect((await call(`/api/quizzes/${recap.slug}`, { method: "PUT", body: { showAnswers: "never" }, token: w.teacher.accessToken })).status).toBe(200);
    const never = await (await call(editor, { cookie: w.teacher.cookie })).text();
    expect(never).not.toContain("Students will see no answer to a question drawn here");
    expect(never).toContain("a score can tell a student whether their answer to a question “Hooks draw” may also give was right");
    expect((await call(`/api/quizzes/${recap.slug}`, { method: "PUT", body: { showAnswers: "after-submit" }, token: w.teacher.accessToken })).status).toBe(200);
    // Once the other quiz is over for everyone, neither says it.
    await db().update(s.quizzes).set({ opensAt: new Date(Date.now() - 86_400_000), closesAt: new Date(Date.now() - 2 * 60_000) }).where(eq(s.quizzes.id, w.quiz._id));
    const over = await (await call(editor, { cookie: w.teacher.cookie })).text();
    expect(over).not.toContain("Students will see no answer to a question drawn here");
    expect(over).not.toContain("a score can tell a student");
    expect(await (await call(intro, { cookie: reader.cookie })).text()).not.toContain("stay hidden while another quiz");
  });

  it("a draft quiz drawing the same tag keeps the keys back too: it may be published tomorrow", async () => {
    const w = await world({ maxAttempts: 1 });
    const [me] = w.students;
    const lecture = (await (await call(`/api/lectures/group/${w.group.slug}`, { body: { title: "Week 7", published: true }, token: w.teacher.accessToken })).json()) as { slug: string };
    const draft = await call("/api/quizzes", { body: { lectureId: lecture.slug, title: "Next week", questions: [], draws: [{ tag: "hooks", count: 1, points: 10 }], published: false }, token: w.teacher.accessToken });
    expect(draft.status).toBe(201);
    const next = (await draft.json()) as { _id: string };
    await startAttempt(w.ctx, me!, w.quiz.slug);
    const shown = (await getQuiz(w.ctx, me!, w.quiz.slug)).questions as Shown[];
    await submitQuiz(w.ctx, me!, w.quiz.slug, { answers: Object.fromEntries(shown.map((q) => [q._id, rightAnswer(q)])) });
    const drawnIds = new Set(w.bank.map((b) => b._id));
    const review = (await getResult(w.ctx, me!, w.quiz.slug)).review!.questions;
    expect(review.filter((x) => x.withheld).map((x) => x._id).sort()).toEqual(review.filter((x) => drawnIds.has(x._id)).map((x) => x._id).sort());
    expect(review.filter((x) => x.withheld)).toHaveLength(2);
    // Deleted, the draft gives nothing any more: the keys show.
    expect((await call(`/api/quizzes/${next._id}`, { method: "DELETE", token: w.teacher.accessToken })).status).toBe(200);
    expect((await getResult(w.ctx, me!, w.quiz.slug)).review!.questions.filter((x) => x.withheld)).toHaveLength(0);
  });

  it("gives each attempt its own paper, the same on every reload, and never a question it was not given", async () => {
    const w = await world();
    const [me] = w.students;
    // 1 own question (2 points) + 2 drawn at 3 points each.
    expect(w.quiz).toMatchObject({ questionCount: 3, maxScore: 8 });
    // No question before the attempt starts, though the quiz is untimed and open.
    expect((await getQuiz(w.ctx, me!, w.quiz.slug)).questions).toEqual([]);

    const started = await startAttempt(w.ctx, me!, w.quiz.slug);
    const first = (await getQuiz(w.ctx, me!, w.quiz.slug)).questions as Shown[];
    const again = (await getQuiz(w.ctx, me!, w.quiz.slug)).questions as Shown[];
    expect(again).toEqual(first);
    expect(first).toHaveLength(3);
    const drawn = first.filter((q) => q.text.startsWith("Hooks"));
    expect(drawn).toHaveLength(2);
    // The paper stored on the attempt is what was shown.
    const [row] = await db().select().from(s.attempts).where(eq(s.attempts.id, started.attempt._id));
    expect(row!.paper!.order).toEqual(first.map((q) => q._id));

    // Nothing the student can read names a bank question they were not given.
    const notGiven = w.bank.filter((b) => !drawn.some((d) => d._id === b._id)).map((b) => b.text);
    const answers = Object.fromEntries(first.map((q) => [q._id, rightAnswer(q)]));
    const submitted = await submitQuiz(w.ctx, me!, w.quiz.slug, { answers, attemptId: started.attempt._id });
    expect(submitted.attempt).toMatchObject({ score: 8, maxScore: 8 });
    const everything = JSON.stringify([started, first, submitted, await getQuiz(w.ctx, me!, w.quiz.slug), await getResult(w.ctx, me!, w.quiz.slug)]);
    for (const text of notGiven) expect(everything).not.toContain(text);
    expect(everything).not.toContain("CSS question");

    // An answer naming a question of the bank this (second) attempt was not given is refused.
    await startAttempt(w.ctx, me!, w.quiz.slug);
    const second = (await getQuiz(w.ctx, me!, w.quiz.slug)).questions as Shown[];
    const foreign = w.bank.find((b) => !second.some((d) => d._id === b._id))!;
    await expect(submitQuiz(w.ctx, me!, w.quiz.slug, { answers: { [foreign._id]: 1 } })).rejects.toMatchObject({ status: 400 });
  });

  it("shuffles per student, reviews what each was given, and counts statistics on the options as written", async () => {
    const w = await world({ students: 8, draws: [{ tag: "hooks", count: 3, points: 1 }], maxAttempts: 1 });
    const papers: string[] = [];
    for (const who of w.students) {
      await startAttempt(w.ctx, who, w.quiz.slug);
      const shown = (await getQuiz(w.ctx, who, w.quiz.slug)).questions as Shown[];
      papers.push(JSON.stringify(shown.map((q) => [q._id, q.options])));
      // Everyone answers the own question right and every drawn one wrong (its first "wrong" option as written).
      const answers = Object.fromEntries(shown.map((q) => [q._id, q.text.startsWith("Hooks") ? q.options.findIndex((o) => o.includes("a") && o.startsWith("wrong")) : rightAnswer(q)]));
      await submitQuiz(w.ctx, who, w.quiz.slug, { answers });
      const review = (await getResult(w.ctx, who, w.quiz.slug)).review!;
      expect(review.questions.map((q) => q._id)).toEqual(shown.map((q) => q._id));
      expect(review.questions.map((q) => q.options)).toEqual(shown.map((q) => q.options));
    }
    // Eight students, 6 choose 3 draws in shuffled orders: not all the same paper.
    expect(new Set(papers).size).toBeGreaterThan(1);

    const results = await groupResults(w.ctx, { userId: w.teacher.user.id, role: "instructor" }, w.group.slug);
    const stats = results.quizzes[0]!.questions;
    const own = stats.find((q) => q.text === "Own question")!;
    expect(own).toMatchObject({ answered: 8, right: 8 });
    // Options as written: the two RIGHT ones chosen by all eight, the wrong ones by none, whatever order each saw.
    expect(own.choices!.map((c) => c.chosen)).toEqual([8, 0, 8, 0]);
    const hooks = stats.filter((q) => q.text.startsWith("Hooks"));
    // 24 drawn questions handed in, each counted once, all wrong, always the first option as written.
    expect(hooks.reduce((n, q) => n + q.answered, 0)).toBe(24);
    expect(hooks.every((q) => q.right === 0 && q.choices![0]!.chosen === q.answered && q.choices![0]!.text.startsWith("wrong"))).toBe(true);
  });

  it("keeps what an attempt was given when the bank changes, and freezes the draws once students started", async () => {
    const w = await world();
    const [me] = w.students;
    await startAttempt(w.ctx, me!, w.quiz.slug);
    const shown = (await getQuiz(w.ctx, me!, w.quiz.slug)).questions as Shown[];
    const drawn = shown.find((q) => q.text.startsWith("Hooks"))!;
    const edited = await call(`/api/groups/${w.group.slug}/question-bank/${drawn._id}`, {
      method: "PUT",
      body: { question: { text: "Rewritten", type: "single", options: ["x", "y"], correct: 0 }, tags: ["hooks"] },
      token: w.teacher.accessToken,
    });
    expect(edited.status).toBe(200);
    expect((await call(`/api/groups/${w.group.slug}/question-bank/${shown.filter((q) => q.text.startsWith("Hooks"))[1]!._id}`, { method: "DELETE", token: w.teacher.accessToken })).status).toBe(200);
    expect((await getQuiz(w.ctx, me!, w.quiz.slug)).questions).toEqual(shown);

    const frozen = await call(`/api/quizzes/${w.quiz.slug}`, { method: "PUT", body: { draws: [{ tag: "hooks", count: 1, points: 3 }] }, token: w.teacher.accessToken });
    expect(frozen.status).toBe(409);
    // The same rules again (an editor saving its settings) are fine.
    expect((await call(`/api/quizzes/${w.quiz.slug}`, { method: "PUT", body: { title: "Renamed", draws: [{ tag: "hooks", count: 2, points: 3 }], shuffleQuestions: true, shuffleOptions: true }, token: w.teacher.accessToken })).status).toBe(200);
    const [quiz] = await db().select().from(s.quizzes).where(and(eq(s.quizzes.slug, w.quiz.slug)));
    expect(quiz!.draws).toEqual([{ tag: "hooks", count: 2, points: 3 }]);
  });

  it("takes a quiz of draws only: its own questions emptied while its draws stay, and refuses a quiz left with none", async () => {
    const w = await world();
    const emptied = await call(`/api/quizzes/${w.quiz.slug}`, { method: "PUT", body: { questions: [] }, token: w.teacher.accessToken });
    expect(emptied.status).toBe(200);
    expect(await db().select().from(s.questions).where(eq(s.questions.quizId, w.quiz._id))).toEqual([]);
    const none = await call(`/api/quizzes/${w.quiz.slug}`, { method: "PUT", body: { draws: [] }, token: w.teacher.accessToken });
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ message: "Add at least one question.", fields: { questions: "Add at least one question." } });
  });

  it("spends no attempt on a refused hand-in: answers naming no question of the paper change nothing", async () => {
    for (const draws of [[{ tag: "hooks", count: 2, points: 3 }], []]) {
      const w = await world({ draws, shuffleQuestions: true, maxAttempts: 1 });
      const [me] = w.students;
      await expect(submitQuiz(w.ctx, me!, w.quiz.slug, { answers: { bogus: 1 } })).rejects.toMatchObject({ status: 400, message: "An answer names a question that is not in this quiz." });
      expect(await db().select().from(s.attempts).where(eq(s.attempts.userId, me!.userId))).toEqual([]);
      // The one attempt is still there to take.
      expect((await startAttempt(w.ctx, me!, w.quiz.slug)).attemptsLeft).toBe(0);
      expect(await db().select().from(s.attempts).where(eq(s.attempts.userId, me!.userId))).toHaveLength(1);
    }
  });

  it("leaves a quiz without draws or shuffles as written: no paper, questions before the start when untimed", async () => {
    const w = await world({ draws: [], shuffleQuestions: false, shuffleOptions: false });
    const [me] = w.students;
    expect(((await getQuiz(w.ctx, me!, w.quiz.slug)).questions as Shown[]).map((q) => q.text)).toEqual(["Own question"]);
    const started = await startAttempt(w.ctx, me!, w.quiz.slug);
    const [row] = await db().select().from(s.attempts).where(eq(s.attempts.id, started.attempt._id));
    expect(row!.paper).toBeNull();
  });
});
