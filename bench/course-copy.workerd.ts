/**
 * npm run bench:copy — copying a course (issue 22) in D1 statements and time, inside workerd with the real D1.
 *
 * A large group (50 lectures, 100 tasks with 50 code exercises, 50 quizzes of 4 questions, rubrics, a bank) is
 * copied as a new group, and one lecture of it (2 tasks, 1 quiz) is copied alone; each is run 5 times, interleaved.
 * It prints the statements each copy prepared and the median time, and their ratios to the one lecture. A copy is
 * INSERT ... SELECT through copy_map, so the statements stay the same whatever the size; the time grows with the
 * rows D1 writes. Nothing is asserted.
 */
import { env } from "cloudflare:test";
import { it } from "vitest";
import { createDb } from "../db/client";
import * as s from "../db/schema";
import { copyGroup, copyLecture } from "../worker/services/course-copy";
import { newId } from "../worker/services/ids";
import { countingContext } from "../tests/integration/helpers";

const DAY = 86_400_000;

async function insertAll<T extends Record<string, unknown>>(db: ReturnType<typeof createDb>, table: Parameters<typeof db.insert>[0], rows: T[], perRow: number) {
  const slice = Math.max(1, Math.floor(90 / perRow));
  for (let i = 0; i < rows.length; i += slice) await db.insert(table).values(rows.slice(i, i + slice) as never);
}

async function largeGroup() {
  const db = createDb(env.DB);
  const instructorId = newId();
  await db.insert(s.users).values({ id: instructorId, slug: `bench-${instructorId.slice(0, 8).toLowerCase()}`, name: "Bench Instructor", email: `${instructorId.slice(0, 8).toLowerCase()}@bench.example`, role: "instructor" });
  const groupId = newId();
  await db.insert(s.groups).values({ id: groupId, slug: `bench-${groupId.slice(0, 8).toLowerCase()}`, title: "Bench group", status: "published", startDate: "2027-01-11", instructorId });
  const rubricId = newId();
  await db.insert(s.rubrics).values({ id: rubricId, groupId, title: "Rubric", criteria: [{ id: "c", title: "Work", description: "", levels: [{ title: "Good", description: "", points: 10 }, { title: "None", description: "", points: 0 }] }], updatedAt: new Date() });
  const first = Date.UTC(2027, 0, 11, 16, 0);
  const lectures = [], tasks = [], exercises = [], quizzes = [], questions = [];
  for (let i = 0; i < 50; i++) {
    const id = newId();
    const startsAt = new Date(first + Math.floor(i / 2) * 7 * DAY + (i % 2) * 2 * DAY);
    lectures.push({ id, groupId, slug: `bl-${id.slice(0, 10).toLowerCase()}`, title: `Lecture ${i + 1}`, body: "## Notes\n\nSome text.", resources: [{ title: "MDN", url: "https://developer.mozilla.org" }], startsAt, order: i, published: true });
    for (let k = 0; k < 2; k++) {
      const taskId = newId();
      tasks.push({ id: taskId, lectureId: id, slug: `bt-${taskId.slice(0, 10).toLowerCase()}`, title: `Task ${i + 1}.${k + 1}`, body: "Build it.", dueAt: new Date(startsAt.getTime() + 6 * DAY), maxScore: 10, rubricId: k === 0 ? rubricId : null });
      if (k === 1) exercises.push({ taskId, tests: [{ name: "adds", call: "add(1, 2)", expected: "3", hidden: false, points: 1 }], referenceSolution: "function add(a, b) { return a + b }", published: true, updatedAt: new Date() });
    }
    const quizId = newId();
    quizzes.push({ id: quizId, lectureId: id, groupId, slug: `bq-${quizId.slice(0, 10).toLowerCase()}`, title: `Quiz ${i + 1}`, durationMinutes: 15, opensAt: startsAt, closesAt: new Date(startsAt.getTime() + 2 * DAY), published: true });
    for (let q = 0; q < 4; q++) questions.push({ id: newId(), quizId, text: `Question ${q + 1}`, type: "single" as const, options: ["a", "b"], correct: [0], points: 1, order: q });
  }
  await insertAll(db, s.lectures, lectures, 12);
  await insertAll(db, s.tasks, tasks, 16);
  await insertAll(db, s.exercises, exercises, 10);
  await insertAll(db, s.quizzes, quizzes, 17);
  await insertAll(db, s.questions, questions, 9);
  // Where the lone lecture goes (so the large group stays the same size round after round).
  const targetId = newId();
  await db.insert(s.groups).values({ id: targetId, slug: `bench-${targetId.slice(0, 8).toLowerCase()}`, title: "Bench target", status: "draft", instructorId });
  return { groupId, targetId, instructorId, lectureId: lectures[0]!.id };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

it("copies a large group and one lecture: statements and time as ratios", async () => {
  const w = await largeGroup();
  const viewer = { userId: w.instructorId, role: "instructor" as const, sessionId: "bench", name: "Bench Instructor", email: "" };
  const { ctx, count, reset } = countingContext();
  const runs = { group: [] as number[], lecture: [] as number[] };
  const statements = { group: 0, lecture: 0 };
  let copied = { lectures: 0, tasks: 0, quizzes: 0, questions: 0 };
  for (let round = 0; round < 5; round++) {
    reset();
    let t0 = performance.now();
    const big = await copyGroup(ctx, viewer, w.groupId, { title: `Copy ${round}`, startDate: "2027-07-05" });
    runs.group.push(performance.now() - t0);
    statements.group = count();
    copied = big.copied;
    reset();
    t0 = performance.now();
    await copyLecture(ctx, viewer, w.lectureId, { groupId: w.targetId, startsAt: Date.UTC(2027, 1, 2, 16, 0) });
    runs.lecture.push(performance.now() - t0);
    statements.lecture = count();
  }
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
  console.log(
    [
      "",
      `Course copy (issue 22), ${copied.lectures} lectures, ${copied.tasks} tasks, ${copied.quizzes} quizzes, ${copied.questions} questions vs one lecture (2 tasks, 1 quiz, 4 questions); 5 rounds each, interleaved`,
      `  D1 statements: whole group ${statements.group}, one lecture ${statements.lecture}: ${ratio(statements.group, statements.lecture)}`,
      `  median time:   whole group ${median(runs.group).toFixed(1)} ms, one lecture ${median(runs.lecture).toFixed(1)} ms: ${ratio(median(runs.group), median(runs.lecture))}`,
      `  rows copied:   ${copied.lectures + copied.tasks + copied.quizzes + copied.questions} vs 8: ${ratio(copied.lectures + copied.tasks + copied.quizzes + copied.questions, 8)} (the time follows the rows D1 writes; the statements do not)`,
      "",
    ].join("\n"),
  );
});
