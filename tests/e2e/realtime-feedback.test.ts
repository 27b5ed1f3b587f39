import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { gotoHydrated, useBrowser } from "./browser";
import { accessToken, api } from "./groups-helpers";
import { DEMO_LOGINS, signIn } from "./session";

/** The demo student's seeded feedback (db/seed.ts). */
const SEEDED_TEXT = "The instructor reviews every task like a real code review. I learned more in six weeks than in a year alone.";

const unique = (label: string) => `${label} ${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;

/** Every feedback text the landing page's list shows, paging with Next (three cards at a time). */
async function publicFeedback(page: Page): Promise<string[]> {
  await page.goto("about:blank");
  await page.goto("/");
  const section = page.locator("#feedback");
  const counter = section.getByTestId("feedback-count");
  await counter.waitFor();
  const total = Number(/of (\d+)/.exec((await counter.textContent()) ?? "")?.[1]);
  const texts: string[] = [];
  for (;;) {
    texts.push(...(await section.locator(".feedback-text").allTextContents()));
    const next = section.getByRole("button", { name: "Next" });
    if (await next.isDisabled()) break;
    await next.click();
  }
  expect(texts).toHaveLength(total);
  return texts;
}

describe("shared feedback", () => {
  const newPage = useBrowser();

  /** Puts the demo student's record back as seeded (5 stars, its text, shown), so a retry and later files find it. */
  async function restoreSeededFeedback() {
    const nour = await accessToken(DEMO_LOGINS.student);
    await api(nour, "POST", "/api/feedback", { groupSlug: "frontend-react", userFeedback: SEEDED_TEXT, rating: 5 });
    const admin = await accessToken(DEMO_LOGINS.admin);
    const all = (await api<{ _id: string; email: string; hidden: boolean }[]>(admin, "GET", "/api/feedback/all")).body;
    for (const f of all.filter((x) => x.email === DEMO_LOGINS.student.email && x.hidden)) await api(admin, "PUT", `/api/feedback/${f._id}`, { hidden: false });
  }

  it("a student shares 4-star feedback that shows on the home page until an admin hides it", async () => {
    try {
      await sharesAndHides();
    } finally {
      await restoreSeededFeedback();
    }
  });

  async function sharesAndHides() {
    const student = await newPage();
    await signIn(student.context(), DEMO_LOGINS.student.email, DEMO_LOGINS.student.password);
    await student.goto("/add-feedback");
    expect(await student.locator("h1").textContent()).toBe("Share your feedback");
    const group = student.getByRole("combobox", { name: "Your group" });
    expect(await group.inputValue()).toBe("frontend-react");
    // The seeded feedback for this group is loaded for editing.
    expect(await student.getByRole("radio", { name: "5 out of 5 stars" }).isChecked()).toBe(true);
    expect(await student.getByRole("textbox", { name: "Your feedback" }).inputValue()).toContain("real code review");

    // The stars are a radio group: the arrow keys move the rating.
    await student.getByRole("radio", { name: "5 out of 5 stars" }).focus();
    await student.keyboard.press("ArrowLeft");
    expect(await student.getByRole("radio", { name: "4 out of 5 stars" }).isChecked()).toBe(true);
    await student.keyboard.press("ArrowRight");
    await student.getByRole("radio", { name: "4 out of 5 stars" }).check();

    const text = unique("Six weeks in: the code reviews changed how I write React.");
    await student.getByRole("textbox", { name: "Your feedback" }).fill(text);
    expect(await student.locator("#feedback-count").textContent()).toBe(`${text.length}/1,000`);
    await student.getByRole("button", { name: "Update feedback" }).click();
    const toast = student.locator(".toast-region .toast");
    await toast.waitFor();
    expect(await toast.textContent()).toContain("Your feedback was updated.");
    await student.getByRole("link", { name: "See it on the home page" }).click();
    await student.waitForURL((url) => url.pathname === "/" && url.hash === "#feedback");
    expect(await publicFeedback(student)).toContain(text);

    const admin = await newPage();
    await signIn(admin.context(), DEMO_LOGINS.admin.email, DEMO_LOGINS.admin.password);
    await gotoHydrated(admin, "/dashboard/admin/get-all-feedback-by-admin");
    await admin.locator('.live-indicator[data-status="open"]').waitFor({ timeout: 10_000 });
    const row = admin.locator(".inbox-item", { hasText: text });
    expect(await row.locator(".stars").getAttribute("aria-label")).toBe("Rated 4 out of 5");
    expect(await row.textContent()).toContain("student@example.com");
    await row.getByRole("button", { name: "Hide the feedback from Nour Ali" }).click();
    await row.locator(".hidden-badge").waitFor();
    await row.getByRole("button", { name: "Show the feedback from Nour Ali again" }).waitFor();
    // The badge shows at once; wait until the server has answered, then the row must stay hidden.
    await admin.locator(".inbox-item[data-pending]").waitFor({ state: "detached" });
    await expect.poll(() => row.getAttribute("data-hidden"), { timeout: 5_000 }).toBe("true");
    expect(await publicFeedback(student)).not.toContain(text);

    // Shown again, it is back (and the list is as the other tests expect it).
    await row.getByRole("button", { name: "Show the feedback from Nour Ali again" }).click();
    await row.locator(".hidden-badge").waitFor({ state: "detached" });
    await admin.locator(".inbox-item[data-pending]").waitFor({ state: "detached" });
    expect(await publicFeedback(student)).toContain(text);
  }

  it("an admin deletes a record; its student shares again and the new record reaches the admin's open list live", async () => {
    const admin = await newPage();
    await signIn(admin.context(), DEMO_LOGINS.admin.email, DEMO_LOGINS.admin.password);
    await admin.goto("/dashboard/admin/get-all-feedback-by-admin");
    await admin.locator('.live-indicator[data-status="open"]').waitFor({ timeout: 10_000 });
    const omarRows = admin.locator(".inbox-item", { hasText: "omar@example.com" });
    await omarRows.first().getByRole("button", { name: "Delete the feedback from Omar Khaled" }).click();
    const dialog = admin.getByRole("dialog", { name: "Delete this feedback?" });
    await dialog.getByRole("button", { name: "Delete" }).click();
    await omarRows.first().waitFor({ state: "detached" });
    const bellBefore = Number(await admin.locator(".bell-button").getAttribute("data-unread"));

    const omar = await newPage();
    await signIn(omar.context(), "omar@example.com", "demo-student-pass");
    await omar.goto("/add-feedback");
    expect(await omar.getByRole("textbox", { name: "Your feedback" }).inputValue()).toBe("");
    const text = unique("اللغة العربية في الواجهة ساعدتني كثيرًا");
    await omar.getByRole("radio", { name: "3 out of 5 stars" }).check();
    await omar.getByRole("textbox", { name: "Your feedback" }).fill(text);
    await omar.getByRole("button", { name: "Share feedback" }).click();
    const toast = omar.locator(".toast-region .toast");
    await toast.waitFor();
    expect(await toast.textContent()).toContain("Thank you! Your feedback was shared.");

    const row = admin.locator(".inbox-item", { hasText: text });
    await row.waitFor({ timeout: 5_000 });
    expect(await row.getAttribute("data-fresh")).toBe("true");
    await admin.waitForFunction((n) => Number(document.querySelector(".bell-button")?.getAttribute("data-unread")) === n, bellBefore + 1, { timeout: 5_000 });
  });

  it("explains itself to staff, to students without a group and to visitors, who log in from there and come back", async () => {
    const instructor = await newPage();
    await signIn(instructor.context(), DEMO_LOGINS.instructor.email, DEMO_LOGINS.instructor.password);
    await instructor.goto("/add-feedback");
    expect(await instructor.locator(".empty-title").textContent()).toBe("Feedback is for students");
    expect(await instructor.getByRole("link", { name: "Back to teaching" }).getAttribute("href")).toBe("/instructor");

    // Layla's only request is still pending.
    const layla = await newPage();
    await signIn(layla.context(), "layla@example.com", "demo-student-pass");
    await layla.goto("/add-feedback");
    expect(await layla.locator(".empty-title").textContent()).toBe("Join a group first");
    expect(await layla.getByRole("link", { name: "Browse courses" }).getAttribute("href")).toBe("/courses");

    const visitor = await newPage();
    const res = await visitor.goto("/add-feedback");
    expect(res?.status()).toBe(200);
    expect(await visitor.locator(".empty-title").textContent()).toBe("Students share their experience here");
    await visitor.getByRole("link", { name: "Log in to share feedback" }).click();
    await visitor.waitForURL((url) => url.pathname === "/auth/login" && url.searchParams.get("redirectTo") === "/add-feedback");
  });
});
