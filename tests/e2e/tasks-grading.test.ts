/**
 * Tasks end to end: a student hands in a link on the task page, the instructor grades with the keyboard in the
 * grader and moves on to the next ungraded student, and the student sees the grade and the formatted feedback.
 */
import { describe, expect, it } from "vitest";
import { baseURL, gotoHydrated, useBrowser } from "./browser";
import { accessToken, api, INSTRUCTOR, memberOf } from "./groups-helpers";
import { DEMO_LOGINS, signIn } from "./session";

describe("tasks and grading", () => {
  const newPage = useBrowser();

  it("a student submits, the instructor grades with the keyboard and moves to the next ungraded, the student sees the grade", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Grading ${stamp}`, published: true })).body;
    const task = (await api<{ slug: string }>(token, "POST", `/api/lectures/${lecture.slug}/tasks`, { title: `Landing page ${stamp}`, maxScore: 50 })).body;
    const [first, second] = [await memberOf("frontend-react", "grade-a", `Aya Grade ${stamp}`), await memberOf("frontend-react", "grade-b", `Bassel Grade ${stamp}`)];

    // The first student hands in on the task page; the second through the API.
    const student = await newPage({ width: 375, height: 800 });
    await signIn(student.context(), first.email, first.password);
    const taskPath = `/course/frontend-react/lecture/${lecture.slug}/Add-Task/${task.slug}`;
    await gotoHydrated(student, taskPath);
    await student.getByLabel("Link to your work").fill(`https://github.com/aya/${stamp}`);
    await student.getByRole("button", { name: "Hand in your work" }).click();
    await student.getByText("Your work was handed in.").waitFor();
    expect((await api(await accessToken(second), "POST", `/api/lectures/${lecture.slug}/submit-task/${task.slug}`, { link: "https://bassel.example.dev" })).status).toBe(201);

    const grader = await newPage();
    await signIn(grader.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(grader, `/instructor/group/frontend-react/lecture/${lecture.slug}/tasks/${task.slug}/submissions`);
    expect(await grader.getByTestId("graded-count").textContent()).toBe("Graded 0 of 2");
    // J / K move between students.
    const name = grader.locator("#grader-name");
    const firstShown = await name.textContent();
    await grader.keyboard.press("j");
    await expect.poll(() => name.textContent()).not.toBe(firstShown);
    await grader.keyboard.press("k");
    await expect.poll(() => name.textContent()).toBe(firstShown);
    // Grade whoever is shown first: score, feedback, Ctrl+Enter saves and moves to the next ungraded.
    await grader.locator("#grader-score").focus();
    await grader.keyboard.type("45");
    await grader.keyboard.press("Tab");
    await grader.keyboard.type("Great **structure**.");
    await grader.keyboard.press("Control+Enter");
    await expect.poll(() => grader.getByTestId("graded-count").textContent()).toBe("Graded 1 of 2");
    await expect.poll(() => name.textContent()).not.toBe(firstShown);

    // Whoever was graded sees it; make sure it is the first student by grading the other one too.
    await grader.locator("#grader-score").focus();
    await grader.keyboard.type("40");
    await grader.keyboard.press("Control+Enter");
    await expect.poll(() => grader.getByTestId("graded-count").textContent()).toBe("Graded 2 of 2");
    // The counter moves at once; the server must end up with both grades too (the second save, sent while the first
    // was still in flight, once aborted it and lost a grade).
    await expect
      .poll(async () => (await api<{ submissions: { score: number | null }[] }>(token, "GET", `/api/lectures/${lecture.slug}/tasks/${task.slug}/submissions`)).body.submissions.map((x) => x.score).sort())
      .toEqual([40, 45]);

    await gotoHydrated(student, taskPath);
    const grade = await student.locator(".task-grade").textContent();
    expect(grade === "Grade: 45 / 50" || grade === "Grade: 40 / 50").toBe(true);
    expect(await student.locator(".task-state").first().textContent()).toBe("Graded");

    // The course home lists the task with its state and the same grade.
    await gotoHydrated(student, "/course/frontend-react");
    const row = student.locator(".course-task", { hasText: `Landing page ${stamp}` });
    expect(await row.locator(".task-state").textContent()).toBe("Graded");
    expect(await row.locator(".course-task-grade").textContent()).toBe(grade);
  });
});

describe("the task screens in both languages", () => {
  const newPage = useBrowser();
  const words = {
    en: { graded: "Graded", grade: "Grade: 92 / 100", feedback: "Feedback" },
    ar: { graded: "قُيِّم", grade: "الدرجة: 92 / 100", feedback: "ملاحظات المدرّب" },
  };
  const sideways = (page: import("playwright-core").Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  for (const lang of ["en", "ar"] as const) {
    for (const width of [1280, 375]) {
      it(`the course home, task page, tasks list and grader at ${width} px in ${lang === "en" ? "English" : "Arabic"}`, async () => {
        // The demo student's graded work (db/seed.ts): 92 out of 100 with feedback.
        const student = await newPage({ width, height: 800 });
        await student.context().addCookies([{ name: "lang", value: lang, url: baseURL() }]);
        await signIn(student.context(), DEMO_LOGINS.student.email, DEMO_LOGINS.student.password);
        await gotoHydrated(student, "/course/frontend-react");
        expect(await student.locator("html").getAttribute("dir")).toBe(lang === "ar" ? "rtl" : "ltr");
        const row = student.locator(".course-task", { hasText: "Build an accessible profile card" });
        expect(await row.locator(".task-state").textContent()).toBe(words[lang].graded);
        expect(await row.locator(".course-task-grade").textContent()).toBe(words[lang].grade);
        // The feedback opens from the row, rendered from Markdown.
        await row.locator("summary", { hasText: words[lang].feedback }).click();
        expect(await row.locator(".course-task-feedback .prose p").textContent()).toContain("Great semantics");
        expect(await sideways(student)).toBe(0);

        // The lecture page lists the task with the same state.
        await gotoHydrated(student, "/course/frontend-react/lecture/html-foundations");
        const item = student.locator(".lecture-work-item", { hasText: "Build an accessible profile card" });
        expect(await item.locator(".task-state").textContent()).toBe(words[lang].graded);
        expect(await sideways(student)).toBe(0);

        await gotoHydrated(student, "/course/frontend-react");
        await row.getByRole("link").click();
        await student.waitForURL("**/Add-Task/accessible-profile-card");
        expect(await student.locator(".task-grade").textContent()).toBe(words[lang].grade);
        expect(await sideways(student)).toBe(0);

        const staff = await newPage({ width, height: 800 });
        await staff.context().addCookies([{ name: "lang", value: lang, url: baseURL() }]);
        await signIn(staff.context(), INSTRUCTOR.email, INSTRUCTOR.password);
        await gotoHydrated(staff, "/instructor/group/frontend-react/tasks");
        // Each task links to its own lecture's pages (the title and the lecture's slug are the task's own).
        expect(await staff.getByRole("link", { name: "Build an accessible profile card", exact: true }).getAttribute("href")).toBe(
          "/instructor/group/frontend-react/lecture/html-foundations/tasks/updateTask/accessible-profile-card",
        );
        expect(await sideways(staff)).toBe(0);
        await gotoHydrated(staff, "/instructor/group/frontend-react/lecture/html-foundations/tasks/accessible-profile-card/submissions");
        await staff.getByTestId("graded-count").waitFor();
        expect(await sideways(staff)).toBe(0);
      });
    }
  }
});
