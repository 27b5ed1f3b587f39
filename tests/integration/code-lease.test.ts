/**
 * One student's code runs one at a time (worker/services/code-lease.ts). A hostile student sent thirty hand-ins of
 * an endless loop at once (the same quiz hand-in, or exercises) and every one ran in the sandbox: a classmate's
 * hand-in waited over a minute behind them. Here the runner is a stand-in that takes 150 ms and counts how many runs
 * of each student overlap; the services are the real ones, on D1.
 */
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { createServiceContext } from "../../worker/context";
import { AppError } from "../../worker/http/errors";
import { checkReference, submitCode } from "../../worker/services/exercises";
import { newId } from "../../worker/services/ids";
import { startAttempt, submitQuiz } from "../../worker/services/quizzes";
import { addMember, createUser, signIn, viewerOf } from "./factories";
import { exercise, send, world } from "./exercise-fixtures";
import { leaseFor } from "../../worker/services/code-lease";
import { db } from "./helpers";

/** A stand-in runner: each run takes `ms`; it records the most runs of one student's code (by its marker) at once. */
function countingRunner(ms: number) {
  const running = new Map<string, number>();
  const most = new Map<string, number>();
  const calls: string[] = [];
  const run = async (_language: string, code: string) => {
    const who = /who:(\w+)/.exec(code)?.[1] ?? "?";
    calls.push(who);
    running.set(who, (running.get(who) ?? 0) + 1);
    most.set(who, Math.max(most.get(who) ?? 0, running.get(who)!));
    await new Promise((r) => setTimeout(r, ms));
    running.set(who, running.get(who)! - 1);
    return { results: [{ name: "t", points: 1, hidden: false, passed: false, ms: 1 }], score: 0, maxScore: 1, ms: 1 };
  };
  const ctx = createServiceContext({ ...env, RUNNER: { run } as never }, { waitUntil: () => {} });
  return { ctx, most, calls };
}

describe("a student's code runs one at a time", () => {
  it("an exercise's hand-ins sent at once run one after another, while a classmate's runs beside them", async () => {
    const w = await world();
    expect((await send(w.teacher, "PUT", `/api/exercises/${w.task.slug}`, exercise())).status).toBe(200);
    const mate = await signIn(await createUser());
    await addMember(mate.user, w.group);
    const runner = countingRunner(150);
    const mine = Array.from({ length: 5 }, (_, i) => submitCode(runner.ctx, viewerOf(w.student), w.task.slug, `/* who:ana ${i} */ function sum() { for (;;) {} }`).then(() => "ok", (e) => e));
    const theirs = submitCode(runner.ctx, viewerOf(mate), w.task.slug, "/* who:ben */ function sum(a, b) { return a + b; }");
    const outcomes = await Promise.all(mine);
    await theirs;
    expect(outcomes).toEqual(["ok", "ok", "ok", "ok", "ok"]);
    // Ana's five ran one at a time; Ben's ran while hers were queued (his is not behind hers).
    expect(runner.most.get("ana")).toBe(1);
    expect(runner.calls.indexOf("ben")).toBeLessThan(runner.calls.lastIndexOf("ana"));
  });

  it("staff code takes the lease too: an instructor's reference run fifteen times at once runs one at a time", async () => {
    const w = await world();
    expect((await send(w.teacher, "PUT", `/api/exercises/${w.task.slug}`, exercise({ referenceSolution: "/* who:staff */ function sum(a, b) { return a + b; }" }))).status).toBe(200);
    const runner = countingRunner(30);
    const runs = await Promise.all(Array.from({ length: 15 }, () => checkReference(runner.ctx, viewerOf(w.teacher), w.task.slug).then(() => "ok", (e) => e)));
    expect(runs.every((r) => r === "ok")).toBe(true);
    expect(runner.calls).toHaveLength(15);
    expect(runner.most.get("staff")).toBe(1);
  });

  it("a lease lasts as long as a hand-in's runs may: a minute at least, 6 s more for each code question", () => {
    expect(leaseFor(1)).toBe(60_000);
    // Fifty code questions of up to 6 s each (ADR 0016's budget) outlast a minute.
    expect(leaseFor(50)).toBe(50 * 6_000 + 10_000);
  });

  it("a hand-in that waits longer than 8 s for the student's running code is refused with a clear 429, and nothing is stored", async () => {
    const w = await world();
    expect((await send(w.teacher, "PUT", `/api/exercises/${w.task.slug}`, exercise())).status).toBe(200);
    // Another of the student's runs holds the lease (as a run in another isolate would).
    await db().insert(s.rateLimits).values({ key: `code-run:${w.student.user.id}`, count: 1, resetAt: new Date(Date.now() + 60_000) });
    const runner = countingRunner(10);
    const started = Date.now();
    const refused = await submitCode(runner.ctx, viewerOf(w.student), w.task.slug, "/* who:ana */ function sum(a, b) { return a + b; }").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 429, code: "code_busy", message: "Your last hand-in is still being checked. Try again in a moment." });
    expect((refused as AppError).retryAfterSeconds).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(8_000);
    expect(runner.calls).toEqual([]);
    expect(await db().select().from(s.submissions).where(eq(s.submissions.taskId, w.task.id))).toEqual([]);
  }, 20_000);

  it("the same quiz hand-in sent ten times at once runs the code once, and every one answers that result", async () => {
    const teacher = await createUser({ role: "instructor" });
    const w = await world();
    await db().update(s.groups).set({ instructorId: teacher.id }).where(eq(s.groups.id, w.group.id));
    const quiz = { id: newId(), lectureId: w.lecture.id, groupId: w.group.id, slug: `code-${w.group.slug}`, title: "Code quiz", durationMinutes: 10, maxAttempts: 1, showAnswers: "after-submit" as const, published: true };
    await db().insert(s.quizzes).values(quiz);
    const q = { id: newId(), quizId: quiz.id, text: "Write add", type: "code" as const, options: [], correct: ["function add(a, b) { return a + b; }"], points: 2, order: 0, code: { starterCode: "", timeMs: 300, memoryMb: 8, tests: [{ name: "t", call: "add(1, 2)", expected: "3", points: 1, hidden: false }] } };
    await db().insert(s.questions).values(q as never);
    const runner = countingRunner(150);
    const viewer = viewerOf(w.student);
    const started = await startAttempt(runner.ctx, viewer, quiz.slug);
    const answers = { [q.id]: "/* who:ana */ function add() { while (true) {} }" };
    const all = await Promise.all(Array.from({ length: 10 }, () => submitQuiz(runner.ctx, viewer, quiz.slug, { answers, attemptId: started.attempt._id })));
    expect(runner.calls).toEqual(["ana"]);
    expect(all.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(all.map((r) => r.attempt._id))).toEqual(new Set([started.attempt._id]));
    const rows = await db().select().from(s.attempts).where(and(eq(s.attempts.quizId, quiz.id), eq(s.attempts.userId, w.student.user.id)));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.submittedAt).not.toBeNull();
  });
});
