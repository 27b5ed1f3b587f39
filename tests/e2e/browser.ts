import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, inject } from "vitest";

export const baseURL = () => inject("baseURL");

/** Opens a path and waits until React has hydrated it (the root marks `<html data-hydrated>`), so handlers are attached. */
export async function gotoHydrated(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.waitForSelector("html[data-hydrated]", { state: "attached" });
}

/**
 * Connects to the shared browser, gives every test a fresh context, and fails a test whose pages
 * printed an error to the console or threw.
 */
export function useBrowser() {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    browser = await chromium.connect(inject("wsEndpoint"));
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
    const seen = problems.splice(0);
    expect(seen, "console errors or page errors").toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
  });

  /**
   * A new page in a new context (own cookies), optionally with a viewport, language or locale. `offline: true` is for
   * tests that cut the network on purpose: Chromium's own "net::ERR_INTERNET_DISCONNECTED" line for each request
   * made meanwhile is then expected; every other error still fails the test. `touch: true` is a phone: a touch
   * screen without a mouse (`(hover: none) and (pointer: coarse)` matches).
   */
  return async function newPage(opts: { width?: number; height?: number; locale?: string; offline?: boolean; timezoneId?: string; touch?: boolean } = {}): Promise<Page> {
    const context = await browser.newContext({
      baseURL: baseURL(),
      viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
      locale: opts.locale ?? "en-US",
      ...(opts.timezoneId ? { timezoneId: opts.timezoneId } : {}),
      ...(opts.touch ? { hasTouch: true, isMobile: true } : {}),
    });
    contexts.push(context);
    const page = await context.newPage();
    page.on("console", (msg) => {
      if (msg.type() !== "error") return;
      if (opts.offline && msg.text().includes("net::ERR_INTERNET_DISCONNECTED")) return;
      problems.push(`${page.url()}: ${msg.text()}`);
    });
    // The stack says where an uncaught error came from (the build is minified, but the file and the caller show).
    page.on("pageerror", (err) => problems.push(`${page.url()}: ${err.stack ?? err.message}`));
    return page;
  };
}
