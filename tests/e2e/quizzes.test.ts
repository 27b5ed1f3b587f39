/**
 * Quizzes end to end in Chromium: a student answers, reloads half-way and finds every answer, loses the connection
 * and gets it back, hands in while offline (the hand-in is retried, one attempt only), sees the result and the
 * review; a device clock an hour off does not change the countdown; one attempt open in two tabs (the tab left
 * behind is told, chooses which answers count, and hands in nothing older unseen; at zero the answers worked on last
 * are handed in); staff build a quiz in the editor; and the screens at 1280 and 375 px in English and Arabic.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, gotoHydrated, useBrowser } from "./browser";
import { accessToken, api, INSTRUCTOR, memberOf } from "./groups-helpers";
import { DEMO_LOGINS, signIn } from "./session";
import { allowLoadError, allowStatus } from "./accounts-helpers";

/** The two long journeys (a dozen page loads each) get more than the default 45 s on a loaded machine. */
const LONG_JOURNEY_MS = 90_000;

/** Opens the quiz at `path` and starts it (an English page): the questions screen is next. */
async function startQuiz(page: Page, path: string) {
  await gotoHydrated(page, path);
  await page.getByRole("button", { name: "Start the quiz" }).click();
  await page.waitForURL(`**${path}/questions`);
}

/** Waits until the questions screen's save line is in `status` ("saved", "offline", "conflict"...). */
const saveSays = (page: Page, status: string) => page.waitForFunction((want) => document.querySelector(".quiz-save")?.getAttribute("data-status") === want, status);

