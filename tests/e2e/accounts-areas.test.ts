import { describe, expect, it } from "vitest";
import { allowStatus, DEMO, signIn } from "./accounts-helpers";
import { baseURL, gotoHydrated, useBrowser } from "./browser";

describe("role-guarded areas", () => {
  const newPage = useBrowser();

  it("sends a visitor who opens a staff page to login, carrying the page", async () => {
    const page = await newPage();
    await page.goto("/dashboard/admin/allStudent");
    expect(page.url()).toBe(`${baseURL()}/auth/login?redirectTo=%2Fdashboard%2Fadmin%2FallStudent`);
    // The login page copies redirectTo into sessionStorage once it has hydrated.
    await page.waitForFunction(() => sessionStorage.getItem("redirect") !== null);
    expect(await page.evaluate(() => sessionStorage.getItem("redirect"))).toBe("/dashboard/admin/allStudent");
  });

  for (const [who, path] of [
    ["student", "/dashboard"],
    ["instructor", "/dashboard"],
    ["admin", "/instructor"],
    ["student", "/instructor/setting"],
  ] as const) {
    it(`answers ${who} opening ${path} with a 403 page`, async () => {
      const page = await newPage();
      const problems = allowStatus(page, 403, path);
      await signIn(page.context(), DEMO[who]);
      const res = await page.goto(path);
      expect(res?.status()).toBe(403);
      expect(await page.locator("h1").textContent()).toBe("Not allowed");
      expect(await page.locator(".error-code").textContent()).toBe("403");
      // The header still knows who is signed in; the area's own navigation is not shown.
      expect(await page.locator("header.site-header").getByRole("button", { name: "Log out" }).count()).toBe(1);
      expect(await page.locator(".area-nav").count()).toBe(0);
      expect(problems).toEqual([]);
    });
  }

  it("shows the admin overview with real counts and links to each inbox", async () => {
    const page = await newPage();
    await signIn(page.context(), DEMO.admin);
    await page.goto("/dashboard");
    expect(await page.locator("h1").textContent()).toBe("Dashboard");
    const nav = page.getByRole("navigation", { name: "Admin dashboard" });
    expect(await nav.getByRole("link").allTextContents()).toEqual([
      "Overview",
      "New group",
      "All groups",
      "Students",
      "Join requests",
      "Feedback",
      "Messages",
      "Profile",
    ]);
    expect(await nav.getByRole("link", { name: "Overview" }).getAttribute("aria-current")).toBe("page");
    const users = page.locator(".stat-card").filter({ hasText: "Users" });
    expect(Number(await users.locator(".stat-value").textContent())).toBeGreaterThanOrEqual(3);
    expect(await users.getAttribute("href")).toBe("/dashboard/admin/allStudent");
    expect(await page.locator(".stat-card").filter({ hasText: "Pending join requests" }).getAttribute("href")).toBe("/dashboard/admin/email-request");
    expect(await page.locator(".stat-card").filter({ hasText: "Unread contact messages" }).getAttribute("href")).toBe("/dashboard/admin/get-all-message-by-admin");
    // The landing page sends an admin to the dashboard (spec §4).
    await page.goto("/");
    expect(page.url()).toBe(`${baseURL()}/dashboard`);
  });

  it("shows an instructor their groups with links to each group's screens", async () => {
    const page = await newPage();
    await signIn(page.context(), DEMO.instructor);
    await page.goto("/instructor");
    expect(await page.locator("h1").textContent()).toBe("Your groups");
    const group = page.locator(".teach-group").filter({ hasText: "Frontend Development with React" });
    expect(await group.getByRole("link", { name: "Students" }).getAttribute("href")).toBe("/instructor/group/frontend-react/students");
    expect(await group.getByRole("link", { name: "Group chat" }).getAttribute("href")).toBe("/instructor/group/frontend-react/messages");
    expect(await group.textContent()).toMatch(/Members: \d+ of \d+/);
    expect(await page.locator("header.site-header").getByRole("link", { name: "Teaching" }).getAttribute("href")).toBe("/instructor");
  });

  it("logs out: the cookie session ends and the local markers are cleared", async () => {
    const page = await newPage();
    await signIn(page.context(), DEMO.student);
    // Hydrated first: the Log out button clears the markers from its submit handler.
    await gotoHydrated(page, "/");
    const header = page.locator("header.site-header");
    await header.getByRole("link", { name: "My Courses" }).waitFor();
    await page.waitForFunction(() => localStorage.getItem("role") === "user");
    // The bell has connected and read its count: no request of the old session is still on its way (one that
    // lands after the logout is answered 401, which the browser logs).
    await page.locator('.bell[data-live="open"]').waitFor();
    await page.waitForLoadState("networkidle");
    await header.getByRole("button", { name: "Log out" }).click();
    await header.getByRole("link", { name: "Log In" }).waitFor();
    await page.waitForFunction(() => localStorage.getItem("role") === null, null, { timeout: 5000 });
    await page.goto("/profile");
    await page.waitForURL(`${baseURL()}/auth/login?redirectTo=%2Fprofile`, { timeout: 5000 });
  });

  it("a session that ended elsewhere: the next call's refresh is refused and the page goes to login, asking nothing more", async () => {
    const page = await newPage();
    await signIn(page.context(), DEMO.student);
    await gotoHydrated(page, "/my-courses");
    await page.locator('.bell[data-live="open"]').waitFor();
    await page.waitForLoadState("networkidle");
    // Signed out from another device with the same cookies (the browser keeps its own), and the page's 3-minute
    // marker has passed: its next call must refresh first.
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const out = await fetch(`${baseURL()}/api/users/logout`, { method: "POST", headers: { cookie, origin: baseURL() } });
    expect(out.status).toBe(200);
    await page.evaluate(() => localStorage.setItem("tokenExpiration", "0"));
    const problems = allowStatus(page, 401, "/api/users/refresh-token");
    const asked: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/api/") && !r.url().includes("/api/users/refresh-token")) asked.push(r.url());
    });
    await page.locator("header.site-header").getByRole("button", { name: /notifications/i }).click();
    await page.waitForURL(`${baseURL()}/auth/login?redirectTo=%2Fmy-courses`, { timeout: 10_000 });
    expect(asked).toEqual([]);
    expect(problems).toEqual([]);
    expect(await page.evaluate(() => localStorage.getItem("role"))).toBeNull();
  });
});
