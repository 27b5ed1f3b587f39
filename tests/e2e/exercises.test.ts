/**
 * Code exercises end to end (issue "Code exercises graded at the edge"): a student writes a solution in CodeMirror,
 * runs the visible tests in the browser (an endless loop ends in a clear message and the page stays usable), fixes
 * a failure, hands in and is graded by the hidden tests too; the draft survives a reload. An instructor makes a new
 * code task and can publish it only once the reference solution passes, then runs changed tests again on the hand-ins. The screens at 1280 and 375 px in both
 * languages.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, gotoHydrated, useBrowser } from "./browser";
import { accessToken, api, INSTRUCTOR, memberOf } from "./groups-helpers";
import { DEMO_LOGINS, signIn } from "./session";

/** Replaces the whole content of a CodeMirror editor (insertText: no auto-closed brackets on top). */
async function setCode(page: Page, selector: string, code: string) {
  const editor = page.locator(selector);
  await editor.waitFor();
  await editor.click();
  await page.keyboard.press("Control+a");
  await page.keyboard.insertText(code);
}

const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe("code exercises", () => {
  const newPage = useBrowser();

  it("a student runs the visible tests, survives a loop, fixes a failure, hands in and is graded by every test", async () => {
    const student = await memberOf("frontend-react", "coder", `Coder ${Date.now().toString(36)}`);
    const page = await newPage({ width: 375, height: 800 });
    await signIn(page.context(), student.email, student.password);
    // The demo's "chunk" exercise (db/seed.ts): 2 visible tests of 2 points, 2 hidden of 3.
    const path = "/course/frontend-react/lecture/react-components/Add-Task/chunk-a-list";
    await gotoHydrated(page, path);
    await page.locator("#exercise-code.cm-content").waitFor();
    expect(await page.locator(".hidden-tests-note").textContent()).toBe("Hidden tests also run when you hand in: 2 (6 points). You see their names and whether they passed.");
    // Nothing typed yet: no "Draft saved" for a draft that was never made.
    expect(await page.locator(".exercise-save").textContent()).toBe("");

    await setCode(page, "#exercise-code", "function chunk(items, size) {\n  while (true) {}\n}");
    await page.getByRole("button", { name: "Run the visible tests" }).click();
    const run = page.locator(".exercise-run");
    await run.locator(".test-report-summary").waitFor({ timeout: 20_000 });
    expect(await run.locator(".test-error").first().textContent()).toBe("Time limit exceeded (1,000 ms of work): is there an endless loop, or one very slow step?");
    // The page kept answering while the loop ran in its worker.
    expect(await page.getByRole("button", { name: "Run the visible tests" }).isEnabled()).toBe(true);

    // Drops the remainder: the first test passes, the second fails with what it returned.
    await setCode(page, "#exercise-code", "function chunk(items, size) {\n  const rows = [];\n  for (let i = 0; i + size <= items.length; i += size) rows.push(items.slice(i, i + size));\n  return rows;\n}");
    await page.getByRole("button", { name: "Run the visible tests" }).click();
    await expect.poll(() => run.locator(".test-report-summary").textContent(), { timeout: 20_000 }).toBe("1 of 2 tests passed · 2 of 4 points");
    expect(await run.locator('.test-row[data-passed="false"] dd').allTextContents()).toContain("[[1,2],[3,4]]");

    await setCode(page, "#exercise-code", "function chunk(items, size) {\n  const rows = [];\n  for (let i = 0; i < items.length; i += size) rows.push(items.slice(i, i + size));\n  return rows;\n}");
    await page.getByRole("button", { name: "Run the visible tests" }).click();
    await expect.poll(() => run.locator(".test-report-summary").textContent(), { timeout: 20_000 }).toBe("2 of 2 tests passed · 4 of 4 points");
    await expect.poll(() => page.locator(".exercise-save").textContent()).toBe("Draft saved");

    await page.getByRole("button", { name: "Hand in", exact: true }).click();
    const handIn = page.locator(".exercise-handin");
    await handIn.locator(".form-success").waitFor({ timeout: 20_000 });
    expect(await handIn.locator(".form-success").textContent()).toBe("Handed in and graded: 100 of 100.");
    expect(await handIn.locator(".test-report-summary").textContent()).toBe("4 of 4 tests passed · 10 of 10 points");
    expect(await handIn.locator(".test-hidden").count()).toBe(2);
    await expect.poll(() => page.locator(".task-grade").textContent()).toBe("Grade: 100 / 100");

    // A reload keeps the code, from the server's draft.
    await gotoHydrated(page, path);
    await page.locator("#exercise-code.cm-content").waitFor();
    expect(await page.locator("#exercise-code").textContent()).toContain("i < items.length");
    expect(await sideways(page)).toBeLessThanOrEqual(0);
  });

  it("typing in the field while the editor still loads goes on in the editor: the focus and the caret move over", async () => {
    const student = await memberOf("frontend-react", "typist", `Typist ${Date.now().toString(36)}`);
    const page = await newPage();
    await signIn(page.context(), student.email, student.password);
    // The editor's code held back until the student has typed in the plain field shown meanwhile.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/code-editor-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await gotoHydrated(page, "/course/frontend-react/lecture/react-components/Add-Task/chunk-a-list");
    await page.locator("textarea#exercise-code").click();
    await page.keyboard.press("Control+a");
    await page.keyboard.insertText("const a = 1;");
    await page.keyboard.press("ArrowLeft");
    release();
    await page.locator("#exercise-code.cm-content").waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("exercise-code");
    // The caret is where it was: before the semicolon.
    await page.keyboard.insertText(" + 2");
    expect(await page.locator('input[type="hidden"][name="code"]').inputValue()).toBe("const a = 1 + 2;");
  });

  it("runs code that reads the clock to the same verdict in a browser in Cairo as on the server: local time is UTC, the date fixed", async () => {
    const student = await memberOf("frontend-react", "cairo", `Cairo ${Date.now().toString(36)}`);
    const page = await newPage({ timezoneId: "Africa/Cairo" });
    await signIn(page.context(), student.email, student.password);
    await gotoHydrated(page, "/course/frontend-react/lecture/react-components/Add-Task/chunk-a-list");
    expect(await page.evaluate(() => new Date(Date.UTC(2025, 0, 1)).getHours())).toBe(2);
    // Right only at midnight of 1 January 2025, read in local time: the sandbox's fixed clock, in UTC everywhere.
    const code = "function chunk(items, size) {\n  const d = new Date();\n  if (d.getHours() !== 0 || d.getDate() !== 1 || d.getTimezoneOffset() !== 0 || new Date(2025, 0, 1).getTime() !== Date.now()) return 'local ' + String(d);\n  const rows = [];\n  for (let i = 0; i < items.length; i += size) rows.push(items.slice(i, i + size));\n  return rows;\n}";
    await setCode(page, "#exercise-code", code);
    await page.getByRole("button", { name: "Run the visible tests" }).click();
    await expect.poll(() => page.locator(".exercise-run .test-report-summary").textContent(), { timeout: 20_000 }).toBe("2 of 2 tests passed · 4 of 4 points");
  });

  it("asks before handing in the starter code unchanged: Cancel sends nothing, Hand it in anyway grades it", async () => {
    const student = await memberOf("frontend-react", "starter", `Starter ${Date.now().toString(36)}`);
    const page = await newPage({ width: 375, height: 800 });
    await signIn(page.context(), student.email, student.password);
    const path = "/course/frontend-react/lecture/react-components/Add-Task/chunk-a-list";
    await gotoHydrated(page, path);
    await page.locator("#exercise-code.cm-content").waitFor();
    const handIns: string[] = [];
    // Hand-ins only (the draft's autosave posts to the same address with intent=draft).
    page.on("request", (r) => void (r.method() === "POST" && r.url().includes("/exercise/") && new URLSearchParams(r.postData() ?? "").get("intent") === "submit" && handIns.push(r.url())));

    await page.getByRole("button", { name: "Hand in", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Hand in the starter code?" });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("you have not changed it yet");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.waitForTimeout(300);
    expect(handIns).toEqual([]);
    expect(await page.locator(".exercise-handin").textContent()).toBe("");

    await page.getByRole("button", { name: "Hand in", exact: true }).click();
    // The dialog says what it asks (its text is its description), and Enter pressed twice on its button hands in once.
    const describedBy = await dialog.getAttribute("aria-describedby");
    expect(await page.evaluate((id) => document.getElementById(id ?? "")?.textContent ?? "", describedBy)).toContain("you have not changed it yet");
    await dialog.getByRole("button", { name: "Hand it in anyway" }).focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await page.locator(".exercise-handin .form-success").waitFor({ timeout: 20_000 });
    expect(await page.locator(".exercise-handin .form-success").textContent()).toMatch(/^Handed in and graded: \d+ of 100\.$/);
    expect(handIns).toHaveLength(1);
    // Focus came back to "Hand in", which stayed focusable while the hand-in was graded.
    expect(await page.evaluate(() => document.activeElement?.matches('.exercise-actions button[type="submit"]'))).toBe(true);

    // Changed code goes without the question.
    await setCode(page, "#exercise-code", "function chunk(items, size) {\n  return [items];\n}");
    await page.getByRole("button", { name: "Hand in again" }).click();
    await expect.poll(() => handIns.length, { timeout: 20_000 }).toBe(2);
    expect(await dialog.isVisible()).toBe(false);
  });

  it("an instructor makes a code task and publishes it only after the reference solution passes", async () => {
    const stamp = Date.now().toString(36);
    const page = await newPage();
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, "/instructor/group/frontend-react/lectures/react-components/newTask");
    await page.getByLabel("Title").fill(`Triple ${stamp}`);
    await page.getByLabel("Code written on the task's page, graded by tests (JavaScript)").check();
    await page.getByRole("button", { name: "Create task" }).click();
    await page.waitForURL(/\/tasks\/updateTask\//);
    expect(new URL(page.url()).hash).toBe("#exercise");
    await page.locator("#ex-reference.cm-content").waitFor();

    await setCode(page, "#ex-starter", "function triple(n) {\n}");
    await setCode(page, "#ex-reference", "function triple(n) { return n * 2; }");
    const row = page.locator(".test-editor-row").first();
    await row.getByLabel("Name").fill("triples 2");
    await row.getByLabel("Call").fill("triple(2)");
    await row.getByLabel("Expected value (JSON)").fill("6");
    const publish = page.getByRole("button", { name: "Publish", exact: true });
    expect(await publish.isDisabled()).toBe(true);

    await page.getByRole("button", { name: "Run against the reference solution" }).click();
    await expect.poll(() => page.locator(".exercise-editor-result .test-report-summary").textContent(), { timeout: 20_000 }).toBe("0 of 1 test passed · 0 of 1 point");
    expect(await publish.isDisabled()).toBe(true);

    await setCode(page, "#ex-reference", "function triple(n) { return n * 3; }");
    await page.getByRole("button", { name: "Run against the reference solution" }).click();
    await expect.poll(() => page.locator(".exercise-editor-result .test-report-summary").textContent(), { timeout: 20_000 }).toBe("1 of 1 test passed · 1 of 1 point");
    await expect.poll(() => publish.isEnabled()).toBe(true);
    // Any change after the run asks for a new one.
    await row.getByLabel("Expected value (JSON)").fill("7");
    expect(await publish.isDisabled()).toBe(true);
    await row.getByLabel("Expected value (JSON)").fill("6");
    await page.getByRole("button", { name: "Run against the reference solution" }).click();
    await expect.poll(() => publish.isEnabled(), { timeout: 20_000 }).toBe(true);
    await publish.click();
    await page.getByText("Saved and published: the group's students can work on it.").waitFor();

    const slug = /updateTask\/([^#/]+)/.exec(page.url())![1]!;
    const view = await api<{ published: boolean; tests: unknown[] }>(await accessToken(INSTRUCTOR), "GET", `/api/exercises/${slug}`);
    expect(view.body).toMatchObject({ published: true, tests: [{ name: "triples 2", call: "triple(2)", expected: "6", points: 1, hidden: false }] });

    // A student's code that only knows the one test is handed in and passes it; the instructor then fixes the test
    // and runs it again on the hand-ins: the grade follows, after a confirmation, and only once the change is saved.
    const student = await memberOf("frontend-react", "triple", `Triple ${stamp}`);
    const studentToken = await accessToken(student);
    const handedIn = await api<{ score: number; maxScore: number }>(studentToken, "POST", `/api/exercises/${slug}/submit`, { code: "function triple(n) { return n === 2 ? 6 : 0; }" });
    expect(handedIn.body.score).toBe(handedIn.body.maxScore);
    await gotoHydrated(page, page.url().split("#")[0]!);
    const rerun = page.getByRole("button", { name: "Run the tests again on 1 hand-in" });
    expect(await rerun.isEnabled()).toBe(true);
    const fixed = page.locator(".test-editor-row").first();
    await fixed.getByLabel("Call").fill("triple(3)");
    await fixed.getByLabel("Expected value (JSON)").fill("9");
    expect(await rerun.isDisabled()).toBe(true);
    await page.getByText("Save your changes first: the tests run as they are saved.").waitFor();
    await page.getByRole("button", { name: "Run against the reference solution" }).click();
    const save = page.getByRole("button", { name: "Save changes" });
    await expect.poll(() => save.isEnabled(), { timeout: 20_000 }).toBe(true);
    await save.click();
    await expect.poll(() => rerun.isEnabled()).toBe(true);
    await rerun.click();
    const dialog = page.getByRole("dialog", { name: "Run the tests again on 1 hand-in?" });
    await dialog.getByRole("button", { name: "Run the tests again", exact: true }).click();
    await page.getByText("Ran the tests again on 1 hand-in: 1 score changed.").waitFor({ timeout: 20_000 });
    await expect.poll(() => dialog.isVisible()).toBe(false);
    const after = await api<{ submission: { score: number } }>(studentToken, "GET", `/api/exercises/${slug}`);
    expect(after.body.submission.score).toBe(0);
    // Taken back to a draft (whose tests the reference may fail), the run is not offered, and the page says why; the
    // last run's line goes with it.
    await page.getByRole("button", { name: "Unpublish" }).click();
    await page.getByText("Publish the exercise first: its tests run again on the hand-ins only once the reference solution passes them all.").waitFor();
    expect(await rerun.isDisabled()).toBe(true);
    expect(await page.getByText("Ran the tests again on 1 hand-in: 1 score changed.").count()).toBe(0);
  });
});

describe("a code question in a quiz", () => {
  const newPage = useBrowser();

  it("a student writes code in the quiz's editor, hands in, and the server's tests grade it with the rest", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Code quiz ${stamp}`, published: true })).body;
    const quiz = await api<{ slug: string }>(token, "POST", "/api/quizzes", {
      lectureId: lecture.slug,
      title: `Code quiz ${stamp}`,
      durationMinutes: 10,
      maxAttempts: 1,
      showAnswers: "after-submit",
      published: true,
      questions: [
        { text: "2 + 2?", type: "single", options: ["3", "4"], correct: 1 },
        { text: "Write `half(n)`.", type: "code", correct: "function half(n) { return n / 2; }", points: 2, code: { starterCode: "function half(n) {\n}\n", tests: [{ name: "ten", call: "half(10)", expected: "5" }, { name: "odd", call: "half(3)", expected: "1.5" }] } },
      ],
    });
    expect(quiz.status).toBe(201);
    const user = await memberOf("frontend-react", "quiz-code", `Quiz Coder ${stamp}`);
    const page = await newPage({ width: 375, height: 800 });
    await signIn(page.context(), user.email, user.password);
    const path = `/course/frontend-react/lecture/${lecture.slug}/quiz/${quiz.body.slug}`;
    await gotoHydrated(page, path);
    await page.getByRole("button", { name: "Start the quiz" }).click();
    await page.waitForURL(`**${path}/questions`);
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    await page.getByRole("radio", { name: "4" }).check();
    await page.getByRole("button", { name: "Next" }).click();
    expect(await page.getByText("Write your code below. When you hand in, 2 tests run on the server; the question counts when all of them pass.").count()).toBe(1);
    const editor = page.locator(".quiz-question .cm-content");
    await editor.waitFor();
    await editor.click();
    await page.keyboard.press("Control+a");
    await page.keyboard.insertText("function half(n) { return n * 0.5; }");
    await page.waitForFunction(() => document.querySelector(".quiz-save")?.getAttribute("data-status") === "saved");
    await page.getByRole("button", { name: "Hand in" }).first().click();
    await page.getByRole("dialog", { name: "Hand in your answers?" }).getByRole("button", { name: "Hand in" }).click();
    await page.waitForURL(`**${path}/result`);
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    expect((await page.locator(".quiz-score").textContent())?.replace(/\s+/g, "")).toBe("3/3");
    await gotoHydrated(page, `${path}/answers`);
    const code = page.locator(".quiz-review-item").nth(1);
    expect(await code.locator(".badge").textContent()).toBe("Right");
    expect(await code.locator(".quiz-code-answer").first().textContent()).toBe("function half(n) { return n * 0.5; }");
    expect(await sideways(page)).toBeLessThanOrEqual(0);
  });
});

describe("the code exercise screens in both languages", () => {
  const newPage = useBrowser();
  const words = {
    en: { tests: "Tests", run: "Run the visible tests", editor: "Code exercise", code: "Handed-in code" },
    ar: { tests: "الاختبارات", run: "شغّل الاختبارات الظاهرة", editor: "تمرين برمجي", code: "الشيفرة المسلَّمة" },
  };
  for (const lang of ["en", "ar"] as const) {
    for (const width of [1280, 375]) {
      it(`the student's exercise, the staff's editor and the grader at ${width} px in ${lang === "en" ? "English" : "Arabic"}`, async () => {
        const w = words[lang];
        const student = await newPage({ width, height: 800 });
        await student.context().addCookies([{ name: "lang", value: lang, url: baseURL() }]);
        await signIn(student.context(), DEMO_LOGINS.student.email, DEMO_LOGINS.student.password);
        await gotoHydrated(student, "/course/frontend-react/lecture/react-components/Add-Task/slugify-titles");
        await student.locator("#exercise-code.cm-content").waitFor();
        expect(await student.locator(".exercise-tests h2").textContent()).toBe(w.tests);
        expect(await student.getByRole("button", { name: w.run }).isVisible()).toBe(true);
        // The page reads right to left; the editor stays left to right.
        expect(await student.locator("html").getAttribute("dir")).toBe(lang === "ar" ? "rtl" : "ltr");
        expect(await student.locator(".code-editor").getAttribute("dir")).toBe("ltr");
        expect(await sideways(student)).toBeLessThanOrEqual(0);

        const staff = await newPage({ width, height: 800 });
        await staff.context().addCookies([{ name: "lang", value: lang, url: baseURL() }]);
        await signIn(staff.context(), INSTRUCTOR.email, INSTRUCTOR.password);
        await gotoHydrated(staff, "/instructor/group/frontend-react/lecture/react-components/tasks/updateTask/slugify-titles");
        expect(await staff.locator("#exercise-editor-title").textContent()).toBe(w.editor);
        expect(await staff.locator(".test-editor-row").count()).toBe(4);
        expect(await sideways(staff)).toBeLessThanOrEqual(0);

        // Sara's auto-graded hand-in (db/seed.ts) in the grader, with its code and the whole report.
        await gotoHydrated(staff, "/instructor/group/frontend-react/lecture/react-components/tasks/slugify-titles/submissions");
        expect(await staff.locator(".code-hand-in summary").textContent()).toBe(w.code);
        expect(await staff.locator(".code-hand-in .test-row").count()).toBe(4);
        expect(await sideways(staff)).toBeLessThanOrEqual(0);
      });
    }
  }
});

/**
 * Issue 20: on the exercise editor, "Not published" is a draft state: its own neutral colour (not the green of
 * "Published") and only as wide as its words (the card's head is a grid, which stretched it across the card).
 */
describe("the exercise's published state", () => {
  const newPage = useBrowser();

  it("shows a draft in a neutral pill as wide as its words, and a published one in green, in both languages", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Pills ${stamp}`, published: true })).body;
    const task = (await api<{ _id: string; slug: string }>(token, "POST", `/api/lectures/${lecture.slug}/tasks`, { title: `Double ${stamp}`, maxScore: 10 })).body;
    const exercise = (published: boolean) => ({
      starterCode: "function double(n) {\n}\n",
      tests: [{ name: "doubles 2", call: "double(2)", expected: "4", points: 1 }],
      referenceSolution: "function double(n) { return n * 2; }",
      published,
    });
    expect((await api(token, "PUT", `/api/exercises/${task._id}`, exercise(false))).status).toBe(200);
    const path = `/instructor/group/frontend-react/lecture/${lecture.slug}/tasks/updateTask/${task.slug}`;
    const pill = async (page: Page) => {
      const badge = page.locator(".exercise-editor .task-form-head .badge");
      await badge.waitFor();
      const [box, head] = [await badge.boundingBox(), await page.locator(".exercise-editor .task-form-head").boundingBox()];
      const colours = await badge.evaluate((el) => ({ background: getComputedStyle(el).backgroundColor, color: getComputedStyle(el).color }));
      return { text: await badge.textContent(), width: box!.width, headWidth: head!.width, ...colours };
    };
    const green = "rgb(236, 253, 245)"; // --green-50, the published pill

    const seen: Record<string, Awaited<ReturnType<typeof pill>>> = {};
    for (const lang of ["en", "ar"] as const) {
      for (const width of [1280, 375]) {
        const page = await newPage({ width, height: 800 });
        await page.context().addCookies([{ name: "lang", value: lang, url: baseURL() }]);
        await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
        await gotoHydrated(page, path);
        const draft = await pill(page);
        expect(draft.text).toBe(lang === "en" ? "Not published" : "غير منشور");
        // As wide as its words: well under half of the head, even on a phone.
        expect(draft.width).toBeLessThan(draft.headWidth / 2);
        expect(draft.background).not.toBe(green);
        // Neutral: no green or teal cast (red at least as strong as green and blue), on a visible tint.
        const [r, g, b] = draft.background.match(/\d+/g)!.map(Number) as [number, number, number];
        expect(r >= g && r >= b && r < 250, draft.background).toBe(true);
        seen[`${lang}-${width}`] = draft;
        expect(await sideways(page)).toBeLessThanOrEqual(0);
      }
    }

    expect((await api(token, "PUT", `/api/exercises/${task._id}`, exercise(true))).status).toBe(200);
    const page = await newPage();
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, path);
    const published = await pill(page);
    expect(published.text).toBe("Published");
    expect(published.background).toBe(green);
    expect(published.width).toBeLessThan(published.headWidth / 2);
    // The draft's colours are its own, not the published pill's.
    expect(seen["en-1280"]!.background).not.toBe(published.background);
    expect(seen["en-1280"]!.color).not.toBe(published.color);
  }, 120_000); // five pages in four sizes and languages, not a timing check
});
