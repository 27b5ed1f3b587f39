/**
 * A cohort's life in the browser (issue 22): a new cohort made from the demo group has every lecture, task, exercise
 * and quiz, unpublished and on the new dates; an announcement reaches a member live and by e-mail and stays pinned
 * until dismissed; a scheduled task shows itself and tells the members; the demo graduate's certificate page, its
 * print view (one page, A4 and Letter) and its signed statement agree, in English and in Arabic; a revoked
 * certificate says so.
 */
import { describe, expect, it } from "vitest";
import { baseURL, gotoHydrated, useBrowser } from "./browser";
import { accessToken, ADMIN, api, INSTRUCTOR, memberOf } from "./groups-helpers";
import { signIn } from "./session";
import { allowStatus } from "./accounts-helpers";

const G = "frontend-react";
const SARA = { email: "sara@example.com", password: "demo-student-pass" };
const CODE = "SARA-MAHM-WEBD-RE26";

interface Mail {
  subject: string;
  text: string;
}
async function mailsTo(to: string): Promise<Mail[]> {
  return (await (await fetch(`${baseURL()}/api/dev/mailbox?to=${encodeURIComponent(to)}`)).json()) as Mail[];
}

describe("a cohort's life", () => {
  const newPage = useBrowser();

  it("a member's open course home shows a lecture published meanwhile (on its schedule or by hand), without a reload", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const page = await newPage();
    await signIn(page.context(), SARA.email, SARA.password);
    await gotoHydrated(page, `/course/${G}`);
    await page.locator(".bell[data-live=\"open\"]").waitFor({ timeout: 10_000 });
    const title = `Extra session ${stamp}`;
    const made = await api<{ slug: string }>(token, "POST", `/api/lectures/group/${G}`, { title, published: true });
    expect(made.status).toBe(201);
    // The bell hears "new lecture" about a page within this one; the lectures list follows.
    await page.getByRole("link", { name: new RegExp(title) }).first().waitFor({ timeout: 10_000 });
    await api(token, "DELETE", `/api/lectures/${made.body.slug}`);
  });

  it("moving a lecture with the keyboard says where it is now and keeps the focus on it, at the end on its other arrow", async () => {
    const stamp = Date.now().toString(36);
    const admin = await accessToken(ADMIN);
    const group = (await api<{ slug: string }>(admin, "POST", "/api/groups", { title: `Order ${stamp}` })).body;
    for (const title of ["Alpha", "Beta", "Gamma"]) expect((await api(admin, "POST", `/api/lectures/group/${group.slug}`, { title: `${title} ${stamp}` })).status).toBe(201);
    const page = await newPage();
    await signIn(page.context(), ADMIN.email, ADMIN.password);
    await gotoHydrated(page, `/dashboard/admin/group/${group.slug}/lectures`);
    await page.getByRole("button", { name: `Move Beta ${stamp} later` }).focus();
    await page.keyboard.press("Enter");
    await page.locator(".toast", { hasText: `Beta ${stamp}` }).waitFor();
    expect((await page.locator(".toast", { hasText: `Beta ${stamp}` }).textContent())?.replace(/[\u2068\u2069]/g, "")).toContain(`Beta ${stamp} is now lecture 3 of 3.`);
    // Last now: it cannot move later, so the focus is on moving it earlier.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(`Move Beta ${stamp} earlier`);
  });

  it("the lecture editor with the keyboard: Write and Preview are tabs moved between with the arrows; adding and removing a resource keeps the focus in the list", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", `/api/lectures/group/${G}`, { title: `Editor keys ${stamp}`, body: "Some **bold** words." })).body;
    const page = await newPage({ width: 375, height: 800 });
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, `/instructor/group/${G}/lectures/update/${lecture.slug}`);
    const write = page.locator("#tab-write");
    const preview = page.locator("#tab-preview");
    expect([await write.getAttribute("tabindex"), await preview.getAttribute("tabindex")]).toEqual(["0", "-1"]);
    await write.focus();
    // Right to left: the next tab is to the left.
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => preview.getAttribute("aria-selected")).toBe("true");
    expect(await preview.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.locator("#lecture-body-panel strong", { hasText: "bold" }).waitFor();
    await page.keyboard.press("Home");
    await expect.poll(() => write.getAttribute("aria-selected")).toBe("true");

    const add = page.locator("fieldset.resources-field > button");
    await add.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-resource-title"))).toBe("0");
    await add.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-resource-title"))).toBe("1");
    // Removing the last row puts the focus on the one before it; removing the only one, on Add.
    await page.locator(".resource-row").nth(1).locator("button").focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-resource-title"))).toBe("0");
    await page.locator(".resource-row").nth(0).locator("button").focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => add.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it("a weekly series is set in the group's time zone, whatever the browser's, and the form says which", async () => {
    const admin = await accessToken(ADMIN);
    const group = (await api<{ slug: string }>(admin, "POST", "/api/groups", { title: `Series zone ${Date.now().toString(36)}` })).body;
    // An admin abroad (New York) schedules a group that meets in Cairo (the default zone of a group).
    const page = await newPage({ timezoneId: "America/New_York" });
    await signIn(page.context(), ADMIN.email, ADMIN.password);
    await gotoHydrated(page, `/dashboard/admin/group/${group.slug}/lectures`);
    await page.getByRole("button", { name: "Schedule a weekly series" }).click();
    const zone = page.locator("#series-zone");
    expect(await zone.inputValue()).toBe("Africa/Cairo");
    expect((await zone.locator("option:checked").textContent())?.replace(/[\u2066\u2069\u200e]/g, "")).toBe("Cairo (UTC+02:00)");
    await page.getByLabel("Mon", { exact: true }).check();
    await page.locator("#series-time").fill("10:00");
    await page.locator("#series-from").fill("2027-01-04");
    await page.getByLabel("Number of sessions").fill("2");
    // "after [2] sessions" reads as one line: the unit sits beside the number, not under it.
    const count = await page.getByLabel("Number of sessions").boundingBox();
    const unit = await page.locator(".weekday-field .check-field", { has: page.getByLabel("Number of sessions") }).locator("span").last().boundingBox();
    expect(unit!.y).toBeLessThan(count!.y + count!.height);
    expect(unit!.x).toBeGreaterThan(count!.x + count!.width - 1);
    await page.getByRole("button", { name: "Create the series" }).click();
    // 10:00 in Cairo in January (UTC+2) is 08:00 UTC; in New York it would have been 15:00 UTC.
    await expect
      .poll(async () => (await api<{ startsAt: string | null }[]>(admin, "GET", `/api/lectures/group/${group.slug}`)).body.map((l) => l.startsAt), { timeout: 10_000 })
      .toEqual(["2027-01-04T08:00:00.000Z", "2027-01-11T08:00:00.000Z"]);
    // The page says how many lectures it made, and the focus is back on the button that opened the closed form.
    await page.getByText("The series was created: 2 lectures.").waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Schedule a weekly series");
  });

  it("an instructor starts the next cohort from the demo group: everything copied, unpublished, on the new dates", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const page = await newPage();
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, `/instructor/group/${G}/cohort`);
    // The form says which weekday the first lecture is on; the copy starts a whole number of weeks later.
    const hint = await page.locator("#copy-start-hint").textContent();
    const weekday = /on a (\w+):/.exec(hint ?? "")?.[1];
    expect(weekday, hint ?? "").toBeTruthy();
    const source = (await api<{ slug: string; title: string; startsAt: string | null; published: boolean }[]>(token, "GET", `/api/lectures/group/${G}`)).body;
    const firstDated = source.filter((l) => l.startsAt).sort((a, b) => Date.parse(a.startsAt!) - Date.parse(b.startsAt!))[0]!;
    const cairoDay = (iso: string) => new Intl.DateTimeFormat("en-CA", { timeZone: "Africa/Cairo" }).format(new Date(iso));
    const start = new Date(`${cairoDay(firstDated.startsAt!)}T12:00:00Z`);
    start.setUTCDate(start.getUTCDate() + 7 * 20);
    const startDate = start.toISOString().slice(0, 10);

    // The title starts as this group's own, and the form says so until it is another.
    const titleField = page.getByLabel("New group's title");
    const titleHint = page.locator("#copy-title-hint");
    expect(await titleHint.textContent()).toContain("This is this group's own title");
    await titleField.fill(`React, next cohort ${stamp}`);
    await expect.poll(() => titleHint.textContent()).toBe("Students see both groups in the catalogue.");
    await page.getByLabel("First lecture on").fill(startDate);
    await page.getByRole("button", { name: "Create the copy" }).click();
    await page.getByRole("link", { name: "Open the new group" }).click();
    await page.waitForURL(/\/instructor\/group\/react-next-cohort-[^/]+\/lectures$/);
    const copySlug = decodeURIComponent(new URL(page.url()).pathname.split("/")[3]!);

    // Every lecture, task and quiz, none published, every date 140 days later at the same Cairo hour.
    const copy = (await api<{ title: string; startsAt: string | null; published: boolean }[]>(token, "GET", `/api/lectures/group/${copySlug}`)).body;
    expect(copy.map((l) => l.title)).toEqual(source.map((l) => l.title));
    expect(copy.every((l) => !l.published)).toBe(true);
    const hour = (iso: string) => new Intl.DateTimeFormat("en-GB", { timeZone: "Africa/Cairo", weekday: "short", hour: "2-digit", minute: "2-digit" }).format(new Date(iso));
    for (const [i, l] of copy.entries()) {
      if (!l.startsAt) continue;
      expect(hour(l.startsAt)).toBe(hour(source[i]!.startsAt!));
      expect(Math.round((Date.parse(cairoDay(l.startsAt)) - Date.parse(cairoDay(source[i]!.startsAt!))) / 86_400_000)).toBe(140);
    }
    const tasks = async (slug: string) => (await api<{ title: string }[]>(token, "GET", `/api/lectures/groups/${slug}/tasks`)).body.map((t) => t.title).sort();
    expect(await tasks(copySlug)).toEqual(await tasks(G));
    const quizzes = async (slug: string) => (await api<{ title: string; published: boolean }[]>(token, "GET", `/api/quizzes/groups/${slug}`)).body;
    const copiedQuizzes = await quizzes(copySlug);
    expect(copiedQuizzes.map((q) => q.title).sort()).toEqual((await quizzes(G)).map((q) => q.title).sort());
    expect(copiedQuizzes.every((q) => !q.published)).toBe(true);
    // The new group is a draft nobody has joined.
    const students = await api<{ total: number }>(token, "GET", `/api/groups/${copySlug}/students`);
    expect(students.status).toBe(200);
  });

  it("the copy is published from its own Cohort tab, by keyboard, in Arabic on a phone; the catalogue lists it at once", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const made = await api<{ group: { slug: string; title: string } }>(token, "POST", `/api/groups/${G}/copy`, { title: `دفعة الربيع ${stamp}`, startDate: "2031-03-02" });
    expect(made.status).toBe(201);
    const { slug, title } = made.body.group;
    const page = await newPage({ width: 375, height: 780 });
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, `/instructor/group/${slug}/cohort`);
    // Nothing on the tab is wider than the phone (the next cohort's title hint once was, by a line that did not wrap).
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    const section = page.locator("#publishing");
    expect(await section.textContent()).toContain("لا يرى الزوار هذا الكورس");
    const publish = section.getByRole("button", { name: "انشره في قائمة الكورسات" });
    await publish.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => section.getByRole("status").textContent()).toBe("نُشر: يظهر الآن في قائمة الكورسات.");
    // The button went with the draft: the focus is on what the group is now, which offers the way back (no members).
    await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains("cohort-publishing-state") ?? false)).toBe(true);
    expect(await section.getByRole("button", { name: "أعِده إلى مسودة" }).count()).toBe(1);
    const catalogue = await (await fetch(`${baseURL()}/courses`, { headers: { accept: "text/html" } })).text();
    expect(catalogue).toContain(title);

    // Back to draft asks first; Cancel keeps it listed.
    await section.getByRole("button", { name: "أعِده إلى مسودة" }).click();
    const dialog = page.getByRole("dialog", { name: `إخراج «\u2068${title}\u2069» من قائمة الكورسات؟` });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "إلغاء" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect((await api<{ status: string }>(token, "GET", `/api/groups/manage/${slug}`)).body.status).toBe("published");
    await section.getByRole("button", { name: "أعِده إلى مسودة" }).click();
    await dialog.getByRole("button", { name: "أعِده إلى مسودة" }).click();
    await expect.poll(() => section.getByRole("status").textContent()).toBe("أُعيد إلى مسودة: لم يعد يظهر في قائمة الكورسات.");
    expect(await (await fetch(`${baseURL()}/courses`, { headers: { accept: "text/html" } })).text()).not.toContain(title);

    // An announcement to a group nobody has joined yet says that nobody was told.
    await page.getByLabel("العنوان", { exact: true }).fill("أهلًا بكم");
    await page.getByLabel("الإعلان (Markdown)").fill("نبدأ في مارس.");
    await page.getByRole("button", { name: "انشر الإعلان" }).click();
    await page.getByText("نُشر الإعلان. لا أعضاء في المجموعة بعد، فلم يُبلَّغ أحد؛ وسيظهر مثبّتًا لمن ينضم.").waitFor();
  });

  it("two quick submissions of Create the copy make one group, and the form starts over once it is made", async () => {
    const stamp = Date.now().toString(36);
    const title = `Double click ${stamp}`;
    const page = await newPage();
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, `/instructor/group/${G}/cohort`);
    await page.getByLabel("New group's title").fill(title);
    await page.getByLabel("First lecture on").fill("2031-03-03");
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().includes("/cohort")) posts.push(r.url());
    });
    // Two submissions before the page has re-rendered (a double click on a slow phone, Enter pressed twice): one is sent.
    await page.locator("#copy-title").evaluate((input) => {
      const form = (input as HTMLInputElement).form!;
      form.requestSubmit();
      form.requestSubmit();
    });
    await page.getByRole("link", { name: "Open the new group" }).waitFor();
    expect(posts).toHaveLength(1);
    // Whatever was still on its way has landed by now.
    await page.waitForLoadState("networkidle");
    const token = await accessToken(INSTRUCTOR);
    const found = await api<{ groups: { title: string }[] }>(token, "GET", `/api/groups/manage?search=${encodeURIComponent(title)}`);
    expect(found.body.groups.map((g) => g.title)).toEqual([title]);
    // The form is back to this group's title and no date: clicking again sends nothing (the date is required).
    expect(await page.getByLabel("New group's title").inputValue()).not.toBe(title);
    expect(await page.getByLabel("First lecture on").inputValue()).toBe("");
  });

  it("an announcement reaches a member live and by e-mail, and stays pinned until dismissed", async () => {
    const stamp = Date.now().toString(36);
    const student = await memberOf(G, "announce", `Announce Student ${stamp}`);
    const studentPage = await newPage();
    await signIn(studentPage.context(), student.email, student.password);
    await gotoHydrated(studentPage, `/course/${G}`);
    await studentPage.locator('.bell[data-live="open"]').waitFor();
    const unreadBefore = Number((await studentPage.locator(".bell-badge").textContent().catch(() => "0")) || 0);

    const teacher = await newPage();
    await signIn(teacher.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(teacher, `/instructor/group/${G}/cohort`);
    await teacher.getByLabel("Title", { exact: true }).fill(`Room change ${stamp}`);
    await teacher.getByLabel("Announcement (Markdown)").fill("We meet in **room 4** from now on.");
    await teacher.getByRole("button", { name: "Post announcement" }).click();
    // Saying to how many: a group without members would tell nobody.
    await teacher.getByText(/^Announcement posted to \d+ members\.$/).waitFor();

    // Live: the bell counts it without a reload, and its panel names it.
    await expect.poll(async () => Number((await studentPage.locator(".bell-badge").textContent().catch(() => "0")) || 0), { timeout: 10_000 }).toBe(unreadBefore + 1);
    await studentPage.locator(".bell-button").click();
    await studentPage.locator(".bell-panel", { hasText: `Room change ${stamp}` }).waitFor();
    await studentPage.keyboard.press("Escape");
    // By e-mail.
    await expect.poll(async () => (await mailsTo(student.email)).some((m) => m.subject.includes(`Room change ${stamp}`) && m.text.includes("room 4")), { timeout: 10_000 }).toBe(true);
    // Pinned on the course home until dismissed, and gone after a reload.
    await gotoHydrated(studentPage, `/course/${G}`);
    const pinned = studentPage.locator(".course-announcement", { hasText: `Room change ${stamp}` });
    expect(await pinned.locator("strong").textContent()).toBe("room 4");
    // It goes at once; the dismissal is stored when the page's action answers.
    const stored = studentPage.waitForResponse((r) => r.request().method() === "POST" && r.url().includes(`/course/${G}.data`));
    // With the keyboard: the button goes with the announcement, so the focus moves on (the next pinned one's title,
    // or the next section's heading), not back to the top of the page.
    await pinned.getByRole("button", { name: `Dismiss “Room change ${stamp}”` }).focus();
    await studentPage.keyboard.press("Enter");
    await pinned.waitFor({ state: "detached" });
    expect((await stored).status()).toBe(200);
    expect(await studentPage.evaluate(() => document.activeElement?.matches(".course-announcement h3, main h2") ?? false)).toBe(true);
    await gotoHydrated(studentPage, `/course/${G}`);
    expect(await studentPage.locator(".course-announcement", { hasText: `Room change ${stamp}` }).count()).toBe(0);

    // The staff delete it (the demo group keeps its own announcement only).
    const token = await accessToken(INSTRUCTOR);
    const list = (await api<{ _id: string; title: string }[]>(token, "GET", `/api/groups/${G}/announcements`)).body;
    for (const a of list.filter((x) => x.title === `Room change ${stamp}`)) await api(token, "DELETE", `/api/groups/${G}/announcements/${a._id}`);
  });

  it("a term of announcements shows the newest two, the rest behind one button that says how many", async () => {
    const stamp = Date.now().toString(36);
    const admin = await accessToken(ADMIN);
    const group = (await api<{ slug: string }>(admin, "POST", "/api/groups", { title: `Announced ${stamp}`, status: "published", capacity: 5 })).body;
    const student = await memberOf(group.slug, "pinned", `Pinned Student ${stamp}`);
    for (const n of [1, 2, 3, 4]) {
      expect((await api(admin, "POST", `/api/groups/${group.slug}/announcements`, { title: `Notice ${n} ${stamp}`, body: `Body ${n}` })).status).toBe(201);
    }
    const page = await newPage();
    await signIn(page.context(), student.email, student.password);
    await gotoHydrated(page, `/course/${group.slug}`);
    const titles = () => page.locator(".course-announcement h3").allTextContents();
    expect(await titles()).toEqual([`Notice 4 ${stamp}`, `Notice 3 ${stamp}`]);
    const more = page.getByRole("button", { name: "Show 2 older announcements" });
    await more.focus();
    await page.keyboard.press("Enter");
    await expect.poll(titles).toEqual([4, 3, 2, 1].map((n) => `Notice ${n} ${stamp}`));
    // The keyboard goes on from the first of those just shown.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? "")).toBe(`Notice 2 ${stamp}`);
    expect(await more.count()).toBe(0);
  });

  it("a scheduled task shows itself at its time and tells the members, with nobody reading", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const student = await memberOf(G, "scheduled", `Scheduled Student ${stamp}`);
    const studentToken = await accessToken(student);
    const lecture = (await api<{ slug: string }>(token, "POST", `/api/lectures/group/${G}`, { title: `Scheduled week ${stamp}`, published: true })).body;
    const made = await api<{ slug: string; publishAt: string }>(token, "POST", `/api/lectures/${lecture.slug}/tasks`, { title: `Later task ${stamp}`, publishAt: new Date(Date.now() + 4_000).toISOString() });
    expect(made.status).toBe(201);
    expect((await api(studentToken, "GET", `/api/lectures/${lecture.slug}/tasks/${made.body.slug}`)).status).toBe(404);
    await expect
      .poll(async () => (await api(studentToken, "GET", `/api/lectures/${lecture.slug}/tasks/${made.body.slug}`)).status, { timeout: 20_000, interval: 500 })
      .toBe(200);
    const notes = (await api<{ notifications: { kind: string; link: string }[] }>(studentToken, "GET", "/api/notifications")).body.notifications;
    expect(notes.some((n) => n.kind === "task-created" && n.link.endsWith(`/Add-Task/${made.body.slug}`))).toBe(true);
    await api(token, "DELETE", `/api/lectures/${lecture.slug}`);
  });

  it("issuing to everyone asks first, in Arabic at 375 px, and names the lectures still to come; Cancel issues nothing", async () => {
    const stamp = Date.now().toString(36);
    const admin = await accessToken(ADMIN);
    const group = (await api<{ slug: string }>(admin, "POST", "/api/groups", { title: `Graduation ${stamp}`, status: "published" })).body;
    const DAY = 86_400_000;
    const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
    for (const [title, days] of [["Held", -2], ["Next", 3], ["Last", 9]] as const) expect((await api(admin, "POST", `/api/lectures/group/${group.slug}`, { title: `${title} ${stamp}`, published: true, startsAt: at(days) })).status).toBe(201);
    const student = await memberOf(group.slug, "grad", `Grad ${stamp}`);
    expect((await api(admin, "PUT", `/api/groups/${group.slug}/completion-rule`, { overall: 0, attendance: null })).status).toBe(200);
    const held = async () => (await api<{ members: { certificate: unknown }[] }>(admin, "GET", `/api/groups/${group.slug}/certificates`)).body.members.filter((m) => m.certificate).length;

    const page = await newPage({ width: 375, height: 800 });
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(page.context(), ADMIN.email, ADMIN.password);
    await gotoHydrated(page, `/dashboard/admin/group/${group.slug}/cohort`);
    const note = page.locator(".cohort-section .cohort-ahead").first();
    expect(await note.textContent()).toContain("ما زالت محاضرتان قادمتين");
    await page.getByRole("button", { name: "امنحها لكل من يستوفي الشرط" }).click();
    const dialog = page.getByRole("dialog", { name: "منح الشهادات لكل من يستوفي الشرط؟" });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("ما زالت محاضرتان قادمتين");
    // How many it reaches: the only member joined after the only lecture held, so has no Overall and nobody does.
    expect(await dialog.locator("strong").textContent()).toBe("لا أحد جديد يستوفي الشرط الآن: لن تُمنح أي شهادة.");
    await dialog.getByRole("button", { name: "إلغاء" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await held()).toBe(0);

    // Confirmed, the form is sent: a member who joined after the only lecture held has no Overall yet, so nobody
    // meets the rule and the page says so.
    await page.getByRole("button", { name: "امنحها لكل من يستوفي الشرط" }).click();
    await dialog.getByRole("button", { name: "امنح الشهادات" }).click();
    await page.getByRole("status").filter({ hasText: "لا شهادات جديدة: كل من يستوفي الشرط لديه شهادة" }).waitFor();
    await dialog.waitFor({ state: "hidden" });
    expect(await held()).toBe(0);

    // By hand: its dialog names the lectures to come too, and confirming issues it and tells the student.
    await page.getByRole("button", { name: `امنح: Grad ${stamp}` }).click();
    const one = page.getByRole("dialog", { name: `إصدار شهادة لـ\u2068Grad ${stamp}\u2069؟` });
    await one.waitFor();
    expect(await one.textContent()).toContain("ما زالت محاضرتان قادمتين");
    // By hand to a member short of the rule: the dialog says so, with their figures.
    expect(await one.textContent()).toContain(`لا يستوفي \u2068Grad ${stamp}\u2069 شرط الإتمام بعد (الإجمالي —، الحضور —)`);
    await one.getByRole("button", { name: "امنح", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "مُنحت شهادة واحدة" }).waitFor();
    expect(await held()).toBe(1);
    await expect.poll(async () => (await mailsTo(student.email)).some((m) => m.subject.includes(`Graduation ${stamp}`))).toBe(true);
  });

  it("the demo graduate's certificate: page, print view and signed statement agree in English and Arabic", async () => {
    const visitor = await newPage();
    const statement = async () => (await (await fetch(`${baseURL()}/api/certificates/${CODE}`)).json()) as { certificate: { recipientName: string; courseTitle: string; instructorName: string; language: string; revoked: unknown }; credential: { name: string } };
    await gotoHydrated(visitor, `/certificates/${CODE}`);
    const signed = await statement();
    expect(await visitor.locator(".certificate-name").textContent()).toBe(signed.certificate.recipientName);
    expect(await visitor.locator(".certificate-course").textContent()).toBe(signed.certificate.courseTitle);
    expect(await visitor.locator(".certificate").getAttribute("lang")).toBe("en");
    expect(await visitor.locator(".certificate-heading").textContent()).toBe("Certificate of completion");
    expect(signed.credential.name).toContain(signed.certificate.courseTitle);
    // The QR code holds the page's own address (uqr draws it as SVG), and LinkedIn gets it too.
    expect(await visitor.locator(".certificate-qr svg").count()).toBe(1);
    const linkedIn = new URL((await visitor.getByRole("link", { name: "Add to LinkedIn" }).getAttribute("href"))!);
    expect(linkedIn.searchParams.get("certId")).toBe(CODE);
    expect(linkedIn.searchParams.get("name")).toBe(signed.certificate.courseTitle);
    // Printed: one page, landscape A4 or Letter, the document only.
    await visitor.emulateMedia({ media: "print" });
    expect(await visitor.locator(".site-header").isVisible()).toBe(false);
    expect(await visitor.locator(".certificate-actions").isVisible()).toBe(false);
    // Back to the browser's own choice (media "screen" would make the PDF below use the screen's styles).
    await visitor.emulateMedia({ media: null });
    for (const format of ["A4", "Letter"] as const) {
      const pdf = await visitor.pdf({ format, preferCSSPageSize: true });
      expect((pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) ?? []).length, format).toBe(1);
    }

    // The graduate chooses Arabic on her course home: the page and the statement follow.
    const sara = await newPage();
    await signIn(sara.context(), SARA.email, SARA.password);
    await gotoHydrated(sara, `/course/${G}`);
    await sara.getByLabel("Certificate language").selectOption("ar");
    await sara.getByRole("button", { name: "Change language" }).click();
    await sara.getByText("Your certificate's language was changed.").waitFor();
    try {
      await gotoHydrated(visitor, `/certificates/${CODE}`);
      expect(await visitor.locator(".certificate").getAttribute("dir")).toBe("rtl");
      expect(await visitor.locator(".certificate-heading").textContent()).toBe("شهادة إتمام");
      expect(await visitor.locator(".certificate-name").textContent()).toBe(signed.certificate.recipientName);
      expect((await statement()).certificate.language).toBe("ar");
      const pdf = await visitor.pdf({ format: "A4", preferCSSPageSize: true });
      expect((pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) ?? []).length).toBe(1);
    } finally {
      await sara.getByLabel("Certificate language").selectOption("en");
      await sara.getByRole("button", { name: "Change language" }).click();
      await sara.getByText("Your certificate's language was changed.").waitFor();
    }
  });

  it("a certificate issued by hand and revoked from the Cohort tab says so, with the reason", async () => {
    const stamp = Date.now().toString(36);
    const student = await memberOf(G, "revoked", `Revoked Student ${stamp}`);
    const token = await accessToken(INSTRUCTOR);
    const teacher = await newPage();
    await signIn(teacher.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(teacher, `/instructor/group/${G}/cohort`);
    const row = teacher.locator("tr", { hasText: `Revoked Student ${stamp}` });
    await row.getByRole("button", { name: `Issue: Revoked Student ${stamp}` }).click();
    // Issuing tells the student at once: asked first, and Cancel issues nothing.
    const issue = teacher.getByRole("dialog", { name: `Issue a certificate to \u2068Revoked Student ${stamp}\u2069?` });
    await issue.waitFor();
    expect(await issue.textContent()).toContain("They are told at once in the bell and by e-mail");
    await issue.getByRole("button", { name: "Cancel" }).click();
    await issue.waitFor({ state: "hidden" });
    const holder = async () => (await api<{ members: { name: string; certificate: unknown }[] }>(token, "GET", `/api/groups/${G}/certificates`)).body.members.find((m) => m.name === student.name)?.certificate ?? null;
    expect(await holder()).toBeNull();
    await row.getByRole("button", { name: `Issue: Revoked Student ${stamp}` }).click();
    await issue.getByRole("button", { name: "Issue", exact: true }).click();
    // Exactly "Revoke": a role's name matches any part of a longer one, and the Issue button's ("Issue: Revoked
    // Student ...") would answer at once, before the certificate exists.
    await row.getByRole("button", { name: "Revoke", exact: true }).waitFor();
    const roster = (await api<{ members: { name: string; certificate: { code: string } | null }[] }>(token, "GET", `/api/groups/${G}/certificates`)).body;
    const code = roster.members.find((m) => m.name === student.name)!.certificate!.code;

    await row.getByRole("button", { name: "Revoke", exact: true }).click();
    await teacher.getByLabel("Reason").fill("Issued to the wrong person");
    await teacher.locator("dialog").getByRole("button", { name: "Revoke", exact: true }).click();
    await row.getByText(/^Revoked /).waitFor();

    const visitor = await newPage();
    await gotoHydrated(visitor, `/certificates/${code}`);
    expect(await visitor.locator(".certificate-revoked-banner").textContent()).toContain("Issued to the wrong person");
    expect(await visitor.getByRole("link", { name: "Add to LinkedIn" }).count()).toBe(0);
    const signed = (await (await fetch(`${baseURL()}/api/certificates/${code}`)).json()) as { certificate: { revoked: { reason: string } | null } };
    expect(signed.certificate.revoked?.reason).toBe("Issued to the wrong person");
  });
  it("the Cohort tab says a refused field at the field, in the page's language, and takes the focus there", async () => {
    const page = await newPage({ width: 375, height: 780 });
    // Each refusal answers 400, which Chromium reports in the console; nothing else may.
    const problems = allowStatus(page, 400, "/cohort");
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, `/instructor/group/${G}/cohort`);
    // An announcement without a title: said under the title (not the browser's bubble), which takes the focus.
    await page.locator("#announce-body").fill("نص بلا عنوان");
    await page.locator("#announcements").getByRole("button", { name: "انشر الإعلان" }).click();
    await page.locator("#announce-title-error").waitFor();
    expect(await page.locator("#announce-title-error").textContent()).toBe("اكتب عنوانًا (150 حرفًا على الأكثر).");
    expect(await page.locator("#announce-title").getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#announce-title").getAttribute("aria-describedby")).toContain("announce-title-error");
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("announce-title");
    expect(await page.locator("#announcements .form-actions [role=status]").textContent()).toBe("");
    // A completion rule above 100: at its field.
    await page.locator("#rule-overall").fill("170");
    await page.locator(".cohort-rule").getByRole("button").click();
    await page.locator("#rule-overall-error").waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("rule-overall");
    // A copy without its start date: at the date.
    await page.locator("#copy-title").fill(`Spring ${Date.now().toString(36)}`);
    await page.locator("#copy-start").evaluate((el) => el.closest("form")!.requestSubmit());
    await page.locator("#copy-start-error").waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("copy-start");
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    expect(problems).toEqual([]);
  });

  it("an admin ends a cohort from its Cohort tab, asked first, and brings it back", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(ADMIN);
    const made = await api<{ group: { slug: string; title: string } }>(token, "POST", `/api/groups/${G}/copy`, { title: `Ending ${stamp}`, startDate: "2031-03-02" });
    expect(made.status).toBe(201);
    const { slug } = made.body.group;
    expect((await api(token, "PUT", `/api/groups/${slug}`, { status: "published" })).status).toBe(200);
    const page = await newPage();
    await signIn(page.context(), ADMIN.email, ADMIN.password);
    await gotoHydrated(page, `/dashboard/admin/group/${slug}/cohort`);
    const section = page.locator("#publishing");
    await section.getByRole("button", { name: "Archive the course" }).click();
    const dialog = page.getByRole("dialog", { name: `Archive “\u2068Ending ${stamp}\u2069”?` });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("Its members keep their course home, work, grades and certificates");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    const status = async () => (await api<{ status: string }>(token, "GET", `/api/groups/manage/${slug}`)).body.status;
    expect(await status()).toBe("published");
    await section.getByRole("button", { name: "Archive the course" }).click();
    await dialog.getByRole("button", { name: "Archive", exact: true }).click();
    await expect.poll(() => section.getByRole("status").textContent()).toBe("Archived: the course has ended and the catalogue no longer lists it.");
    expect(await status()).toBe("archived");
    await section.getByRole("button", { name: "Bring it back" }).click();
    await expect.poll(() => section.getByRole("status").textContent()).toBe("Published: the catalogue lists it now.");
    expect(await status()).toBe("published");
  });
});
