/**
 * Tasks end to end: a student hands in a link on the task page, the instructor grades with the keyboard in the
 * grader and moves on to the next ungraded student, and the student sees the grade and the formatted feedback.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { baseURL, gotoHydrated, useBrowser } from "./browser";
import { allowStatus } from "./accounts-helpers";
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
    // The focus is on the confirmation, and the confirmation on screen (375 px: the button is far below the top).
    await expect.poll(() => student.evaluate(() => document.activeElement?.classList.contains("form-success"))).toBe(true);
    const said = (await student.locator(".form-success").boundingBox())!;
    expect(said.y >= 0 && said.y + said.height <= 800).toBe(true);
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
    // J and K leave the focus where it is: the status line says whose work is on screen now, and where in the list.
    const status = grader.locator('.grader > [role="status"]');
    await expect.poll(() => status.textContent()).toBe(`${await name.textContent()}: 2 of 2`);
    await grader.keyboard.press("k");
    await expect.poll(() => name.textContent()).toBe(firstShown);
    await expect.poll(() => status.textContent()).toBe(`${firstShown}: 1 of 2`);
    // The arrows move between students only in their list; elsewhere they are the page's (scrolling).
    await grader.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await grader.keyboard.press("ArrowDown");
    await grader.waitForTimeout(200);
    expect(await name.textContent()).toBe(firstShown);
    await grader.locator(".grader-list button, .grader-list a").first().focus();
    await grader.keyboard.press("ArrowDown");
    await expect.poll(() => name.textContent()).not.toBe(firstShown);
    // The focus moves with the student it opened: Enter keeps that one open instead of going back to the first.
    const focusedIsCurrent = () => grader.evaluate(() => document.activeElement?.getAttribute("aria-current") === "true" && !!document.activeElement.closest(".grader-list"));
    await expect.poll(focusedIsCurrent).toBe(true);
    const secondShown = await name.textContent();
    await grader.keyboard.press("Enter");
    await grader.waitForTimeout(200);
    expect(await name.textContent()).toBe(secondShown);
    await grader.keyboard.press("ArrowUp");
    await expect.poll(() => name.textContent()).toBe(firstShown);
    await expect.poll(focusedIsCurrent).toBe(true);
    // J and K can be turned off (single-key shortcuts, WCAG 2.1.4), remembered on this device; the arrows still work.
    const letters = grader.getByLabel("Use J and K (off: only the arrows, in the list)");
    await letters.uncheck();
    await grader.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await grader.keyboard.press("j");
    await grader.waitForTimeout(200);
    expect(await name.textContent()).toBe(firstShown);
    await gotoHydrated(grader, `/instructor/group/frontend-react/lecture/${lecture.slug}/tasks/${task.slug}/submissions`);
    await expect.poll(() => letters.isChecked()).toBe(false);
    await letters.check();
    await grader.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
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
    // Choosing a list the student on screen is not in opens that list's first student instead.
    const nextShown = await name.textContent();
    await grader.locator("#grader-filter").selectOption("all");
    await grader.locator(".grader-list button", { hasText: firstShown! }).click();
    await expect.poll(() => name.textContent()).toBe(firstShown);
    await grader.locator("#grader-filter").selectOption("ungraded");
    await expect.poll(() => name.textContent()).toBe(nextShown);
    expect(await grader.locator(".grader-outside").count()).toBe(0);

    // Whoever was graded sees it; make sure it is the first student by grading the other one too.
    await grader.locator("#grader-score").focus();
    await grader.keyboard.type("40");
    await grader.keyboard.press("Control+Enter");
    await expect.poll(() => grader.getByTestId("graded-count").textContent()).toBe("Graded 2 of 2");
    // The counter moves at once; the server must end up with both grades too (the second save, sent while the first
    // was still in flight, once aborted it and lost a grade).
    await expect
      .poll(async () => (await api<{ submissions: { score: number | null }[] }>(token, "GET", `/api/lectures/${lecture.slug}/tasks/${task.slug}/submissions`)).body.submissions.map((x) => x.score).sort(), { timeout: 10_000 })
      .toEqual([40, 45]);
    // "Ungraded" is empty now, and the last one graded stays on screen: the panel says they are not in the list, and
    // Show all brings the list that holds them.
    expect(await grader.locator(".grader-side .empty-inline").textContent()).toBe("Nothing left here: every submission in this list is graded.");
    const outside = grader.locator(".grader-outside");
    expect(await outside.textContent()).toContain("Not in the list shown (Ungraded).");
    await outside.getByRole("button", { name: "Show all" }).click();
    await outside.waitFor({ state: "detached" });
    expect(await grader.locator("#grader-filter").inputValue()).toBe("all");
    expect(await grader.locator('.grader-list [aria-current="true"]').textContent()).toContain(await name.textContent());

    await gotoHydrated(student, taskPath);
    const grade = await student.locator(".task-grade").textContent();
    expect(grade === "Grade: 45 / 50" || grade === "Grade: 40 / 50").toBe(true);
    expect(await student.locator(".task-state").first().textContent()).toBe("Graded");

    // The course home lists the task with its state and the same grade.
    await gotoHydrated(student, "/course/frontend-react");
    const row = student.locator(".course-task", { hasText: `Landing page ${stamp}` });
    expect(await row.locator(".task-state").textContent()).toBe("Graded");
    expect(await row.locator(".course-task-grade").textContent()).toBe(grade);

    // The instructor's bell said who handed in: its link opens the grader on that hand-in, graded by now (so every
    // hand-in is listed, not only the ungraded ones).
    const bell = (await api<{ notifications: { kind: string; params: { name?: string } | null; link: string | null }[] }>(token, "GET", "/api/notifications?limit=50")).body.notifications;
    const handedIn = bell.find((n) => n.kind === "submission-created" && n.params?.name === `Aya Grade ${stamp}`);
    expect(handedIn?.link).toMatch(new RegExp(`^/instructor/group/frontend-react/lecture/${lecture.slug}/tasks/${task.slug}/submissions\\?submission=`));
    await gotoHydrated(grader, handedIn!.link!);
    expect(await name.textContent()).toBe(`Aya Grade ${stamp}`);
    expect(await grader.locator("#grader-filter").inputValue()).toBe("all");
  });
});

describe("a refused hand-in", () => {
  const newPage = useBrowser();

  it("ties the reason to the link field, so a screen reader says why it is invalid", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Refused ${stamp}`, published: true })).body;
    const task = (await api<{ slug: string }>(token, "POST", `/api/lectures/${lecture.slug}/tasks`, { title: `Link task ${stamp}`, maxScore: 10 })).body;
    const student = await memberOf("frontend-react", "refused", `Refused Link ${stamp}`);
    const page = await newPage();
    // The refusal is a 400 answer, which the browser logs.
    allowStatus(page, 400, `/Add-Task/${task.slug}`);
    await signIn(page.context(), student.email, student.password);
    await gotoHydrated(page, `/course/frontend-react/lecture/${lecture.slug}/Add-Task/${task.slug}`);
    const link = page.getByLabel("Link to your work");
    await link.fill("not a link");
    // Sent with the button: the refused field then takes the focus, so the keyboard is where the fix goes.
    await page.getByRole("button", { name: "Hand in your work" }).click();
    await expect.poll(() => link.getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("task-link");
    const described = (await link.getAttribute("aria-describedby"))!.split(" ");
    const said = await page.evaluate((ids) => ids.map((id) => document.getElementById(id)?.textContent ?? null), described);
    expect(said).toContain("Give a full link to your work, starting with https:// or http://");
  });
});

describe("the due time on a task page", () => {
  const newPage = useBrowser();

  it("Ctrl+Enter in the conversation's box sends the message and grades nothing", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Talk ${stamp}`, published: true })).body;
    const task = (await api<{ slug: string }>(token, "POST", `/api/lectures/${lecture.slug}/tasks`, { title: `Talked ${stamp}`, maxScore: 10 })).body;
    const student = await memberOf("frontend-react", "talk", `Talk ${stamp}`);
    expect((await api(await accessToken(student), "POST", `/api/lectures/${lecture.slug}/submit-task/${task.slug}`, { link: "https://talk.example.dev" })).status).toBe(201);
    const page = await newPage();
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, `/instructor/group/frontend-react/lecture/${lecture.slug}/tasks/${task.slug}/submissions`);
    const box = page.getByLabel("Write a message");
    await box.fill(`Look at line 3 ${stamp}`);
    await box.press("Control+Enter");
    await page.locator(".submission-comment-body", { hasText: `Look at line 3 ${stamp}` }).waitFor();
    await expect.poll(() => box.inputValue()).toBe("");
    const list = await api<{ submissions: { score: number | null; gradedAt: string | null }[] }>(token, "GET", `/api/lectures/${lecture.slug}/tasks/${task.slug}/submissions`);
    expect(list.body.submissions.map((x) => x.gradedAt)).toEqual([null]);
  });

  it("a saved grade leaves the student's question and the hand-in's versions on screen", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Kept ${stamp}`, published: true })).body;
    const task = (await api<{ slug: string }>(token, "POST", `/api/lectures/${lecture.slug}/tasks`, { title: `Kept talk ${stamp}`, maxScore: 10 })).body;
    const student = await memberOf("frontend-react", "kept", `Kept ${stamp}`);
    const studentToken = await accessToken(student);
    expect((await api(studentToken, "POST", `/api/lectures/${lecture.slug}/submit-task/${task.slug}`, { link: "https://first.example.dev" })).status).toBe(201);
    const again = await api<{ submission: { _id: string } }>(studentToken, "POST", `/api/lectures/${lecture.slug}/submit-task/${task.slug}`, { link: "https://second.example.dev" });
    expect(again.status).toBeLessThan(300);
    const question = `Should I add dark mode? ${stamp}`;
    expect((await api(studentToken, "POST", `/api/lectures/${lecture.slug}/tasks/${task.slug}/submissions/${again.body.submission._id}/comments`, { body: question })).status).toBe(201);

    const page = await newPage();
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, `/instructor/group/frontend-react/lecture/${lecture.slug}/tasks/${task.slug}/submissions`);
    const comment = page.locator(".submission-comment-body", { hasText: question });
    await comment.waitFor();
    await page.getByText("All 2 versions handed in").waitFor();
    await page.locator("#grader-score").fill("8");
    await page.locator("#grader-score").press("Control+Enter");
    await page.getByText(`Grade saved for Kept ${stamp}.`).first().waitFor();
    expect(await comment.isVisible()).toBe(true);
    expect(await page.getByText("All 2 versions handed in").isVisible()).toBe(true);
    expect(await page.getByText("No messages yet.").count()).toBe(0);
  });

  it("keeps what was typed for a student while the grader looks at others, marks it Not saved, and asks before leaving", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Drafts ${stamp}`, published: true })).body;
    const task = (await api<{ slug: string }>(token, "POST", `/api/lectures/${lecture.slug}/tasks`, { title: `Drafted ${stamp}`, maxScore: 10 })).body;
    for (const who of ["draft-a", "draft-b"]) {
      const student = await memberOf("frontend-react", who, `${who} ${stamp}`);
      expect((await api(await accessToken(student), "POST", `/api/lectures/${lecture.slug}/submit-task/${task.slug}`, { link: `https://${who}.example.dev` })).status).toBe(201);
    }
    const grader = await newPage();
    await signIn(grader.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(grader, `/instructor/group/frontend-react/lecture/${lecture.slug}/tasks/${task.slug}/submissions`);
    const name = grader.locator("#grader-name");
    const first = (await name.textContent())!;
    await grader.locator("#grader-score").fill("7");
    await grader.locator("#grader-feedback").fill("Half-way there: the form needs labels.");
    // J (from outside the fields) shows the next student with empty fields; K brings back what was typed.
    await grader.locator("#grader-name").click();
    await grader.keyboard.press("j");
    await expect.poll(() => name.textContent()).not.toBe(first);
    expect(await grader.locator("#grader-feedback").inputValue()).toBe("");
    expect(await grader.locator("#grader-score").inputValue()).toBe("");
    const firstInList = grader.locator(".grader-student", { hasText: first });
    expect(await firstInList.textContent()).toContain("Not saved");
    await grader.keyboard.press("k");
    await expect.poll(() => name.textContent()).toBe(first);
    expect(await grader.locator("#grader-feedback").inputValue()).toBe("Half-way there: the form needs labels.");
    expect(await grader.locator("#grader-score").inputValue()).toBe("7");

    // Leaving for another page asks; Cancel stays with the draft.
    await grader.getByRole("link", { name: "Students", exact: true }).first().click();
    const ask = grader.getByRole("dialog", { name: "Leave without saving?" });
    await ask.waitFor();
    await ask.getByRole("button", { name: "Cancel" }).click();
    await ask.waitFor({ state: "hidden" });
    expect(grader.url()).toContain("/submissions");
    expect(await grader.locator("#grader-feedback").inputValue()).toBe("Half-way there: the form needs labels.");

    // Saved, nothing is left unsaved: the mark goes and leaving does not ask.
    await grader.getByRole("button", { name: "Save", exact: true }).click();
    await expect.poll(() => grader.getByTestId("graded-count").textContent()).toBe("Graded 1 of 2");
    // Seen beside the buttons, not only heard: "Saved", until the grade is changed again.
    await grader.locator(".grader-done", { hasText: "Saved" }).waitFor();
    await grader.locator("#grader-feedback").fill("Half-way there: the form needs labels!");
    expect(await grader.locator(".grader-done").count()).toBe(0);
    await grader.locator("#grader-feedback").fill("Half-way there: the form needs labels.");
    await grader.locator("#grader-filter").selectOption("all");
    expect(await firstInList.textContent()).not.toContain("Not saved");
    expect(await grader.locator('.task-state[data-state="draft"]').count()).toBe(0);
    await grader.getByRole("link", { name: "Students", exact: true }).first().click();
    await grader.waitForURL(/\/students$/);
  });

  it("releasing held grades asks first: cancelled, the student still sees no grade; confirmed, they see it", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Held ${stamp}`, published: true })).body;
    const task = (await api<{ slug: string }>(token, "POST", `/api/lectures/${lecture.slug}/tasks`, { title: `Held task ${stamp}`, maxScore: 10, gradesHeld: true })).body;
    const student = await memberOf("frontend-react", "held", `Held Student ${stamp}`);
    const studentToken = await accessToken(student);
    const handedIn = await api<{ submission: { _id: string } }>(studentToken, "POST", `/api/lectures/${lecture.slug}/submit-task/${task.slug}`, { link: "https://held.example.dev" });
    expect(handedIn.status).toBe(201);
    const base = `/api/lectures/${lecture.slug}/tasks/${task.slug}/submissions/${handedIn.body.submission._id}`;
    expect((await api(token, "PUT", base, { score: 9, feedback: "Tidy work." })).status).toBe(200);
    const seen = async () => (await api<{ score: number | null }>(studentToken, "GET", base)).body.score;
    expect(await seen()).toBeNull();

    // The student has the task open meanwhile; their bell's socket is listening.
    const mine = await newPage();
    await signIn(mine.context(), student.email, student.password);
    await gotoHydrated(mine, `/course/frontend-react/lecture/${lecture.slug}/Add-Task/${task.slug}`);
    await mine.locator('.bell[data-live="open"]').waitFor();
    expect(await mine.getByText("Grade: 9 / 10").count()).toBe(0);

    const grader = await newPage();
    await signIn(grader.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(grader, `/instructor/group/frontend-react/lecture/${lecture.slug}/tasks/${task.slug}/submissions`);
    await grader.getByRole("button", { name: "Release 1 grade" }).click();
    const ask = grader.getByRole("dialog", { name: "Release 1 grade?" });
    await ask.waitFor();
    expect(await ask.textContent()).toContain("cannot be taken back");
    await ask.getByRole("button", { name: "Cancel" }).click();
    await ask.waitFor({ state: "hidden" });
    expect(await seen()).toBeNull();

    await grader.getByRole("button", { name: "Release 1 grade" }).click();
    await ask.getByRole("button", { name: "Release 1 grade" }).click();
    await grader.getByText("1 grade released; its student was notified.").waitFor();
    await ask.waitFor({ state: "hidden" });
    expect(await seen()).toBe(9);
    // The button went with the release: the sentence that replaced it has the focus, not the page.
    await expect.poll(() => grader.evaluate(() => document.activeElement?.classList.contains("grade-release-done") ?? false)).toBe(true);
    // The student's open page shows the grade as the notification arrives, without a reload.
    await mine.getByText("Grade: 9 / 10").first().waitFor({ timeout: 10_000 });
  });

  it("a student who has not handed in is given more time from the grader: the task's extensions open with them chosen", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Late ${stamp}`, published: true })).body;
    const due = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const task = (await api<{ slug: string }>(token, "POST", `/api/lectures/${lecture.slug}/tasks`, { title: `Late task ${stamp}`, maxScore: 10, dueAt: due })).body;
    await memberOf("frontend-react", "needs-time", `Needs Time ${stamp}`);
    const grader = await newPage();
    await signIn(grader.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(grader, `/instructor/group/frontend-react/lecture/${lecture.slug}/tasks/${task.slug}/submissions`);
    await grader.locator(".grader-missing summary").click();
    await grader.getByRole("link", { name: `Give more time Needs Time ${stamp}` }).click();
    await grader.waitForURL(new RegExp(`/tasks/updateTask/${task.slug}\\?extend=`));
    const panel = grader.locator("#extensions");
    await panel.waitFor();
    const box = panel.getByRole("checkbox", { name: `Needs Time ${stamp}` });
    expect(await box.isChecked()).toBe(true);
    // Only them.
    expect(await panel.getByRole("checkbox", { checked: true }).count()).toBe(1);
    // The new due time starts a day after the task's own, so giving it at once is not refused.
    await panel.getByRole("button", { name: "Give 1 student the extension" }).click();
    await panel.getByText("Saved. The student was notified.").waitFor();
    // Nobody is chosen now and the button is off: the focus is on what was said, not lost to the page.
    await expect.poll(() => grader.evaluate(() => document.activeElement?.textContent)).toBe("Saved. The student was notified.");
    const given = await api<{ dueAt: string }[]>(token, "GET", `/api/lectures/${lecture.slug}/tasks/${task.slug}/extensions`);
    expect(given.status).toBe(200);
    // A day later (the field keeps whole minutes, so within one of 24 hours).
    expect(Math.abs((Date.parse(given.body[0]!.dueAt) - Date.parse(due)) / 60_000 - 24 * 60)).toBeLessThanOrEqual(1);
    // And back to grading, where the student is still listed as not handed in.
    await panel.getByRole("link", { name: "Back to grading" }).click();
    await grader.waitForURL(new RegExp(`/tasks/${task.slug}/submissions$`));
    await grader.locator(".grader-missing summary").waitFor();
  });

  it("a task long past its due time starts the extension a day ahead of now, and says so beside a time already past", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Long past ${stamp}`, published: true })).body;
    // Due ten days ago (and an hour, at a whole minute as the field shows it), taking late work.
    const due = new Date(Math.floor((Date.now() - 10 * 86_400_000 - 3_600_000) / 60_000) * 60_000).toISOString();
    const task = (await api<{ slug: string }>(token, "POST", `/api/lectures/${lecture.slug}/tasks`, { title: `Past task ${stamp}`, maxScore: 10, dueAt: due, allowLate: true })).body;
    await memberOf("frontend-react", "long-past", `Long Past ${stamp}`);
    for (const lang of ["en", "ar"] as const) {
      const page = await newPage(lang === "ar" ? { width: 375, height: 800 } : undefined);
      await page.context().addCookies([{ name: "lang", value: lang, url: baseURL() }]);
      await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
      await gotoHydrated(page, `/instructor/group/frontend-react/lecture/${lecture.slug}/tasks/updateTask/${task.slug}`);
      const field = page.locator("#extensions input[type=datetime-local]");
      const suggested = await field.evaluate((el: HTMLInputElement) => new Date(el.value).getTime());
      // At least a day from now (whole minutes), less than two, at the task's own time of day.
      expect(suggested).toBeGreaterThan(Date.now() + 86_400_000 - 120_000);
      expect(suggested).toBeLessThan(Date.now() + 2 * 86_400_000);
      expect(Math.round((suggested - Date.parse(due)) / 60_000) % (24 * 60)).toBe(0);
      const warning = lang === "en" ? "This time has already passed: it gives no more time to hand in, though work handed in before it is not late." : "هذا الموعد مضى بالفعل: لا يمنح وقتًا إضافيًا للتسليم، لكن ما سُلّم قبله لا يُعدّ متأخرًا.";
      expect(await page.getByText(warning).count()).toBe(0);
      // A time already past (a day after the task's own) is still allowed, and said.
      await field.fill(await field.evaluate((el: HTMLInputElement, iso: string) => {
        const d = new Date(Date.parse(iso) + 86_400_000);
        const pad = (n: number) => String(n).padStart(2, "0");
        return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
      }, due));
      await page.getByText(warning).waitFor();
      expect(await field.getAttribute("aria-describedby")).toBe(await page.getByText(warning).getAttribute("id"));
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    }
  });

  it("a quiz's extension says a wrong number at its field, and starts from nothing once given", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Quiz time ${stamp}`, published: true })).body;
    const quiz = (await api<{ slug: string }>(token, "POST", "/api/quizzes", { lectureId: lecture.slug, title: `Timed ${stamp}`, maxAttempts: 1, showAnswers: "after-submit", published: true, questions: [{ text: "1 + 1?", type: "single", options: ["1", "2"], correct: 1 }] })).body;
    await memberOf("frontend-react", "more-minutes", `More Minutes ${stamp}`);
    const page = await newPage({ width: 375, height: 800 });
    // The refusal is the point: the browser reports the 400 answer in its console; any other problem is kept.
    const problems = allowStatus(page, 400, "/updateQuiz/");
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, `/instructor/group/frontend-react/lecture/${lecture.slug}/quiz/updateQuiz/${quiz.slug}`);
    const panel = page.locator("#extensions");
    const give = panel.getByRole("button", { name: /Give .*extension/ });
    // Nobody chosen yet: the button says why it waits.
    expect(await give.getAttribute("aria-describedby")).not.toBeNull();
    expect(await panel.getByText("Choose at least one student above.").count()).toBe(1);
    await panel.getByRole("checkbox", { name: `More Minutes ${stamp}` }).check();
    const minutes = panel.getByLabel("Extra minutes");
    await minutes.fill("abc");
    await panel.getByRole("button", { name: "Give 1 student the extension" }).click();
    await panel.getByText("Extra minutes: a whole number from 0 to 600.").waitFor();
    expect(await minutes.getAttribute("aria-invalid")).toBe("true");
    expect(await panel.locator(".form-error").count()).toBe(0);
    await minutes.fill("15");
    await panel.getByRole("button", { name: "Give 1 student the extension" }).click();
    await panel.getByText("Saved. The student was notified.").waitFor();
    expect(await minutes.inputValue()).toBe("");
    expect(problems).toEqual([]);
  });

  it("a quiz extension refused because a student reads the answers names them, in Arabic", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Seen ${stamp}`, published: true })).body;
    const quiz = (await api<{ slug: string }>(token, "POST", "/api/quizzes", { lectureId: lecture.slug, title: `Seen ${stamp}`, maxAttempts: 1, showAnswers: "after-submit", published: true, questions: [{ text: "2 + 2?", type: "single", options: ["3", "4"], correct: 1 }] })).body;
    const name = `Reem Seen ${stamp}`;
    const student = await memberOf("frontend-react", "seen", name);
    const studentToken = await accessToken(student);
    const questionId = (await api<{ questions: { _id: string }[] }>(token, "GET", `/api/quizzes/${quiz.slug}`)).body.questions[0]!._id;
    expect((await api(studentToken, "POST", `/api/quizzes/${quiz.slug}/start`)).status).toBe(201);
    expect((await api(studentToken, "POST", `/api/quizzes/${quiz.slug}/submit`, { answers: { [questionId]: 1 } })).status).toBe(201);
    const page = await newPage({ width: 375, height: 800 });
    const problems = allowStatus(page, 409, "/updateQuiz/");
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, `/instructor/group/frontend-react/lecture/${lecture.slug}/quiz/updateQuiz/${quiz.slug}`);
    const panel = page.locator("#extensions");
    await panel.getByRole("checkbox", { name }).check();
    await panel.getByLabel("محاولات إضافية").fill("1");
    await panel.getByRole("button", { name: "امنح طالبًا واحدًا التمديد" }).click();
    const said = panel.locator(".form-error");
    await said.waitFor();
    expect(await said.textContent()).toContain(`يرى الإجابات الصحيحة بالفعل: ${name}`);
    expect(problems).toEqual([]);
  });

  it("warns of a past due time only those who still have work to hand in", async () => {
    // The demo profile-card task was due ten days ago and takes late work; the demo student handed in and was graded.
    const path = "/course/frontend-react/lecture/html-foundations/Add-Task/accessible-profile-card";
    const done = await newPage();
    await signIn(done.context(), DEMO_LOGINS.student.email, DEMO_LOGINS.student.password);
    await gotoHydrated(done, path);
    const facts = done.locator(".task-facts");
    await facts.getByText("The due time has passed").waitFor();
    expect(await facts.textContent()).not.toContain("Past due");
    expect(await done.locator(".task-past").count()).toBe(0);

    const stamp = Date.now().toString(36);
    const member = await memberOf("frontend-react", "due", `Due Student ${stamp}`);
    const stillToHandIn = await newPage();
    await signIn(stillToHandIn.context(), member.email, member.password);
    await gotoHydrated(stillToHandIn, path);
    await stillToHandIn.locator(".task-past").getByText("Past due: late work is still accepted and marked late").waitFor();
  });
});

describe("feedback that holds a long link or a long line of code", () => {
  const newPage = useBrowser();

  it("wraps inside its card on a phone in both languages: the page never scrolls sideways", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ _id: string; slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Long words ${stamp}`, published: true })).body;
    const task = (await api<{ _id: string; slug: string }>(token, "POST", `/api/lectures/${lecture.slug}/tasks`, { title: `Long feedback ${stamp}`, maxScore: 10 })).body;
    const member = await memberOf("frontend-react", "long", `Long Words ${stamp}`);
    const handedIn = await api<{ submission: { _id: string } }>(await accessToken(member), "POST", `/api/lectures/${lecture.slug}/submit-task/${task.slug}`, { link: "https://github.com/long/words" });
    expect(handedIn.status).toBe(201);
    const feedback = [
      "See https://developer.mozilla.org/en-US/docs/Web/Accessibility/Understanding_WCAG/Keyboard#focus_indicators_and_visible_focus_states",
      "",
      "And " + "ع".repeat(120),
      "",
      "```",
      `const ${"x".repeat(150)} = 1;`,
      "```",
    ].join("\n");
    const graded = await api(token, "PUT", `/api/lectures/${lecture._id}/tasks/${task._id}/submissions/${handedIn.body.submission._id}`, { score: 8, feedback });
    expect(graded.status).toBe(200);
    for (const lang of ["ar", "en"]) {
      const page = await newPage({ width: 375, height: 800 });
      await page.context().addCookies([{ name: "lang", value: lang, url: baseURL() }]);
      await signIn(page.context(), member.email, member.password);
      await gotoHydrated(page, `/course/frontend-react/lecture/${lecture.slug}/Add-Task/${task.slug}`);
      await page.locator(".prose a", { hasText: "developer.mozilla.org" }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), lang).toBe(0);
      // The code block scrolls on its own instead.
      expect(await page.locator(".prose pre").evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
      // The course home's row shows the same feedback, opened.
      await gotoHydrated(page, "/course/frontend-react");
      const row = page.locator(".course-task", { hasText: `Long feedback ${stamp}` });
      await row.locator("summary").click();
      await row.locator(".prose a").waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), lang).toBe(0);
    }
  });
});

describe("the task screens in both languages", () => {
  const newPage = useBrowser();
  const words = {
    en: { graded: "Graded", grade: "Grade: 92 / 100", feedback: "Feedback" },
    ar: { graded: "قُيِّم", grade: "الدرجة: \u206692 / 100\u2069", feedback: "ملاحظات المدرّب" },
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

  it("the grader of a late hand-in at 375 px: the late penalty's sentence wraps, in English and Arabic", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Late ${stamp}`, published: true })).body;
    const due = new Date(Date.now() - 1.5 * 86_400_000).toISOString();
    const task = (await api<{ slug: string }>(token, "POST", `/api/lectures/${lecture.slug}/tasks`, { title: `Late work ${stamp}`, maxScore: 100, dueAt: due, allowLate: true, latePenaltyPerDay: 10 })).body;
    const late = await memberOf("frontend-react", "late-pen", `Laila Late ${stamp}`);
    expect((await api(await accessToken(late), "POST", `/api/lectures/${lecture.slug}/submit-task/${task.slug}`, { link: "https://laila.example.dev" })).status).toBe(201);
    for (const lang of ["en", "ar"] as const) {
      const staff = await newPage({ width: 375, height: 800 });
      await staff.context().addCookies([{ name: "lang", value: lang, url: baseURL() }]);
      await signIn(staff.context(), INSTRUCTOR.email, INSTRUCTOR.password);
      await gotoHydrated(staff, `/instructor/group/frontend-react/lecture/${lecture.slug}/tasks/${task.slug}/submissions`);
      const penalty = staff.locator(".grader-penalty");
      await penalty.waitFor();
      if (lang === "en") expect(await penalty.textContent()).toMatch(/^Handed in \d+ days? late: the late penalty takes \d+%/);
      expect(await sideways(staff)).toBe(0);
      // Typing a score keeps it in the box: the longer sentence (what the score counts as) wraps too.
      await staff.locator("#grader-score").fill("80");
      await expect.poll(() => penalty.textContent()).toMatch(lang === "en" ? /so 80 counts as \d+/ : /80/);
      expect(await sideways(staff)).toBe(0);
    }
  });
});

/** Presses a key as a keyboard with another layout sends it: the typed character (`key`) and the physical key (`code`). */
async function pressOnLayout(page: import("playwright-core").Page, key: string, code: string, keyCode: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Input.dispatchKeyEvent", { type: "keyDown", key, code, text: key, unmodifiedText: key, windowsVirtualKeyCode: keyCode, nativeVirtualKeyCode: keyCode });
  await cdp.send("Input.dispatchKeyEvent", { type: "keyUp", key, code, windowsVirtualKeyCode: keyCode, nativeVirtualKeyCode: keyCode });
  await cdp.detach();
}

