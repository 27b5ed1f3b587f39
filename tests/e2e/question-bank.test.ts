/**
 * A drawn, shuffled quiz in the browser (issue 21): a quiz draws three questions tagged "hooks" from the demo group's
 * bank for each attempt and shuffles questions and options. The student sees their own paper, the same after a
 * reload, answers by the options' words (wherever the shuffle put them), hands in, and the review shows exactly the
 * questions they were given, each key kept back while the demo's own drawn quiz can still give them.
 */
import { describe, expect, it } from "vitest";
import { baseURL, gotoHydrated, useBrowser } from "./browser";
import { accessToken, api, INSTRUCTOR, memberOf } from "./groups-helpers";
import { signIn } from "./session";
import { allowStatus } from "./accounts-helpers";

interface BankQuestion {
  text: string;
  options: string[];
  correct: number[];
  tags: string[];
}

/** A question's or option's Markdown as the page shows it in words (`useState` reads useState). */
const words = (markdown: string) => markdown.replace(/`/g, "").trim();

describe("question banks", () => {
  const newPage = useBrowser();

  it("deleting a bank question asks first, and the focus goes to the bank's title, not the page's start", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const made = await api<{ _id: string }>(token, "POST", "/api/groups/frontend-react/question-bank", { question: { text: `Throwaway ${stamp}?`, type: "single", options: ["a", "b"], correct: 0 }, tags: [`gone-${stamp}`] });
    expect(made.status).toBe(201);
    const page = await newPage();
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, "/instructor/group/frontend-react/quizzes");
    await page.getByRole("button", { name: `Delete Throwaway ${stamp}?` }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this question from the bank?" });
    await dialog.getByRole("button", { name: "Delete" }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.getByRole("button", { name: `Delete Throwaway ${stamp}?` }).waitFor({ state: "detached" });
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("bank-title");
  });

  it("a refused bank question is told at its field: a blank text on the question, no tags under the tags (English and Arabic)", async () => {
    const page = await newPage({ width: 375, height: 800 });
    // The refusals are the point: the browser reports each 400 answer in its console; any other problem is kept.
    const refused = allowStatus(page, 400, "/instructor/group/frontend-react/quizzes");
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    for (const lang of ["en", "ar"] as const) {
      await page.context().addCookies([{ name: "lang", value: lang, url: baseURL() }]);
      await gotoHydrated(page, "/instructor/group/frontend-react/quizzes");
      const words = lang === "en"
        ? { add: "Add a question", option: (n: number) => `Option ${n}`, text: /^Question \(Markdown/, tags: "Tags", save: "Save the question", blank: "Please check the question: write the question.", general: "Check the question: its text" }
        : { add: "إضافة سؤال", option: (n: number) => `الخيار ${n}`, text: /^السؤال \(Markdown/, tags: "الوسوم", save: "احفظ السؤال", blank: "راجع السؤال:", general: "راجع السؤال: نصه وخياراته" };
      await page.getByRole("button", { name: words.add }).click();
      const editor = page.locator(".bank-editor");
      // Saved with nothing filled in: the app says what is missing at the question (not the browser, in its own
      // language, on the tags below it), and the question's text takes the focus.
      await editor.getByRole("button", { name: words.save }).click();
      await expect.poll(() => editor.locator(".quiz-editor-q .field-error").textContent()).toContain(words.blank);
      await expect.poll(() => page.evaluate(() => document.activeElement?.matches("textarea.quiz-editor-text[aria-invalid=true]"))).toBe(true);
      // Spaces pass the browser's own check of a required field; the server trims them and refuses.
      await editor.getByLabel(words.text).fill("   ");
      await editor.getByLabel(words.option(1), { exact: true }).fill("one");
      await editor.getByLabel(words.option(2), { exact: true }).fill("two");
      await editor.getByLabel(words.tags, { exact: true }).fill("basics");
      await editor.getByRole("button", { name: words.save }).click();
      const onQuestion = editor.locator(".quiz-editor-q .field-error");
      await expect.poll(() => onQuestion.textContent()).toContain(words.blank);
      expect(await editor.locator(".form-error").count()).toBe(0);
      // The question's text is marked and takes the focus (not left on Save).
      await expect.poll(() => page.evaluate(() => document.activeElement?.matches("textarea.quiz-editor-text[aria-invalid=true]"))).toBe(true);
      // Tags of commas only: said under the tags field, which takes the focus.
      await editor.getByLabel(words.text).fill(`Which hook keeps state? ${Date.now().toString(36)}`);
      await editor.getByLabel(words.tags, { exact: true }).fill(" , ");
      await editor.getByRole("button", { name: words.save }).click();
      const tags = editor.getByLabel(words.tags, { exact: true });
      await expect.poll(() => tags.getAttribute("aria-invalid")).toBe("true");
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(await tags.getAttribute("id"));
      expect(await editor.locator(".quiz-editor-q .field-error").count()).toBe(0);
      expect(await editor.locator(".form-error").count()).toBe(0);
      expect(await editor.locator(".field-error").textContent()).not.toContain(words.general);
      await editor.getByRole("button", { name: lang === "en" ? "Cancel" : "إلغاء" }).click();
    }
    expect(refused).toEqual([]);
  });

  it("a student takes a drawn, shuffled quiz: their own paper, stable across a reload, reviewed as given", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const bank = (await api<{ questions: BankQuestion[] }>(token, "GET", "/api/groups/frontend-react/question-bank")).body.questions;
    const hooks = bank.filter((q) => q.tags.includes("hooks"));
    expect(hooks.length).toBeGreaterThanOrEqual(3);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Drawn ${stamp}`, published: true })).body;
    const quiz = await api<{ slug: string; questionCount: number; maxScore: number }>(token, "POST", "/api/quizzes", {
      lectureId: lecture.slug,
      title: `Hooks draw ${stamp}`,
      published: true,
      maxAttempts: 1,
      showAnswers: "after-submit",
      questions: [],
      draws: [{ tag: "hooks", count: 3, points: 2 }],
      shuffleQuestions: true,
      shuffleOptions: true,
    });
    expect(quiz.status).toBe(201);
    expect(quiz.body).toMatchObject({ questionCount: 3, maxScore: 6 });

    const student = await memberOf("frontend-react", "drawn", `Drawn Student ${stamp}`);
    const page = await newPage({ width: 375, height: 800 });
    await signIn(page.context(), student.email, student.password);
    const path = `/course/frontend-react/lecture/${lecture.slug}/quiz/${quiz.body.slug}`;
    await gotoHydrated(page, path);
    await page.getByRole("button", { name: "Start the quiz" }).click();
    await page.waitForURL((url) => url.pathname.endsWith("/questions"));
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    await page.getByRole("button", { name: "Show all questions" }).click();

    const paper = async () =>
      page.locator(".quiz-question").evaluateAll((items) =>
        items.map((q) => ({
          text: (q.querySelector(".quiz-q-text")?.textContent ?? "").trim(),
          options: [...q.querySelectorAll("label")].map((l) => (l.textContent ?? "").trim()),
        })),
      );
    const shown = await paper();
    expect(shown).toHaveLength(3);
    // Every question on the paper is a hooks question of the bank; none of the CSS ones.
    const given = shown.map((q) => hooks.find((b) => words(b.text) === q.text));
    expect(given.every(Boolean)).toBe(true);
    for (const [i, q] of shown.entries()) expect([...q.options].sort()).toEqual(given[i]!.options.map(words).sort());

    // The same paper after a reload: the same questions in the same order, with the same option order.
    await page.reload();
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    const all = page.getByRole("button", { name: "Show all questions" });
    if (await all.count()) await all.click();
    expect(await paper()).toEqual(shown);

    // Answer each by its right option's words, wherever the shuffle put it.
    for (const i of shown.keys()) {
      const right = words(given[i]!.options[given[i]!.correct[0]!]!);
      await page.locator(".quiz-question").nth(i).getByRole("radio", { name: right, exact: true }).check();
    }
    await page.waitForFunction(() => document.querySelector(".quiz-save")?.getAttribute("data-status") === "saved");
    await page.locator(".quiz-bar").getByRole("button", { name: "Hand in" }).click();
    await page.getByRole("dialog", { name: "Hand in your answers?" }).getByRole("button", { name: "Hand in" }).click();
    await page.waitForURL((url) => url.pathname.endsWith("/result"));
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    expect((await page.locator(".quiz-score").textContent())?.replace(/\s+/g, "")).toBe("6/6");

    // The review: exactly the questions given, in the order given. The demo group's "React hooks: drawn check" is still
    // open and draws the same tag, so each key is kept back (ADR 40): the answer given shows, not the key.
    await page.getByRole("link", { name: "See your answers" }).click();
    await page.waitForURL((url) => url.pathname.endsWith("/answers"));
    await page.locator(".quiz-review-item").first().waitFor();
    const reviewed = await page.locator(".quiz-review-item .quiz-q-text").allTextContents();
    expect(reviewed.map((t) => t.trim())).toEqual(shown.map((q) => q.text));
    expect(await page.locator('.quiz-review-item[data-withheld="true"]').count()).toBe(3);
    expect(await page.getByText("Answer kept back").count()).toBe(3);
    expect(await page.locator(".quiz-review-item dd").allTextContents()).toEqual(shown.map((_, i) => words(given[i]!.options[given[i]!.correct[0]!]!)));
  });
});
