/**
 * Plurals and digits in the browser (issue 20, "Language and formats"): once React has hydrated an Arabic page and
 * redrawn the parts that depend on the reader's clock and time zone (time left, dates), the words follow Arabic's
 * plural forms and every digit is 0-9, as on the server; and a check-in code typed on an Arabic keyboard (٠-٩)
 * checks the student in.
 */
import { describe, expect, it } from "vitest";
import { baseURL, gotoHydrated, useBrowser } from "./browser";
import { accessToken, api, INSTRUCTOR, memberOf } from "./groups-helpers";
import { signIn } from "./session";

const DAY = 86_400_000;
const ARABIC_INDIC = /[\u0660-\u0669\u06f0-\u06f9]/;
const arabicIndic = (digits: string) => digits.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d)));

describe("Arabic counts and digits after hydration", () => {
  const newPage = useBrowser();

  it("the task page says \"بقيت 3 أيام\" and the lecture's date keeps Western digits in the reader's time zone", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Digits ${stamp}`, published: true, startsAt: "2026-03-05T18:00:00.000Z" })).body;
    const task = (await api<{ slug: string }>(token, "POST", `/api/lectures/${lecture.slug}/tasks`, { title: `Counted ${stamp}`, maxScore: 100, dueAt: new Date(Date.now() + 3.5 * DAY).toISOString() })).body;
    const eleven = (await api<{ slug: string }>(token, "POST", `/api/lectures/${lecture.slug}/tasks`, { title: `Later ${stamp}`, maxScore: 100, dueAt: new Date(Date.now() + 11.5 * DAY).toISOString() })).body;
    const student = await memberOf("frontend-react", "digits", `Digits ${stamp}`);

    for (const width of [1280, 375]) {
      const page = await newPage({ width, height: 800 });
      await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
      await signIn(page.context(), student.email, student.password);
      const base = `/course/frontend-react/lecture/${lecture.slug}`;
      await gotoHydrated(page, `${base}/Add-Task/${task.slug}`);
      await page.locator(".task-facts", { hasText: "بقيت 3 أيام" }).waitFor();
      expect(await page.locator("body").innerText()).not.toMatch(ARABIC_INDIC);
      await gotoHydrated(page, `${base}/Add-Task/${eleven.slug}`);
      await page.locator(".task-facts", { hasText: "بقي 11 يومًا" }).waitFor();

      await gotoHydrated(page, base);
      // After hydration the date is redrawn in the browser's own zone, without " UTC": still 2026, still 0-9.
      const when = page.locator("time").first();
      await page.waitForFunction(() => !document.querySelector("time")?.textContent?.includes("UTC"));
      expect(await when.textContent()).toMatch(/مارس 2026/);
      expect(await page.locator("body").innerText()).not.toMatch(ARABIC_INDIC);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    }
  });

  it("keeps every percentage reading \"25%\" in Arabic (the sign right of the number, as on the projector, never \"%25\")", async () => {
    const page = await newPage({ width: 1280, height: 900 });
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    for (const path of ["/instructor/group/frontend-react/progress", "/instructor/group/frontend-react/quizzes"]) {
      await gotoHydrated(page, path);
      // For each "%" on screen, where its number's last digit is drawn: in a right-to-left line a bare "25%" puts the
      // sign left of the number; the marks Intl.NumberFormat adds keep it on the right.
      const placed = await page.evaluate(() => {
        const found: { text: string; signRightOfNumber: boolean }[] = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent ?? "";
          for (const m of text.matchAll(/(\d)[\u200e\u200f]*%/g)) {
            const box = (from: number) => {
              const r = document.createRange();
              r.setStart(node!, from);
              r.setEnd(node!, from + 1);
              return r.getBoundingClientRect();
            };
            const digit = box(m.index!);
            const sign = box(m.index! + m[0].length - 1);
            if (digit.width === 0 || sign.width === 0) continue;
            found.push({ text: text.trim(), signRightOfNumber: sign.x > digit.x });
          }
        }
        return found;
      });
      expect(placed.length, path).toBeGreaterThan(0);
      expect(placed.filter((p) => !p.signRightOfNumber), path).toEqual([]);
    }
  });

  it("checks a student in with the code typed in Arabic-Indic digits", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Check-in ${stamp}`, published: true })).body;
    const opened = await api<{ session: { code: string } }>(token, "POST", `/api/lectures/${lecture.slug}/attendance/open`, { rotateSeconds: 0, durationMinutes: 30 });
    expect(opened.status).toBe(200);
    const student = await memberOf("frontend-react", "digits-in", `Check-in ${stamp}`);

    const page = await newPage({ width: 375, height: 800 });
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(page.context(), student.email, student.password);
    await gotoHydrated(page, `/course/frontend-react/lecture/${lecture.slug}`);
    await page.locator("#checkin-code").pressSequentially(arabicIndic(opened.body.session.code));
    expect((await page.locator("#checkin-code").inputValue()).replace(/\s/g, "")).toBe(opened.body.session.code);
    await page.locator(".checkin-card button[type=submit]").click();
    // The server accepted it: the card turns into the "present" state.
    await page.locator(".checkin-done").waitFor();
  });
});
