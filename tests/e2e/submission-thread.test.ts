/**
 * A hand-in's history and conversation in the browser (issue 21): the student hands in twice and writes to the
 * instructor on the task page; the instructor sees both versions and the message in the grader and answers; the
 * student reads the answer. A file handed in through the task page's own form, larger than the forms' 64 KB, is taken
 * (the page's gate gives a member the task's limit before reading the body; ADR 42).
 */
import { describe, expect, it } from "vitest";
import { baseURL, gotoHydrated, useBrowser } from "./browser";
import { accessToken, api, INSTRUCTOR, memberOf } from "./groups-helpers";
import { signIn } from "./session";

describe("a hand-in's conversation", () => {
  const newPage = useBrowser();

  it("the student writes on the task page, the instructor sees the versions and answers in the grader", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Thread ${stamp}`, published: true })).body;
    const task = (await api<{ slug: string }>(token, "POST", `/api/lectures/${lecture.slug}/tasks`, { title: `Thread task ${stamp}`, maxScore: 10 })).body;
    const student = await memberOf("frontend-react", "thread", `Thread Student ${stamp}`);
    const studentToken = await accessToken(student);
    for (const v of ["v1", "v2"]) expect((await api(studentToken, "POST", `/api/lectures/${lecture.slug}/submit-task/${task.slug}`, { link: `https://github.com/thread/${stamp}-${v}` })).status).toBeLessThan(300);

    const page = await newPage({ width: 375, height: 800 });
    await signIn(page.context(), student.email, student.password);
    const path = `/course/frontend-react/lecture/${lecture.slug}/Add-Task/${task.slug}`;
    await gotoHydrated(page, path);
    await page.getByLabel("Write a message").fill("Is a README enough?");
    // Sent from the keyboard: Send disables itself, and the keyboard goes back to the box with "Message sent." said.
    await page.getByRole("button", { name: "Send" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator(".submission-comment-body").allTextContents()).toEqual(["Is a README enough?"]);
    await expect.poll(() => page.locator(".submission-comment-form [role=status]").textContent()).toBe("Message sent.");
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("body");
    expect(await page.getByLabel("Write a message").inputValue()).toBe("");
    // Writing the next one takes the old "sent" away.
    await page.keyboard.type("T");
    expect(await page.locator(".submission-comment-form [role=status]").textContent()).toBe("");
    await page.getByLabel("Write a message").fill("");

    const grader = await newPage();
    await signIn(grader.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(grader, `/instructor/group/frontend-react/lecture/${lecture.slug}/tasks/${task.slug}/submissions`);
    await grader.getByText("All 2 versions handed in").click();
    expect(await grader.locator(".submission-version").count()).toBe(2);
    expect(await grader.locator(".submission-comment-body").allTextContents()).toEqual(["Is a README enough?"]);
    await grader.getByLabel("Write a message").fill("Add how to run the tests.");
    await grader.getByRole("button", { name: "Send" }).click();
    await expect.poll(() => grader.locator(".submission-comment-body").allTextContents()).toEqual(["Is a README enough?", "Add how to run the tests."]);

    await gotoHydrated(page, path);
    expect(await page.locator(".submission-comment[data-staff] .submission-comment-body").textContent()).toBe("Add how to run the tests.");
  });

  it("a member hands in a 150 KB PDF through the task page's form; a file above the task's limit is stopped before sending", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `File ${stamp}`, published: true })).body;
    const task = (await api<{ slug: string }>(token, "POST", `/api/lectures/${lecture.slug}/tasks`, { title: `File task ${stamp}`, maxScore: 10, fileKinds: ["pdf"], maxFileMb: 1 })).body;
    const student = await memberOf("frontend-react", "file", `File Student ${stamp}`);
    const page = await newPage({ width: 375, height: 800 });
    await signIn(page.context(), student.email, student.password);
    await gotoHydrated(page, `/course/frontend-react/lecture/${lecture.slug}/Add-Task/${task.slug}`);
    const pdf = Buffer.concat([Buffer.from("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n"), Buffer.alloc(150 * 1024, 0x25)]);
    await page.getByLabel("Your file").setInputFiles({ name: "report.pdf", mimeType: "application/pdf", buffer: pdf });
    await page.getByRole("button", { name: "Hand in your work" }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Your work was handed in." }).count()).toBe(1);
    const own = await api<{ submissions: { file: { name: string; size: number } }[] }>(await accessToken(student), "GET", `/api/lectures/${lecture.slug}/tasks/${task.slug}/submissions`);
    expect(own.body.submissions[0]!.file).toMatchObject({ name: "report.pdf", size: pdf.length });
    // Its size in the reader's words: 150 kB here; in Arabic the unit is written out after the number.
    await expect.poll(() => page.locator(".hand-in-file-head").textContent()).toContain("150 kB");
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await gotoHydrated(page, `/course/frontend-react/lecture/${lecture.slug}/Add-Task/${task.slug}`);
    expect(await page.locator(".hand-in-file-head bdi").textContent()).toBe("150 كيلوبايت");
    await page.context().addCookies([{ name: "lang", value: "en", url: baseURL() }]);
    await gotoHydrated(page, `/course/frontend-react/lecture/${lecture.slug}/Add-Task/${task.slug}`);
    // Above the task's 1 MB: said at once, and the button waits for another file.
    await page.getByLabel("Your file").setInputFiles({ name: "big.pdf", mimeType: "application/pdf", buffer: Buffer.alloc(1024 * 1024 + 1, 0x25) });
    await expect.poll(() => page.getByText("That file is larger than 1 MB.").count()).toBe(1);
    expect(await page.getByRole("button", { name: "Hand in a new version" }).isDisabled()).toBe(true);
  });
});
