/**
 * A quiz's preview (ADR 61): its staff see it as one of its students gets it, one paper at a time, and check answers
 * by the hand-in's grading, without storing anything. Asked through the API and the staff's page, as every person
 * who might ask: only the group's staff get it; the questions carry no key or test before the check; the same draw
 * is the same paper, and the check reads answers against that paper; a code answer's tests are run; no attempt,
 * score or notification is made.
 */
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { addMember, call, createGroup, createUser, signIn, type SignedIn } from "./factories";
import { db } from "./helpers";

const REFERENCE = "function triple(n) { /* reference-marker */ return n * 3; }";

type PreviewQuestion = { _id: string; text: string; type: string; options: string[]; points: number };
type Preview = { draw: string; paper: { drawsFromBank: boolean; shuffleQuestions: boolean; shuffleOptions: boolean } | null; missing: number; quiz: { title: string; maxScore: number; questionCount: number }; questions: PreviewQuestion[] };
type Checked = { score: number; maxScore: number; questions: (PreviewQuestion & { answer: unknown; correct: unknown[]; right: boolean; earned: number; tests: { name: string; passed: boolean; hidden: boolean }[] | null })[] };

async function world(options: { published?: boolean; shuffleOptions?: boolean; code?: boolean; draws?: boolean } = {}) {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const member = await signIn(await createUser());
  await addMember(member.user, group);
  if (options.draws) {
    for (let i = 1; i <= 3; i++) {
      const res = await call(`/api/groups/${group.slug}/question-bank`, { body: { question: { text: `Bank ${i}`, type: "single", options: [`no ${i}`, `RIGHT ${i}`], correct: 1, points: 1 }, tags: ["loops"] }, token: teacher.accessToken });
      expect(res.status).toBe(201);
    }
  }
  const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: "Week 2", published: true }, token: teacher.accessToken })).json()) as { slug: string };
  const questions: unknown[] = [
    { text: "Pick RIGHT", type: "single", options: ["no", "RIGHT", "nope", "never"], correct: 1, points: 2 },
    { text: "Pick both RIGHT", type: "multiple", options: ["RIGHT a", "no", "RIGHT b"], correct: [0, 2], points: 3 },
    { text: "The capital of Egypt?", type: "short-text", correct: ["Cairo", "القاهرة"], points: 1 },
  ];
  if (options.code) {
    questions.push({
      text: "Write `triple(n)`.",
      type: "code",
      correct: REFERENCE,
      points: 4,
      code: { starterCode: "function triple(n) {\n}\n", tests: [{ name: "small", call: "triple(2)", expected: "6", points: 1 }, { name: "secret", call: "triple(7000)", expected: "21000", points: 1, hidden: true }], timeMs: 500, memoryMb: 8 },
    });
  }
  const made = await call("/api/quizzes", {
    body: {
      lectureId: lecture.slug,
      title: "اختبار الحلقات",
      durationMinutes: 20,
      maxAttempts: 2,
      showAnswers: "after-close",
      closesAt: "2099-01-01T10:00:00.000Z",
      published: options.published ?? true,
      shuffleOptions: options.shuffleOptions ?? false,
      questions,
      ...(options.draws ? { draws: [{ tag: "loops", count: 2, points: 5 }] } : {}),
    },
    token: teacher.accessToken,
  });
  expect(made.status).toBe(201);
  const quiz = (await made.json()) as { _id: string; slug: string };
  return { teacher, group, member, lecture, quiz };
}

const preview = (who: SignedIn | null, quiz: string, draw?: string) => call(`/api/quizzes/${quiz}/preview${draw ? `?draw=${draw}` : ""}`, { token: who?.accessToken });
const check = (who: SignedIn, quiz: string, draw: string, answers: Record<string, unknown>) => call(`/api/quizzes/${quiz}/preview`, { body: { draw, answers }, token: who.accessToken });
const pagePath = (group: string, quiz: string) => `/instructor/group/${group}/quiz-preview/${quiz}`;
const fields = (values: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(values)) f.set(k, v);
  return f;
};

/** The right answer for a question as shown: the options saying RIGHT (their places on this paper). */
const rightOf = (q: PreviewQuestion) => {
  if (q.type === "short-text") return "  cairo ";
  const idx = q.options.flatMap((o, i) => (o.includes("RIGHT") ? [i] : []));
  return q.type === "multiple" ? idx : idx[0]!;
};
const wrongOf = (q: PreviewQuestion) => (q.type === "short-text" ? "Giza" : q.type === "multiple" ? [q.options.findIndex((o) => !o.includes("RIGHT"))] : q.options.findIndex((o) => !o.includes("RIGHT")));

async function stored(quizId: string) {
  const [attempts] = await db().select({ n: count() }).from(s.attempts).where(eq(s.attempts.quizId, quizId));
  return attempts!.n;
}

