/**
 * Live attendance in the browser: the instructor opens attendance on a lecture and the projector shows the code; a
 * student checks in from another browser with that code and appears on the projector within a second; a signed-out
 * phone that scans the QR code logs in and is checked in without a second scan.
 */
import type { Page } from "playwright-core";
import { describe, expect, it, onTestFinished } from "vitest";
import { baseURL, gotoHydrated, useBrowser } from "./browser";
import { allowStatus } from "./accounts-helpers";
import { accessToken, api, INSTRUCTOR, memberOf, STUDENT } from "./groups-helpers";
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

  it("says so before opening attendance on a lecture dated another day, and not on today's", async () => {
    const token = await accessToken(INSTRUCTOR);
    const stamp = Date.now().toString(36);
    const week = await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Next week ${stamp}`, published: true, startsAt: new Date(Date.now() + 7 * 86_400_000).toISOString() });
    const today = await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Now ${stamp}`, published: true, startsAt: new Date(Date.now() + 30 * 60_000).toISOString() });
    const page = await newPage();
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, `/instructor/group/frontend-react/lectures/${week.body.slug}/attendance`);
    expect(await page.locator("#att-ahead").textContent()).toContain("This lecture is dated later");
    expect(await page.getByRole("button", { name: "Open attendance" }).getAttribute("aria-describedby")).toContain("att-ahead");
    await gotoHydrated(page, `/instructor/group/frontend-react/lectures/${today.body.slug}/attendance`);
    expect(await page.locator("#att-ahead").count()).toBe(0);
  });

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
    // Nothing typed: the app's own words at the field (the browser's "required" bubble used to stop it first).
    await phone.getByLabel("Check-in code").press("Enter");
    await phone.getByText("Enter the 6 digits of the code.").waitFor();
    expect(await phone.getByLabel("Check-in code").getAttribute("aria-invalid")).toBe("true");
    // Five digits: said at the field, which keeps the focus (the button used to do nothing, silently).
    await phone.getByLabel("Check-in code").fill(code.slice(0, 5));
    await phone.getByLabel("Check-in code").press("Enter");
    await phone.getByText("Enter the 6 digits of the code.").waitFor();
    expect(await phone.evaluate(() => document.activeElement?.id)).toBe("checkin-code");
    await phone.getByLabel("Check-in code").fill(code);
    await phone.getByRole("button", { name: "Check in" }).click();
    await phone.getByText("You're checked in: present").waitFor();
    // The form is gone: the card that says so has the keyboard's place.
    await expect.poll(() => phone.evaluate(() => document.activeElement?.classList.contains("checkin-done") ?? false)).toBe(true);
    // From the moment the student sees the confirmation, the projector shows them within a second.
    const confirmed = Date.now();
    await projector.locator(".arrival", { hasText: student.name }).waitFor({ timeout: 5_000 });
    expect(Date.now() - confirmed).toBeLessThan(1_000);
    expect(Number(await projector.getByTestId("present-count").textContent())).toBe(before + 1);
    const row = projector.locator(".roster-table tr", { hasText: student.name });
    expect(await row.locator(".attendance-badge").textContent()).toContain("Present");
  });

  it("the projector's list of who is here follows the roster: a student marked absent after arriving leaves it, the others stay", async () => {
    const stamp = Date.now().toString(36);
    const lecture = await newLecture(`Projector list ${stamp}`);
    const [ana, ben] = [await memberOf("frontend-react", "proj-a", `Projector Ana ${stamp}`), await memberOf("frontend-react", "proj-b", `Projector Ben ${stamp}`)];
    const projector = await newPage();
    await openOnProjector(projector, lecture.slug);
    const token = await accessToken(INSTRUCTOR);
    const idOf = async (u: typeof ana) => (await api<{ _id: string }>(await accessToken(u), "GET", "/api/users/profile")).body._id;
    const mark = async (u: typeof ana, status: string) => expect((await api(token, "POST", "/api/attendance", { lectureId: lecture._id, userId: await idOf(u), status })).status).toBe(200);
    const listed = (name: string) => projector.locator(".arrival", { hasText: name });
    await mark(ana, "present");
    await listed(ana.name).waitFor();
    await mark(ben, "late");
    await listed(ben.name).waitFor();
    await mark(ben, "absent");
    await listed(ben.name).waitFor({ state: "detached" });
    // Ana, marked first, is still here.
    expect(await listed(ana.name).count()).toBe(1);
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
    const refusal = "That code is not right. Check the code on the screen and try again.";
    await phone.getByRole("alert").filter({ hasText: refusal }).waitFor();
    expect(await phone.getByLabel("Check-in code").getAttribute("aria-invalid")).toBe("true");
    // Sent again as it stands: the same words in a new alert, which a screen reader reads again (an unchanged one it would not).
    await phone.getByRole("alert").filter({ hasText: refusal }).evaluate((el) => el.setAttribute("data-first", ""));
    await phone.getByRole("button", { name: "Check in" }).click();
    await phone.locator("[role=alert]:not([data-first])").filter({ hasText: refusal }).waitFor();
    expect(await phone.getByLabel("Check-in code").inputValue()).toBe(wrong);
    expect(problems).toEqual([]);
  });

  it("a lecture held without a roll call says what Progress counts: no check-in is absent, a later joiner is not counted", async () => {
    const token = await accessToken(INSTRUCTOR);
    const held = await api<{ _id: string; slug: string; title: string }>(token, "POST", "/api/lectures/group/frontend-react", {
      title: `Held yesterday ${Date.now().toString(36)}`,
      published: true,
      startsAt: new Date(Date.now() - 86_400_000).toISOString(),
    });
    expect(held.status).toBe(201);
    onTestFinished(async () => {
      await api(token, "DELETE", `/api/lectures/${held.body._id}`);
    });
    const newcomer = await memberOf("frontend-react", "newcomer", `Newcomer ${Date.now().toString(36)}`);

    const staff = await newPage();
    await signIn(staff.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(staff, `/instructor/group/frontend-react/lectures/${held.body.slug}/attendance`);
    const rowOf = (name: string) => staff.locator(".roster-table tbody tr", { hasText: name });
    // Nour Ali (the demo student) has been a member for weeks and has no record: counted absent, as Progress does.
    expect(await rowOf("Nour Ali").locator('td[data-label="Status"]').textContent()).toBe("Absent: no check-in");
    expect(await rowOf(newcomer.name).locator('td[data-label="Status"]').textContent()).toBe("Joined after this lecture");
    expect(await staff.locator(".roster-counts").textContent()).toMatch(/ absent · /);
    expect(await staff.locator(".roster-counts").textContent()).not.toContain("not yet");
    await staff.getByText(/joined after this lecture: not counted unless marked\./).waitFor();

    // The student's own course home, in Arabic on a phone: the lecture is marked as missed; the newcomer's is not.
    const phone = await newPage({ width: 375, height: 740 });
    await phone.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(phone.context(), STUDENT.email, STUDENT.password);
    await gotoHydrated(phone, "/course/frontend-react");
    const row = phone.locator(".course-lecture-list li", { hasText: held.body.title });
    expect(await row.locator(".attendance-badge").textContent()).toBe("غائب: لم يسجّل حضوره");
    const other = await newPage({ width: 375, height: 740 });
    await signIn(other.context(), newcomer.email, newcomer.password);
    await gotoHydrated(other, "/course/frontend-react");
    await other.locator(".course-lecture-list li", { hasText: held.body.title }).waitFor();
    expect(await other.locator(".course-lecture-list li", { hasText: held.body.title }).locator(".attendance-badge").count()).toBe(0);
  });
});

