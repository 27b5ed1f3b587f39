/**
 * Late penalty (issue 21): besides refusing late work or accepting it flagged, a task can take a percentage of the
 * grade per started day late, never below a floor. The student sees the rule and what handing in now costs before
 * handing in; staff give the score they mean and the penalty is applied visibly (score and rawScore).
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { afterPenalty, latePenalty } from "../../app/lib/late-penalty";
import { addMember, call, createGroup, createUser, signIn, waitForMails, type ErrorBody } from "./factories";
import { db, unique } from "./helpers";

const DAY = 86_400_000;
const HOUR = 3_600_000;

async function world(task: { dueInMs: number; perDay?: number; floor?: number; allowLate?: boolean }) {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const student = await signIn(await createUser());
  await addMember(student.user, group);
  const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: unique("Week"), published: true }, token: teacher.accessToken })).json()) as { slug: string };
  const created = await call(`/api/lectures/${lecture.slug}/tasks`, {
    body: { title: unique("Card"), dueAt: new Date(Date.now() + task.dueInMs).toISOString(), maxScore: 100, allowLate: task.allowLate ?? true, latePenaltyPerDay: task.perDay ?? 10, latePenaltyFloor: task.floor ?? 50 },
    token: teacher.accessToken,
  });
  expect(created.status).toBe(201);
  const t = (await created.json()) as { _id: string; slug: string; latePenaltyPerDay: number; latePenaltyFloor: number };
  const base = `/api/lectures/${lecture.slug}/tasks/${t.slug}`;
  const handIn = () => call(`/api/lectures/${lecture.slug}/submit-task/${t.slug}`, { body: { link: "https://github.com/me/card" }, token: student.accessToken });
  const grade = async (score: number) => {
    const [row] = await db().select().from(s.submissions).where(and(eq(s.submissions.taskId, t._id), eq(s.submissions.userId, student.user.id)));
    return call(`${base}/submissions/${row!.id}`, { method: "PUT", body: { score, feedback: "Fine" }, token: teacher.accessToken });
  };
  return { teacher, group, student, lecture, task: t, base, handIn, grade };
}

describe("the late-penalty rule", () => {
  const rules = { dueAt: "2027-03-01T09:00:00Z", latePenaltyPerDay: 10, latePenaltyFloor: 50 };
  const at = (ms: number) => Date.parse(rules.dueAt) + ms;

  it("takes 10 % per started day and never more than down to the 50 % floor", () => {
    expect(latePenalty(rules, at(-1))).toEqual({ days: 0, percent: 0 });
    expect(latePenalty(rules, at(0))).toEqual({ days: 0, percent: 0 });
    expect(latePenalty(rules, at(1))).toEqual({ days: 1, percent: 10 });
    expect(latePenalty(rules, at(DAY))).toEqual({ days: 1, percent: 10 });
    expect(latePenalty(rules, at(DAY + 1))).toEqual({ days: 2, percent: 20 });
    expect(latePenalty(rules, at(5 * DAY))).toEqual({ days: 5, percent: 50 });
    expect(latePenalty(rules, at(9 * DAY))).toEqual({ days: 9, percent: 50 });
    expect(latePenalty({ ...rules, latePenaltyPerDay: 0 }, at(3 * DAY))).toEqual({ days: 0, percent: 0 });
    expect(latePenalty({ ...rules, dueAt: null }, at(3 * DAY))).toEqual({ days: 0, percent: 0 });
    expect(afterPenalty(85, 20)).toBe(68);
    expect(afterPenalty(85, 50)).toBe(43);
  });
});

describe("late penalty", () => {
  it("applies 30 % to a hand-in 2.5 days late: 80 given counts as 56, and the student sees both", async () => {
    const w = await world({ dueInMs: -(2 * DAY + 12 * HOUR) });
    expect(w.task).toMatchObject({ latePenaltyPerDay: 10, latePenaltyFloor: 50 });
    const handed = await w.handIn();
    expect(handed.status).toBe(201);
    expect(((await handed.json()) as { submission: { late: boolean; latePenalty: unknown } }).submission).toMatchObject({ late: true, latePenalty: { days: 3, percent: 30 } });

    const graded = await w.grade(80);
    expect(graded.status).toBe(200);
    expect(await graded.json()).toMatchObject({ score: 56, rawScore: 80, latePenalty: { days: 3, percent: 30 } });
    const mine = (await (await call(`${w.base}/submissions`, { token: w.student.accessToken })).json()) as { submissions: unknown[] };
    expect(mine.submissions[0]).toMatchObject({ score: 56, rawScore: 80, state: "graded" });
    // Progress counts what the student keeps.
    const progress = (await (await call(`/api/users/groups/${w.group.slug}/progress`, { token: w.student.accessToken })).json()) as { tasks: { rate: number } };
    expect(progress.tasks.rate).toBe(56);
    const [mail] = await waitForMails(w.student.user.email, /was graded: 56\/100/);
    expect(mail!.text).toContain("80 before the late penalty");
    // The task page says both numbers.
    const page = await (await call(`/course/${w.group.slug}/lecture/${w.lecture.slug}/Add-Task/${w.task.slug}`, { cookie: w.student.cookie, headers: { accept: "text/html" } })).text();
    expect(page).toContain("80 before the 30% late penalty");
  });

  it("stops at the floor: a week late keeps 50 %", async () => {
    const w = await world({ dueInMs: -(6 * DAY + 12 * HOUR) });
    await w.handIn();
    expect(await (await w.grade(90)).json()).toMatchObject({ score: 45, rawScore: 90, latePenalty: { days: 7, percent: 50 } });
  });

  it("takes nothing on time, and stores no raw score then", async () => {
    const w = await world({ dueInMs: DAY });
    await w.handIn();
    expect(await (await w.grade(90)).json()).toMatchObject({ score: 90, rawScore: null, latePenalty: { days: 0, percent: 0 } });
  });

  it("tells the student, before they hand in late, what it costs", async () => {
    const w = await world({ dueInMs: -(DAY + HOUR) });
    const page = await (await call(`/course/${w.group.slug}/lecture/${w.lecture.slug}/Add-Task/${w.task.slug}`, { cookie: w.student.cookie, headers: { accept: "text/html" } })).text();
    expect(page).toContain("Late work loses 10% a day, 50% at most");
    const note = /<p class="task-penalty-now"[^>]*>([^<]*)<\/p>/.exec(page)?.[1];
    expect(note).toBe("Handing in now, 2 days late, loses 20% of the grade.");
  });

  it("takes whole percents from 0 to 100 only", async () => {
    const w = await world({ dueInMs: DAY });
    for (const body of [{ latePenaltyPerDay: 101 }, { latePenaltyPerDay: -1 }, { latePenaltyPerDay: 2.5 }, { latePenaltyFloor: 120 }, { latePenaltyPerDay: "ten" }]) {
      const res = await call(w.base, { method: "PUT", body, token: w.teacher.accessToken });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as ErrorBody).message).toBeTruthy();
    }
    expect(await (await call(w.base, { method: "PUT", body: { latePenaltyPerDay: 25, latePenaltyFloor: 0 }, token: w.teacher.accessToken })).json()).toMatchObject({ latePenaltyPerDay: 25, latePenaltyFloor: 0 });
  });
});
