/**
 * The browser's code comes in a few shell chunks (vite.config.ts, `shellChunks`; ADR 49): what a page loads is the
 * same as before, in fewer files. Each `modulepreload` link is a request for the browser and an element the server
 * renders into every page: the landing page had 22 of them, and a member's course home 32.
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addMember, call, createGroup, createUser, signIn } from "./factories";
import { unique } from "./helpers";

/** The script files a page asks the browser to preload, by file name (without the hash). */
async function preloads(path: string, cookie?: string): Promise<string[]> {
  const res = await SELF.fetch(`http://localhost${path}`, { headers: cookie ? { cookie } : {} });
  expect(res.status, path).toBe(200);
  const html = await res.text();
  return [...html.matchAll(/<link rel="modulepreload" href="\/assets\/([^"]+)-[\w-]{8}\.js"/g)].map((m) => m[1]!);
}

describe("the browser's code", () => {
  it("reaches the landing page in at most 12 files (it was 22), the root's modules in one", async () => {
    const files = await preloads("/");
    expect(files).toContain("shell");
    expect(files.length).toBeGreaterThan(2);
    expect(files.length).toBeLessThanOrEqual(12);
    // Each file once.
    expect(new Set(files).size).toBe(files.length);
  });

  it("gives a public page only chunks its layout needs, and a staff page none of the public site's", async () => {
    const publicShells = (await preloads("/courses")).filter((f) => f.startsWith("shell-"));
    expect(publicShells.length).toBeGreaterThan(0);
    for (const chunk of publicShells) expect(chunk.split("-"), chunk).toContain("public");

    const instructor = await signIn(await createUser({ role: "instructor" }));
    const staffShells = (await preloads("/instructor", instructor.cookie)).filter((f) => f.startsWith("shell-"));
    expect(staffShells.length).toBeGreaterThan(0);
    for (const chunk of staffShells) expect(chunk.split("-"), chunk).toContain("instructor");
  });

  it("keeps the validation library (zod) on the server: no quiz, task, grading or cohort page downloads a schema chunk", async () => {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const group = await createGroup({ instructorId: teacher.user.id });
    const student = await signIn(await createUser());
    await addMember(student.user, group);
    const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: unique("Week"), published: true }, token: teacher.accessToken })).json()) as { _id: string; slug: string };
    const task = (await (await call(`/api/lectures/${lecture.slug}/tasks`, { body: { title: unique("Card"), maxScore: 10 }, token: teacher.accessToken })).json()) as { slug: string };
    const quiz = (await (await call("/api/quizzes", { body: { lectureId: lecture._id, title: unique("Quiz"), published: true, questions: [{ text: "Is it?", type: "true-false", correct: 0 }] }, token: teacher.accessToken })).json()) as { slug: string };
    const staff = `/instructor/group/${group.slug}`;
    const pages: [string, string][] = [
      [`/course/${group.slug}`, student.cookie],
      [`/course/${group.slug}/lecture/${lecture.slug}/quiz/${quiz.slug}`, student.cookie],
      [`/course/${group.slug}/lecture/${lecture.slug}/Add-Task/${task.slug}`, student.cookie],
      [`${staff}/quizzes`, teacher.cookie],
      [`${staff}/tasks`, teacher.cookie],
      [`${staff}/cohort`, teacher.cookie],
      [`${staff}/lecture/${lecture.slug}/tasks/${task.slug}/submissions`, teacher.cookie],
    ];
    for (const [path, cookie] of pages) {
      const files = await preloads(path, cookie);
      // A shared chunk is named after one of its modules: zod's own ("schemas"), or one of ours that imports it.
      expect(files.filter((f) => /schemas$|^countries$/.test(f)), path).toEqual([]);
    }
  });

  it("preloads the Arabic face on an Arabic page only (the Latin one on every page)", async () => {
    const fontsOf = async (cookie: string) => {
      const html = await (await SELF.fetch("http://localhost/courses?fonts=1", { headers: { cookie } })).text();
      return [...html.matchAll(/<link rel="preload" href="([^"]+\.woff2)" as="font"/g)].map((m) => m[1]!);
    };
    const arabic = await fontsOf("lang=ar");
    const english = await fontsOf("lang=en");
    expect(arabic.some((href) => /noto-kufi-arabic/.test(href))).toBe(true);
    expect(english.some((href) => /noto-kufi-arabic/.test(href))).toBe(false);
    for (const fonts of [arabic, english]) expect(fonts.some((href) => /inter-latin/.test(href))).toBe(true);
  });
});