/** axe-core's nested-interactive rule (and the list/ARIA rules around it) on one part of the page. */
async function axeViolations(page: import("playwright-core").Page, selector: string): Promise<{ id: string; nodes: number }[]> {
  const source = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  // Evaluated through the DevTools protocol, so the page's CSP does not apply to it.
  await page.evaluate(source);
  return page.evaluate(async (sel) => {
    const axe = (window as unknown as { axe: { run: (ctx: string, opts: unknown) => Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }).axe;
    const result = await axe.run(sel, {
      runOnly: { type: "rule", values: ["nested-interactive", "list", "listitem", "aria-required-children", "aria-required-parent", "aria-allowed-attr", "aria-valid-attr-value", "button-name"] },
    });
    return result.violations.map((v) => ({ id: v.id, nodes: v.nodes.length }));
  }, selector);
}

describe("the grader explains a score it cannot save", () => {
  const newPage = useBrowser();

  it("says why next to the field, ties it to the field, and Ctrl+Enter moves the focus there; the list has no control inside another", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Scores ${stamp}`, published: true })).body;
    const task = (await api<{ slug: string }>(token, "POST", `/api/lectures/${lecture.slug}/tasks`, { title: `Portfolio ${stamp}`, maxScore: 50 })).body;
    const student = await memberOf("frontend-react", "score-a", `Score Student ${stamp}`);
    expect((await api(await accessToken(student), "POST", `/api/lectures/${lecture.slug}/submit-task/${task.slug}`, { link: "https://score.example.dev" })).status).toBe(201);

    const page = await newPage();
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, `/instructor/group/frontend-react/lecture/${lecture.slug}/tasks/${task.slug}/submissions`);
    // No button inside an option (axe "nested-interactive", serious); the student on screen is aria-current.
    expect(await axeViolations(page, ".grader")).toEqual([]);
    expect(await page.locator(".grader-list button[aria-current='true']").count()).toBe(1);

    const score = page.locator("#grader-score");
    // Nothing is said before anyone tries.
    expect(await page.locator("#grader-score-error").count()).toBe(0);
    expect(await score.getAttribute("aria-invalid")).toBeNull();

    // Above the maximum: said at once, next to the field, tied to it.
    await score.fill("60");
    const error = page.locator("#grader-score-error");
    await error.waitFor();
    expect(await error.textContent()).toBe("60 is more than this task's maximum of 50.");
    expect(await score.getAttribute("aria-invalid")).toBe("true");
    expect(await score.getAttribute("aria-describedby")).toBe("grader-score-error");
    // Announced to screen readers too.
    await expect.poll(() => page.locator(".grader > [role=status]").textContent()).toBe("60 is more than this task's maximum of 50.");
    // Ctrl+Enter from the feedback field does not save: the focus goes back to the score.
    await page.locator("#grader-feedback").focus();
    await page.keyboard.press("Control+Enter");
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("grader-score");
    expect(await page.getByTestId("graded-count").textContent()).toBe("Graded 0 of 1");
    // The buttons are not silently disabled: clicking Save says the same and focuses the field.
    await page.locator("#grader-feedback").focus();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("grader-score");

    // Empty: said once someone tries to save.
    await score.fill("");
    expect(await page.locator("#grader-score-error").count()).toBe(0);
    await page.locator("#grader-feedback").focus();
    await page.keyboard.press("Control+Enter");
    await expect.poll(() => error.textContent()).toBe("Give a score first: a whole number from 0 to 50.");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("grader-score");
    // Not a whole number.
    await score.fill("-3");
    await expect.poll(() => error.textContent()).toBe("Give a whole-number score from 0 to 50.");

    // The maximum itself is a valid score: saved, and the message is gone.
    await score.fill("50");
    expect(await page.locator("#grader-score-error").count()).toBe(0);
    expect(await score.getAttribute("aria-invalid")).toBeNull();
    await page.keyboard.press("Control+Enter");
    await expect.poll(() => page.getByTestId("graded-count").textContent()).toBe("Graded 1 of 1");
    await expect
      .poll(async () => (await api<{ submissions: { score: number | null }[] }>(token, "GET", `/api/lectures/${lecture.slug}/tasks/${task.slug}/submissions`)).body.submissions.map((x) => x.score), { timeout: 10_000 })
      .toEqual([50]);
  });
});

/**
 * Issue 20: the whole journey with Arabic titles, in Arabic. A lecture "الخطافات بالتفصيل" with a task and a code
 * exercise titled in Arabic: the student opens both from the lecture page and hands in; staff grade in the grader
 * with the keyboard, J and K pressed on an Arabic layout (the keys type ت and ن; `code` is KeyJ and KeyK).
 */
describe("the task journey with Arabic titles", () => {
  const newPage = useBrowser();

  it("a student hands in a task and a code exercise titled in Arabic; staff grade by keyboard on an Arabic layout", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string; title: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: "الخطافات بالتفصيل", published: true })).body;
    expect(lecture.title).toBe("الخطافات بالتفصيل");
    const L = encodeURIComponent(lecture.slug);
    const created = await api<{ _id: string; slug: string }>(token, "POST", `/api/lectures/${L}/tasks`, { title: `عدّاد بالخطافات ${stamp}`, maxScore: 50 });
    expect(created.status).toBe(201);
    const task = created.body;
    const codeTask = (await api<{ _id: string; slug: string }>(token, "POST", `/api/lectures/${L}/tasks`, { title: `دالة المضاعفة ${stamp}`, maxScore: 10 })).body;
    const exercise = await api(token, "PUT", `/api/exercises/${codeTask._id}`, {
      starterCode: "function double(n) {\n}\n",
      tests: [{ name: "ضعف العدد 2", call: "double(2)", expected: "4", points: 1 }],
      referenceSolution: "function double(n) { return n * 2; }",
      published: true,
    });
    expect(exercise.status).toBe(200);
    const [first, second] = [await memberOf("frontend-react", "arabic-a", `أحمد ${stamp}`), await memberOf("frontend-react", "arabic-b", `بسمة ${stamp}`)];

    // The student, in Arabic on a phone, opens both from the lecture page and hands in.
    const student = await newPage({ width: 375, height: 800 });
    await student.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(student.context(), first.email, first.password);
    const lecturePage = `/course/frontend-react/lecture/${L}`;
    await gotoHydrated(student, lecturePage);
    expect(await student.locator("h1").textContent()).toBe("الخطافات بالتفصيل");
    await student.locator(".lecture-work-item", { hasText: `عدّاد بالخطافات ${stamp}` }).getByRole("link").first().click();
    await student.waitForURL(`**/Add-Task/${encodeURIComponent(task.slug)}`);
    await student.waitForSelector("html[data-hydrated]", { state: "attached" });
    expect(await student.locator("h1").textContent()).toBe(`عدّاد بالخطافات ${stamp}`);
    await student.getByLabel("رابط عملك").fill(`https://github.com/ahmad/${stamp}`);
    await student.getByRole("button", { name: "سلّم عملك" }).click();
    await student.getByText("تم تسليم عملك.").waitFor();
    expect(await student.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);

    await gotoHydrated(student, lecturePage);
    await student.locator(".lecture-work-item", { hasText: `دالة المضاعفة ${stamp}` }).getByRole("link").first().click();
    await student.waitForURL(`**/Add-Task/${encodeURIComponent(codeTask.slug)}`);
    await student.waitForSelector("html[data-hydrated]", { state: "attached" });
    // The editor, not the plain field shown while it loads (exercises.test.ts types through that swap).
    const editor = student.locator("#exercise-code.cm-content");
    await editor.waitFor();
    await editor.click();
    await student.keyboard.press("Control+a");
    await student.keyboard.insertText("function double(n) { return n + n; }");
    await student.getByRole("button", { name: "سلّم", exact: true }).click();
    await student.locator(".exercise-handin .form-success").waitFor({ timeout: 20_000 });
    expect(await student.locator(".exercise-handin .form-success").textContent()).toBe("سُلّمت وصُحّحت: 10 من 10.");
    expect(await student.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);

    // The second student hands in through the API.
    expect((await api(await accessToken(second), "POST", `/api/lectures/${L}/submit-task/${encodeURIComponent(task.slug)}`, { link: "https://basma.example.dev" })).status).toBe(201);

    // The instructor grades in Arabic, with the keyboard only.
    const staff = await newPage();
    await staff.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(staff.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(staff, `/instructor/group/frontend-react/lecture/${L}/tasks/${encodeURIComponent(task.slug)}/submissions`);
    expect(await staff.locator("h1").textContent()).toBe(`عدّاد بالخطافات ${stamp}`);
    // The grader belongs to Tasks in the group's links.
    expect(await staff.locator('.group-tabs [aria-current="page"]').getAttribute("href")).toBe("/instructor/group/frontend-react/tasks");
    expect(await staff.getByTestId("graded-count").textContent()).toBe("قُيِّم 0 من 2");
    const name = staff.locator("#grader-name");
    const firstShown = await name.textContent();
    // J and K on an Arabic layout: the keys type ت and ن; the physical keys are KeyJ and KeyK.
    await pressOnLayout(staff, "ت", "KeyJ", 74);
    await expect.poll(() => name.textContent()).not.toBe(firstShown);
    await pressOnLayout(staff, "ن", "KeyK", 75);
    await expect.poll(() => name.textContent()).toBe(firstShown);

    // A score above the maximum is explained in Arabic; Ctrl+Enter brings the focus back to the score.
    await staff.locator("#grader-score").focus();
    await staff.keyboard.type("60");
    expect(await staff.locator("#grader-score-error").textContent()).toBe("الدرجة 60 أعلى من الحد الأقصى لهذه المهمة (50).");
    await staff.keyboard.press("Tab");
    await staff.keyboard.type("عمل **ممتاز**.");
    await staff.keyboard.press("Control+Enter");
    await expect.poll(() => staff.evaluate(() => document.activeElement?.id)).toBe("grader-score");
    expect(await staff.getByTestId("graded-count").textContent()).toBe("قُيِّم 0 من 2");
    await staff.keyboard.press("Control+a");
    await staff.keyboard.type("45");
    await staff.keyboard.press("Control+Enter");
    await expect.poll(() => staff.getByTestId("graded-count").textContent()).toBe("قُيِّم 1 من 2");
    await expect.poll(() => name.textContent()).not.toBe(firstShown);
    // The next one: Ctrl+Enter with no score says so in Arabic; then a score saves it.
    await staff.locator("#grader-feedback").focus();
    await staff.keyboard.press("Control+Enter");
    await expect.poll(() => staff.locator("#grader-score-error").textContent()).toBe("ضع الدرجة أولًا: عددًا صحيحًا من 0 إلى 50.");
    expect(await staff.evaluate(() => document.activeElement?.id)).toBe("grader-score");
    await staff.keyboard.type("40");
    await staff.keyboard.press("Control+Enter");
    await expect.poll(() => staff.getByTestId("graded-count").textContent()).toBe("قُيِّم 2 من 2");
    await expect
      .poll(async () => (await api<{ submissions: { score: number | null }[] }>(token, "GET", `/api/lectures/${L}/tasks/${encodeURIComponent(task.slug)}/submissions`)).body.submissions.map((x) => x.score).sort(), { timeout: 10_000 })
      .toEqual([40, 45]);

    // The code exercise's grader shows the Arabic title and the hand-in's code; J/K on the Arabic layout work there too.
    await gotoHydrated(staff, `/instructor/group/frontend-react/lecture/${L}/tasks/${encodeURIComponent(codeTask.slug)}/submissions`);
    expect(await staff.locator("h1").textContent()).toBe(`دالة المضاعفة ${stamp}`);
    await staff.locator("#grader-filter").selectOption("all");
    await staff.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await pressOnLayout(staff, "ت", "KeyJ", 74);
    await staff.locator(".code-hand-in").waitFor();
    expect(await staff.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);

    // The student sees the grade and the feedback in Arabic.
    await gotoHydrated(student, `/course/frontend-react/lecture/${L}/Add-Task/${encodeURIComponent(task.slug)}`);
    // (The fraction is a left-to-right isolate inside the Arabic sentence: it reads 45 / 50 as in English.)
    expect(["الدرجة: \u206645 / 50\u2069", "الدرجة: \u206640 / 50\u2069"]).toContain(await student.locator(".task-grade").textContent());
  }, 120_000); // two people, two tasks, code run on the server: a long journey, not a timing check
});

/** A fresh published lecture of the demo course with one task out of 10, both titled for the test. */
async function lectureWithTask(title: string) {
  const token = await accessToken(INSTRUCTOR);
  const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title, published: true })).body;
  const task = (await api<{ slug: string }>(token, "POST", `/api/lectures/${lecture.slug}/tasks`, { title: `${title} task`, maxScore: 10 })).body;
  return { token, lecture, task };
}

