/**
 * The trail above a member's course pages: every one of them (course home, lecture, task, quiz and its result) starts
 * at My Courses, in the reader's language, then names the course and the pages between, the page itself last and
 * marked as current. Read from the rendered HTML of the real Worker.
 */
import { describe, expect, it } from "vitest";
import { addMember, call, createGroup, createUser, signIn } from "./factories";
import { unique } from "./helpers";

async function world() {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id, title: unique("Frontend") });
  const student = await signIn(await createUser());
  await addMember(student.user, group);
  const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: "Week 2: Hooks", published: true }, token: teacher.accessToken })).json()) as { slug: string };
  const task = await call(`/api/lectures/${lecture.slug}/tasks`, { body: { title: "Profile card", dueAt: new Date(Date.now() + 86_400_000).toISOString(), maxScore: 100 }, token: teacher.accessToken });
  expect(task.status).toBe(201);
  const quiz = await call("/api/quizzes", {
    body: { lectureId: lecture.slug, title: "Hooks check", description: "", durationMinutes: 10, opensAt: null, closesAt: null, maxAttempts: 1, showAnswers: "after-submit", published: true, questions: [{ text: "Is `useState` a hook?", type: "true-false", correct: 0, points: 1 }] },
    token: teacher.accessToken,
  });
  expect(quiz.status).toBe(201);
  return { group, student, lecture, task: (await task.json()) as { slug: string }, quiz: (await quiz.json()) as { slug: string } };
}

/** The breadcrumb's items as [text, href or "current"], from a page's HTML. */
function trail(html: string): [string, string][] {
  const nav = /<nav aria-label="[^"]*" class="breadcrumb">([\s\S]*?)<\/nav>/.exec(html);
  expect(nav, "the page has a breadcrumb").not.toBeNull();
  return [...nav![1]!.matchAll(/<li([^>]*)>([\s\S]*?)<\/li>/g)].map(([, attrs, inner]) => {
    const text = inner!.replace(/<svg[\s\S]*?<\/svg>/g, "").replace(/<[^>]+>/g, "").replace(/<!-- -->/g, "").trim();
    const href = /href="([^"]*)"/.exec(inner!)?.[1];
    return [text, href ?? (/aria-current="page"/.test(attrs!) ? "current" : "none")];
  });
}

describe("course pages' breadcrumb", () => {
  it("starts at My Courses on the course home, lecture, task and quiz pages, and ends with the page itself", async () => {
    const w = await world();
    const course = `/course/${w.group.slug}`;
    const lecture = `${course}/lecture/${w.lecture.slug}`;
    const page = async (path: string, lang?: string) => {
      const res = await call(path, { cookie: lang ? `${w.student.cookie}; lang=${lang}` : w.student.cookie });
      expect(res.status, path).toBe(200);
      return trail(await res.text());
    };
    const top: [string, string][] = [["My Courses", "/my-courses"]];
    expect(await page(course)).toEqual([...top, [w.group.title, "current"]]);
    expect(await page(lecture)).toEqual([...top, [w.group.title, course], ["Week 2: Hooks", "current"]]);
    expect(await page(`${lecture}/Add-Task/${w.task.slug}`)).toEqual([...top, [w.group.title, course], ["Week 2: Hooks", lecture], ["Profile card", "current"]]);
    const quiz = `${lecture}/quiz/${w.quiz.slug}`;
    expect(await page(quiz)).toEqual([...top, [w.group.title, course], ["Week 2: Hooks", lecture], ["Hooks check", "current"]]);

    // The quiz's result is a page below the quiz: the quiz is a link, the result the current page.
    const start = await call(`/api/quizzes/${w.quiz.slug}/start`, { method: "POST", token: w.student.accessToken });
    expect(start.status).toBe(201);
    expect((await call(`/api/quizzes/${w.quiz.slug}/submit`, { body: { answers: {} }, token: w.student.accessToken })).status).toBe(201);
    const result = await page(`${quiz}/result`);
    expect(result.slice(0, 4)).toEqual([...top, [w.group.title, course], ["Week 2: Hooks", lecture], ["Hooks check", quiz]]);
    expect(result).toHaveLength(5);
    expect(result[4]![1]).toBe("current");

    // In Arabic the first step is in Arabic too.
    expect((await page(`${lecture}/Add-Task/${w.task.slug}`, "ar"))[0]).toEqual(["كورساتي", "/my-courses"]);
    expect((await page(quiz, "ar"))[0]).toEqual(["كورساتي", "/my-courses"]);
  });
});
