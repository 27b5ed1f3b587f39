/**
 * What the staff cannot undo asks first, in the page's own dialog and language (never the browser's `confirm()`, whose
 * buttons speak the browser's language): deleting a task, deleting a quiz, and changing a quiz's key (which regrades
 * every attempt). Cancel changes nothing; confirming does the work and the page says so.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, gotoHydrated, useBrowser } from "./browser";
import { accessToken, api, INSTRUCTOR, memberOf } from "./groups-helpers";
import { signIn } from "./session";

describe("the staff's confirmations", () => {
  const newPage = useBrowser();

  async function staffPage(lang: "en" | "ar" = "en") {
    const page = await newPage();
    page.on("dialog", (d) => {
      throw new Error(`the browser's own dialog opened: ${d.message()}`);
    });
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await page.context().addCookies([{ name: "lang", value: lang, url: baseURL() }]);
    return page;
  }

  /**
   * The loads of the editor at `path` from now on that ask its own loader (`editor`: a word of its route's id): a
   * Remix `.data` request names the routes it asks for in `_routes`, or asks them all without it. After the item is
   * deleted, its editor must not be loaded again (it can only answer 404) while the page leaves for the list; the
   * layouts above it may be.
   */
  function loadsOf(page: Page, path: string, editor: string): string[] {
    const seen: string[] = [];
    page.on("request", (r) => {
      const url = new URL(r.url());
      if (r.method() !== "GET" || !decodeURIComponent(url.pathname).startsWith(path)) return;
      const routes = url.searchParams.get("_routes");
      if (routes === null || routes.includes(editor)) seen.push(r.url());
    });
    return seen;
  }

  it("deleting a task asks in a dialog; Cancel keeps it, Delete removes it and goes back to the list", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Confirm week ${stamp}`, published: true })).body;
    const task = (await api<{ slug: string }>(token, "POST", `/api/lectures/${lecture.slug}/tasks`, { title: `Doomed task ${stamp}` })).body;
    const exists = async () => (await api(token, "GET", `/api/lectures/${lecture.slug}/tasks/${task.slug}`)).status === 200;

    const page = await staffPage();
    await gotoHydrated(page, `/instructor/group/frontend-react/lecture/${lecture.slug}/tasks/updateTask/${task.slug}`);
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    // The typed title sits in a directional isolate (FSI … PDI), so its own punctuation stays with it in either language.
    const dialog = page.getByRole("dialog", { name: `Delete “\u2068Doomed task ${stamp}\u2069”?` });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("Every submission of it and its grades go too. This cannot be undone.");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await exists()).toBe(true);

    await page.getByRole("button", { name: "Delete", exact: true }).click();
    const reloads = loadsOf(page, `/instructor/group/frontend-react/lecture/${lecture.slug}/tasks/updateTask/${task.slug}`, "updateTask");
    await dialog.getByRole("button", { name: "Delete", exact: true }).click();
    await page.waitForURL("**/instructor/group/frontend-react/tasks");
    expect(await exists()).toBe(false);
    expect(reloads).toEqual([]);
    expect(await page.locator(".notice-success").textContent()).toBe(`Task “Doomed task ${stamp}” deleted.`);
  });

  it("deleting a quiz asks in Arabic on an Arabic page", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Quiz week ${stamp}`, published: true })).body;
    const quiz = await api<{ slug: string }>(token, "POST", "/api/quizzes", {
      lectureId: lecture.slug,
      title: `اختبار ${stamp}`,
      durationMinutes: 10,
      maxAttempts: 1,
      showAnswers: "after-submit",
      published: true,
      questions: [{ text: "2 + 2?", type: "single", options: ["3", "4"], correct: 1 }],
    });
    expect(quiz.status).toBe(201);
    const exists = async () => (await api(token, "GET", `/api/quizzes/${quiz.body.slug}`)).status === 200;

    const page = await staffPage("ar");
    await gotoHydrated(page, `/instructor/group/frontend-react/lecture/${lecture.slug}/quiz/updateQuiz/${quiz.body.slug}`);
    await page.getByRole("button", { name: "احذف", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: `حذف «\u2068اختبار ${stamp}\u2069»؟` });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("ستُحذف معه محاولات كل الطلاب.");
    const reloads = loadsOf(page, `/instructor/group/frontend-react/lecture/${lecture.slug}/quiz/updateQuiz/${quiz.body.slug}`, "updateQuiz");
    await dialog.getByRole("button", { name: "احذف", exact: true }).click();
    await page.waitForURL("**/instructor/group/frontend-react/quizzes");
    expect(await exists()).toBe(false);
    // The deleted quiz's page is not loaded again (it would answer 404) on the way to the list.
    expect(reloads).toEqual([]);
  });

  it("changing a quiz's key asks first; Cancel regrades nothing, confirming regrades the attempt", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Key week ${stamp}`, published: true })).body;
    const quiz = (await api<{ slug: string }>(token, "POST", "/api/quizzes", {
      lectureId: lecture.slug,
      title: `Key quiz ${stamp}`,
      durationMinutes: 10,
      maxAttempts: 1,
      showAnswers: "after-submit",
      published: true,
      questions: [{ text: "2 + 2?", type: "single", options: ["3", "4"], correct: 0 }],
    })).body;
    const student = await memberOf("frontend-react", "key", `Key Student ${stamp}`);
    const studentToken = await accessToken(student);
    const questionId = (await api<{ questions: { _id: string }[] }>(token, "GET", `/api/quizzes/${quiz.slug}`)).body.questions[0]!._id;
    const started = await api<{ attempt: { _id: string } }>(studentToken, "POST", `/api/quizzes/${quiz.slug}/start`);
    expect(started.status).toBe(201);
    expect((await api(studentToken, "POST", `/api/quizzes/${quiz.slug}/submit`, { answers: { [questionId]: 1 } })).status).toBe(201);

    const page = await staffPage();
    await gotoHydrated(page, `/instructor/group/frontend-react/quiz-attempt/${quiz.slug}/${started.body.attempt._id}`);
    await page.getByText("Change the points or the key").first().click();
    await page.getByRole("radio", { name: "4" }).check();
    await page.getByRole("button", { name: "Change the key and regrade" }).click();
    const dialog = page.getByRole("dialog", { name: "Change the key and regrade every attempt at this quiz?" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await page.getByRole("status").filter({ hasText: "Key changed" }).count()).toBe(0);

    await page.getByRole("button", { name: "Change the key and regrade" }).click();
    await dialog.getByRole("button", { name: "Change the key and regrade" }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Key changed" }).first().textContent().catch(() => "")).toBe("Key changed; 1 attempt was regraded.");
    await dialog.waitFor({ state: "hidden" });
  });

  it("a drawn question's key is corrected from one attempt in Arabic: every paper and the bank follow", async () => {
    const stamp = Date.now().toString(36);
    const tag = `key-${stamp}`;
    const token = await accessToken(INSTRUCTOR);
    // A bank question whose key is wrong ("3"), drawn with its options shuffled.
    const banked = await api<{ _id: string }>(token, "POST", "/api/groups/frontend-react/question-bank", { question: { text: `5 - 1 = ? (${stamp})`, type: "single", options: ["3", "4", "5"], correct: 0 }, tags: [tag] });
    expect(banked.status).toBe(201);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Drawn key ${stamp}`, published: true })).body;
    const quiz = (await api<{ slug: string }>(token, "POST", "/api/quizzes", {
      lectureId: lecture.slug,
      title: `Drawn key ${stamp}`,
      maxAttempts: 1,
      showAnswers: "after-submit",
      published: true,
      questions: [],
      draws: [{ tag, count: 1, points: 2 }],
      shuffleOptions: true,
    })).body;
    const student = await memberOf("frontend-react", "drawnkey", `Drawn Key ${stamp}`);
    const studentToken = await accessToken(student);
    const started = await api<{ attempt: { _id: string } }>(studentToken, "POST", `/api/quizzes/${quiz.slug}/start`);
    expect(started.status).toBe(201);
    const paper = (await api<{ questions: { _id: string; options: string[] }[] }>(studentToken, "GET", `/api/quizzes/${quiz.slug}`)).body.questions[0]!;
    expect((await api(studentToken, "POST", `/api/quizzes/${quiz.slug}/submit`, { answers: { [paper._id]: paper.options.indexOf("4") } })).status).toBe(201);
    const score = async () => (await api<{ score: number }>(token, "GET", `/api/quizzes/${quiz.slug}/attempts/${started.body.attempt._id}`)).body.score;
    expect(await score()).toBe(0);

    const page = await staffPage("ar");
    await gotoHydrated(page, `/instructor/group/frontend-react/quiz-attempt/${quiz.slug}/${started.body.attempt._id}`);
    await page.getByText("تغيير الدرجة أو الإجابة الصحيحة").first().click();
    // The options in the bank's order, whatever the student's paper showed: "4" is the second.
    expect(await page.locator(".staff-attempt-key label").allTextContents()).toEqual(["3", "4", "5"]);
    expect(await page.locator(".staff-attempt-tools").textContent()).toContain("سُحب هذا السؤال من بنك الأسئلة");
    await page.getByRole("radio", { name: "4", exact: true }).check();
    await page.getByRole("button", { name: "غيّر الإجابة الصحيحة وأعد التقييم" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "غيّر الإجابة الصحيحة وأعد التقييم" }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "أُعيد تقييم" }).first().textContent().catch(() => "")).toBe("تغيّرت الإجابة الصحيحة؛ أُعيد تقييم محاولة واحدة. صُحّحت الإجابة في بنك الأسئلة أيضًا.");
    expect(await score()).toBe(2);
    const bank = (await api<{ questions: { _id: string; correct: number[] }[] }>(token, "GET", "/api/groups/frontend-react/question-bank")).body.questions;
    expect(bank.find((q) => q._id === banked.body._id)?.correct).toEqual([1]);
  });
});

