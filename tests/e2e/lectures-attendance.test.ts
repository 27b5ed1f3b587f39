/**
 * Live attendance in the browser: the instructor opens attendance on a lecture and the projector shows the code; a
 * student checks in from another browser with that code and appears on the projector within a second; a signed-out
 * phone that scans the QR code logs in and is checked in without a second scan.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, gotoHydrated, useBrowser } from "./browser";
import { allowStatus } from "./accounts-helpers";
import { accessToken, api, INSTRUCTOR, memberOf } from "./groups-helpers";
import { signIn } from "./session";

async function newLecture(title: string): Promise<{ _id: string; slug: string }> {
  const res = await api<{ _id: string; slug: string }>(await accessToken(INSTRUCTOR), "POST", "/api/lectures/group/frontend-react", { title, published: true });
  expect(res.status).toBe(201);
  return res.body;
}

async function openOnProjector(page: Page, slug: string): Promise<string> {
  await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
  await gotoHydrated(page, `/instructor/group/frontend-react/lectures/${slug}/attendance`);
  await page.locator("#att-rotate").selectOption("0");
  await page.getByRole("button", { name: "Open attendance" }).click();
  const code = page.locator(".projector-code");
  await code.waitFor();
  await page.locator('.live-indicator[data-status="open"]').waitFor();
  return (await code.textContent())!.replace(/\D/g, "");
}

describe("live attendance", () => {
  const newPage = useBrowser();

  it("a student's check-in from another browser appears on the projector within a second", async () => {
    const lecture = await newLecture(`Live check-in ${Date.now().toString(36)}`);
    const student = await memberOf("frontend-react", "checkin", `Checkin Student ${Date.now().toString(36)}`);
    const projector = await newPage();
    const code = await openOnProjector(projector, lecture.slug);
    expect(code).toMatch(/^\d{6}$/);
    const before = Number(await projector.getByTestId("present-count").textContent());

    const phone = await newPage({ width: 375, height: 740 });
    await signIn(phone.context(), student.email, student.password);
    await gotoHydrated(phone, `/course/frontend-react/lecture/${lecture.slug}`);
    await phone.getByLabel("Check-in code").fill(code);
    await phone.getByRole("button", { name: "Check in" }).click();
    await phone.getByText("You're checked in: present").waitFor();
    // From the moment the student sees the confirmation, the projector shows them within a second.
    const confirmed = Date.now();
    await projector.locator(".arrival", { hasText: student.name }).waitFor({ timeout: 5_000 });
    expect(Date.now() - confirmed).toBeLessThan(1_000);
    expect(Number(await projector.getByTestId("present-count").textContent())).toBe(before + 1);
    const row = projector.locator(".roster-table tr", { hasText: student.name });
    expect(await row.locator(".attendance-badge").textContent()).toContain("Present");
  });

  it("a signed-out phone scans the QR link, logs in and is checked in, with no second scan", async () => {
    const lecture = await newLecture(`QR check-in ${Date.now().toString(36)}`);
    const student = await memberOf("frontend-react", "qr", `QR Student ${Date.now().toString(36)}`);
    const projector = await newPage();
    const code = await openOnProjector(projector, lecture.slug);
    const qr = projector.locator(".projector-qr svg");
    await qr.waitFor();

    const phone = await newPage({ width: 375, height: 740 });
    await phone.goto(`${baseURL()}/attend/${lecture.slug}?code=${code}`);
    await phone.waitForURL((url) => url.pathname === "/auth/login");
    await phone.waitForSelector("html[data-hydrated]", { state: "attached" });
    await phone.getByLabel("Email").fill(student.email);
    await phone.getByLabel("Password", { exact: true }).fill(student.password);
    await phone.getByRole("button", { name: "Log In", exact: true }).click();
    await phone.waitForURL((url) => url.pathname === `/course/frontend-react/lecture/${lecture.slug}`);
    await phone.getByText("You're checked in: present").waitFor();
    await projector.locator(".arrival", { hasText: student.name }).waitFor({ timeout: 5_000 });
  });

  it("refuses a wrong code with its message and keeps the box", async () => {
    const lecture = await newLecture(`Wrong code ${Date.now().toString(36)}`);
    const student = await memberOf("frontend-react", "wrong", `Wrong Code ${Date.now().toString(36)}`);
    const projector = await newPage();
    const code = await openOnProjector(projector, lecture.slug);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    const phone = await newPage({ width: 375, height: 740 });
    // The refused check-in answers 400, which Chromium reports in the console; nothing else may.
    const problems = allowStatus(phone, 400, `/lecture/${lecture.slug}`);
    await signIn(phone.context(), student.email, student.password);
    await gotoHydrated(phone, `/course/frontend-react/lecture/${lecture.slug}`);
    await phone.getByLabel("Check-in code").fill(wrong);
    await phone.getByRole("button", { name: "Check in" }).click();
    await phone.getByText("That code is not right. Check the code on the screen and try again.").waitFor();
    expect(await phone.getByLabel("Check-in code").getAttribute("aria-invalid")).toBe("true");
    expect(problems).toEqual([]);
  });
});

describe("the projector and the lecture page in both languages", () => {
  const newPage = useBrowser();

  for (const lang of ["en", "ar"] as const) {
    for (const width of [1280, 375]) {
      it(`render at ${width} px in ${lang === "en" ? "English" : "Arabic"} without scrolling sideways`, async () => {
        const staff = await newPage({ width, height: 800 });
        await staff.context().addCookies([{ name: "lang", value: lang, url: baseURL() }]);
        await signIn(staff.context(), INSTRUCTOR.email, INSTRUCTOR.password);
        // The demo lecture whose attendance is open (db/seed.ts).
        await gotoHydrated(staff, "/instructor/group/frontend-react/lectures/react-components/attendance");
        expect(await staff.locator("html").getAttribute("dir")).toBe(lang === "ar" ? "rtl" : "ltr");
        expect((await staff.locator(".projector-code").textContent())!.replace(/\D/g, "")).toMatch(/^\d{6}$/);
        await staff.locator(".projector-qr svg").waitFor();
        expect(await staff.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);

        const student = await newPage({ width, height: 800 });
        await student.context().addCookies([{ name: "lang", value: lang, url: baseURL() }]);
        await signIn(student.context(), "sara@example.com", "demo-student-pass");
        await gotoHydrated(student, "/course/frontend-react/lecture/react-components");
        expect(await student.locator("h1").textContent()).toBe("React components and state");
        await student.locator(".checkin-done, .checkin-card").first().waitFor();
        expect(await student.locator(".prose code.hljs").count()).toBeGreaterThan(0);
        expect(await student.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
      });
    }
  }
});
