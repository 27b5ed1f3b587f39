/**
 * Every refusal in the reader's language (ADR 42): the quiz editor's and the task form's validation, error pages'
 * titles. Rendered by the server as a browser without JavaScript receives them, in English and in Arabic.
 */
import { describe, expect, it } from "vitest";
import { SELF } from "cloudflare:test";
import { call, createGroup, createUser, ORIGIN, signIn } from "./factories";
import { unique } from "./helpers";

/** What the page shows: its markup without its scripts (the action's data, English for the API's sake, rides in one). */
const shown = async (res: Response) => (await res.text()).replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "");
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? null;

async function staffWorld() {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: unique("Week"), published: true }, token: teacher.accessToken })).json()) as { slug: string };
  const post = (path: string, fields: Record<string, string>, lang: "en" | "ar") =>
    SELF.fetch(`${ORIGIN}${path}`, {
      method: "POST",
      headers: { cookie: `${teacher.cookie}; lang=${lang}`, origin: ORIGIN, accept: "text/html", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  return { teacher, group, lecture, post, base: `/instructor/group/${group.slug}/lectures/${lecture.slug}` };
}

describe("validation in the reader's language", () => {
  it("the quiz editor names what is missing in Arabic, with no English sentence inside", async () => {
    const w = await staffWorld();
    const payload = JSON.stringify({ title: "", questions: [{ text: "", type: "single", options: ["", ""], correct: [0], points: 1 }], draws: [], published: false });
    const ar = await shown(await w.post(`${w.base}/newQuiz`, { intent: "save", payload }, "ar"));
    // The only question has no number (its legend reads "Question", as the question bank's editor).
    expect(ar).toContain("راجع السؤال: اكتب نص السؤال.");
    expect(ar).toContain("بعض الأسئلة تحتاج إلى تصحيح: كلٌّ منها يذكر ما المطلوب.");
    for (const english of ["Each question needs its text.", "Please enter a title.", "An option cannot be empty."]) expect(ar).not.toContain(english);
    const en = await shown(await w.post(`${w.base}/newQuiz`, { intent: "save", payload }, "en"));
    expect(en).toContain("Please check the question: write the question.");
  });

  it("the task form's summary of a refused form is in Arabic", async () => {
    const w = await staffWorld();
    // As the form sends it: its Save button names the intent.
    const ar = await shown(await w.post(`${w.base}/newTask`, { intent: "save", title: "Essay", maxScore: "10", latePenaltyPerDay: "abc" }, "ar"));
    expect(ar).toContain("يرجى مراجعة الحقول المحدّدة.");
    expect(ar).not.toContain("Please check the highlighted fields.");
  });
});

describe("error pages are titled as they read", () => {
  it("a role's area refused (403) and a course that does not exist (404)", async () => {
    const student = await signIn(await createUser());
    const get = (path: string, lang: string) => SELF.fetch(`${ORIGIN}${path}`, { headers: { cookie: `${student.cookie}; lang=${lang}`, accept: "text/html" } });
    for (const path of ["/dashboard", "/instructor"]) {
      const en = await get(path, "en");
      expect(en.status).toBe(403);
      expect(titleOf(await en.text())).toBe("Not allowed | Cohort");
      expect(titleOf(await (await get(path, "ar")).text())).toMatch(/^غير مسموح \| /);
    }
    const missing = await get("/course/no-such-course", "en");
    expect(missing.status).toBe(404);
    expect(titleOf(await missing.text())).toBe("Page not found | Cohort");
  });
});
