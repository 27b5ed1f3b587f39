/**
 * Rubrics in the browser (issue 21): the instructor makes a rubric on the Tasks tab, puts it on a task, grades a
 * hand-in from the keyboard (a digit per criterion, Ctrl+Enter to save and move on) and the student sees the filled
 * rubric on the task page; the feedback takes a comment-bank snippet with Alt+1 and shows its Markdown preview.
 */
import { describe, expect, it } from "vitest";
import { gotoHydrated, useBrowser } from "./browser";
import { accessToken, api, INSTRUCTOR, memberOf } from "./groups-helpers";
import { signIn } from "./session";

describe("rubrics", () => {
  const newPage = useBrowser();

  it("an instructor makes a rubric on the Tasks tab, grades with it from the keyboard, and the student sees the filled rubric", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const page = await newPage();
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);

    // The editor: a title, two criteria (the starter levels are 10, 5 and 0 points).
    await gotoHydrated(page, "/instructor/group/frontend-react/tasks");
    await page.getByRole("button", { name: "New rubric" }).click();
    await page.getByLabel("Title", { exact: true }).fill(`Portfolio ${stamp}`);
    await page.getByLabel("Criterion", { exact: true }).fill("Layout");
    await page.getByRole("button", { name: "Add a criterion" }).click();
    // The new criterion's title takes the focus: typing goes there, not to the button pressed.
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent ?? "")).toBe("Criterion");
    await page.keyboard.type("Accessibility");
    expect(await page.getByLabel("Criterion", { exact: true }).nth(1).inputValue()).toBe("Accessibility");
    // Its buttons say which criterion they act on.
    expect(await page.getByRole("button", { name: "Move up Criterion 2" }).count()).toBe(1);
    // A level added takes the focus too; removing one names it.
    await page.locator(".rubric-editor-criterion").nth(1).getByRole("button", { name: "Add a level" }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-level"))).toBe("1-3");
    await page.getByRole("button", { name: "Remove level 4 of criterion 2" }).click();
    await expect.poll(() => page.locator(".rubric-editor .task-form-head p").textContent()).toBe("Total: 20 points");
    // Points that are not a number are said under their criterion's levels, tied to the field, and Save waits.
    const points = page.locator(".rubric-editor-criterion").nth(1).getByLabel("Level 1 points");
    await points.fill("ten");
    expect(await points.getAttribute("aria-invalid")).toBe("true");
    const said = await points.evaluate((el) => document.getElementById(el.getAttribute("aria-describedby") ?? "")?.textContent);
    expect(said).toBe("Points are whole numbers from 0 to 1000.");
    expect(await page.getByRole("button", { name: "Save rubric" }).isDisabled()).toBe(true);
    await points.fill("10");
    expect(await points.getAttribute("aria-describedby")).toBeNull();
    await page.getByRole("button", { name: "Save rubric" }).click();
    const card = page.locator(".rubric-card", { hasText: `Portfolio ${stamp}` });
    await card.waitFor();
    expect(await card.locator(".badge").textContent()).toBe("20 points");

    // A snippet in the instructor's comment bank (their first: Alt+1).
    for (const snippet of (await api<{ _id: string }[]>(token, "GET", "/api/comment-bank")).body) await api(token, "DELETE", `/api/comment-bank/${snippet._id}`);
    expect((await api(token, "POST", "/api/comment-bank", { text: `Label **every** icon ${stamp}.` })).status).toBe(201);

    const rubrics = (await api<{ _id: string; title: string; criteria: { id: string }[] }[]>(token, "GET", "/api/groups/frontend-react/rubrics")).body;
    const rubric = rubrics.find((r) => r.title === `Portfolio ${stamp}`)!;
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Rubric week ${stamp}`, published: true })).body;
    const task = (await api<{ slug: string; maxScore: number }>(token, "POST", `/api/lectures/${lecture.slug}/tasks`, { title: `Portfolio ${stamp}`, rubricId: rubric._id })).body;
    expect(task.maxScore).toBe(20);
    const student = await memberOf("frontend-react", "rubric", `Rubric Student ${stamp}`);
    expect((await api(await accessToken(student), "POST", `/api/lectures/${lecture.slug}/submit-task/${task.slug}`, { link: `https://github.com/rubric/${stamp}` })).status).toBe(201);

    // The grader: focus the first criterion, type 1 (Excellent, 10) then 2 (Partly there, 5); the focus moves on to
    // the feedback after the last criterion; Ctrl+Enter saves.
    await gotoHydrated(page, `/instructor/group/frontend-react/lecture/${lecture.slug}/tasks/${task.slug}/submissions`);
    // No total before every criterion has its level: "—" and how many are left, not a score of 0.
    expect(await page.locator("#grader-rubric-total").textContent()).toBe("Score: — of 20 · 2 criteria to score");
    await page.locator(".rubric-criterion").first().locator("input").first().focus();
    await page.keyboard.press("1");
    await expect.poll(() => page.locator("#grader-rubric-total").textContent()).toBe("Score: — of 20 · 1 criterion to score");
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest(".rubric-criterion")?.querySelector("legend")?.textContent ?? "")).toContain("Accessibility");
    await page.keyboard.press("2");
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("grader-feedback");
    expect(await page.locator("#grader-rubric-total").textContent()).toBe("Score: 15 of 20");
    await page.keyboard.type("Clear layout;");
    // The comment bank: Alt+1 puts the first snippet in at the cursor; the preview shows it as the student will.
    await page.keyboard.press("Alt+Digit1");
    await expect.poll(() => page.locator("#grader-feedback").inputValue()).toBe(`Clear layout; Label **every** icon ${stamp}.`);
    await page.getByRole("button", { name: "Preview" }).click();
    await expect.poll(() => page.locator(".feedback-preview strong").textContent()).toBe("every");
    await page.getByRole("button", { name: "Write" }).click();
    await page.locator("#grader-feedback").focus();
    await page.keyboard.press("Control+Enter");
    await expect.poll(() => page.getByTestId("graded-count").textContent()).toBe("Graded 1 of 1");
    await expect
      .poll(async () => (await api<{ submissions: { score: number | null }[] }>(token, "GET", `/api/lectures/${lecture.slug}/tasks/${task.slug}/submissions`)).body.submissions[0]?.score, { timeout: 10_000 })
      .toBe(15);

    const reader = await newPage({ width: 375, height: 800 });
    await signIn(reader.context(), student.email, student.password);
    await gotoHydrated(reader, `/course/frontend-react/lecture/${lecture.slug}/Add-Task/${task.slug}`);
    expect(await reader.locator(".task-grade").textContent()).toBe("Grade: 15 / 20");
    const given = await reader.locator(".rubric-level[data-chosen] .rubric-level-title").allTextContents();
    expect(given).toEqual(["Excellent", "Partly there"]);
    // On a phone each criterion's levels take the card's whole width under its name, not a third of it beside it.
    const widths = await reader.locator(".rubric-table tbody tr").first().evaluate((row) => ({
      row: row.getBoundingClientRect().width,
      levels: row.querySelector(".rubric-levels")!.getBoundingClientRect().width,
      name: row.querySelector("th")!.getBoundingClientRect(),
      levelsTop: row.querySelector(".rubric-levels")!.getBoundingClientRect().top,
    }));
    expect(widths.levels).toBeGreaterThan(widths.row * 0.85);
    expect(widths.levelsTop).toBeGreaterThanOrEqual(widths.name.bottom);
    expect(await reader.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await reader.locator(".task-feedback strong").textContent()).toBe("every");
  });
});