describe("the grader with a long list", () => {
  const newPage = useBrowser();

  it("finds a student by name however it is typed, and on a phone brings the chosen student's work into view", async () => {
    const stamp = Date.now().toString(36);
    const { token, lecture, task } = await lectureWithTask(`Long list ${stamp}`);
    const names = [...Array.from({ length: 7 }, (_, i) => `Long ${String.fromCharCode(65 + i)} ${stamp}`), `فاطمة أحمد ${stamp}`, `Émile Roux ${stamp}`];
    for (const [i, name] of names.entries()) {
      const student = await memberOf("frontend-react", `long-${i}`, name);
      expect((await api(await accessToken(student), "POST", `/api/lectures/${lecture.slug}/submit-task/${task.slug}`, { link: `https://github.com/long/${stamp}-${i}` })).status).toBe(201);
    }
    const grader = await newPage({ width: 375, height: 700 });
    await signIn(grader.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(grader, `/instructor/group/frontend-react/lecture/${lecture.slug}/tasks/${task.slug}/submissions`);
    const list = grader.locator(".grader-list");
    const name = grader.locator("#grader-name");
    // Nine hand-ins scroll inside the list's own box on a phone instead of pushing the work a page further down.
    expect(await list.evaluate((el) => el.scrollHeight > el.clientHeight && el.clientHeight <= 0.45 * innerHeight + 1)).toBe(true);

    // Names in one natural order (accents beside their letter): Émile first, then Long A to G, the Arabic name last.
    expect((await list.locator(".user-text").allTextContents()).map((n) => n.replace(` ${stamp}`, ""))).toEqual(["Émile Roux", ..."ABCDEFG".split("").map((c) => `Long ${c}`), "فاطمة أحمد"]);
    // The last one, chosen by a tap after scrolling the box: its name and work come into view.
    const last = list.getByRole("button").last();
    await last.scrollIntoViewIfNeeded();
    await last.click();
    await expect.poll(() => name.textContent()).toBe(`فاطمة أحمد ${stamp}`);
    await expect.poll(() => name.evaluate((el) => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })).toBe(true);

    // Found without the accent, the Arabic name without its hamza and with a final ه; the list holds only them.
    const search = grader.getByLabel("Find a student");
    await search.fill("emile");
    await expect.poll(() => list.getByRole("button").allTextContents()).toEqual([expect.stringContaining(`Émile Roux ${stamp}`)]);
    await search.fill("فاطمه احمد");
    await expect.poll(() => list.getByRole("button").allTextContents()).toEqual([expect.stringContaining(`فاطمة أحمد ${stamp}`)]);
    // The student on screen was not in it: the first one found opens instead.
    await expect.poll(() => name.textContent()).toBe(`فاطمة أحمد ${stamp}`);
    await search.fill("nobody here");
    await grader.getByText("No student in this list matches “nobody here”.").waitFor();
    expect(await grader.locator(".grader-outside").textContent()).toContain("Not among the students found.");
    await grader.locator(".grader-outside").getByRole("button", { name: "Show all" }).click();
    expect(await search.inputValue()).toBe("");
    expect(await list.getByRole("button").count()).toBe(names.length);
    // Nothing scrolls sideways on the phone.
    expect(await grader.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
  }, 120_000); // nine students registered and handed in through the API first
});

describe("two tabs grading one hand-in", () => {
  const newPage = useBrowser();

  it("the second save does not replace the first blind: it says so with that grade, keeps what was typed, and replaces it when saved again", async () => {
    const stamp = Date.now().toString(36);
    const { token, lecture, task } = await lectureWithTask(`Two tabs ${stamp}`);
    const student = await memberOf("frontend-react", "two-tabs", `Two Tabs ${stamp}`);
    expect((await api(await accessToken(student), "POST", `/api/lectures/${lecture.slug}/submit-task/${task.slug}`, { link: `https://github.com/two/${stamp}` })).status).toBe(201);
    const url = `/instructor/group/frontend-react/lecture/${lecture.slug}/tasks/${task.slug}/submissions`;
    const a = await newPage();
    await signIn(a.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(a, url);
    const b = await a.context().newPage();
    const problems = allowStatus(b, 409, "/submissions");
    await gotoHydrated(b, url);
    const grade = async () => (await api<{ submissions: { score: number | null; feedback: string | null }[] }>(token, "GET", `/api/lectures/${lecture.slug}/tasks/${task.slug}/submissions`)).body.submissions[0];

    await a.locator("#grader-score").fill("7");
    await a.locator("#grader-feedback").fill("From tab A");
    await a.getByRole("button", { name: "Save", exact: true }).click();
    await a.locator(".grader-done").waitFor();
    await expect.poll(async () => (await grade())?.score).toBe(7);

    await b.locator("#grader-score").fill("9");
    await b.locator("#grader-feedback").fill("From tab B");
    await b.getByRole("button", { name: "Save", exact: true }).click();
    await expect.poll(() => b.locator(".grader-refused").textContent()).toBe("Not saved: this hand-in was graded meanwhile (7 of 10), in another tab or by a colleague. Your score and feedback are kept here: save again to replace that grade.");
    // Said to screen readers too; what B typed is still there, marked not saved; A's grade stands.
    expect(await b.locator('.grader > [role="status"]').textContent()).toContain("graded meanwhile (7 of 10)");
    expect(await b.locator("#grader-score").inputValue()).toBe("9");
    expect(await b.locator("#grader-feedback").inputValue()).toBe("From tab B");
    expect(await b.locator(".grader-list").getByText("Not saved").count()).toBe(1);
    expect(await grade()).toMatchObject({ score: 7, feedback: "From tab A" });

    // Saved again, knowing: B's grade replaces A's.
    await b.getByRole("button", { name: "Save", exact: true }).click();
    await b.locator(".grader-done").waitFor();
    await expect.poll(async () => (await grade())?.score).toBe(9);
    expect(await b.locator(".grader-refused").count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
