import { describe, expect, it } from "vitest";
import { useBrowser } from "./browser";

describe("served app", () => {
  const newPage = useBrowser();

  it("renders the home page from the Worker with hydration and no console errors", async () => {
    const page = await newPage();
    const res = await page.goto("/");
    expect(res?.status()).toBe(200);
    // The landing page is shared through the edge cache: its inline scripts are trusted by hash, not by a nonce.
    expect(res?.headers()["content-security-policy"]).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+ 'strict-dynamic'/);
    await expect(page.locator("h1").first().textContent()).resolves.toBeTruthy();
  });
});
