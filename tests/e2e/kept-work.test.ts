/**
 * What was typed survives a dropped connection and an ended session (ADR 73, app/lib/kept-submission.ts): a form sent
 * offline waits on its page and goes out once when the connection is back; a form sent after the session ended
 * (a logout in another tab) keeps its page and its text, says so, and asks for one more send once the reader is
 * signed in again; a page holding typed work is not taken to the login page by its widgets. Each used to lose the
 * page: an error screen, Chromium's offline page, or the login page with the text gone.
 */
import { describe, expect, it } from "vitest";
import { allowLoadError, allowStatus } from "./accounts-helpers";
import { baseURL, gotoHydrated, useBrowser } from "./browser";
import { accessToken, api, INSTRUCTOR, memberOf } from "./groups-helpers";
import { signIn } from "./session";

async function taskFor(stamp: string) {
  const token = await accessToken(INSTRUCTOR);
  const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Kept ${stamp}`, published: true })).body;
  const task = (await api<{ slug: string }>(token, "POST", `/api/lectures/${lecture.slug}/tasks`, { title: `Kept task ${stamp}`, maxScore: 10 })).body;
  return { lecture, task, path: `/course/frontend-react/lecture/${lecture.slug}/Add-Task/${task.slug}` };
}

/** The links the student has handed in for the task, newest last, as the API tells them. */
async function handedIn(student: { email: string; password: string }, lecture: string, task: string): Promise<string[]> {
  const res = await api<{ submissions: { link: string; versions?: { link: string }[] }[] }>(await accessToken(student), "GET", `/api/lectures/${lecture}/tasks/${task}/submissions`);
  const own = res.body.submissions[0];
  return own ? (own.versions?.map((v) => v.link) ?? [own.link]) : [];
}

describe("typed work is kept", () => {
  const newPage = useBrowser();

  it("a hand-in sent offline waits on its page, says why in Arabic, and goes out once when the connection is back", async () => {
    const stamp = Date.now().toString(36);
    const { lecture, task, path } = await taskFor(stamp);
    const student = await memberOf("frontend-react", "kept-off", `Kept Offline ${stamp}`);
    const page = await newPage({ width: 375, height: 800 });
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(page.context(), student.email, student.password);
    // The page's own routes are known once its links are (lazy route discovery), before the connection goes.
    const discovered = page.waitForResponse((r) => r.url().includes("/__manifest"));
    await gotoHydrated(page, path);
    await discovered;
    const problems = allowLoadError(page, "ERR_INTERNET_DISCONNECTED", "");
    const link = `https://github.com/kept/${stamp}`;
    await page.getByLabel("رابط عملك").fill(link);
    await page.context().setOffline(true);
    await page.getByLabel("رابط عملك").press("Enter");
    const notice = page.locator(".submission-wait");
    await notice.waitFor();
    expect(await notice.textContent()).toBe("أنت غير متصل. ما أرسلته محفوظ في هذه الصفحة، ويُرسل حين يعود الاتصال.");
    expect(page.url()).toBe(`${baseURL()}${path}`);
    expect(await page.getByLabel("رابط عملك").inputValue()).toBe(link);
    expect(await handedIn(student, lecture.slug, task.slug)).toEqual([]);

    await page.context().setOffline(false);
    await page.getByText("تم تسليم عملك.").waitFor();
    await notice.waitFor({ state: "detached" });
    expect(await handedIn(student, lecture.slug, task.slug)).toEqual([link]);
    expect(problems).toEqual([]);
  });

  it("a hand-in sent after the session ended keeps its page and text, and is sent again once the student is back", async () => {
    const stamp = Date.now().toString(36);
    const { lecture, task, path } = await taskFor(stamp);
    const student = await memberOf("frontend-react", "kept-session", `Kept Session ${stamp}`);
    const page = await newPage();
    await signIn(page.context(), student.email, student.password);
    await gotoHydrated(page, path);
    const link = `https://github.com/kept/${stamp}`;
    await page.getByLabel("Link to your work").fill(link);
    await page.getByLabel("Notes for your instructor (optional)").fill("Two hours of work");
    // Signed out elsewhere: the browser no longer holds the session.
    await page.context().clearCookies();
    await page.getByRole("button", { name: "Hand in your work" }).click();
    const notice = page.locator(".submission-wait");
    await notice.getByText("Your session has ended.", { exact: false }).waitFor();
    const login = notice.getByRole("link", { name: "Log in (new tab)" });
    expect(await login.getAttribute("target")).toBe("_blank");
    expect(await login.getAttribute("href")).toBe("/auth/login");
    expect(page.url()).toBe(`${baseURL()}${path}`);

    // Signed in again (in another tab), then back to this one.
    await signIn(page.context(), student.email, student.password);
    await page.evaluate(() => window.dispatchEvent(new Event("focus")));
    await notice.getByText("Not sent: your session had ended.", { exact: false }).waitFor();
    expect(await page.getByLabel("Link to your work").inputValue()).toBe(link);
    expect(await page.getByLabel("Notes for your instructor (optional)").inputValue()).toBe("Two hours of work");
    expect(await handedIn(student, lecture.slug, task.slug)).toEqual([]);
    await page.getByRole("button", { name: "Hand in your work" }).click();
    await page.getByText("Your work was handed in.").waitFor();
    expect(await handedIn(student, lecture.slug, task.slug)).toEqual([link]);
    await notice.waitFor({ state: "detached" });
  });

  it("a page with a draft stays when the session ends elsewhere, and says so; a page without one goes to Log in as before", async () => {
    const stamp = Date.now().toString(36);
    const student = await memberOf("frontend-react", "kept-draft", `Kept Draft ${stamp}`);
    const page = await newPage();
    await signIn(page.context(), student.email, student.password);
    await gotoHydrated(page, "/profile");
    await page.getByLabel("Full name").fill("A name I am changing");
    const plain = await page.context().newPage();
    await gotoHydrated(plain, "/profile");

    // Each page learns that the session ended from a refused refresh: the browser logs that 401 (nothing else may be).
    const problems = [...allowStatus(page, 401, "/api/users/refresh-token"), ...allowStatus(plain, 401, "/api/users/refresh-token")];
    // Log out in a third tab of the same browser.
    const other = await page.context().newPage();
    await gotoHydrated(other, "/my-courses");
    await other.getByRole("button", { name: "Log out" }).first().click();
    await expect.poll(() => new URL(other.url()).pathname, { timeout: 15_000 }).not.toBe("/my-courses");

    // The page with the draft notices the ended session (its widgets ask the API) and stays, the draft in it.
    await page.locator(".submission-wait").getByText("Your session has ended.", { exact: false }).waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).pathname).toBe("/profile");
    expect(await page.getByLabel("Full name").inputValue()).toBe("A name I am changing");
    // The page where nothing was typed goes to Log in, as before, to come back to where it was.
    await expect.poll(() => plain.url(), { timeout: 20_000 }).toBe(`${baseURL()}/auth/login?redirectTo=%2Fprofile`);

    // Signed in again: the notice goes, the draft stays.
    await signIn(page.context(), student.email, student.password);
    await page.evaluate(() => window.dispatchEvent(new Event("focus")));
    await page.locator(".submission-wait").waitFor({ state: "detached" });
    expect(await page.getByLabel("Full name").inputValue()).toBe("A name I am changing");
    expect(problems).toEqual([]);
  }, 60_000);

  it("a quiz answered after the session ended says so in Arabic, and saves those answers once the student is back", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Kept quiz ${stamp}`, published: true })).body;
    const quiz = (await api<{ slug: string }>(token, "POST", "/api/quizzes", {
      lectureId: lecture.slug,
      title: `Kept quiz ${stamp}`,
      durationMinutes: 10,
      maxAttempts: 1,
      published: true,
      questions: [
        { text: "Which hook keeps state?", type: "single", options: ["useState", "useEffect"], correct: 0 },
        { text: "Which hook runs after render?", type: "single", options: ["useMemo", "useEffect"], correct: 1 },
      ],
    })).body;
    const student = await memberOf("frontend-react", "kept-quiz", `Kept Quiz ${stamp}`);
    const page = await newPage({ width: 375, height: 800 });
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(page.context(), student.email, student.password);
    const problems = allowStatus(page, 401, "/save");
    await gotoHydrated(page, `/course/frontend-react/lecture/${lecture.slug}/quiz/${quiz.slug}`);
    await page.getByRole("button", { name: "ابدأ الاختبار" }).click();
    await page.waitForURL((url) => url.pathname.endsWith("/questions"));
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    const status = page.locator(".quiz-save");
    await page.getByRole("radio", { name: "useState" }).check();
    await expect.poll(() => status.getAttribute("data-status"), { timeout: 15_000 }).toBe("saved");

    // Signed out elsewhere; the next answer is not taken, and the status says why in Arabic (it mixed in English).
    await page.context().clearCookies();
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await page.getByRole("button", { name: "التالي" }).click();
    await page.getByRole("radio", { name: "useEffect" }).check();
    await expect.poll(() => status.getAttribute("data-status"), { timeout: 15_000 }).toBe("session");
    expect(await status.textContent()).toBe("لم يُحفظ: انتهت جلستك. سجّل الدخول من جديد في علامة تبويب أخرى؛ إجاباتك محفوظة هنا وتُحفظ حين تعود.");

    // Back: looking at the tab again saves what was answered meanwhile.
    await signIn(page.context(), student.email, student.password);
    await page.evaluate(() => window.dispatchEvent(new Event("focus")));
    await expect.poll(() => status.getAttribute("data-status"), { timeout: 15_000 }).toBe("saved");
    // The server has it: without the tab's own copy, a reload shows the second answer chosen.
    await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("cohort.quiz.")).forEach((k) => localStorage.removeItem(k)));
    await page.reload();
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    await page.getByRole("button", { name: "اعرض كل الأسئلة" }).click();
    expect(await page.locator(".quiz-question").nth(1).getByRole("radio", { name: "useEffect" }).isChecked()).toBe(true);
    expect(await page.locator(".quiz-question").nth(0).getByRole("radio", { name: "useState" }).isChecked()).toBe(true);
    expect(problems).toEqual([]);
  });
});
