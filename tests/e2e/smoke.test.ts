import { describe, expect, it } from "vitest";
import { useBrowser } from "./browser";

describe("served app", () => {
  const newPage = useBrowser();

  it("renders the home page from the Worker with hydration and no console errors", async () => {
    const page = await newPage();
    const res = await page.goto("/");
    expect(res?.status()).toBe(200);
    expect(res?.headers()["content-security-policy"]).toContain("nonce-");
    await expect(page.locator("h1").first().textContent()).resolves.toBeTruthy();
  });
});