describe("the attendance journey in Arabic (issue 20)", () => {
  const newPage = useBrowser();
  const ARABIC_TITLE = "الخطافات بالتفصيل";
  const text = async (page: Page, selector: string) => ((await page.locator(selector).first().textContent()) ?? "").trim();

  it("opens attendance on a draft (the form says it publishes), checks students in by code and by QR through the login, counts live, and closing marks the rest absent", async () => {
    // A draft, in Arabic: its slug is Arabic too.
    const created = await api<{ _id: string; slug: string; published: boolean }>(await accessToken(INSTRUCTOR), "POST", "/api/lectures/group/frontend-react", { title: ARABIC_TITLE });
    expect(created.status).toBe(201);
    expect(created.body.published).toBe(false);
    const slug = created.body.slug;
    const tag = Date.now().toString(36);
    const byCode = await memberOf("frontend-react", "hooks-code", `طالب الرمز ${tag}`);
    const byQr = await memberOf("frontend-react", "hooks-qr", `طالبة الباركود ${tag}`);
    const away = await memberOf("frontend-react", "hooks-away", `طالب غائب ${tag}`);

    const projector = await newPage({ width: 1280, height: 800 });
    await projector.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(projector.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(projector, `/instructor/group/frontend-react/lectures/${encodeURIComponent(slug)}/attendance`);
    // Before it opens: no "Live" anywhere, and the form says that opening publishes the draft.
    expect(await text(projector, ".attendance-screen h2")).toBe("الحضور");
    expect(await projector.locator(".attendance-screen .live-indicator").count()).toBe(0);
    expect(await text(projector, "#att-draft")).toBe("هذه المحاضرة مسودّة. فتح الحضور ينشرها، فيراها طلاب المجموعة ويصلهم إشعار بها.");
    await projector.locator("#att-rotate").selectOption("0");
    await projector.getByRole("button", { name: "انشر المحاضرة وافتح الحضور" }).click();
    const codeText = projector.locator(".projector-code");
    await codeText.waitFor();
    await projector.locator('.attendance-screen .live-indicator[data-status="open"]').waitFor();
    expect(await text(projector, ".attendance-screen h2")).toBe("الحضور المباشر");
    const code = (await codeText.textContent())!.replace(/\D/g, "");
    expect(code).toMatch(/^\d{6}$/);
    const count = async () => Number(await projector.getByTestId("present-count").textContent());
    const before = await count();

    // A student types the code on their phone (the lecture was published by opening attendance).
    const phone = await newPage({ width: 375, height: 740 });
    await phone.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(phone.context(), byCode.email, byCode.password);
    await gotoHydrated(phone, `/course/frontend-react/lecture/${encodeURIComponent(slug)}`);
    expect(await text(phone, "h1")).toBe(ARABIC_TITLE);
    await phone.getByLabel("رمز الحضور").fill(code);
    await phone.getByRole("button", { name: "سجّل حضوري" }).click();
    await phone.getByText("سُجّل حضورك: حاضر").waitFor();
    await projector.locator(".arrival", { hasText: byCode.name }).waitFor({ timeout: 5_000 });
    expect(await count()).toBe(before + 1);

    // Another scans the QR code signed out, signs in, and is checked in without a second scan.
    const scanner = await newPage({ width: 375, height: 740 });
    await scanner.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await scanner.goto(`${baseURL()}/attend/${encodeURIComponent(slug)}?code=${code}`);
    await scanner.waitForURL((url) => url.pathname === "/auth/login");
    await scanner.waitForSelector("html[data-hydrated]", { state: "attached" });
    await scanner.locator('input[name="email"]').fill(byQr.email);
    await scanner.locator('input[name="password"]').fill(byQr.password);
    await scanner.getByRole("button", { name: "تسجيل الدخول", exact: true }).click();
    await scanner.waitForURL((url) => decodeURIComponent(url.pathname) === `/course/frontend-react/lecture/${slug}`);
    await scanner.getByText("سُجّل حضورك: حاضر").waitFor();
    await projector.locator(".arrival", { hasText: byQr.name }).waitFor({ timeout: 5_000 });
    expect(await count()).toBe(before + 2);

    // Closing: no "Live" any more, and whoever did not check in is absent (not "not yet"); staff can still correct.
    // Asked first (it marks the rest absent): cancelled, nothing changes; confirmed, it closes.
    await projector.getByRole("button", { name: "أغلق الحضور" }).click();
    const ask = projector.getByRole("dialog", { name: "أتغلق الحضور الآن؟" });
    await ask.waitFor();
    await ask.getByRole("button", { name: "إلغاء" }).click();
    await ask.waitFor({ state: "hidden" });
    expect(await projector.locator(".attendance-screen .live-indicator").count()).toBe(1);
    await projector.getByRole("button", { name: "أغلق الحضور" }).click();
    await ask.getByRole("button", { name: "أغلق الحضور" }).click();
    await projector.locator('.session-badge[data-session="closed"]').waitFor();
    // The button that was pressed is gone with the code screen: the keyboard goes on from the screen's heading.
    await expect.poll(() => projector.evaluate(() => document.activeElement?.matches(".attendance-screen h2") ?? false)).toBe(true);
    expect(await text(projector, ".session-badge")).toBe("مُغلق");
    expect(await text(projector, ".attendance-screen h2")).toBe("الحضور");
    expect(await projector.locator(".attendance-screen .live-indicator").count()).toBe(0);
    const rowOf = (name: string) => projector.locator(".roster-table tbody tr", { hasText: name });
    expect(await rowOf(away.name).locator(".attendance-badge").getAttribute("data-status")).toBe("absent");
    expect(await text(projector, `.roster-table tbody tr:has-text("${away.name}") .attendance-badge`)).toBe("غائب");
    expect(await rowOf(byCode.name).locator(".attendance-badge").getAttribute("data-status")).toBe("present");
    expect(await rowOf(byQr.name).locator(".attendance-badge").getAttribute("data-status")).toBe("present");
    // Every member of the roster has a status now.
    const rows = await projector.locator(".roster-table tbody tr").count();
    expect(await projector.locator(".roster-table tbody tr .attendance-badge").count()).toBe(rows);
    await rowOf(away.name).locator("select").selectOption("excused");
    await rowOf(away.name).locator('.attendance-badge[data-status="excused"]').waitFor();
    // The mark's round trip (and the page's revalidation after it) ends before the test closes the page.
    await rowOf(away.name).locator("select:enabled").waitFor();
    await projector.waitForLoadState("networkidle");
    // Three new accounts and three browsers: more than the default 45 s on a loaded machine.
  }, 120_000);

  it("marking by hand with the keys saves the status chosen, on Enter, not each one passed on the way, and keeps the focus", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Keys ${stamp}`, published: true })).body;
    const member = await memberOf("frontend-react", "keys", `Keys Marked ${stamp}`);
    const page = await newPage();
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, `/instructor/group/frontend-react/lectures/${lecture.slug}/attendance`);
    const sent: string[] = [];
    page.on("request", (req) => {
      if (req.method() === "POST" && req.url().includes("/attendance")) sent.push(req.postData() ?? "");
    });
    const select = page.locator(".roster-table tbody tr", { hasText: member.name }).locator("select");
    await select.focus();
    // Present, late, excused, absent: three steps down from "not yet" to excused pass two other statuses.
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowDown");
    expect(await select.inputValue()).toBe("excused");
    await page.waitForTimeout(300);
    expect(sent).toEqual([]);
    await page.keyboard.press("Enter");
    await expect.poll(() => sent.length).toBe(1);
    expect(sent[0]).toContain("status=excused");
    await page.locator(".roster-table tbody tr", { hasText: member.name }).locator('.attendance-badge[data-status="excused"]').waitFor();
    await select.and(page.locator("select:enabled")).waitFor();
    // The picker was disabled while it saved; it has the focus back.
    await expect.poll(() => select.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(sent).toHaveLength(1);
  });

  it("a mark by hand on a lecture that has not taken place is refused above the roster, in Arabic too, and the row keeps its state", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Next week ${stamp}`, published: true, startsAt: new Date(Date.now() + 7 * 86_400_000).toISOString() })).body;
    const member = await memberOf("frontend-react", "ahead", `Ahead Marked ${stamp}`);
    const page = await newPage({ width: 375, height: 800 });
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    const problems = allowStatus(page, 409, "/attendance");
    await gotoHydrated(page, `/instructor/group/frontend-react/lectures/${lecture.slug}/attendance`);
    const select = page.locator(".roster-table tbody tr", { hasText: member.name }).locator("select");
    await select.focus();
    // "Present", then Enter.
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    const alert = page.locator(".roster .form-error[role=alert]");
    await alert.waitFor();
    expect(await alert.textContent()).toBe("لم تُعقد هذه المحاضرة بعد: سجّل الحضور بعد انعقادها. يمكن إعفاء طالب مسبقًا.");
    await expect.poll(() => select.inputValue()).toBe("");
    expect(await page.locator(".roster-table tbody tr", { hasText: member.name }).locator(".attendance-badge").count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it("the projector's QR is large, and its full-screen button follows the full-screen state", async () => {
    const projector = await newPage({ width: 1280, height: 800 });
    await signIn(projector.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    // The demo lecture whose attendance is open (db/seed.ts).
    await gotoHydrated(projector, "/instructor/group/frontend-react/lectures/react-components/attendance");
    const qr = projector.locator(".projector-qr svg");
    await qr.waitFor();
    // Scannable from the back of a room: at least 320 px on a 1280 px screen.
    expect((await qr.boundingBox())!.width).toBeGreaterThanOrEqual(320);

    await projector.getByRole("button", { name: "Full screen", exact: true }).click();
    await projector.getByRole("button", { name: "Exit full screen", exact: true }).waitFor();
    expect(await projector.evaluate(() => document.fullscreenElement?.className)).toBe("projector");
    const { width, height } = (await qr.boundingBox())!;
    const screenHeight = await projector.evaluate(() => window.innerHeight);
    expect(Math.min(width, height)).toBeGreaterThanOrEqual(screenHeight * 0.5);
    // Leaving full screen another way (Esc, the browser's own controls) puts the label back too.
    await projector.evaluate(() => document.exitFullscreen());
    await projector.getByRole("button", { name: "Full screen", exact: true }).waitFor();
    expect(await projector.evaluate(() => document.fullscreenElement)).toBeNull();
    // And the button leaves full screen itself.
    await projector.getByRole("button", { name: "Full screen", exact: true }).click();
    await projector.getByRole("button", { name: "Exit full screen", exact: true }).click();
    await projector.getByRole("button", { name: "Full screen", exact: true }).waitFor();
  });
});

describe("a lecture's video (issue 20)", () => {
  const newPage = useBrowser();

  it("plays YouTube in the page through youtube-nocookie.com after a click, which the page's policy allows; the link stays", async () => {
    const title = `Recorded ${Date.now().toString(36)}`;
    const res = await api<{ slug: string }>(await accessToken(INSTRUCTOR), "POST", "/api/lectures/group/frontend-react", {
      title,
      published: true,
      videoUrl: "https://youtu.be/dQw4w9WgXcQ?t=90",
    });
    expect(res.status).toBe(201);
    const page = await newPage({ width: 1280, height: 800 });
    // No network here: the player's host answers from the test, so only the policy decides whether it is framed.
    const asked: string[] = [];
    await page.context().route(/^https:\/\/www\.youtube-nocookie\.com\//, (route) => {
      asked.push(route.request().url());
      return route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>player</title><p id=player>player</p>" });
    });
    await signIn(page.context(), "sara@example.com", "demo-student-pass");
    await gotoHydrated(page, `/course/frontend-react/lecture/${res.body.slug}`);
    expect(await page.locator(".lecture-video iframe").count()).toBe(0);
    expect(asked).toEqual([]);
    expect(await page.getByRole("link", { name: /Watch the video/ }).getAttribute("href")).toBe("https://youtu.be/dQw4w9WgXcQ?t=90");
    await page.getByRole("button", { name: "Play the video here" }).click();
    const frame = page.locator(".lecture-video iframe");
    await frame.waitFor();
    expect(await frame.getAttribute("title")).toBe(`Video: ${title}`);
    expect(await frame.getAttribute("src")).toBe("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0&start=90&autoplay=1");
    // Framed (a policy refusal would leave the frame empty and print a console error, failing the test).
    await page.frameLocator(".lecture-video iframe").locator("#player").waitFor();
    expect(asked).toEqual(["https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0&start=90&autoplay=1"]);
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
