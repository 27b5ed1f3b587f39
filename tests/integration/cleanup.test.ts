/**
 * The daily housekeeping through the Worker's real `scheduled` handler: old revoked and expired sessions, used and
 * expired codes, ended rate-limit windows and mails older than 30 days go; everything still in use stays.
 */
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import worker from "../../worker";
import { newId } from "../../worker/services/ids";
import { createUser } from "./factories";
import { db, unique } from "./helpers";

const DAY = 24 * 60 * 60 * 1000;

async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled!(createScheduledController({ scheduledTime: new Date(), cron: "17 3 * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

async function session(userId: string, over: Partial<typeof s.sessions.$inferInsert>) {
  const id = newId();
  const now = Date.now();
  await db().insert(s.sessions).values({ id, userId, refreshTokenHash: newId(), family: id, lastUsedAt: new Date(now), expiresAt: new Date(now + 30 * DAY), ...over });
  return id;
}

async function code(userId: string, over: Partial<typeof s.oneTimeCodes.$inferInsert>) {
  const id = newId();
  await db().insert(s.oneTimeCodes).values({ id, userId, purpose: "reset-password", codeHash: "x", expiresAt: new Date(Date.now() + 10 * 60_000), ...over });
  return id;
}

describe("the daily cleanup (Cron Trigger)", () => {
  it("deletes sessions revoked or expired more than 7 days ago and keeps live and recently ended ones", async () => {
    const user = await createUser();
    const now = Date.now();
    const gone = [await session(user.id, { revokedAt: new Date(now - 8 * DAY) }), await session(user.id, { expiresAt: new Date(now - 8 * DAY) })];
    const kept = [
      await session(user.id, {}),
      await session(user.id, { revokedAt: new Date(now - 6 * DAY) }),
      await session(user.id, { expiresAt: new Date(now - 6 * DAY) }),
    ];
    await runCron();
    const left = (await db().select({ id: s.sessions.id }).from(s.sessions).where(inArray(s.sessions.id, [...gone, ...kept]))).map((r) => r.id);
    expect(left.sort()).toEqual([...kept].sort());
  });

  it("deletes codes used or expired more than a day ago and keeps a code inside its 10 minutes", async () => {
    const user = await createUser();
    const now = Date.now();
    const gone = [await code(user.id, { usedAt: new Date(now - 2 * DAY) }), await code(user.id, { expiresAt: new Date(now - 2 * DAY) })];
    const kept = [await code(user.id, {}), await code(user.id, { usedAt: new Date(now - 60_000) })];
    await runCron();
    const left = (await db().select({ id: s.oneTimeCodes.id }).from(s.oneTimeCodes).where(inArray(s.oneTimeCodes.id, [...gone, ...kept]))).map((r) => r.id);
    expect(left.sort()).toEqual([...kept].sort());
  });

  it("deletes ended rate-limit windows and keeps running ones", async () => {
    const [ended, running] = [unique("rl-ended"), unique("rl-running")];
    await db().insert(s.rateLimits).values([
      { key: ended, count: 9, resetAt: new Date(Date.now() - 1_000) },
      { key: running, count: 9, resetAt: new Date(Date.now() + 60_000) },
    ]);
    await runCron();
    const left = (await db().select({ key: s.rateLimits.key }).from(s.rateLimits).where(inArray(s.rateLimits.key, [ended, running]))).map((r) => r.key);
    expect(left).toEqual([running]);
  });

  it("deletes mails older than 30 days", async () => {
    const to = `${unique("old")}@test.example`;
    const base = { to, subject: "s", text: "t", html: "<p>t</p>" };
    await db().insert(s.mails).values([
      { id: newId(), ...base, subject: "old", createdAt: new Date(Date.now() - 31 * DAY) },
      { id: newId(), ...base, subject: "recent", createdAt: new Date(Date.now() - 29 * DAY) },
    ]);
    await runCron();
    expect((await db().select({ subject: s.mails.subject }).from(s.mails).where(eq(s.mails.to, to))).map((m) => m.subject)).toEqual(["recent"]);
  });

  it("deletes pending QR check-ins a day after they expired, and keeps the recent ones", async () => {
    const teacher = await createUser({ role: "instructor" });
    const group = { id: newId(), slug: unique("g"), title: "G", instructorId: teacher.id };
    await db().insert(s.groups).values(group);
    const lecture = { id: newId(), groupId: group.id, slug: unique("l"), title: "L", order: 1, published: true };
    await db().insert(s.lectures).values(lecture);
    const session = { id: newId(), lectureId: lecture.id, opensAt: new Date(Date.now() - 2 * DAY), closesAt: new Date(Date.now() - DAY), createdBy: teacher.id };
    await db().insert(s.attendanceSessions).values(session);
    const pending = (age: number) => ({ id: newId(), lectureId: lecture.id, sessionId: session.id, browserHash: newId(), status: "present" as const, scannedAt: new Date(Date.now() - age), expiresAt: new Date(Date.now() - age + 5 * 60_000) });
    const old = pending(2 * DAY);
    const recent = pending(60_000);
    await db().insert(s.attendancePendingCheckins).values([old, recent]);
    await runCron();
    const left = await db().select({ id: s.attendancePendingCheckins.id }).from(s.attendancePendingCheckins).where(eq(s.attendancePendingCheckins.lectureId, lecture.id));
    expect(left.map((r) => r.id)).toEqual([recent.id]);
  });
});
