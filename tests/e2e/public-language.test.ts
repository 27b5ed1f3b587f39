import { describe, expect, it } from "vitest";
import { baseURL, gotoHydrated, useBrowser } from "./browser";

describe("language and navigation", () => {
  const newPage = useBrowser();

  it("switches to Arabic (right to left), keeps it across navigation and reloads, and switches back", async () => {
    const page = await newPage();
    await page.goto("/courses?from=test");
    expect(await page.locator("html").getAttribute("lang")).toBe("en");
    expect(await page.locator("html").getAttribute("dir")).toBe("ltr");

    await page.getByRole("button", { name: /العربية/ }).click();
    await page.waitForFunction(() => document.documentElement.dir === "rtl" && document.querySelector("h1")?.textContent === "الكورسات المتاحة");
    expect(await page.locator("html").getAttribute("lang")).toBe("ar");
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe("/courses?from=test");
    expect(await page.locator("h1").textContent()).toBe("الكورسات المتاحة");
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === "lang")?.value).toBe("ar");

    // The header's navigation is not named like its own Home link (a screen reader said "الرئيسية" twice).
    const nav = page.getByRole("navigation", { name: "التنقّل الرئيسي" });
    expect(await nav.getByRole("link", { name: "الرئيسية" }).count()).toBe(1);
    await nav.getByRole("link", { name: "الرئيسية" }).click();
    await page.waitForURL(`${baseURL()}/`);
    await page.waitForFunction(() => document.querySelector("h1")?.textContent === "أتقن البرمجة وابنِ مواقع ويب حديثة");
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl");

    await page.reload();
    expect(await page.locator("html").getAttribute("lang")).toBe("ar");
    expect(await page.title()).toContain("كوهورت");

    await page.getByRole("button", { name: /English/ }).click();
    await page.waitForFunction(() => document.documentElement.dir === "ltr" && document.querySelector("h1")?.textContent === "Master programming and build modern websites");
  });

  it("picks Arabic from Accept-Language when there is no cookie", async () => {
    const page = await newPage({ locale: "ar-EG" });
    await page.goto("/contact");
    expect(await page.locator("html").getAttribute("lang")).toBe("ar");
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
    expect(await page.locator("h1").textContent()).toBe("تواصل معنا");
  });

  it("only redirects to a path on this site after switching language", async () => {
    for (const [redirectTo, expected] of [
      ["/contact?x=1", "/contact?x=1"],
      ["//evil.example/", "/"],
      ["https://evil.example/", "/"],
      ["/\\evil.example", "/"],
    ]) {
      const res = await fetch(`${baseURL()}/set-language`, {
        method: "POST",
        headers: { origin: baseURL() },
        body: new URLSearchParams({ lang: "ar", redirectTo }),
        redirect: "manual",
      });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe(expected);
      expect(res.headers.get("set-cookie")).toMatch(/^lang=ar; Path=\/; Max-Age=31536000; SameSite=Lax/);
    }
    const bad = await fetch(`${baseURL()}/set-language`, { method: "POST", headers: { origin: baseURL() }, body: new URLSearchParams({ lang: "fr", redirectTo: "/" }), redirect: "manual" });
    expect(bad.status).toBe(302);
    expect(bad.headers.get("set-cookie")).toBeNull();
    // From another site the switch does nothing at all.
    const foreign = await fetch(`${baseURL()}/set-language`, { method: "POST", headers: { origin: "https://evil.example" }, body: new URLSearchParams({ lang: "ar", redirectTo: "/" }), redirect: "manual" });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get("set-cookie")).toBeNull();
  });

  it("opens and closes the mobile menu with the keyboard at 375 px", async () => {
    const page = await newPage({ width: 375, height: 740 });
    await gotoHydrated(page, "/");
    const toggle = page.getByRole("button", { name: "Menu" });
    const coursesLink = page.locator("#site-menu").getByRole("link", { name: "Courses" });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await coursesLink.isVisible()).toBe(false);

    await toggle.focus();
    await page.keyboard.press("Enter");
    await page.waitForSelector('button[aria-controls="site-menu"][aria-expanded="true"]');
    await coursesLink.waitFor({ state: "visible" });
    expect(await page.locator("#site-menu").getByRole("link", { name: "Log In" }).isVisible()).toBe(true);

    await page.keyboard.press("Escape");
    await page.waitForSelector('button[aria-controls="site-menu"][aria-expanded="false"]');
    // Focus returns to the toggle (waited for, not sampled: the close and the focus land in one event turn).
    await page.waitForFunction(() => document.activeElement?.getAttribute("aria-controls") === "site-menu", null, { timeout: 5000 });
    await coursesLink.waitFor({ state: "hidden" });

    await page.keyboard.press("Space");
    await coursesLink.waitFor({ state: "visible" });
    await coursesLink.click();
    await page.waitForURL("**/courses");
    await page.waitForSelector('button[aria-controls="site-menu"][aria-expanded="false"]', { timeout: 5000 });

    // Tabbing on past the open menu's last control closes it: focus never lands on the page hidden under it.
    await toggle.focus();
    await page.keyboard.press("Enter");
    await coursesLink.waitFor({ state: "visible" });
    const inHeader = () => page.evaluate(() => !!document.activeElement?.closest(".site-header"));
    for (let i = 0; i < 15 && (await inHeader()); i++) await page.keyboard.press("Tab");
    expect(await inHeader()).toBe(false);
    await page.waitForSelector('button[aria-controls="site-menu"][aria-expanded="false"]', { timeout: 5000 });
    await coursesLink.waitFor({ state: "hidden" });
  });
});
