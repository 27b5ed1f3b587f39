/**
 * A cohort of hundreds, found by name: the Progress tab, a lecture's roll, the quiz results, the certificates and the
 * extension picker each narrow their students as a name is typed, folded as the site's other name searches fold it
 * ("احمد" finds أحمد), say how many are shown or that none is, and Escape brings everyone back. The extension picker
 * also chooses everyone shown at once and keeps a chosen student chosen while searched out of view.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, gotoHydrated, useBrowser } from "./browser";
import { accessToken, api, INSTRUCTOR, memberOf } from "./groups-helpers";
import { signIn } from "./session";

const G = "frontend-react";
const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Types `term` into the search box named `label` and waits for its line to say `said`. */
async function search(page: Page, scope: string, label: string, term: string, said: string | RegExp) {
  const box = page.locator(scope).getByRole("searchbox", { name: label });
  await box.fill(term);
  await page.locator(scope).locator(".name-search-result").filter({ hasText: said }).waitFor();
  return box;
}

describe("finding a student by name on the staff's lists", () => {
  const newPage = useBrowser();

  it("Progress, the quiz results and a lecture's roll narrow as typed, with the Arabic spellings folded, and say what they show", async () => {
    const stamp = Date.now().toString(36);
    const name = `أحمد بحث ${stamp}`;
    await memberOf(G, "find-me", name);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", `/api/lectures/group/${G}`, { title: `Roll ${stamp}`, published: true })).body;
    const report = (await api<{ students: { name: string }[] }>(token, "GET", `/api/groups/${G}/progress`)).body;
    const total = report.students.length;
    expect(total).toBeGreaterThan(1);

    const page = await newPage();
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);

    // Progress: typed without the hamza, as people type it; the one row left is theirs.
    await gotoHydrated(page, `/instructor/group/${G}/progress`);
    const rows = page.locator(".progress-table tbody tr");
    expect(await rows.count()).toBe(total);
    const box = await search(page, ".progress-table-section", "Find a student", `احمد بحث ${stamp}`, `1 of ${total} students shown.`);
    expect(await rows.count()).toBe(1);
    expect(await rows.first().locator("th").textContent()).toContain(name);
    // The box says what it narrows, and its line is read with it.
    expect(await box.getAttribute("aria-controls")).toBe("progress-table");
    // Nobody by that name: said, and no empty table.
    await search(page, ".progress-table-section", "Find a student", `nobody-${stamp}`, `No student matches “nobody-${stamp}”.`);
    expect(await page.locator(".progress-table").count()).toBe(0);
    // Escape empties the box: everyone is back, and the line says nothing.
    await box.press("Escape");
    expect(await box.inputValue()).toBe("");
    await expect.poll(() => rows.count()).toBe(total);
    expect(await page.locator(".progress-table-section .name-search-result").textContent()).toBe("");

    // The quiz results: the same box over the matrix.
    await gotoHydrated(page, `/instructor/group/${G}/quizzes`);
    const matrix = page.locator(".quiz-matrix tbody tr");
    await search(page, ".quizzes-results", "Find a student", "احمد", /of \d+ students? shown\./);
    expect(await matrix.filter({ hasText: name }).count()).toBe(1);
    // Every row left is an Ahmad, however the hamza was written.
    expect(await matrix.filter({ hasNotText: /[أإآا]حمد/ }).count()).toBe(0);

    // A lecture's roll.
    await gotoHydrated(page, `/instructor/group/${G}/lectures/${lecture.slug}/attendance`);
    const roll = page.locator(".roster-table tbody tr");
    const members = await roll.count();
    expect(members).toBeGreaterThan(1);
    await search(page, ".roster", "Find a student", stamp, `1 of ${members} students shown.`);
    expect(await roll.count()).toBe(1);
    expect(await roll.first().textContent()).toContain(name);
  });

  it("the certificates list finds a name in Arabic at 375 px without sideways scroll", async () => {
    const stamp = Date.now().toString(36);
    const name = `فاطمة شهادة ${stamp}`;
    await memberOf(G, "find-cert", name);
    const page = await newPage({ width: 375, height: 800 });
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, `/instructor/group/${G}/cohort`);
    const rows = page.locator(".cohort-table tbody tr");
    const before = await rows.count();
    expect(before).toBeGreaterThan(1);
    // Taa marbuta typed as haa, as a phone's keyboard often gives it.
    await search(page, "main", "ابحث عن طالب", `فاطمه شهاده ${stamp}`, /^يظهر 1 من/);
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain(name);
    expect(await sideways(page)).toBe(0);
  });

  it("the extension picker narrows by name, chooses everyone shown, and keeps a choice searched out of view", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", `/api/lectures/group/${G}`, { title: `Extend ${stamp}`, published: true })).body;
    const task = (await api<{ slug: string }>(token, "POST", `/api/lectures/${lecture.slug}/tasks`, { title: `Extend task ${stamp}`, maxScore: 10, dueAt: new Date(Date.now() + 3 * 86_400_000).toISOString() })).body;
    await memberOf(G, "ext-one", `Émile Picker ${stamp}`);
    await memberOf(G, "ext-two", `Emilia Picker ${stamp}`);
    const page = await newPage();
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, `/instructor/group/${G}/lecture/${lecture.slug}/tasks/updateTask/${task.slug}`);
    const panel = page.locator("#extensions");
    const boxes = panel.getByRole("checkbox");
    const everyone = await boxes.count();
    expect(everyone).toBeGreaterThan(2);

    // Their surname and the stamp find both; choosing everyone shown chooses those two only.
    await search(page, "#extensions", "Find a student", `picker ${stamp}`, `2 of ${everyone} students shown.`);
    expect(await boxes.count()).toBe(2);
    await panel.getByRole("button", { name: "Choose everyone shown" }).click();
    await panel.getByText("2 students chosen.").waitFor();
    expect(await panel.getByRole("button", { name: "Give 2 students the extension" }).isEnabled()).toBe(true);
    // Typed without the accent, Émile is found (and Emilia, whose name does not go on "emile", is not).
    await search(page, "#extensions", "Find a student", `emile picker ${stamp}`, `1 of ${everyone} students shown.`);
    expect(await boxes.count()).toBe(1);
    expect(await panel.getByRole("checkbox", { name: `Émile Picker ${stamp}` }).isChecked()).toBe(true);

    // Searched out of view, they stay chosen; the rest are not.
    const box = panel.getByRole("searchbox", { name: "Find a student" });
    await box.press("Escape");
    await expect.poll(() => boxes.count()).toBe(everyone);
    expect(await panel.getByRole("checkbox", { checked: true }).count()).toBe(2);
    expect(await panel.getByRole("checkbox", { name: `Émile Picker ${stamp}` }).isChecked()).toBe(true);

    // Everyone at once, then nobody.
    await panel.getByRole("button", { name: "Choose everyone" }).click();
    await panel.getByText(`${everyone} students chosen.`).waitFor();
    expect(await panel.getByRole("checkbox", { checked: true }).count()).toBe(everyone);
    expect(await panel.getByRole("button", { name: "Choose everyone" }).isDisabled()).toBe(true);
    await panel.getByRole("button", { name: "Clear the choice" }).click();
    expect(await panel.getByRole("checkbox", { checked: true }).count()).toBe(0);
    expect(await panel.getByRole("button", { name: "Clear the choice" }).isDisabled()).toBe(true);
  });
});
