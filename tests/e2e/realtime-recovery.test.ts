/**
 * Live screens that come back by themselves (what a hostile tester found): a lecture page whose socket dropped
 * catches the attendance that opened meanwhile; a chat whose person's role changed reconnects instead of saying
 * "no access"; a message the room refuses turns into "Not sent" with Retry and Discard instead of "Sending…" for
 * ever; and a message of only invisible characters cannot be sent at all.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { gotoHydrated, useBrowser } from "./browser";
import { accessToken, ADMIN, api, INSTRUCTOR, memberOf } from "./groups-helpers";
import { signIn } from "./session";

const stamp = () => Date.now().toString(36);
const chatStatus = (page: Page, status: string) => page.locator(`.chat-status[data-status="${status}"]`);

describe("live screens that recover", () => {
  const newPage = useBrowser();

  async function memberPage(label: string, opts: { offline?: boolean } = {}) {
    const student = await memberOf("frontend-react", label, `Recovery ${label} ${stamp()}`);
    const page = await newPage(opts);
    await signIn(page.context(), student.email, student.password);
    return { student, page };
  }

  it("a lecture page whose socket dropped shows the check-in box that opened meanwhile, once it is back online", async () => {
    const teacher = await accessToken(INSTRUCTOR);
    const made = await api<{ _id: string; slug: string }>(teacher, "POST", "/api/lectures/group/frontend-react", { title: `Asleep in class ${stamp()}`, published: true });
    expect(made.status).toBe(201);
    const { page } = await memberPage("asleep", { offline: true });
    await gotoHydrated(page, `/course/frontend-react/lecture/${made.body.slug}`);
    // The room is joined: an opening now would arrive live. Then the phone sleeps.
    await page.waitForLoadState("networkidle");
    await page.context().setOffline(true);
    const opened = await api(teacher, "POST", `/api/lectures/${made.body._id}/attendance/open`, { rotateSeconds: 0, durationMinutes: 5 });
    expect(opened.status).toBe(200);
    expect(await page.getByLabel("Check-in code").count()).toBe(0);
    await page.context().setOffline(false);
    // No reload: the socket reopens and the page reads its lecture again.
    await page.getByLabel("Check-in code").waitFor({ timeout: 10_000 });
    expect((await api(teacher, "POST", `/api/lectures/${made.body._id}/attendance/close`)).status).toBe(200);
  });

  it("a chat open when its person's role changes reconnects and stays usable", async () => {
    const { student, page } = await memberPage("promoted");
    await gotoHydrated(page, "/course/frontend-react");
    await chatStatus(page, "open").waitFor({ timeout: 10_000 });
    const admin = await accessToken(ADMIN);
    const users = await api<{ users: { _id: string; email: string }[] }>(admin, "GET", `/api/users?search=${encodeURIComponent(student.email)}`);
    const id = users.body.users.find((u) => u.email === student.email)!._id;
    try {
      expect((await api(admin, "PUT", `/api/users/${id}/role`, { role: "instructor" })).status).toBe(200);
      await chatStatus(page, "reconnecting").waitFor({ timeout: 5_000 });
      await chatStatus(page, "open").waitFor({ timeout: 15_000 });
      expect(await page.locator(".chat-closed").count()).toBe(0);
      const text = `Still here ${stamp()}`;
      await page.getByRole("textbox", { name: "Message" }).fill(text);
      await page.getByRole("textbox", { name: "Message" }).press("Enter");
      await page.locator(".chat-msg", { hasText: text }).and(page.locator('[data-state="sent"]')).waitFor({ timeout: 5_000 });
    } finally {
      await api(admin, "PUT", `/api/users/${id}/role`, { role: "user" });
    }
  });

  it("a message of only invisible characters cannot be sent; one the room refuses says why and can be discarded", async () => {
    const { page } = await memberPage("invisible");
    await gotoHydrated(page, "/course/frontend-react");
    await chatStatus(page, "open").waitFor({ timeout: 10_000 });
    const box = page.getByRole("textbox", { name: "Message" });
    const sendButton = page.getByRole("button", { name: "Send" });
    for (const blank of ["\u200b", "\u3164", "\u2800 \u200e"]) {
      await box.fill(blank);
      expect(await sendButton.isDisabled()).toBe(true);
      await box.press("Enter");
      expect(await page.locator('.chat-msg[data-state="sending"], .chat-msg[data-state="failed"]').count()).toBe(0);
    }

    // The room refuses a frame the page could not foresee (here: made blank on its way out) by its clientId.
    await page.routeWebSocket(/\/parties\/group-room\//, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((message) => {
        const frame = JSON.parse(String(message)) as { type: string; text?: string };
        server.send(frame.type === "chat.send" ? JSON.stringify({ ...frame, text: "\u200b" }) : String(message));
      });
    });
    await page.reload();
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    await chatStatus(page, "open").waitFor({ timeout: 10_000 });
    const text = `Blanked on the way ${stamp()}`;
    await box.fill(text);
    await box.press("Enter");
    const line = page.locator(".chat-msg", { hasText: text });
    await line.and(page.locator('[data-state="failed"]')).waitFor({ timeout: 5_000 });
    expect(await line.textContent()).toContain("Not sent: this message can't be posted.");
    await line.getByRole("button", { name: "Discard" }).click();
    await line.waitFor({ state: "detached" });
  });
});
