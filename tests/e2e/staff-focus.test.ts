/**
 * After a confirmed change that takes its own control away (a deleted message or feedback, a rejected request, a
 * removed student, a role given), the keyboard goes on from the list, not from the top of the page: focus lands on
 * the item that took the removed one's place (or the list's count), and the screen reader is told what was done.
 * Each case failed before: focus fell to the page's body.
 */
import type { Page } from "playwright-core";
import { describe, expect, it, onTestFinished } from "vitest";
import { baseURL, gotoHydrated, useBrowser } from "./browser";
import { createVerifiedUser, signIn } from "./accounts-helpers";
import { accessToken, ADMIN, api, INSTRUCTOR, memberOf } from "./groups-helpers";

/** What holds the focus: its tag, classes and name, or "body". */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return "body";
    return [el.tagName.toLowerCase(), ...el.classList].join(".") + (el.id ? ` #${el.id}` : "");
  });

/** A visitor's contact message, from an address of its own (the form's limit is per address). */
async function sendContact(name: string, message: string) {
  const sent = await fetch(`${baseURL()}/api/contact`, {
    method: "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": `203.0.113.${Math.floor(Math.random() * 200) + 20}` },
    body: JSON.stringify({ name, email: `${name.toLowerCase().replace(/\s+/g, ".")}@example.com`, message }),
  });
  expect(sent.status).toBe(201);
}

const status = (page: Page) => page.locator('[role="status"][aria-live="polite"]').allTextContents();