describe("leaving an editor with unsaved changes", () => {
  const newPage = useBrowser();

  it("asks in the app's dialog before another page of the app, and the browser's before a reload; nothing once saved", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Draft week ${stamp}`, published: false })).body.slug;
    const page = await newPage();
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    const editor = `/instructor/group/frontend-react/lectures/update/${lecture}`;
    await gotoHydrated(page, editor);
    const students = page.getByRole("link", { name: "Students", exact: true }).first();

    // Nothing typed: leaving asks nothing.
    await students.click();
    await page.waitForURL("**/instructor/group/frontend-react/students");
    await gotoHydrated(page, editor);

    await page.locator("#lecture-body").fill("A statement nobody saved.");
    await students.click();
    const dialog = page.getByRole("dialog", { name: "Leave without saving?" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(new URL(page.url()).pathname).toBe(editor);
    expect(await page.locator("#lecture-body").inputValue()).toBe("A statement nobody saved.");

    // A reload asks the browser's own question (declined here: the text stays).
    let asked = "";
    page.once("dialog", (d) => {
      asked = d.type();
      void d.dismiss();
    });
    await page.reload({ timeout: 3000 }).catch(() => undefined);
    expect(asked).toBe("beforeunload");
    expect(await page.locator("#lecture-body").inputValue()).toBe("A statement nobody saved.");

    // Saved: leaving asks nothing.
    await page.getByRole("button", { name: "Save lecture", exact: true }).click();
    await page.getByText("Saved", { exact: false }).first().waitFor();
    await students.click();
    await page.waitForURL("**/instructor/group/frontend-react/students");
    expect(await dialog.count()).toBe(0);

    // Leave without saving: the change is gone.
    await gotoHydrated(page, editor);
    await page.locator("#lecture-body").fill("Another change.");
    await students.click();
    await dialog.getByRole("button", { name: "Leave without saving" }).click();
    await page.waitForURL("**/instructor/group/frontend-react/students");
    const body = (await api<{ body: string }>(token, "GET", `/api/lectures/${lecture}`)).body.body;
    expect(body).toBe("A statement nobody saved.");
  });

  it("the task and quiz editors ask too, and their own Save goes through without asking", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Guarded week ${stamp}`, published: true })).body.slug;
    const page = await newPage();
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    const dialog = page.getByRole("dialog", { name: "Leave without saving?" });
    for (const kind of ["newTask", "newQuiz"]) {
      await gotoHydrated(page, `/instructor/group/frontend-react/lectures/${lecture}/${kind}`);
      await page.locator(kind === "newTask" ? "#task-title" : "#quiz-title").fill(`Half-written ${stamp}`);
      await page.getByRole("link", { name: "Students", exact: true }).first().click();
      await dialog.waitFor();
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "hidden" });
    }
    // The task form's own Save: a new task, then its list, without the question.
    await gotoHydrated(page, `/instructor/group/frontend-react/lectures/${lecture}/newTask`);
    await page.locator("#task-title").fill(`Saved task ${stamp}`);
    await page.getByRole("button", { name: "Create task" }).click();
    await page.waitForURL("**/instructor/group/frontend-react/tasks");
    expect(await dialog.count()).toBe(0);
    expect(await page.locator(".notice-success").textContent()).toBe(`Task “Saved task ${stamp}” created.`);
  });
});
