/**
 * A quiz's "Before you start" rules say what its clock is: a timed attempt ends when its time is up; a quiz with no
 * time limit but a closing time is handed in when it closes (not "when the time is up"); a quiz with neither has no
 * clock rules at all. Read from the rendered page, in English and Arabic.
 */
import { describe, expect, it } from "vitest";
import { addMember, call, createGroup, createUser, signIn } from "./factories";
import { unique } from "./helpers";

describe("a quiz's rules before starting", () => {
  it("speak of the time limit, of the closing time, or of neither, as the quiz has them", async () => {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const group = await createGroup({ instructorId: teacher.user.id, title: unique("Rules") });
    const student = await signIn(await createUser());
    await addMember(student.user, group);
    const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: "Week 1", published: true }, token: teacher.accessToken })).json()) as { slug: string };
    const quiz = async (title: string, durationMinutes: number | null, closesAt: string | null) => {
      const res = await call("/api/quizzes", {
        body: { lectureId: lecture.slug, title, description: "", durationMinutes, opensAt: null, closesAt, maxAttempts: 1, showAnswers: "after-submit", published: true, questions: [{ text: "Yes?", type: "true-false", correct: 0, points: 1 }] },
        token: teacher.accessToken,
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { slug: string }).slug;
    };
    const rules = async (slug: string, lang = "en") => {
      const res = await call(`/course/${group.slug}/lecture/${lecture.slug}/quiz/${slug}`, { cookie: `${student.cookie}; lang=${lang}` });
      expect(res.status).toBe(200);
      const html = await res.text();
      return html;
    };
    const closes = new Date(Date.now() + 7 * 86_400_000).toISOString();

    const timed = await rules(await quiz("Timed", 15, closes));
    expect(timed).toContain("The time is kept by the server");
    expect(timed).not.toContain("There is no time limit, but the quiz closes");

    const untimed = await rules(await quiz("Until Friday", null, closes));
    expect(untimed).toContain("There is no time limit, but the quiz closes at the time shown");
    expect(untimed).toContain("more than a few seconds after the quiz closes do not count");
    expect(untimed).not.toContain("The time is kept by the server");
    expect(untimed).not.toContain("after the time is up");
    const arabic = await rules(await quiz("حتى الجمعة", null, closes), "ar");
    expect(arabic).toContain("لا حد زمنيًا للمحاولة، لكن الاختبار يُغلق في الموعد المعروض");

    const open = await rules(await quiz("Any time", null, null));
    expect(open).not.toContain("The time is kept by the server");
    expect(open).not.toContain("the quiz closes at the time shown");
  });
});