async function quizOnNewLecture(stamp: string, extra: Record<string, unknown> = {}) {
  const token = await accessToken(INSTRUCTOR);
  const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Quiz lecture ${stamp}`, published: true })).body;
  const created = await api<{ slug: string; _id: string }>(token, "POST", "/api/quizzes", {
    lectureId: lecture.slug,
    title: `Browser quiz ${stamp}`,
    durationMinutes: 10,
    maxAttempts: 1,
    showAnswers: "after-submit",
    published: true,
    questions: [
      { text: "Which value makes a grid?", type: "single", options: ["flex", "grid", "block"], correct: 1 },
      { text: "Pick the logical properties.", type: "multiple", options: ["margin-inline-start", "padding-left", "inset-inline-end"], correct: [0, 2], points: 2 },
      { text: "`gap` works in Flexbox.", type: "true-false", correct: 0 },
      { text: "Which `flex-wrap` value wraps?", type: "short-text", correct: ["wrap"] },
    ],
    ...extra,
  });
  expect(created.status).toBe(201);
  return { lecture, quiz: created.body, path: `/course/frontend-react/lecture/${lecture.slug}/quiz/${created.body.slug}` };
}

describe("taking a quiz", () => {
  const newPage = useBrowser();

  it("keeps every answer through a reload and a dropped connection, retries an offline hand-in once, then shows the result and review", async () => {
    const stamp = Date.now().toString(36);
    const { quiz, path } = await quizOnNewLecture(stamp);
    const user = await memberOf("frontend-react", "quiz-a", `Quiz Taker ${stamp}`);
    const page = await newPage({ width: 1280, height: 900, offline: true });
    await signIn(page.context(), user.email, user.password);
    await startQuiz(page, path);
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    const status = page.locator(".quiz-save");
    const saved = () => saveSays(page, "saved");

    await page.getByRole("radio", { name: "grid" }).check();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("checkbox", { name: "margin-inline-start" }).check();
    await page.getByRole("checkbox", { name: "inset-inline-end" }).check();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("radio", { name: "True" }).check();
    await expect.poll(() => status.getAttribute("data-status")).toBe("saving");
    await saved();

    // A reload half-way finds every answer, at the question the student was on (the third, not the first).
    await page.reload();
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    await page.locator('.quiz-nav-item[aria-current="step"]', { hasText: "3" }).waitFor();
    expect(await page.getByRole("radio", { name: "True" }).isChecked()).toBe(true);
    await page.getByRole("button", { name: "Question 1 of 4, answered" }).click();
    expect(await page.getByRole("radio", { name: "grid" }).isChecked()).toBe(true);
    for (const n of [1, 2, 3]) expect(await page.getByRole("button", { name: `Question ${n} of 4, answered` }).count()).toBe(1);
    expect(await page.getByRole("button", { name: "Question 4 of 4, not answered" }).count()).toBe(1);

    // Offline: the answer is kept and retried; back online it reaches the server.
    await page.context().setOffline(true);
    await page.getByRole("button", { name: "Question 4 of 4, not answered" }).click();
    await page.getByLabel("Your answer", { exact: true }).fill(" WRAP ");
    await saveSays(page, "offline");
    expect(await status.textContent()).toContain("Offline, will retry");
    await page.context().setOffline(false);
    await saved();
    const token = await accessToken(user);
    const server = await api<{ attempt: { answers: Record<string, unknown> } }>(token, "GET", `/api/quizzes/${quiz.slug}`);
    expect(Object.keys(server.body.attempt.answers)).toHaveLength(4);

    // Hand in while offline: the page says it is retrying; back online it lands once.
    await page.getByRole("button", { name: "Hand in" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Hand in your answers?" });
    await dialog.getByText("Every question has an answer.").waitFor();
    await page.context().setOffline(true);
    await dialog.getByRole("button", { name: "Hand in" }).click();
    await page.getByText("Connection lost. Retrying the hand-in...").waitFor();
    await page.context().setOffline(false);
    await page.waitForURL(`**${path}/result`);
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    expect((await page.locator(".quiz-score").textContent())?.replace(/\s+/g, "")).toBe("5/5");
    // A screen reader hears the score card's percentage once: the bar beside it is drawing, not a second "100%".
    const scoreCard = await page.getByRole("region", { name: "Your best score" }).ariaSnapshot();
    expect(scoreCard.match(/100%/g)).toHaveLength(1);
    expect(await page.locator(".quiz-attempts tbody tr").count()).toBe(1);
    const result = await api<{ attempts: unknown[] }>(token, "GET", `/api/quizzes/${quiz.slug}/result`);
    expect(result.body.attempts).toHaveLength(1);

    // One attempt allowed, so the review is open: every answer right.
    await page.getByRole("link", { name: "See your answers" }).click();
    await page.waitForURL(`**${path}/answers`);
    await page.locator(".quiz-review-item").first().waitFor();
    expect(await page.locator('.quiz-review-item[data-right="true"]').count()).toBe(4);
  }, LONG_JOURNEY_MS);

  it("a hand-in answered 'still being checked' (429) is tried again and lands, with no English refusal on an Arabic page", async () => {
    const stamp = Date.now().toString(36);
    const { path } = await quizOnNewLecture(stamp);
    const user = await memberOf("frontend-react", "quiz-busy", `Busy Hand-in ${stamp}`);
    const page = await newPage({ width: 375, height: 800 });
    const problems = allowStatus(page, 429, "/save");
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(page.context(), user.email, user.password);
    await gotoHydrated(page, path);
    await page.locator("main form button[type=submit]").first().click();
    await page.waitForURL(`**${path}/questions`);
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    // The first hand-in meets the student's code still running elsewhere (code-lease.ts): 429 code_busy.
    let refused = 0;
    await page.route("**/save", async (route) => {
      if (refused === 0 && route.request().method() === "POST" && (route.request().postData() ?? "").includes("intent=submit")) {
        refused++;
        return route.fulfill({ status: 429, contentType: "application/json", body: JSON.stringify({ message: "Your last hand-in is still being checked. Try again in a moment.", code: "code_busy" }) });
      }
      return route.continue();
    });
    await page.locator(".quiz-bar > .btn").click();
    await page.getByRole("dialog").getByRole("button").last().click();
    await page.waitForURL(`**${path}/result`);
    expect(refused).toBe(1);
    expect(await page.locator("body").textContent()).not.toContain("still being checked");
    expect(problems).toEqual([]);
  });

  it("with the keyboard: Next puts the focus on the next question, and the bar and the question list are two named landmarks", async () => {
    const stamp = Date.now().toString(36);
    const { path } = await quizOnNewLecture(stamp);
    const user = await memberOf("frontend-react", "quiz-keys", `Quiz Keys ${stamp}`);
    const page = await newPage({ width: 375, height: 800 });
    await signIn(page.context(), user.email, user.password);
    await startQuiz(page, path);
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    expect(await page.getByRole("region", { name: "Time and hand-in" }).count()).toBe(1);
    expect(await page.getByRole("navigation", { name: "Questions" }).count()).toBe(1);
    await page.getByRole("button", { name: "Next" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains("quiz-question") && document.activeElement.textContent?.includes("Pick the logical properties."))).toBe(true);
    // Reached with Shift+Tab, a question's number in the list is clear of the sticky bar above it.
    const first = page.getByRole("button", { name: /^Question 1 of 4/ });
    for (let i = 0; i < 12 && !(await first.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Shift+Tab");
    expect(await first.evaluate((el) => el === document.activeElement)).toBe(true);
    await expect
      .poll(async () => {
        const bar = (await page.locator(".quiz-bar").boundingBox())!;
        return (await first.boundingBox())!.y - (bar.y + bar.height);
      })
      .toBeGreaterThanOrEqual(0);
  });

  it("at zero the clock hands the answers in, and the result says time was up (every answer counts)", async () => {
    const stamp = Date.now().toString(36);
    const { path } = await quizOnNewLecture(`${stamp}z`);
    const user = await memberOf("frontend-react", "quiz-z", `Time Up ${stamp}`);
    const page = await newPage({ width: 1280, height: 900 });
    await page.clock.install();
    await signIn(page.context(), user.email, user.password);
    await startQuiz(page, path);
    await page.getByRole("radio", { name: "grid" }).check();
    await saveSays(page, "saved");
    // The page's clock reaches the deadline; the server's has not (its answer is in time).
    await page.clock.fastForward("10:00");
    await page.waitForURL(`**${path}/result?timeUp=1`);
    expect(await page.locator(".notice-warn").textContent()).toBe("Time was up, so your answers were handed in for you. Every answer you gave counts.");
  });

  it("counts down from the server's deadline even when the device clock is an hour off", async () => {
    const stamp = Date.now().toString(36);
    const { path } = await quizOnNewLecture(`${stamp}c`);
    const user = await memberOf("frontend-react", "quiz-c", `Clock Skew ${stamp}`);
    const page = await newPage({ width: 1280, height: 900 });
    await page.context().addInitScript(() => {
      const real = Date.now;
      Date.now = () => real() + 60 * 60_000;
    });
    await signIn(page.context(), user.email, user.password);
    await startQuiz(page, path);
    await saveSays(page, "saved");
    // The countdown is drawn once the page has run (the server's HTML says "--:--"; "Saved" is also its first word).
    await page.waitForFunction(() => /^\d/.test(document.querySelector('[role="timer"]')?.textContent ?? ""));
    const shown = await page.getByRole("timer").textContent();
    const [m, s] = (shown ?? "").split(":").map(Number);
    // Ten minutes from the start, read against the server's clock: just under 10:00. Trusting the device clock would
    // show 00:00 (and hand the answers in at once).
    expect(m! * 60 + s!).toBeGreaterThan(9 * 60);
    expect(m! * 60 + s!).toBeLessThanOrEqual(10 * 60);
    expect(page.url()).toContain("/questions");
  });

  it("one attempt in two tabs: the tab left behind is told, takes the other tab's answers or keeps its own, and does not hand in older answers unseen", async () => {
    const stamp = Date.now().toString(36);
    // A quiz whose first question is "Which value makes a grid?" (flex, grid, block), shown one question at a time.
    const { quiz, path } = await quizOnNewLecture(`${stamp}t`);
    const user = await memberOf("frontend-react", "two-tabs", `Two Tabs ${stamp}`);

    const one = await newPage();
    // The refusals are the point of this test: the browser logs each 409 it is answered.
    const problems = allowStatus(one, 409, "/save");
    await signIn(one.context(), user.email, user.password);
    await startQuiz(one, path);
    await one.waitForSelector("html[data-hydrated]", { state: "attached" });
    const two = await one.context().newPage();
    const problemsTwo = allowStatus(two, 409, "/save");
    await gotoHydrated(two, `${path}/questions`);
    const status = (page: typeof one) => page.locator(".quiz-save").getAttribute("data-status");
    // A change is saved about a second after it is made.
    const saved = (page: typeof one) => saveSays(page, "saved");

    // Tab one answers and saves.
    await one.getByRole("radio", { name: "grid" }).check();
    await saved(one);

    // Tab two, opened before that save, answers otherwise: not "Saved", but told, with what differs.
    await two.getByRole("radio", { name: "flex" }).check();
    const panel = two.getByRole("alert").filter({ hasText: "These answers were changed in another tab" });
    await panel.waitFor();
    expect(await panel.textContent()).toContain("One question is answered differently there.");
    expect(await status(two)).toBe("conflict");
    expect(await two.locator(".quiz-save").textContent()).toContain("Not saved: changed elsewhere");

    // Taking tab one's answers: the page shows them, and the next change saves over them normally.
    await panel.getByRole("button", { name: "Use the answers saved there" }).click();
    await panel.waitFor({ state: "detached" });
    expect(await two.getByRole("radio", { name: "grid" }).isChecked()).toBe(true);
    expect(await status(two)).toBe("saved");
    await two.getByRole("radio", { name: "block" }).check();
    await saved(two);

    // Now tab one is the one left behind: it keeps its own answer, knowingly, over tab two's.
    await one.getByRole("radio", { name: "flex" }).check();
    const back = one.getByRole("alert").filter({ hasText: "These answers were changed in another tab" });
    await back.waitFor();
    await back.getByRole("button", { name: "Keep the answers on this page" }).click();
    await saved(one);

    // Tab two, left behind again, hands in: not handed in on its older answers; the choice comes first.
    await two.getByRole("button", { name: "Hand in" }).first().click();
    await two.getByRole("dialog", { name: "Hand in your answers?" }).getByRole("button", { name: "Hand in" }).click();
    await two.getByRole("alert").filter({ hasText: "These answers were changed in another tab" }).waitFor();
    expect(new URL(two.url()).pathname).toBe(`${path}/questions`);
    await two.getByRole("button", { name: "Use the answers saved there" }).click();
    expect(await two.getByRole("radio", { name: "flex" }).isChecked()).toBe(true);
    // Handed in on the answers chosen: tab one's "flex", which is wrong for the first question.
    await two.getByRole("button", { name: "Hand in" }).first().click();
    await two.getByRole("dialog", { name: "Hand in your answers?" }).getByRole("button", { name: "Hand in" }).click();
    await two.waitForURL(`**${path}/result`);
    const result = await api<{ attempts: { score: number }[] }>(await accessToken(user), "GET", `/api/quizzes/${quiz.slug}/result`);
    expect(result.body.attempts).toHaveLength(1);
    expect(result.body.attempts[0]!.score).toBe(0);
    expect([...problems, ...problemsTwo]).toEqual([]);
  });

  it("a tab left open and untouched: at zero its clock hands in the answers given in the other tab, not its own older ones", async () => {
    const stamp = Date.now().toString(36);
    const { quiz, path } = await quizOnNewLecture(`${stamp}u`);
    const user = await memberOf("frontend-react", "left-open", `Left Open ${stamp}`);
    const one = await newPage();
    // The stale tab's first hand-in is refused (409) before it hands in the newer answers.
    const problems = allowStatus(one, 409, "/save");
    await one.clock.install();
    await signIn(one.context(), user.email, user.password);
    await startQuiz(one, path);
    await saveSays(one, "saved");

    // The student goes on in another tab: the first question's right answer, and the third's (2 of 5 points).
    const two = await one.context().newPage();
    await gotoHydrated(two, `${path}/questions`);
    await two.getByRole("radio", { name: "grid" }).check();
    await two.getByRole("button", { name: "Next" }).click();
    await two.getByRole("button", { name: "Next" }).click();
    await two.getByRole("radio", { name: "True" }).check();
    await saveSays(two, "saved");
    await two.close();

    // The first tab, never touched, reaches the deadline and hands in by itself.
    await one.clock.fastForward("10:00");
    await one.waitForURL(`**${path}/result?timeUp=1`);
    const result = await api<{ attempts: { score: number; answers: Record<string, unknown> }[] }>(await accessToken(user), "GET", `/api/quizzes/${quiz.slug}/result`);
    expect(result.body.attempts).toHaveLength(1);
    expect(result.body.attempts[0]!.score).toBe(2);
    expect(problems).toEqual([]);
  });

  it("a tab changed after the other tab's save: at zero, with the choice still open, its own later answers are handed in", async () => {
    const stamp = Date.now().toString(36);
    const { quiz, path } = await quizOnNewLecture(`${stamp}l`);
    const user = await memberOf("frontend-react", "changed-later", `Changed Later ${stamp}`);
    const one = await newPage();
    const problems = allowStatus(one, 409, "/save");
    await one.clock.install();
    await signIn(one.context(), user.email, user.password);
    await startQuiz(one, path);
    await saveSays(one, "saved");

    const two = await one.context().newPage();
    await gotoHydrated(two, `${path}/questions`);
    await two.getByRole("radio", { name: "grid" }).check();
    await saveSays(two, "saved");
    await two.close();

    // Later, in the first tab, the student answers otherwise; the page asks which answers count, and time runs out.
    await one.getByRole("radio", { name: "flex" }).check();
    await one.getByRole("alert").filter({ hasText: "These answers were changed in another tab" }).waitFor();
    await one.clock.fastForward("10:00");
    await one.waitForURL(`**${path}/result?timeUp=1`);
    const result = await api<{ attempts: { score: number }[] }>(await accessToken(user), "GET", `/api/quizzes/${quiz.slug}/result`);
    expect(result.body.attempts).toHaveLength(1);
    // "flex": the latest answer given, and a wrong one.
    expect(result.body.attempts[0]!.score).toBe(0);
    expect(problems).toEqual([]);
  });

  it("answers kept in the browser while offline, taken back after a reload, do not replace answers saved since on another device", async () => {
    const stamp = Date.now().toString(36);
    const { quiz, path } = await quizOnNewLecture(`${stamp}o`);
    const user = await memberOf("frontend-react", "kept-offline", `Kept Offline ${stamp}`);
    const laptop = await newPage({ offline: true });
    const problems = allowLoadError(laptop, ["status of 409", "net::ERR_INTERNET_DISCONNECTED"], "/save");
    await signIn(laptop.context(), user.email, user.password);
    await startQuiz(laptop, path);
    await laptop.getByRole("radio", { name: "grid" }).check();
    await saveSays(laptop, "saved");
    // The connection drops: the next answer stays in the browser only.
    await laptop.context().setOffline(true);
    await laptop.getByRole("radio", { name: "flex" }).check();
    await saveSays(laptop, "offline");
    const laptopBrowser = laptop.context();
    await laptop.close();

    // Meanwhile, on a phone, the same attempt gets another answer.
    const phone = await newPage({ width: 375, height: 800 });
    await signIn(phone.context(), user.email, user.password);
    await gotoHydrated(phone, `${path}/questions`);
    await phone.getByRole("radio", { name: "block" }).check();
    await saveSays(phone, "saved");

    // Back on the laptop, online again: the kept "flex" is shown, and the page asks before it replaces "block".
    await laptopBrowser.setOffline(false);
    const again = await laptopBrowser.newPage();
    const problemsAgain = allowStatus(again, 409, "/save");
    await gotoHydrated(again, `${path}/questions`);
    const panel = again.getByRole("alert").filter({ hasText: "These answers were changed in another tab" });
    await panel.waitFor();
    expect(await again.getByRole("radio", { name: "flex" }).isChecked()).toBe(true);
    expect(await again.locator(".quiz-save").getAttribute("data-status")).toBe("conflict");
    const token = await accessToken(user);
    const server = await api<{ attempt: { answers: Record<string, unknown> } }>(token, "GET", `/api/quizzes/${quiz.slug}`);
    expect(Object.values(server.body.attempt.answers)).toEqual([2]);
    await panel.getByRole("button", { name: "Use the answers saved there" }).click();
    expect(await again.getByRole("radio", { name: "block" }).isChecked()).toBe(true);
    expect([...problems, ...problemsAgain]).toEqual([]);
  });
});

describe("the quiz journey in Arabic, with Arabic titles", () => {
  const newPage = useBrowser();

  /** How far the timer's top is below the sticky site header's bottom (negative: slid under it). */
  const timerBelowHeader = (page: import("playwright-core").Page) =>
    page.evaluate(() => {
      const header = document.querySelector(".site-header")!.getBoundingClientRect();
      const timer = document.querySelector('[role="timer"]')!.getBoundingClientRect();
      return { gap: timer.top - header.bottom, visible: timer.bottom <= window.innerHeight && timer.top >= 0, scrolled: window.scrollY };
    });
  const styleOf = (page: import("playwright-core").Page, selector: string) =>
    page.locator(selector).first().evaluate((el) => {
      const cs = getComputedStyle(el);
      return { radius: cs.borderTopLeftRadius, padding: cs.paddingInlineStart, minHeight: cs.minHeight };
    });

  it("a student starts, answers, reloads in place, hands in and sees the result and the review; staff see the results", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: "الخطافات بالتفصيل", published: true })).body;
    const created = await api<{ slug: string; _id: string }>(token, "POST", "/api/quizzes", {
      lectureId: lecture.slug,
      title: "اختبار الخطافات",
      durationMinutes: 10,
      maxAttempts: 1,
      showAnswers: "after-submit",
      published: true,
      questions: [
        { text: "أي خطاف يحفظ حالة المكوّن؟", type: "single", options: ["useState", "useEffect", "useRef"], correct: 0 },
        { text: "اكتب اسم الخطاف الذي يشغّل تأثيرًا جانبيًا بعد العرض.", type: "short-text", correct: ["useEffect"], points: 2 },
        { text: "يمكن استدعاء الخطافات داخل شرط `if`.", type: "true-false", correct: 1 },
      ],
    });
    expect(created.status).toBe(201);
    const path = `/course/frontend-react/lecture/${encodeURIComponent(lecture.slug)}/quiz/${encodeURIComponent(created.body.slug)}`;
    const user = await memberOf("frontend-react", "quiz-ar", `طالبة الخطافات ${stamp}`);
    const page = await newPage({ width: 375, height: 700 });
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(page.context(), user.email, user.password);

    // The intro, in Arabic, with the Arabic titles.
    await gotoHydrated(page, path);
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
    expect(await page.locator("h1").textContent()).toBe("اختبار الخطافات");
    await page.locator(".breadcrumb").getByRole("link", { name: "الخطافات بالتفصيل" }).waitFor();
    await page.getByRole("button", { name: "ابدأ الاختبار" }).click();
    await page.waitForURL((url) => url.pathname.endsWith("/questions"));
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    const saved = () => saveSays(page, "saved");

    // The question's name for a screen reader is written with the Arabic comma, not a Latin one.
    expect(await page.locator(".quiz-question legend").first().textContent()).toBe("السؤال 1 من 3، درجة واحدة");
    await page.getByRole("radio", { name: "useState" }).check();
    await page.getByRole("button", { name: "التالي" }).click();
    const answerBox = page.getByLabel("إجابتك", { exact: true });
    await answerBox.fill("useEffect");
    await saved();
    // The short answer box is styled like the site's fields, not the browser's bare input.
    expect(await styleOf(page, ".quiz-text-answer")).toEqual({ radius: "10px", padding: "16px", minHeight: "46px" });

    // A reload keeps the place: question 2, not question 1.
    await page.reload();
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    await page.locator('.quiz-nav-item[aria-current="step"]', { hasText: "2" }).waitFor();
    expect(await answerBox.inputValue()).toBe("useEffect");

    // The quiz bar stays under the sticky header (never beneath it) while the student scrolls through the questions,
    // down to the last one, at 375 px and at 1280 px.
    await page.getByRole("button", { name: "اعرض كل الأسئلة" }).click();
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: width === 375 ? 700 : 500 });
      for (const question of [1, 2]) {
        await page.evaluate((n) => document.querySelectorAll(".quiz-question")[n]!.scrollIntoView({ block: "end" }), question);
        await page.waitForFunction(() => window.scrollY > 100);
        const where = await timerBelowHeader(page);
        expect(where.gap, `question ${question + 1} at ${width} px`).toBeGreaterThanOrEqual(0);
        expect(where.visible, `question ${question + 1} at ${width} px`).toBe(true);
      }
    }
    await page.setViewportSize({ width: 375, height: 700 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);

    await page.getByRole("radio", { name: "خطأ" }).check();
    await saved();
    await page.locator(".quiz-bar").getByRole("button", { name: "سلّم" }).click();
    const dialog = page.getByRole("dialog", { name: "هل تسلّم إجاباتك؟" });
    await dialog.getByRole("button", { name: "سلّم" }).click();
    await page.waitForURL((url) => url.pathname.endsWith("/result"));
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    expect(await page.locator("#score-title").textContent()).toBe("أفضل درجة لك");
    expect((await page.locator(".quiz-score").textContent())?.replace(/\s+/g, "")).toBe("4/4");
    expect(await page.locator("h1").textContent()).toContain("اختبار الخطافات");

    await page.getByRole("link", { name: "اعرض إجاباتك" }).click();
    await page.waitForURL((url) => url.pathname.endsWith("/answers"));
    await page.locator(".quiz-review-item").first().waitFor();
    expect(await page.locator('.quiz-review-item[data-right="true"]').count()).toBe(3);
    expect(await page.locator(".quiz-review-item").first().getByText("صحيحة", { exact: true }).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);

    // Staff: the results, in Arabic, with the quiz's Arabic title as a column and the student's score.
    const staff = await newPage({ width: 1280, height: 800 });
    await staff.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(staff.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(staff, "/instructor/group/frontend-react/quizzes");
    expect(await staff.locator("#results-title").textContent()).toBe("النتائج");
    const heads = await staff.locator(".quiz-matrix thead th").allTextContents();
    const column = heads.findIndex((h) => h.includes("اختبار الخطافات"));
    expect(column).toBeGreaterThan(0);
    const row = staff.locator(".quiz-matrix tbody tr", { hasText: `طالبة الخطافات ${stamp}` });
    expect(await row.locator("td").nth(column - 1).locator("strong").textContent()).toBe("4 / 4");
    // The lecture picker beside "New quiz" is styled like the site's fields.
    expect(await styleOf(staff, "#new-quiz-lecture")).toEqual({ radius: "10px", padding: "12px", minHeight: "36px" });
    await staff.getByRole("combobox").first().selectOption({ label: "الخطافات بالتفصيل" });
  }, LONG_JOURNEY_MS);
});

describe("building a quiz", () => {
  const newPage = useBrowser();

  it("a new quiz's answers follow its closing time until chosen (nothing asked of a blank form), and one drawn from the bank drops the empty first question", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Drawn lecture ${stamp}`, published: true })).body;
    const page = await newPage({ width: 1280, height: 900 });
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, `/instructor/group/frontend-react/lectures/${lecture.slug}/newQuiz`);
    await page.getByLabel("Title").fill(`Drawn quiz ${stamp}`);
    const needsClosing = page.getByText("Set a closing time: the correct answers are shown after the quiz closes.");
    const policy = page.getByLabel("Show the correct answers");
    // Blank: no closing time, so no answers are shown (the server's own default), and nothing is asked yet.
    expect(await policy.inputValue()).toBe("never");
    expect(await needsClosing.count()).toBe(0);
    // A closing time: the answers are shown after it; taken away, back to never.
    await page.getByLabel("Closes").fill("2031-05-01T18:00");
    expect(await policy.inputValue()).toBe("after-close");
    await page.getByLabel("Closes").fill("");
    expect(await policy.inputValue()).toBe("never");
    // Chosen by hand, "after it closes" without a closing time is said before saving, and the choice stays.
    await policy.selectOption("after-close");
    expect(await needsClosing.count()).toBe(1);
    await page.getByLabel("Closes").fill("2031-05-01T18:00");
    expect(await needsClosing.count()).toBe(0);
    await page.getByLabel("Closes").fill("");
    expect(await policy.inputValue()).toBe("after-close");
    await policy.selectOption("after-submit");
    expect(await needsClosing.count()).toBe(0);

    expect(await page.locator(".quiz-editor-q").count()).toBe(1);
    await page.getByRole("button", { name: "Draw from a tag" }).click();
    expect(await page.locator(".quiz-editor-q").count()).toBe(0);
    await page.getByRole("button", { name: "Create the quiz" }).click();
    await page.waitForURL("**/instructor/group/frontend-react/quizzes");
    const made = (await api<{ slug: string; title: string }[]>(token, "GET", "/api/quizzes/groups/frontend-react")).body.find((q) => q.title === `Drawn quiz ${stamp}`)!;
    const full = await api<{ questions: unknown[]; draws: { count: number }[] }>(token, "GET", `/api/quizzes/${made.slug}`);
    expect(full.body.questions).toEqual([]);
    expect(full.body.draws.map((d) => d.count)).toEqual([1]);
  });

  it("a question added in the editor takes the keyboard's focus on its first field, not the button below the list", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Focus lecture ${stamp}`, published: true })).body;
    const page = await newPage({ width: 375, height: 800 });
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, `/instructor/group/frontend-react/lectures/${lecture.slug}/newQuiz`);
    await page.getByRole("button", { name: "Add a question" }).click();
    const second = page.locator(".quiz-editor-q").nth(1);
    await second.waitFor();
    await expect.poll(() => second.evaluate((q) => q.contains(document.activeElement) && document.activeElement?.tagName)).toBe("SELECT");
  });

  it("an instructor writes a quiz in the editor, previews Markdown and publishes it", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Editor lecture ${stamp}`, published: true })).body;
    const page = await newPage({ width: 1280, height: 900 });
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, `/instructor/group/frontend-react/lectures/${lecture.slug}/newQuiz`);
    await page.getByLabel("Title").fill(`Editor quiz ${stamp}`);
    const first = page.locator(".quiz-editor-q").first();
    await first.getByLabel("Question (Markdown, code blocks with ```)").fill("Which one is **bold**?");
    await first.getByRole("button", { name: "Preview" }).click();
    await first.locator(".quiz-editor-preview strong", { hasText: "bold" }).waitFor();
    await first.getByRole("button", { name: "Write" }).click();
    await first.getByLabel("Option 1", { exact: true }).fill("This one");
    await first.getByLabel("Option 2", { exact: true }).fill("That one");
    await first.getByLabel("Option 2 is correct").check();
    await page.getByRole("button", { name: "Add a question" }).click();
    const second = page.locator(".quiz-editor-q").nth(1);
    await second.getByLabel("Type").selectOption("true-false");
    await second.getByLabel("Question (Markdown, code blocks with ```)").fill("Quizzes autosave.");
    // Move the second question above the first.
    await page.getByRole("button", { name: "Move question 2 up" }).click();
    await page.getByLabel("Show the correct answers").selectOption("after-submit");
    await page.getByLabel("Published: students of the group see it (and are notified)").check();
    await page.getByRole("button", { name: "Create the quiz" }).click();
    await page.waitForURL("**/instructor/group/frontend-react/quizzes");
    await page.getByRole("link", { name: `Editor quiz ${stamp}` }).first().waitFor();
    // The list says what was just done.
    expect(await page.locator(".notice-success").textContent()).toBe(`Quiz “Editor quiz ${stamp}” created.`);

    const list = await api<{ slug: string; title: string }[]>(token, "GET", "/api/quizzes/groups/frontend-react");
    const made = list.body.find((q) => q.title === `Editor quiz ${stamp}`)!;
    const full = await api<{ published: boolean; questions: { type: string; text: string; correct: unknown }[] }>(token, "GET", `/api/quizzes/${made.slug}`);
    expect(full.body.published).toBe(true);
    expect(full.body.questions.map((q) => [q.type, q.text, q.correct])).toEqual([
      ["true-false", "Quizzes autosave.", [0]],
      ["single", "Which one is **bold**?", [1]],
    ]);
  });
});

