import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useBrowser } from "./browser";
import { DEMO_LOGINS, signIn } from "./session";

const unique = (label: string) => `${label} ${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;

/** The bell's unread count as its button reports it. */
const bellCount = async (page: Page) => Number(await page.locator(".bell-button").getAttribute("data-unread"));

describe("notifications bell and the admins' contact inbox", () => {
  const newPage = useBrowser();

  it("a visitor's contact message raises the admin's bell and appears in the open inbox, live; mark all read clears the bell", async () => {
    const dashboard = await newPage();
    await signIn(dashboard.context(), DEMO_LOGINS.admin.email, DEMO_LOGINS.admin.password);
    await dashboard.goto("/dashboard");
    const before = await bellCount(dashboard);
    expect(await dashboard.locator(".bell-button").getAttribute("aria-label")).toBe(before > 0 ? `Notifications, ${before} unread` : "Notifications");

    const inbox = await dashboard.context().newPage();
    await inbox.goto("/dashboard/admin/get-all-message-by-admin");
    await inbox.locator('.live-indicator[data-status="open"]').waitFor({ timeout: 10_000 });
    const unreadBefore = await inbox.getByTestId("contact-unread").textContent();

    const visitor = await newPage();
    const text = unique("Do you run a weekend React group?");
    await visitor.goto("/contact");
    await visitor.getByRole("textbox", { name: "Name" }).fill("Yara Fathy");
    await visitor.getByRole("textbox", { name: "Email" }).fill("yara@example.com");
    await visitor.getByRole("textbox", { name: "Message" }).fill(text);
    await visitor.getByRole("button", { name: "Send Message" }).click();
    await visitor.locator(".toast-region .toast").waitFor();

    await dashboard.waitForFunction((n) => Number(document.querySelector(".bell-button")?.getAttribute("data-unread")) === n, before + 1, { timeout: 5_000 });
    expect(await dashboard.locator(".bell-button").getAttribute("aria-label")).toBe(`Notifications, ${before + 1} unread`);
    expect(await dashboard.locator(".bell-badge").textContent()).toBe(String(before + 1));

    const row = inbox.locator(".inbox-item", { hasText: text });
    await row.waitFor({ timeout: 5_000 });
    expect(await row.getAttribute("data-fresh")).toBe("true");
    expect(await row.getAttribute("data-unread")).toBe("true");
    expect(await inbox.locator(".inbox-item").first().textContent()).toContain(text);
    expect(await inbox.getByRole("status").filter({ hasText: /^New message from Yara Fathy/ }).count()).toBe(1);
    // The bell says what arrived to a screen reader, on every page (its own name only changes its count).
    // (The name sits in a directional isolate, FSI … PDI.)
    await expect.poll(async () => (await dashboard.locator(".bell [role=status]").textContent())?.replace(/[\u2066-\u2069]/g, "")).toBe("New notification: New message from Yara Fathy");
    expect(await inbox.getByTestId("contact-unread").textContent()).not.toBe(unreadBefore);
    expect(await row.getByRole("link", { name: "Reply by e-mail" }).getAttribute("href")).toMatch(/^mailto:yara@example\.com\?subject=/);

    // The bell lists it; "Mark all as read" empties the badge (and the other tab's bell follows).
    await dashboard.locator(".bell-button").click();
    const panel = dashboard.getByRole("dialog", { name: "Notifications" });
    // The name is set apart in its sentence (U+2068 ... U+2069), invisible on screen.
    await panel.locator(".bell-item", { hasText: /New message from \u2068Yara Fathy\u2069/ }).first().waitFor();
    await panel.getByRole("button", { name: "Mark all as read" }).click();
    await dashboard.locator(".bell-badge").waitFor({ state: "detached" });
    expect(await dashboard.locator(".bell-button").getAttribute("aria-label")).toBe("Notifications");
    await inbox.locator(".bell-badge").waitFor({ state: "detached", timeout: 5_000 });
    // The button is disabled now (nothing unread): the panel has the focus, not the page.
    expect(await dashboard.evaluate(() => document.activeElement?.classList.contains("bell-panel"))).toBe(true);

    // Tabbing out of the panel closes it (it would cover what the focus moved to); the bell opens it again.
    for (let i = 0; i < 12 && (await panel.isVisible()); i++) await dashboard.keyboard.press("Tab");
    await panel.waitFor({ state: "hidden" });
    expect(await dashboard.evaluate(() => !document.activeElement?.closest(".bell"))).toBe(true);
    await dashboard.locator(".bell-button").click();
    await panel.waitFor();

    // Escape closes the panel and gives focus back to the bell.
    await dashboard.keyboard.press("Escape");
    await panel.waitFor({ state: "hidden" });
    expect(await dashboard.evaluate(() => document.activeElement?.classList.contains("bell-button"))).toBe(true);
    await dashboard.reload();
    expect(await bellCount(dashboard)).toBe(0);
  });

  it("leaving pages while the bell's token refresh is in flight keeps the person signed in", async () => {
    const page = await newPage();
    await signIn(page.context(), DEMO_LOGINS.admin.email, DEMO_LOGINS.admin.password);
    // Each page's bell starts a refresh as it loads; the next page load begins before that answer is back.
    for (const path of ["/dashboard", "/dashboard/admin/get-all-message-by-admin", "/dashboard", "/dashboard/admin/get-all-feedback-by-admin"]) {
      await page.goto(path, { waitUntil: "commit" });
      await page.waitForTimeout(150);
    }
    await page.goto("/dashboard/admin/get-all-message-by-admin");
    await page.locator('.live-indicator[data-status="open"]').waitFor({ timeout: 10_000 });
    await page.waitForTimeout(500);
    await page.reload();
    await page.locator('.live-indicator[data-status="open"]').waitFor({ timeout: 10_000 });
    expect(new URL(page.url()).pathname).toBe("/dashboard/admin/get-all-message-by-admin");
  });

  it("marks a contact message read and unread, filters by it, and deletes it after confirming", async () => {
    const visitor = await newPage();
    const text = unique("Is there a student discount?");
    await visitor.goto("/contact");
    await visitor.getByRole("textbox", { name: "Name" }).fill("Omar Said");
    await visitor.getByRole("textbox", { name: "Email" }).fill("omar.said@example.com");
    await visitor.getByRole("textbox", { name: "Message" }).fill(text);
    await visitor.getByRole("button", { name: "Send Message" }).click();
    await visitor.locator(".toast-region .toast").waitFor();

    const admin = await newPage();
    await signIn(admin.context(), DEMO_LOGINS.admin.email, DEMO_LOGINS.admin.password);
    await admin.goto("/dashboard/admin/get-all-message-by-admin?status=unread");
    const row = admin.locator(".inbox-item", { hasText: text });
    await row.getByRole("button", { name: "Mark as read" }).click();
    await row.waitFor({ state: "detached" });

    const filters = admin.getByRole("navigation", { name: "Show" });
    await filters.getByRole("link", { name: "Read", exact: true }).click();
    await admin.waitForURL(/status=read/);
    await row.getByRole("button", { name: "Mark as unread" }).click();
    await row.waitFor({ state: "detached" });

    await filters.getByRole("link", { name: "All", exact: true }).click();
    await admin.waitForURL((url) => !url.search.includes("status"));
    await row.getByRole("button", { name: "Delete" }).click();
    const dialog = admin.getByRole("dialog", { name: "Delete this message?" });
    expect(await dialog.textContent()).toContain("Omar Said");
    await dialog.getByRole("button", { name: "Delete" }).click();
    await row.waitFor({ state: "detached" });
    await admin.reload();
    expect(await admin.locator(".inbox-item", { hasText: text }).count()).toBe(0);
  });
});
