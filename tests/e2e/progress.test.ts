/**
 * Progress in the browser: the demo student's course home leads with their numbers and what is due next; the
 * instructor's progress tab shows every student, sorts by any column with the keyboard, draws the charts with a
 * text alternative and downloads the CSV. The numbers on the pages are compared with the API's at the same moment
 * (other browser tests add lectures and students to the demo group; the demo's own numbers are checked on a
 * fresh seed in tests/integration/demo-data.test.ts).
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, gotoHydrated, useBrowser } from "./browser";
import { accessToken, api, INSTRUCTOR, STUDENT } from "./groups-helpers";
import { signIn } from "./session";

interface Numbers {
  lectures: { attended: number; held: number; rate: number | null };
  tasks: { submitted: number; given: number; rate: number | null };
  quizzes: { taken: number; published: number; rate: number | null };
  overall: number | null;
}
const percent = (n: number | null) => (n === null ? "—" : `${n}%`);
const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe("progress in the browser", () => {
  const newPage = useBrowser();

  it("the course home leads with the student's numbers, as the API counts them, and links what is due next", async () => {
    const mine = (await api<Numbers>(await accessToken(STUDENT), "GET", "/api/users/groups/frontend-react/progress")).body;
    const page = await newPage();
    await signIn(page.context(), STUDENT.email, STUDENT.password);
    await gotoHydrated(page, "/course/frontend-react");
    const card = page.locator(".progress-card");
    expect(await card.locator(".progress-overall-value").textContent()).toBe(percent(mine.overall));
    expect(await card.getByText(`${mine.lectures.attended} of ${mine.lectures.held} lectures attended`).count()).toBe(1);
    expect(await card.getByRole("meter", { name: `Attendance: ${mine.lectures.rate}%` }).count()).toBe(1);
    // The three percentages beside the overall are the ones it averages.
    expect(await card.locator(".progress-meter-value").allTextContents()).toEqual([mine.lectures.rate, mine.tasks.rate, mine.quizzes.rate].map(percent));
    // The card comes before the lectures, tasks and quizzes lists.
    const order = await page.evaluate(() => [".progress-card", ".up-next", "#about-title"].map((s) => document.querySelector(s)!.getBoundingClientRect().top));
    expect(order[0]).toBeLessThan(order[2]!);
    // How it is counted, in one sentence on the card.
    expect(await card.getByText(/^Overall is the average of the attendance, task and quiz percentages/).isVisible()).toBe(true);
    // An open quiz with attempts left (the demo's CSS layouts check, or one another test added and that is due
    // sooner: the list shows the first six) leads to its quiz page.
    const quiz = page.locator('.up-next-item[data-kind="quiz"]').first();
    const href = await quiz.getAttribute("href");
    expect(href).toMatch(/^\/course\/frontend-react\/lecture\/[^/]+\/quiz\/[^/]+$/);
    await quiz.click();
    await page.waitForURL(`**${href}`);
  });

  it("the progress tab: every student with the API's numbers, sorted by a column from the keyboard, charts with their numbers", async () => {
    const report = (await api<{ students: { name: string; progress: Numbers; atRiskReasons: { kind: string; percent: number }[] }[] }>(await accessToken(INSTRUCTOR), "GET", "/api/groups/frontend-react/progress")).body;
    const page = await newPage();
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, "/instructor/group/frontend-react/progress");
    const rows = page.locator(".progress-table tbody tr");
    expect(await rows.count()).toBe(report.students.length);
    const nour = rows.filter({ hasText: "Nour Ali" });
    const expected = report.students.find((s) => s.name === "Nour Ali")!.progress;
    // Attendance, tasks, quizzes, overall: the API's numbers, the same the student's card shows.
    const mains = await nour.locator("td .cell-main").allTextContents();
    expect(mains).toEqual([expected.lectures.rate, expected.tasks.rate, expected.quizzes.rate, expected.overall].map(percent));
    // Who needs support, and why, above the table: each flagged student with the API's reasons (on a fresh seed,
    // Omar: overall 25 %, attendance 50 %).
    const flagged = report.students.filter((s) => s.atRiskReasons.length > 0);
    expect(flagged.length).toBeGreaterThan(0);
    for (const s of flagged) {
      const item = page.locator(".progress-risk-list > li", { hasText: s.name });
      const words = { overall: "Overall", attendance: "Attendance" } as Record<string, string>;
      expect(await item.locator(".risk-reasons li").allTextContents()).toEqual(s.atRiskReasons.map((r) => `${words[r.kind]} ${r.percent}%`));
    }

    // Overall, from the keyboard: highest first, then lowest first.
    const overallHeader = page.getByRole("columnheader", { name: /Overall/ });
    await overallHeader.getByRole("button").focus();
    await page.keyboard.press("Enter");
    expect(await overallHeader.getAttribute("aria-sort")).toBe("descending");
    const shown = async () => (await rows.locator("td:last-child").allTextContents()).map((x) => (x === "—" ? -1 : Number(x.replace("%", ""))));
    const descending = await shown();
    expect(descending).toEqual([...descending].sort((a, b) => b - a));
    await page.keyboard.press("Enter");
    expect(await overallHeader.getAttribute("aria-sort")).toBe("ascending");
    const ascending = (await shown()).filter((n) => n >= 0);
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));

    // The charts carry their numbers as text.
    const attendance = page.getByRole("figure", { name: "Attendance per lecture" });
    expect(await attendance.getByText(/HTML and accessibility foundations: \d+ present, \d+ late, \d+ excused, \d+ absent/).count()).toBe(1);
    await attendance.getByText("Show the numbers").click();
    expect(await attendance.getByRole("rowheader", { name: "HTML and accessibility foundations" }).count()).toBe(1);
    expect(await page.getByRole("figure", { name: "Score distribution" }).locator("svg rect").count()).toBe(10);
  });

  it("downloads the progress CSV with a byte order mark, a header and a row per student", async () => {
    const page = await newPage();
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, "/instructor/group/frontend-react/progress");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Progress (CSV)" }).click()]);
    expect(download.suggestedFilename()).toBe("frontend-react-progress.csv");
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString("utf8").trimEnd().split("\r\n");
    expect(lines[0]).toMatch(/^student_name,email,lectures_attended,lectures_held,attendance_percent,/);
    expect(lines.some((l) => l.startsWith("Nour Ali,student@example.com,"))).toBe(true);
    expect(lines.length).toBe(1 + (await page.locator(".progress-table tbody tr").count()));
  });
});

describe("the progress screens in both languages", () => {
  const newPage = useBrowser();
  const words = { en: { title: "Your progress", tab: "Students" }, ar: { title: "تقدّمك", tab: "الطلاب" } };

  for (const lang of ["en", "ar"] as const) {
    for (const width of [1280, 375]) {
      it(`the course home, the progress tab and the landing at ${width} px in ${lang === "en" ? "English" : "Arabic"}`, async () => {
        const student = await newPage({ width, height: 800 });
        await student.context().addCookies([{ name: "lang", value: lang, url: baseURL() }]);
        await signIn(student.context(), STUDENT.email, STUDENT.password);
        await gotoHydrated(student, "/course/frontend-react");
        expect(await student.locator("html").getAttribute("dir")).toBe(lang === "ar" ? "rtl" : "ltr");
        expect(await student.locator(".progress-card h2").textContent()).toBe(words[lang].title);
        expect(await student.locator(".up-next-item").count()).toBeGreaterThan(0);
        expect(await sideways(student)).toBe(0);

        const staff = await newPage({ width, height: 800 });
        await staff.context().addCookies([{ name: "lang", value: lang, url: baseURL() }]);
        await signIn(staff.context(), INSTRUCTOR.email, INSTRUCTOR.password);
        await gotoHydrated(staff, "/instructor/group/frontend-react/progress");
        expect(await staff.locator("#progress-table-title").textContent()).toBe(words[lang].tab);
        // The page itself never scrolls sideways.
        expect(await sideways(staff)).toBe(0);
        // Every student's four figures are on the screen: on a phone each student is a card, not a table row whose
        // last columns sit off to the side.
        const figures = await staff.locator(".progress-table tbody td").all();
        expect(figures.length).toBeGreaterThan(0);
        for (const figure of figures) {
          const box = (await figure.boundingBox())!;
          expect(box.x >= 0 && box.x + box.width <= width, (await figure.textContent()) ?? "").toBe(true);
        }
        // The charts' tables of numbers, opened, scroll inside their chart.
        for (const summary of await staff.locator(".chart-data summary").all()) await summary.click();
        expect(await sideways(staff)).toBe(0);
        // On a phone the row of group sections scrolls so the current one ("Progress", the sixth) is in view.
        await expect
          .poll(async () => {
            const box = await staff.locator('.group-tab[aria-current="page"]').boundingBox();
            return box !== null && box.x >= 0 && box.x + box.width <= width;
          })
          .toBe(true);
        // Bars run with the page: in Arabic the attendance bars are mirrored to start at the right.
        const mirrored = await staff.locator(".attendance-bar g").first().getAttribute("transform");
        expect(mirrored === null).toBe(lang === "en");

        await gotoHydrated(staff, "/instructor");
        await staff.locator("#attention-title").waitFor();
        expect(await sideways(staff)).toBe(0);
      });
    }
  }
});
