/**
 * Statements built once per isolate (db/prepared.ts): a prepared query answers as the same query built for the
 * request does, runs on the request's own D1 session (counted and coalesced with its other reads), and is built once.
 */
import { env } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { preparedOnce } from "../../db/prepared";
import { counted } from "../../worker/http/d1-session";
import { addMember, createGroup, createUser, signIn } from "./factories";
import { db, serviceContext, unique } from "./helpers";
import { readSession } from "../../worker/services/sessions";
import { hashToken } from "../../worker/auth/tokens";
import { newId } from "../../worker/services/ids";
import { listLectures } from "../../worker/services/lectures";
import { listGroupTasks } from "../../worker/services/tasks";
import { listGroupQuizzes } from "../../worker/services/quizzes";
import { memberProgress } from "../../worker/services/progress";
import type { Viewer } from "../../worker/services/sessions";

describe("a statement prepared once", () => {
  it("is built once per key, and answers each request with its own values", async () => {
    const key = `test.byEmail.${unique("k")}`;
    let builds = 0;
    const a = await createUser({ name: `A ${unique("n")}` });
    const b = await createUser({ name: `B ${unique("n")}` });
    const byEmail = async (email: string) => {
      const { ctx } = serviceContext();
      const query = preparedOnce(ctx, key, (db) => {
        builds += 1;
        return db.select({ name: s.users.name }).from(s.users).where(eq(s.users.email, sql.placeholder("email")));
      });
      return (await query.all({ email }))[0]?.name ?? null;
    };
    expect(await byEmail(a.email)).toBe(a.name);
    expect(await byEmail(b.email)).toBe(b.name);
    expect(await byEmail("nobody@test.example")).toBeNull();
    expect(builds).toBe(1);
  });

  it("runs on the request's session: its statements are that session's", async () => {
    const user = await createUser();
    const session = await signIn(user);
    // Built once by another context first, so this one uses the kept template.
    await readSession(serviceContext().ctx, session.refreshToken);
    const count = counted(env.DB);
    const { ctx } = serviceContext({ ...env, DB: count.db });
    const read = await readSession(ctx, session.refreshToken);
    expect(read?.viewer.userId).toBe(user.id);
    expect(count.count()).toBe(1);
    // Building a template prepares nothing on the request's session: a first use counts one statement too.
    const fresh = counted(env.DB);
    const first = serviceContext({ ...env, DB: fresh.db }).ctx;
    const key = `test.first.${unique("k")}`;
    await preparedOnce(first, key, (db) => db.select({ id: s.users.id }).from(s.users).where(eq(s.users.id, sql.placeholder("id")))).all({ id: user.id });
    expect(fresh.count()).toBe(1);
  });

  it("reads a session as the rules say: current or just-rotated token of a live session only", async () => {
    const user = await createUser();
    const live = await signIn(user);
    const { ctx } = serviceContext();
    expect((await readSession(ctx, live.refreshToken))?.viewer).toMatchObject({ userId: user.id, sessionId: live.sessionId, name: user.name, email: user.email });
    // A token rotated away 10 s ago still reads (the 30 s grace of page reads); one rotated 40 s ago does not.
    const hash = await hashToken(live.refreshToken);
    await db().update(s.sessions).set({ refreshTokenHash: `rotated-${unique("h")}` }).where(eq(s.sessions.id, live.sessionId));
    await db().insert(s.sessionRotations).values({ tokenHash: hash, sessionId: live.sessionId, rotatedAt: new Date(Date.now() - 10_000) });
    expect((await readSession(ctx, live.refreshToken))?.viewer.userId).toBe(user.id);
    await db().update(s.sessionRotations).set({ rotatedAt: new Date(Date.now() - 40_000) }).where(eq(s.sessionRotations.tokenHash, hash));
    expect(await readSession(ctx, live.refreshToken)).toBeNull();
    // Expired and revoked sessions never read.
    const expired = await signIn(user);
    await db().update(s.sessions).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(s.sessions.id, expired.sessionId));
    expect(await readSession(ctx, expired.refreshToken)).toBeNull();
    const revoked = await signIn(user);
    await db().update(s.sessions).set({ revokedAt: new Date() }).where(eq(s.sessions.id, revoked.sessionId));
    expect(await readSession(ctx, revoked.refreshToken)).toBeNull();
  });

  it("keeps the staff's and the students' lists apart: a list built once for one is never the other's", async () => {
    const teacher = await createUser({ role: "instructor" });
    const student = await createUser();
    const other = await createUser();
    const group = await createGroup({ instructorId: teacher.id });
    await addMember(student, group);
    await addMember(other, group);
    const day = 86_400_000;
    const shown = { id: newId(), groupId: group.id, slug: unique("shown"), title: "Shown", body: "", published: true, startsAt: new Date(Date.now() - day) };
    const draft = { id: newId(), groupId: group.id, slug: unique("draft"), title: "Draft", body: "", published: false, startsAt: new Date(Date.now() + day) };
    await db().insert(s.lectures).values([shown, draft]);
    const taskId = newId();
    await db().insert(s.tasks).values([
      { id: taskId, lectureId: shown.id, slug: unique("open"), title: "Open task", body: "", maxScore: 10 },
      { id: newId(), lectureId: shown.id, slug: unique("later"), title: "Scheduled task", body: "", maxScore: 10, publishAt: new Date(Date.now() + day) },
    ]);
    await db().insert(s.quizzes).values([
      { id: newId(), lectureId: shown.id, groupId: group.id, slug: unique("q"), title: "Live quiz", published: true },
      { id: newId(), lectureId: shown.id, groupId: group.id, slug: unique("q"), title: "Quiz draft", published: false },
    ]);
    await db().insert(s.submissions).values({ id: newId(), taskId, userId: student.id, link: "https://github.com/a/b", submittedAt: new Date() });
    const as = (u: { id: string; name: string; email: string }, role: Viewer["role"]): Viewer => ({ userId: u.id, role, sessionId: "prepared", name: u.name, email: u.email });
    const staffView = as(teacher, "instructor");
    const studentView = as(student, "user");
    const otherView = as(other, "user");
    const lists = async (viewer: Viewer) => {
      const { ctx } = serviceContext();
      const [lectures, tasks, quizzes] = await Promise.all([listLectures(ctx, viewer, group.id), listGroupTasks(ctx, viewer, group.id), listGroupQuizzes(ctx, viewer, group.id)]);
      return {
        lectures: lectures.map((l) => l.title).sort(),
        tasks: tasks.map((t) => `${t.title}:${t.submission?.state ?? "staff"}`).sort(),
        quizzes: quizzes.map((q) => q.title).sort(),
      };
    };
    // Staff first, then students, then staff again: each reuses only its own kind's statement.
    const everything = { lectures: ["Draft", "Shown"], tasks: ["Open task:staff", "Scheduled task:staff"], quizzes: ["Live quiz", "Quiz draft"] };
    expect(await lists(staffView)).toEqual(everything);
    expect(await lists(studentView)).toEqual({ lectures: ["Shown"], tasks: ["Open task:submitted"], quizzes: ["Live quiz"] });
    // The same statement with another student's values: their own hand-in state, not the first student's.
    expect(await lists(otherView)).toEqual({ lectures: ["Shown"], tasks: ["Open task:not-submitted"], quizzes: ["Live quiz"] });
    expect(await lists(staffView)).toEqual(everything);
    // A student's own progress, built once, is theirs: one hand-in of one task for the first, none for the other.
    const mine = await memberProgress(serviceContext().ctx, studentView, group.id);
    const theirs = await memberProgress(serviceContext().ctx, otherView, group.id);
    expect([mine.user._id, mine.tasks.submitted]).toEqual([student.id, 1]);
    expect([theirs.user._id, theirs.tasks.submitted]).toEqual([other.id, 0]);
  });
});
