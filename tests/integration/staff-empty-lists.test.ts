/**
 * The staff's Tasks and Quizzes lists of a group with nothing on them yet: they say what is missing and, while the
 * group has no lecture (every task and quiz hangs on one), send the instructor to add a lecture first; once there is
 * a lecture, the list offers to set a task or quiz on it instead. Read from the rendered HTML, in both languages.
 */
import { describe, expect, it } from "vitest";
import { call, createGroup, createUser, signIn } from "./factories";
import { unique } from "./helpers";

/** The empty state's paragraphs and links, as text, or null when the list shows none. */
function emptyState(html: string) {
  const box = /<div class="empty-state">([\s\S]*?)<\/div>/.exec(html);
  if (!box) return null;
  const text = (s: string) => s.replace(/<[^>]+>/g, "").replace(/<!-- -->/g, "").trim();
  return {
    lines: [...box[1]!.matchAll(/<p[^>]*>([\s\S]*?)<\/p>/g)].map((m) => text(m[1]!)),
    links: [...box[1]!.matchAll(/<a[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g)].map((m) => [text(m[2]!), m[1]!]),
  };
}

describe("the staff's empty Tasks and Quizzes lists", () => {
  it("ask for a lecture first while there is none, then say the list is empty", async () => {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const group = await createGroup({ instructorId: teacher.user.id, title: unique("Empty") });
    const base = `/instructor/group/${group.slug}`;
    const page = async (path: string, lang = "en") => {
      const res = await call(`${base}/${path}`, { cookie: `${teacher.cookie}; lang=${lang}` });
      expect(res.status, path).toBe(200);
      return emptyState(await res.text());
    };

    expect(await page("tasks")).toEqual({
      lines: ["No tasks yet", "Add a lecture first: tasks belong to lectures."],
      links: [["New lecture", `${base}/lectures`]],
    });
    expect(await page("quizzes")).toEqual({
      lines: ["No quizzes yet", "Add a lecture first: every quiz belongs to a lecture."],
      links: [["New lecture", `${base}/lectures`]],
    });
    const arabic = await page("tasks", "ar");
    expect(arabic?.lines[1]).toBe("أضف محاضرة أولًا: المهام تتبع المحاضرات.");
    expect(arabic?.links).toEqual([[expect.stringMatching(/[\u0600-\u06FF]/), `${base}/lectures`]]);

    const lecture = await call(`/api/lectures/group/${group.slug}`, { body: { title: "Week 1", published: true }, token: teacher.accessToken });
    expect(lecture.status).toBe(201);
    const tasks = await page("tasks");
    expect(tasks?.lines[0]).toBe("No tasks yet");
    expect(tasks?.lines[1]).not.toMatch(/lecture first/);
    expect(tasks?.links).toEqual([]);
    const quizzes = await page("quizzes");
    expect(quizzes?.lines[0]).toBe("No quizzes yet");
    expect(quizzes?.links).toEqual([]);
  });
});