describe("a timed quiz's duration in the editor", () => {
  const newPage = useBrowser();

  it("is never saved as untimed from an empty box, and reads Arabic-Indic digits", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Timed lecture ${stamp}`, published: true })).body;
    const quiz = (await api<{ slug: string }>(token, "POST", "/api/quizzes", { lectureId: lecture.slug, title: `Timed ${stamp}`, durationMinutes: 30, questions: [{ text: "1 + 1?", type: "single", options: ["1", "2"], correct: [1], points: 1 }] })).body;
    const duration = async () => (await api<{ durationMinutes: number | null }>(token, "GET", `/api/quizzes/${quiz.slug}`)).body.durationMinutes;
    expect(await duration()).toBe(30);
    const page = await newPage({ width: 375, height: 800 });
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, `/instructor/group/frontend-react/lecture/${lecture.slug}/quiz/updateQuiz/${quiz.slug}`);
    // The refusal below is the form's 400, which the browser logs; nothing else may be.
    const problems = allowStatus(page, 400, `/quiz/updateQuiz/${quiz.slug}`);
    const box = page.getByLabel("Minutes to answer");
    // Emptied and saved: refused at the field, which takes the focus; the quiz stays timed.
    await box.fill("");
    await page.getByRole("button", { name: "Save the quiz" }).click();
    const error = page.locator("#quiz-duration-error");
    await error.waitFor();
    expect(await error.textContent()).toBe("The duration is a whole number of minutes from 1 to 600.");
    expect(await box.getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("quiz-duration");
    expect(await duration()).toBe(30);
    // Typed on an Arabic keyboard: 45 minutes, and the question's points ٣.
    await box.fill("٤٥");
    await page.locator(".quiz-editor-q").first().getByLabel("Points", { exact: true }).fill("٣");
    await page.getByRole("button", { name: "Save the quiz" }).click();
    await expect.poll(duration).toBe(45);
    const saved = await api<{ questions: { points: number }[] }>(token, "GET", `/api/quizzes/${quiz.slug}`);
    expect(saved.body.questions.map((q) => q.points)).toEqual([3]);
    expect(problems).toEqual([]);
  });
});

describe("previewing a quiz as a student", () => {
  const newPage = useBrowser();

  it("staff answer a shuffled draft from the quizzes list, check it (focus on the score), answer again and draw another paper; nothing is stored", async () => {
    const stamp = Date.now().toString(36);
    const { quiz } = await quizOnNewLecture(`pv-${stamp}`, { published: false, shuffleOptions: true });
    const page = await newPage({ width: 1280, height: 900 });
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, "/instructor/group/frontend-react/quizzes");
    await page.getByRole("link", { name: `Preview Browser quiz pv-${stamp}` }).click();
    await page.waitForURL(/\/quiz-preview\/[^?]+\?draw=/);
    await page.getByRole("heading", { name: "Preview as a student" }).waitFor();
    await page.getByText("Draft: students do not see this quiz until it is published.").waitFor();
    await page.getByText("Each student gets a paper of their own: the options in another order. This is one of them.").waitFor();
    const paper = page.url();

    await page.getByRole("radio", { name: "grid" }).check();
    await page.getByRole("checkbox", { name: "margin-inline-start" }).check();
    await page.getByRole("checkbox", { name: "inset-inline-end" }).check();
    await page.getByRole("radio", { name: "False" }).check();
    await page.getByLabel("Your answer").fill(" Wrap ");
    await page.getByRole("button", { name: "Check my answers" }).click();
    const score = page.getByRole("heading", { name: "Score: 4 / 5" });
    await score.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Score: 4 / 5");
    // The true/false answer was wrong: its card shows the choice and the key apart.
    const third = page.locator(".staff-attempt-q").nth(2);
    await expect.poll(() => third.locator(".task-state").textContent()).toBe("0 of 1");
    await expect.poll(() => third.locator("[data-key] ").textContent()).toContain("True");

    // Answer again keeps the answers; the same address is the same paper.
    await page.getByRole("button", { name: "Answer again" }).click();
    expect(await page.getByRole("radio", { name: "grid" }).isChecked()).toBe(true);
    expect(page.url()).toBe(paper);
    await page.getByRole("link", { name: "Draw another paper" }).click();
    await page.waitForURL((u) => u.href !== paper && u.searchParams.has("draw"));
    await expect.poll(() => page.getByRole("radio", { name: "grid" }).isChecked()).toBe(false);

    const token = await accessToken(INSTRUCTOR);
    const results = await api<{ quizzes: { _id: string; taken: number }[] }>(token, "GET", "/api/quizzes/groups/frontend-react/results");
    expect(results.body.quizzes.find((q) => q._id === quiz._id)?.taken).toBe(0);
  });
});

describe("the quiz screens in both languages", () => {
  const newPage = useBrowser();
  const sideways = (page: import("playwright-core").Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  const Q = "/course/frontend-react/lecture/modern-css-layouts/quiz/css-layouts-check";
  const words = { en: { result: "Your best score", matrix: "Results" }, ar: { result: "أفضل درجة لك", matrix: "النتائج" } };

  for (const lang of ["en", "ar"] as const) {
    it(`every question of an attempt fits 375 px in ${lang === "en" ? "English" : "Arabic"}, a code line wrapping in its card, under a one-line bar`, async () => {
      const user = await memberOf("frontend-react", `quiz-w-${lang}`, `Narrow Screen ${Date.now().toString(36)}`);
      const page = await newPage({ width: 375, height: 740 });
      await page.context().addCookies([{ name: "lang", value: lang, url: baseURL() }]);
      await signIn(page.context(), user.email, user.password);
      await gotoHydrated(page, Q);
      await page.locator("main form button[type=submit]").first().click();
      await page.waitForURL(/\/questions$/);
      await page.locator(".quiz-nav-item").first().waitFor();
      const count = await page.locator(".quiz-nav-item").count();
      // The demo quiz's fourth question shows a CSS line wider than a phone.
      expect(count).toBeGreaterThanOrEqual(4);
      for (let i = 0; i < count; i++) {
        await page.locator(".quiz-nav-item").nth(i).click();
        await page.locator(".quiz-question").first().waitFor();
        expect(await sideways(page)).toBe(0);
        // A question's code wraps in its card: none of it is hidden past the card's edge.
        const hidden = await page.locator(".quiz-q-text pre").evaluateAll((blocks) => blocks.map((b) => b.scrollWidth - b.clientWidth));
        expect(hidden.every((px) => px <= 1), `question ${i + 1}: ${hidden}`).toBe(true);
      }
      // The fourth question's blank, at the end of a line wider than a phone, is on screen in its card.
      await page.locator(".quiz-nav-item").nth(3).click();
      const blank = await page.locator(".quiz-q-text pre", { hasText: "flex-wrap" }).first().evaluate((pre) => pre.textContent ?? "");
      expect(blank).toContain("____");
      // The countdown, the save state and Hand in share one line.
      const bar = await page.locator(".quiz-bar").boundingBox();
      const button = await page.locator(".quiz-bar > .btn").boundingBox();
      expect(button!.height).toBeGreaterThan(bar!.height / 2);
      // Scrolled down, the bar is stuck under the header and the strip between them hides what scrolls beneath:
      // the point just above the bar is the bar's own backing, not a question.
      await page.evaluate(() => {
        const bar = document.querySelector(".quiz-bar")!.getBoundingClientRect();
        window.scrollTo(0, window.scrollY + bar.top - document.querySelector(".site-header")!.getBoundingClientRect().bottom + 60);
      });
      await page.waitForFunction(() => {
        const bar = document.querySelector(".quiz-bar")!.getBoundingClientRect();
        const header = document.querySelector(".site-header")!.getBoundingClientRect();
        return window.scrollY > 0 && Math.abs(bar.top - header.bottom - 9) < 3;
      });
      const gap = await page.evaluate(() => {
        const bar = document.querySelector(".quiz-bar")!;
        const header = document.querySelector(".site-header")!.getBoundingClientRect();
        const box = bar.getBoundingClientRect();
        const y = (header.bottom + box.top) / 2;
        const seen = [box.left + 4, box.left + box.width / 2, box.right - 4].map((x) => document.elementFromPoint(x, y));
        return { tall: box.top - header.bottom, bar: seen.every((el) => el === bar) };
      });
      expect(gap.tall).toBeGreaterThan(2);
      expect(gap.bar).toBe(true);
    });

    for (const width of [1280, 375]) {
      it(`the intro, result, staff list and editor at ${width} px in ${lang === "en" ? "English" : "Arabic"}`, async () => {
        // Sara's graded demo attempt (db/seed.ts): 7 of 7, the code question included.
        const student = await newPage({ width, height: 800 });
        await student.context().addCookies([{ name: "lang", value: lang, url: baseURL() }]);
        await signIn(student.context(), "sara@example.com", DEMO_LOGINS.student.password);
        await gotoHydrated(student, Q);
        expect(await student.locator("html").getAttribute("dir")).toBe(lang === "ar" ? "rtl" : "ltr");
        expect(await sideways(student)).toBe(0);
        await gotoHydrated(student, `${Q}/result`);
        expect(await student.locator("#score-title").textContent()).toBe(words[lang].result);
        expect((await student.locator(".quiz-score").textContent())?.replace(/\s+/g, "")).toBe("7/7");
        expect(await sideways(student)).toBe(0);

        const staff = await newPage({ width, height: 800 });
        await staff.context().addCookies([{ name: "lang", value: lang, url: baseURL() }]);
        await signIn(staff.context(), INSTRUCTOR.email, INSTRUCTOR.password);
        await gotoHydrated(staff, "/instructor/group/frontend-react/quizzes");
        expect(await staff.locator("#results-title").textContent()).toBe(words[lang].matrix);
        expect(await staff.locator(".quiz-matrix tbody tr", { hasText: "Sara Mahmoud" }).locator("strong").first().textContent()).toBe("7 / 7");
        expect(await sideways(staff)).toBe(0);
        await gotoHydrated(staff, "/instructor/group/frontend-react/lecture/modern-css-layouts/quiz/updateQuiz/css-layouts-check");
        await staff.locator(".quiz-editor-q").first().waitFor();
        expect(await sideways(staff)).toBe(0);
      });
    }
  }
});
