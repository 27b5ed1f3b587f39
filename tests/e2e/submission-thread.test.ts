/**
 * A hand-in's history and conversation in the browser (issue 21): the student hands in twice and writes to the
 * instructor on the task page; the instructor sees both versions and the message in the grader and answers; the
 * student reads the answer.
 */
import { describe, expect, it } from "vitest";
import { gotoHydrated, useBrowser } from "./browser";
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
    await page.getByRole("button", { name: "Send" }).click();
    await expect.poll(() => page.locator(".submission-comment-body").allTextContents()).toEqual(["Is a README enough?"]);

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
});