describe("the keyboard after a confirmed removal", () => {
  const newPage = useBrowser();

  async function adminPage() {
    const page = await newPage();
    await signIn(page.context(), ADMIN);
    return page;
  }

  it("goes on from the next contact message when one is deleted, and says so", async () => {
    const stamp = Date.now().toString(36);
    for (const who of ["First", "Second"]) await sendContact(`${who} ${stamp}`, "Do you run evening groups?");
    const page = await adminPage();
    await gotoHydrated(page, "/dashboard/admin/get-all-message-by-admin");
    await page.getByRole("button", { name: `Delete the message from Second ${stamp}` }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Delete" }).click();
    await dialog.waitFor({ state: "hidden" });
    await expect.poll(() => focused(page)).toBe("p.inbox-item-name");
    expect(await page.getByRole("button", { name: `Delete the message from Second ${stamp}` }).count()).toBe(0);
    await expect.poll(() => status(page)).toContain(`The message from Second ${stamp} was deleted.`);
  });

  it("goes on from the next feedback when one is deleted, and says so", async () => {
    const stamp = Date.now().toString(36);
    const author = await memberOf("frontend-react", `fb-focus-${stamp}`, `Rana ${stamp}`);
    const posted = await api(await accessToken(author), "POST", "/api/feedback", { groupSlug: "frontend-react", userFeedback: "Clear lectures and quick answers.", rating: 4 });
    expect(posted.status).toBeLessThan(300);
    const page = await adminPage();
    await gotoHydrated(page, "/dashboard/admin/get-all-feedback-by-admin");
    await page.getByRole("button", { name: `Delete the feedback from Rana ${stamp}` }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Delete" }).click();
    await dialog.waitFor({ state: "hidden" });
    // The demo data holds other feedback: the next one takes the focus.
    await expect.poll(() => focused(page)).toBe("p.inbox-item-name");
    await expect.poll(() => status(page)).toContain(`The feedback from Rana ${stamp} was deleted.`);
  });

  it("goes on from the requests left when one is rejected", async () => {
    const stamp = Date.now().toString(36);
    const asker = await createVerifiedUser(`rej-focus-${stamp}`, `Karim ${stamp}`);
    const asked = await api(await accessToken(asker), "POST", "/api/users/joinGroupRequest", { groupSlug: "frontend-react" });
    expect(asked.status).toBe(201);
    const page = await adminPage();
    await gotoHydrated(page, "/dashboard/admin/email-request");
    const card = page.locator("li.request-card", { has: page.getByRole("heading", { name: `Karim ${stamp}` }) });
    await card.getByRole("button", { name: "Reject" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Reject request" }).click();
    await card.waitFor({ state: "detached" });
    // Another request's name, or the count when none is left: never the page.
    await expect.poll(() => focused(page)).toMatch(/^(h2\.request-name|p\.gresult-count)/);
    await expect.poll(() => status(page)).toContain(`Karim ${stamp}'s request for Frontend Development with React was rejected.`);
  });

  it("lands on the count when the last request of a group is rejected (the page behind the dialog is inert)", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(ADMIN);
    const made = await api<{ group: { slug: string } }>(token, "POST", "/api/groups/frontend-react/copy", { title: `Quiet group ${stamp}`, startDate: "2031-03-02" });
    expect(made.status).toBe(201);
    const { slug } = made.body.group;
    expect((await api(token, "PUT", `/api/groups/${slug}`, { status: "published" })).status).toBe(200);
    const asker = await createVerifiedUser(`last-req-${stamp}`, `Mona ${stamp}`);
    expect((await api(await accessToken(asker), "POST", "/api/users/joinGroupRequest", { groupSlug: slug })).status).toBe(201);
    const page = await adminPage();
    await gotoHydrated(page, `/dashboard/admin/email-request?group=${slug}`);
    const card = page.locator("li.request-card", { has: page.getByRole("heading", { name: `Mona ${stamp}` }) });
    expect(await page.locator("li.request-card").count()).toBe(1);
    await card.getByRole("button", { name: "Reject" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Reject request" }).click();
    await card.waitFor({ state: "detached" });
    await expect.poll(() => focused(page)).toBe("p.gresult-count");
    expect(await page.locator("p.gresult-count").textContent()).toBe("Waiting: 0");
  });

  it("goes on from the next unread message when one is marked read in the unread view", async () => {
    const stamp = Date.now().toString(36);
    for (const who of ["Older", "Newer"]) await sendContact(`${who} ${stamp}`, "Is there a weekend group?");
    const page = await adminPage();
    await gotoHydrated(page, "/dashboard/admin/get-all-message-by-admin?status=unread");
    const newer = page.locator("li.inbox-item", { hasText: `Newer ${stamp}` });
    await newer.getByRole("button", { name: "Mark as read" }).focus();
    await page.keyboard.press("Enter");
    await newer.waitFor({ state: "detached" });
    // The row went with its focused button: the message now in its place (the older one, next in the list) has it.
    await expect.poll(() => focused(page)).toBe("p.inbox-item-name");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain(`Older ${stamp}`);
  });

  it("stays in the students table when a removed student leaves the members list, and says so", async () => {
    const stamp = Date.now().toString(36);
    await memberOf("frontend-react", `rm-focus-${stamp}`, `Hany ${stamp}`);
    const page = await adminPage();
    await gotoHydrated(page, "/dashboard/admin/group/frontend-react/students");
    await page.getByRole("button", { name: `Remove Hany ${stamp}` }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Remove student" }).click();
    await page.getByRole("link", { name: `Hany ${stamp}` }).waitFor({ state: "detached" });
    await expect.poll(() => focused(page)).toBe("div.gtable-wrap");
    await expect.poll(() => status(page)).toContain(`Hany ${stamp} was removed from the group.`);
  });

  it("goes on from the time when a lecture's schedule is taken off (its button goes with it)", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `Later week ${stamp}` })).body;
    expect((await api(token, "PUT", `/api/schedule/lecture/${lecture.slug}`, { publishAt: new Date(Date.now() + 86_400_000).toISOString() })).status).toBe(200);
    const page = await newPage();
    await signIn(page.context(), INSTRUCTOR);
    await gotoHydrated(page, `/instructor/group/frontend-react/lectures/update/${lecture.slug}`);
    await page.getByRole("button", { name: "Take off the schedule" }).click();
    await page.getByRole("button", { name: "Take off the schedule" }).waitFor({ state: "detached" });
    await expect.poll(() => focused(page)).toBe("input #schedule-lecture-at");
  });

  it("goes on from the announcement left when one is deleted on the Cohort tab", async () => {
    const stamp = Date.now().toString(36);
    const token = await accessToken(INSTRUCTOR);
    const made: string[] = [];
    for (const title of [`Kept ${stamp}`, `Gone ${stamp}`]) {
      const res = await api<{ _id: string }>(token, "POST", "/api/groups/frontend-react/announcements", { title, body: "Room B this week." });
      expect(res.status).toBe(201);
      made.push(res.body._id);
    }
    // The demo group's members would otherwise find it pinned on their course home in later tests.
    onTestFinished(async () => {
      await api(token, "DELETE", `/api/groups/frontend-react/announcements/${made[0]}`);
    });
    const page = await newPage();
    await signIn(page.context(), INSTRUCTOR);
    await gotoHydrated(page, "/instructor/group/frontend-react/cohort");
    await page.getByRole("button", { name: `Delete: Gone ${stamp}` }).click();
    await page.getByRole("dialog", { name: "Delete this announcement?" }).getByRole("button", { name: "Delete" }).click();
    await page.getByRole("button", { name: `Delete: Gone ${stamp}` }).waitFor({ state: "detached" });
    await expect.poll(() => focused(page)).toMatch(/^(h3\.cohort-item-title|h2\.block-title)/);
  });

  it("goes back to the role picker once a role is given (the button is disabled then)", async () => {
    const stamp = Date.now().toString(36);
    const person = await createVerifiedUser(`role-focus-${stamp}`, `Mona ${stamp}`);
    const admin = await accessToken(ADMIN);
    const found = await api<{ users: { slug: string; email: string }[] }>(admin, "GET", `/api/users?search=${encodeURIComponent(person.email)}`);
    const slug = found.body.users.find((u) => u.email === person.email)!.slug;
    const page = await adminPage();
    await gotoHydrated(page, `/dashboard/admin/allStudent/student/${slug}`);
    await page.locator("#user-role").selectOption("instructor");
    await page.getByRole("button", { name: "Change role" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Change role" }).click();
    await page.getByRole("dialog").waitFor({ state: "hidden" });
    await expect.poll(() => focused(page)).toBe("select #user-role");
    expect(await page.getByRole("button", { name: "Change role" }).isDisabled()).toBe(true);
  });
});
