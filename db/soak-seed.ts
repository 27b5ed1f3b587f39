/**
 * Load-test data for bench/soak.mjs (development only: reached through POST /api/dev/seed, which answers 404
 * elsewhere): one published group with N approved students who share one fresh random password. The bench then
 * signs each of them in through the real login endpoint. With `coursework`, the group also has what progress
 * counts (bench/progress.mjs): 6 lectures (5 held), everyone's attendance, 3 tasks with hand-ins (some graded) and
 * a quiz everyone has taken.
 */
import { getTableColumns, type Table } from "drizzle-orm";
import type { ServiceContext } from "../worker/context";
import { hashPassword } from "../worker/auth/password";
import { base64url, newId } from "../worker/services/ids";
import * as s from "./schema";

export const SOAK_MAX_USERS = 1000;

export interface SoakSeed {
  group: { _id: string; slug: string };
  password: string;
  emails: string[];
}

export async function seedSoakGroup(ctx: ServiceContext, count: number, opts: { coursework?: boolean } = {}): Promise<SoakSeed> {
  const run = newId().slice(0, 8).toLowerCase().replace(/[^a-z0-9]/g, "x");
  const password = base64url(crypto.getRandomValues(new Uint8Array(18)));
  // One hash for everyone: the bench measures chat, not password hashing.
  const passwordHash = await hashPassword(password, ctx.settings.passwordPepper);
  const group = { id: newId(), slug: `soak-${run}`, title: `Soak test ${run}`, status: "published" as const };
  const now = new Date();
  const users = Array.from({ length: count }, (_, i) => ({
    id: newId(),
    slug: `soak-${run}-${i}`,
    name: `Soak ${i}`,
    email: `soak-${run}-${i}@soak.example`,
    passwordHash,
    role: "user" as const,
    emailVerifiedAt: now,
  }));
  const members = users.map((u) => ({ id: newId(), userId: u.id, groupId: group.id, status: "approved" as const }));
  // D1 binds at most 100 values per statement, and Drizzle binds every column of the table for each row.
  const statements = [
    ctx.db.insert(s.groups).values(group),
    ...chunk(users, rowsPerInsert(s.users)).map((part) => ctx.db.insert(s.users).values(part)),
    ...chunk(members, rowsPerInsert(s.memberships)).map((part) => ctx.db.insert(s.memberships).values(part)),
  ] as const;
  await ctx.db.batch(statements);
  if (opts.coursework) await seedCoursework(ctx, group.id, group.slug, users.map((u) => u.id));
  return { group: { _id: group.id, slug: group.slug }, password, emails: users.map((u) => u.email) };
}

const DAY = 86_400_000;

async function seedCoursework(ctx: ServiceContext, groupId: string, slug: string, userIds: string[]) {
  const now = Date.now();
  const lectures = Array.from({ length: 6 }, (_, i) => ({ id: newId(), groupId, slug: `${slug}-l${i}`, title: `Week ${i + 1}`, order: i, startsAt: new Date(now + (i - 5) * DAY), published: true }));
  const tasks = lectures.slice(0, 3).map((l, i) => ({ id: newId(), lectureId: l.id, slug: `${slug}-t${i}`, title: `Task ${i + 1}`, dueAt: new Date(now + (i - 1) * DAY), maxScore: 100 }));
  const quiz = { id: newId(), lectureId: lectures[0]!.id, groupId, slug: `${slug}-q`, title: "Check", opensAt: new Date(now - 2 * DAY), closesAt: new Date(now + DAY), maxAttempts: 2, published: true };
  const question = { id: newId(), quizId: quiz.id, text: "2 + 2?", type: "single" as const, options: ["3", "4"], correct: [1], points: 4, order: 0 };
  const statuses = ["present", "present", "late", "absent", "present"] as const;
  const attendance = userIds.flatMap((userId, u) =>
    lectures.slice(0, 5).map((l, i) => ({ id: newId(), lectureId: l.id, userId, status: statuses[(u + i) % statuses.length]!, method: "code" as const, markedAt: new Date(now) })),
  );
  const submissions = userIds.flatMap((userId, u) =>
    tasks.slice(0, 2).map((t) => ({ id: newId(), taskId: t.id, userId, link: "https://github.com/soak/work", submittedAt: new Date(now), late: false, score: u % 3 ? 60 + (u % 40) : null })),
  );
  const attempts = userIds.map((userId, u) => ({ id: newId(), quizId: quiz.id, userId, answers: {}, score: u % 5, maxScore: 4, number: 1, startedAt: new Date(now - DAY), submittedAt: new Date(now - DAY + 60_000) }));
  // Each statement stays under D1's 100 bound values.
  await ctx.db.batch([
    ctx.db.insert(s.lectures).values(lectures),
    ctx.db.insert(s.tasks).values(tasks),
    ctx.db.insert(s.quizzes).values(quiz),
    ctx.db.insert(s.questions).values(question),
    ...chunk(attendance, rowsPerInsert(s.attendance)).map((part) => ctx.db.insert(s.attendance).values(part)),
    ...chunk(submissions, rowsPerInsert(s.submissions)).map((part) => ctx.db.insert(s.submissions).values(part)),
    ...chunk(attempts, rowsPerInsert(s.attempts)).map((part) => ctx.db.insert(s.attempts).values(part)),
  ]);
}

/** How many rows of `table` one INSERT may carry under D1's 100 bound values. */
function rowsPerInsert(table: Table): number {
  return Math.max(1, Math.floor(100 / Object.keys(getTableColumns(table)).length));
}

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
