import { describe, expect, inject, it } from "vitest";
import { uniqueEmail } from "./accounts-helpers";
import { baseURL, useBrowser } from "./browser";

/** Chooses the Google account the stand-in (tests/e2e/google-stand-in.ts) signs in next. */
async function nextGoogleAccount(identity: { sub: string; email: string; name: string }) {
  const res = await fetch(`${inject("googleStandIn")}/next-identity`, { method: "POST", body: JSON.stringify(identity) });
  expect(res.status).toBe(200);
}

describe("Google sign-in", () => {
  const newPage = useBrowser();

  it("signs in through the popup: the callback posts the token to the login page, which moves on", async () => {
    const email = uniqueEmail("google");
    await nextGoogleAccount({ sub: `sub-${email}`, email, name: "Yara Google" });
    const page = await newPage();
    await page.goto("/auth/login?redirectTo=%2Fcourses");
    const button = page.getByRole("button", { name: "Continue with Google" });
    expect(await button.isEnabled()).toBe(true);
    const [popup] = await Promise.all([page.waitForEvent("popup"), button.click()]);
    await popup.waitForEvent("close");
    // A user goes to the page they were sent away from (the stored redirect).
    await page.waitForURL(`${baseURL()}/courses`);
    await page.locator("header.site-header").getByRole("button", { name: "Log out" }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem("role"))).toBe("user");
    expect(await page.evaluate(() => sessionStorage.getItem("redirect"))).toBeNull();
    // The refresh cookie set in the popup is this browser's session: the API answers as the new account.
    const profile = await page.evaluate(async () => {
      const refreshed = await fetch("/api/users/refresh-token", { method: "POST" });
      const { accessToken } = (await refreshed.json()) as { accessToken: string };
      return (await fetch("/api/users/profile", { headers: { Authorization: accessToken } })).json();
    });
    expect(profile).toMatchObject({ email, name: "Yara Google", emailVerified: true, googleLinked: true });
  });

  it("ignores messages from other origins and messages of another shape", async () => {
    const page = await newPage();
    // Once the page is idle it has hydrated and listens for messages.
    await page.goto("/auth/login", { waitUntil: "networkidle" });
    await page.evaluate(() => {
      window.dispatchEvent(new MessageEvent("message", { data: { type: "cohort:google", accessToken: "a.b.c" }, origin: "https://evil.example" }));
      window.postMessage({ type: "something-else", accessToken: "a.b.c" }, window.location.origin);
    });
    await page.waitForTimeout(300);
    expect(new URL(page.url()).pathname).toBe("/auth/login");
    expect(await page.getByText("Login Successfully").count()).toBe(0);
  });
});