describe("a quiz's preview", () => {
  it("is for the group's staff only, through the API and the page", async () => {
    const w = await world({ published: false });
    const admin = await signIn(await createUser({ role: "admin" }));
    const other = await signIn(await createUser({ role: "instructor" }));
    expect((await preview(null, w.quiz.slug)).status).toBe(401);
    // A member meets the staff-only role check; another instructor is told nothing about a draft quiz.
    expect((await preview(w.member, w.quiz.slug)).status).toBe(403);
    expect((await preview(other, w.quiz.slug)).status).toBe(404);
    expect((await check(other, w.quiz.slug, "abc", {})).status).toBe(404);
    expect((await preview(w.teacher, w.quiz.slug)).status).toBe(200);
    expect((await preview(admin, w.quiz.slug)).status).toBe(200);

    // Without a draw the page's address gets one, so a reload shows the same paper.
    const bare = await call(pagePath(w.group.slug, w.quiz.slug), { cookie: w.teacher.cookie });
    expect(bare.status).toBe(302);
    const page = bare.headers.get("location")!;
    const to = new URL(page, "http://cohort.test");
    expect(decodeURIComponent(to.pathname)).toBe(pagePath(w.group.slug, w.quiz.slug));
    expect(to.searchParams.get("draw")).toMatch(/^[A-Za-z0-9_-]{12}$/);
    // The page asks about the group first, which is published: the rule, saying nothing of the draft quiz.
    expect((await call(page, { cookie: other.cookie })).status).toBe(403);
    expect((await call(`${pagePath(w.group.slug, w.quiz.slug)}.data?draw=abc`, { method: "POST", form: fields({ intent: "check", draw: "abc", answers: "{}" }), cookie: other.cookie })).status).toBe(404);
    expect((await call(page, { cookie: w.member.cookie })).status).toBe(403);
    const html = await (await call(page, { cookie: w.teacher.cookie })).text();
    expect(html).toContain("اختبار الحلقات");
    expect(html).toContain("Pick both RIGHT");
    expect((await call(`/dashboard/admin/group/${w.group.slug}/quiz-preview/${w.quiz.slug}?draw=admin`, { cookie: admin.cookie })).status).toBe(200);
    // The quiz's group must be the address's group.
    const elsewhere = await createGroup({ instructorId: w.teacher.user.id });
    expect((await call(`${pagePath(elsewhere.slug, w.quiz.slug)}?draw=abc`, { cookie: w.teacher.cookie })).status).toBe(404);
  });

  it("sends the questions as a student's browser gets them (no key, no test), for a draft too, and stores nothing", async () => {
    const w = await world({ published: false, code: true });
    const res = await preview(w.teacher, w.quiz.slug);
    expect(res.status).toBe(200);
    const text = await res.text();
    const body = JSON.parse(text) as Preview;
    expect(body.questions.map((q) => q.text)).toEqual(["Pick RIGHT", "Pick both RIGHT", "The capital of Egypt?", "Write `triple(n)`."]);
    expect(body.paper).toBeNull();
    expect(body.quiz).toMatchObject({ questionCount: 4, maxScore: 10 });
    for (const q of body.questions) expect(Object.keys(q)).not.toEqual(expect.arrayContaining(["correct"]));
    expect(text).not.toContain("Cairo");
    expect(text).not.toContain("reference-marker");
    expect(text).not.toContain("triple(7000)");
    const page = await (await call(`${pagePath(w.group.slug, w.quiz.slug)}.data?draw=abc`, { cookie: w.teacher.cookie })).text();
    expect(page).not.toContain("Cairo");
    expect(page).not.toContain("reference-marker");
    expect(page).not.toContain("triple(7000)");
    expect(await stored(w.quiz._id)).toBe(0);
  });

  it("checks answers against the paper shown: right ones earn their points, wrong ones none, nothing stored or announced", async () => {
    const w = await world({ shuffleOptions: true });
    const first = (await (await preview(w.teacher, w.quiz.slug, "paper-one")).json()) as Preview;
    // The same draw is the same paper; the page's own draw is a fresh one each time it is not given.
    expect(((await (await preview(w.teacher, w.quiz.slug, "paper-one")).json()) as Preview).questions).toEqual(first.questions);
    expect(first.paper).toEqual({ drawsFromBank: false, shuffleQuestions: false, shuffleOptions: true });
    const papers = new Set<string>();
    for (let i = 0; i < 8; i++) papers.add(JSON.stringify(((await (await preview(w.teacher, w.quiz.slug, `paper-${i}`)).json()) as Preview).questions.map((q) => q.options)));
    expect(papers.size).toBeGreaterThan(1);

    const right = Object.fromEntries(first.questions.map((q) => [q._id, rightOf(q)]));
    const full = (await (await check(w.teacher, w.quiz.slug, first.draw, right)).json()) as Checked;
    expect(full.maxScore).toBe(6);
    expect(full.score).toBe(6);
    expect(full.questions.map((q) => [q.right, q.earned])).toEqual([[true, 2], [true, 3], [true, 1]]);
    // The key comes with the check, in the paper's places.
    expect(full.questions[0]!.correct).toEqual([first.questions[0]!.options.indexOf("RIGHT")]);

    const wrong = Object.fromEntries(first.questions.map((q) => [q._id, wrongOf(q)]));
    const none = (await (await check(w.teacher, w.quiz.slug, first.draw, wrong)).json()) as Checked;
    expect(none.score).toBe(0);
    // Half of it: the single choice right, the rest unanswered.
    const some = (await (await check(w.teacher, w.quiz.slug, first.draw, { [first.questions[0]!._id]: right[first.questions[0]!._id] })).json()) as Checked;
    expect(some.score).toBe(2);

    // Answers to a question that is not on the paper, or of the wrong shape, are refused with words.
    const stranger = await check(w.teacher, w.quiz.slug, first.draw, { "no-such-question": 1 });
    expect(stranger.status).toBe(400);
    expect(((await stranger.json()) as { message: string }).message).toMatch(/\w/);
    expect((await check(w.teacher, w.quiz.slug, "not a draw!", right)).status).toBe(400);
    expect((await preview(w.teacher, w.quiz.slug, "x".repeat(33))).status).toBe(400);

    // Through the page: the same check, the same score.
    const viaPage = await call(`${pagePath(w.group.slug, w.quiz.slug)}.data`, { method: "POST", form: fields({ intent: "check", draw: first.draw, answers: JSON.stringify(right) }), cookie: w.teacher.cookie });
    expect(viaPage.status).toBe(200);
    expect(await viaPage.text()).toContain('"score",6');
    expect((await call(`${pagePath(w.group.slug, w.quiz.slug)}.data`, { method: "POST", form: fields({ draw: first.draw, answers: "{}" }), cookie: w.teacher.cookie })).status).toBe(400);

    expect(await stored(w.quiz._id)).toBe(0);
    const [notes] = await db().select({ n: count() }).from(s.notifications).where(eq(s.notifications.userId, w.teacher.user.id));
    expect(notes!.n).toBe(0);
  });

  it("runs a code answer's tests as a hand-in would, hidden ones by name for staff", async () => {
    const w = await world({ code: true });
    const paper = (await (await preview(w.teacher, w.quiz.slug, "code")).json()) as Preview;
    const code = paper.questions.find((q) => q.type === "code")!;
    const right = (await (await check(w.teacher, w.quiz.slug, paper.draw, { [code._id]: "function triple(n) { return 3 * n; }" })).json()) as Checked;
    const checkedRight = right.questions.find((q) => q._id === code._id)!;
    expect(checkedRight).toMatchObject({ right: true, earned: 4 });
    expect(checkedRight.tests).toEqual([{ name: "small", passed: true, hidden: false }, { name: "secret", passed: true, hidden: true }]);
    const wrong = (await (await check(w.teacher, w.quiz.slug, paper.draw, { [code._id]: "function triple(n) { return n < 10 ? n * 3 : 0; }" })).json()) as Checked;
    const checkedWrong = wrong.questions.find((q) => q._id === code._id)!;
    expect(checkedWrong).toMatchObject({ right: false, earned: 0 });
    expect(checkedWrong.tests).toEqual([{ name: "small", passed: true, hidden: false }, { name: "secret", passed: false, hidden: true }]);
    expect(await stored(w.quiz._id)).toBe(0);
  });

  it("draws from the bank as a student's paper does, and says when the bank is short", async () => {
    const w = await world({ draws: true });
    const paper = (await (await preview(w.teacher, w.quiz.slug, "bank")).json()) as Preview;
    expect(paper.paper?.drawsFromBank).toBe(true);
    expect(paper.missing).toBe(0);
    const drawn = paper.questions.filter((q) => q.text.startsWith("Bank "));
    expect(drawn).toHaveLength(2);
    expect(drawn.every((q) => q.points === 5)).toBe(true);
    const checked = (await (await check(w.teacher, w.quiz.slug, paper.draw, Object.fromEntries(paper.questions.map((q) => [q._id, rightOf(q)])))).json()) as Checked;
    expect(checked).toMatchObject({ score: 16, maxScore: 16 });

    // The bank refuses to lose what a published quiz draws; a course copied without its bank questions has lost them.
    const bank = await db().select({ id: s.bankQuestions.id }).from(s.bankQuestions).where(eq(s.bankQuestions.groupId, w.group.id));
    for (const q of bank.slice(0, 2)) await db().delete(s.bankQuestions).where(eq(s.bankQuestions.id, q.id));
    const short = (await (await preview(w.teacher, w.quiz.slug, "bank")).json()) as Preview;
    expect(short.missing).toBe(1);
  });
});
