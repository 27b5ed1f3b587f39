/**
 * "On this lecture" beside a lecture's editor: its tasks and quizzes, each linking to its own editor, with the way to
 * set a new task or quiz on this lecture; for the group's instructor and for admins, in both languages, in a number
 * of statements that does not grow with the lecture's items.
 */
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { loadLectureEditor } from "../../app/lib/lectures.server";
import { newId } from "../../worker/services/ids";
import { call, createGroup, createUser, signIn, viewerOf } from "./factories";
import { countingContext, db, insertAll, unique } from "./helpers";

const DAY = 86_400_000;

async function lectureWith(tasks: number, quizzes: number) {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const lecture = { id: newId(), groupId: group.id, slug: unique("items-lecture"), title: "Week 3", body: "", order: 1, published: true };
  await db().insert(s.lectures).values(lecture);
  const now = Date.now();
  const taskRows = Array.from({ length: tasks }, (_, i) => ({
    id: newId(),
    lectureId: lecture.id,
    slug: unique(`task-${i}`),
    title: `Task ${i + 1}`,
    dueAt: new Date(now + (i + 2) * DAY),
    // The second task is shown to students only later.
    publishAt: i === 1 ? new Date(now + DAY) : null,
  }));
  const quizRows = Array.from({ length: quizzes }, (_, i) => ({
    id: newId(),
    groupId: group.id,
    lectureId: lecture.id,
    slug: unique(`quiz-${i}`),
    title: `Quiz ${i + 1}`,
    opensAt: new Date(now + i * DAY),
    closesAt: new Date(now + (i + 1) * DAY),
    // The first quiz is still a draft.
    published: i !== 0,
  }));
  if (taskRows.length) await insertAll(s.tasks, taskRows);
  if (quizRows.length) await insertAll(s.quizzes, quizRows);
  return { teacher, group, lecture, taskRows, quizRows };
}

const html = async (cookie: string, path: string) => {
  const res = await call(path, { cookie, headers: { accept: "text/html" } });
  return { status: res.status, text: await res.text() };
};

describe("a lecture's tasks and quizzes beside its editor", () => {
  it("lists each with a link to its editor, marks drafts and scheduled ones, and links to a new task and quiz on this lecture", async () => {
    const w = await lectureWith(2, 2);
    const base = `/instructor/group/${w.group.slug}`;
    const page = await html(w.teacher.cookie, `${base}/lectures/update/${w.lecture.slug}`);
    expect(page.status).toBe(200);
    const card = page.text.slice(page.text.indexOf('id="lecture-items-title"'));
    expect(card).toContain("On this lecture");
    for (const task of w.taskRows) expect(card).toContain(`href="${base}/lecture/${w.lecture.slug}/tasks/updateTask/${task.slug}"`);
    for (const quiz of w.quizRows) expect(card).toContain(`href="${base}/lecture/${w.lecture.slug}/quiz/updateQuiz/${quiz.slug}"`);
    expect(card).toContain(`href="${base}/lectures/${w.lecture.slug}/newTask"`);
    expect(card).toContain(`href="${base}/lectures/${w.lecture.slug}/newQuiz"`);
    // One draft quiz and one scheduled task are marked; the rest are not.
    const items = card.slice(0, card.indexOf("</section>"));
    expect(items.match(/>Draft</g)?.length).toBe(1);
    expect(items.match(/Scheduled for/g)?.length).toBe(1);
    // Tasks by due time, quizzes by opening time.
    expect(items.indexOf("Task 1")).toBeLessThan(items.indexOf("Task 2"));
    expect(items.indexOf("Quiz 1")).toBeLessThan(items.indexOf("Quiz 2"));

    // The pages those open say what they make, then for which lecture.
    expect((await html(w.teacher.cookie, `${base}/lectures/${w.lecture.slug}/newTask`)).text).toContain(">New task · Week 3</h1>");
    expect((await html(w.teacher.cookie, `${base}/lectures/${w.lecture.slug}/newQuiz`)).text).toContain(">New quiz · Week 3</h1>");

    const arabic = await html(`${w.teacher.cookie}; lang=ar`, `${base}/lectures/update/${w.lecture.slug}`);
    expect(arabic.text).toContain("على هذه المحاضرة");
    expect(arabic.text).toContain("مهمة جديدة");
    expect(arabic.text).toContain("اختبار جديد");
  });

  it("says when nothing is set yet, and gives admins links into their own area", async () => {
    const w = await lectureWith(0, 0);
    const admin = await signIn(await createUser({ role: "admin" }));
    const base = `/dashboard/admin/group/${w.group.slug}`;
    const page = await html(admin.cookie, `${base}/lectures/update/${w.lecture.slug}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("No task is set on this lecture yet.");
    expect(page.text).toContain("No quiz is set on this lecture yet.");
    expect(page.text).toContain(`href="${base}/lectures/${w.lecture.slug}/newTask"`);
    expect(page.text).toContain(`href="${base}/lectures/${w.lecture.slug}/newQuiz"`);
  });

  it("is read in the same number of statements for 1 and for 30 of each", async () => {
    const measure = async (n: number) => {
      const w = await lectureWith(n, n);
      const counter = countingContext();
      const data = await loadLectureEditor(counter.ctx, viewerOf(w.teacher), { slug: w.group.slug, slugLecture: w.lecture.slug });
      expect(data.items.tasks).toHaveLength(n);
      expect(data.items.quizzes).toHaveLength(n);
      return counter.count();
    };
    expect(await measure(30)).toBe(await measure(1));
  });
});
