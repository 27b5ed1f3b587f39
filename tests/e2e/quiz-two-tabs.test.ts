/**
 * One quiz attempt open in two tabs: each used to say "Saved" while the server kept whichever saved last, and a
 * hand-in from the older tab graded its older answers. Now a tab whose answers were saved over elsewhere says so,
 * shows how many questions differ, and lets the student take those answers or keep its own; a hand-in from it waits
 * for that choice.
 */
import { describe, expect, it } from "vitest";
import { gotoHydrated, useBrowser } from "./browser";
import { allowStatus } from "./accounts-helpers";
import { accessToken, api, INSTRUCTOR, memberOf } from "./groups-helpers";
import { signIn } from "./session";

describe("a quiz attempt open in two tabs", () => {
  const newPage = useBrowser();

  it("the tab left behind is told, takes the other tab's answers or keeps its own, and does not hand in older answers unseen", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Two tabs ${stamp}`, published: true })).body;
    const quiz = await api<{ slug: string }>(token, "POST", "/api/quizzes", {
      lectureId: lecture.slug,
      title: `Two tabs quiz ${stamp}`,
      durationMinutes: 10,
      maxAttempts: 1,
      showAnswers: "after-submit",
      published: true,
      questions: [
        { text: "Which value makes a grid?", type: "single", options: ["flex", "grid", "block"], correct: 1 },
        { text: "`gap` works in Flexbox.", type: "true-false", correct: 0 },
      ],
    });
    expect(quiz.status).toBe(201);
    const path = `/course/frontend-react/lecture/${lecture.slug}/quiz/${quiz.body.slug}`;
    const user = await memberOf("frontend-react", "two-tabs", `Two Tabs ${stamp}`);

    const one = await newPage();
    // The refusals are the point of this test: the browser logs each 409 it is answered.
    const problems = allowStatus(one, 409, "/save");
    await signIn(one.context(), user.email, user.password);
    await gotoHydrated(one, path);
    await one.getByRole("button", { name: "Start the quiz" }).click();
    await one.waitForURL(`**${path}/questions`);
    await one.waitForSelector("html[data-hydrated]", { state: "attached" });
    const two = await one.context().newPage();
    const problemsTwo = allowStatus(two, 409, "/save");
    await gotoHydrated(two, `${path}/questions`);
    const status = (page: typeof one) => page.locator(".quiz-save").getAttribute("data-status");
    // A change is saved about a second after it is made.
    const saved = (page: typeof one) => page.waitForFunction(() => document.querySelector(".quiz-save")?.getAttribute("data-status") === "saved");

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
    const result = await api<{ attempts: { score: number }[] }>(await accessToken(user), "GET", `/api/quizzes/${quiz.body.slug}/result`);
    expect(result.body.attempts).toHaveLength(1);
    expect(result.body.attempts[0]!.score).toBe(0);
    expect([...problems, ...problemsTwo]).toEqual([]);
  });
});
