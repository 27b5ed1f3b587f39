import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, gotoHydrated, useBrowser } from "./browser";

/** The public feedback list as the API serves it (the same service the landing loader calls). */
async function publicFeedbackCount(): Promise<number> {
  const res = await fetch(`${baseURL()}/api/feedback`);
  const list = (await res.json()) as unknown[];
  return list.length;
}

const scrollTo = (page: Page, y: number) => page.evaluate((top) => window.scrollTo({ top, behavior: "instant" }), y);

describe("landing page", () => {
  const newPage = useBrowser();

  it("shows the hero, the four benefits and every landing section, with a translated title", async () => {
    const page = await newPage();
    const res = await page.goto("/");
    expect(res?.status()).toBe(200);
    expect(await page.title()).toContain("Cohort");
    expect(await page.locator("h1").count()).toBe(1);
    expect(await page.locator("h1").textContent()).toBe("Master programming and build modern websites");
    const heroBg = await page.locator(".hero-bg").evaluate((el) => getComputedStyle(el).backgroundImage);
    expect(heroBg).toContain("/images/bg.webp");

    const benefits = await page.locator("#why h3").allTextContents();
    expect(benefits).toEqual([
      "Real-world projects",
      "Integrating AI into your work",
      "Collaborating with other tracks",
      "Full coverage of all tech tracks",
    ]);
    expect(await page.locator("#how .step").count()).toBe(4);
    expect(await page.locator("#courses h2").textContent()).toBe("Available Courses");
    expect(await page.locator("#feedback h2").textContent()).toBe("Student Feedback");
    expect(await page.locator("#faq details").count()).toBe(4);

    const faq = page.locator("#faq details").first();
    expect(await faq.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    await faq.locator("summary").click();
    expect(await faq.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);

    expect(await page.locator("header.site-header a[href='/auth/login']").textContent()).toBe("Log In");
    expect(await page.locator("footer a[href='mailto:hello@cohort.example']").count()).toBe(1);
    expect(await page.locator("footer a[href='https://github.com/cohort']").getAttribute("target")).toBe("_blank");
  });

  it("keeps the hero's picture on the side its words leave free: mirrored in Arabic, as it is in English", async () => {
    for (const [lang, mirrored, textSide] of [["en", false, "left"], ["ar", true, "right"]] as const) {
      const page = await newPage({ width: 1280, height: 800 });
      await page.context().addCookies([{ name: "lang", value: lang, url: baseURL() }]);
      await page.goto("/");
      const { transform, title } = await page.evaluate(() => ({
        transform: getComputedStyle(document.querySelector(".hero-bg")!).transform,
        title: document.querySelector(".hero-title")!.getBoundingClientRect().toJSON() as DOMRect,
      }));
      // The picture's code window is drawn on its right: in Arabic, where the words start on the right, it is mirrored.
      expect(transform, lang).toBe(mirrored ? "matrix(-1, 0, 0, 1, 0, 0)" : "none");
      const middle = (title.left + title.right) / 2;
      expect(textSide === "left" ? middle < 640 : middle > 640, `${lang}: the headline sits on the ${textSide}`).toBe(true);
    }
  });

  it("'Book Now' jumps to the courses section of the same page", async () => {
    const page = await newPage();
    // The jump itself is under test, not the smooth animation: with reduced motion it is instant, and once the
    // page, its images and fonts have loaded nothing above the section moves it afterwards.
    await page.emulateMedia({ reducedMotion: "reduce" });
    await gotoHydrated(page, "/");
    await page.waitForLoadState("load");
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    const bookNow = page.getByRole("link", { name: "Book Now" });
    expect(await bookNow.getAttribute("href")).toBe("#courses");
    await bookNow.click();
    await page.waitForFunction(() => location.hash === "#courses");
    expect(new URL(page.url()).pathname).toBe("/");
    await page.waitForFunction(() => {
      const top = document.getElementById("courses")!.getBoundingClientRect().top;
      return top >= -2 && top < window.innerHeight / 2;
    });
  });

  it("opens a page followed from far down another at its top at once, without sliding there from the old place", async () => {
    const page = await newPage();
    await page.setViewportSize({ width: 375, height: 640 });
    await gotoHydrated(page, "/courses");
    await scrollTo(page, 100_000);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    await page.locator("footer").getByRole("link", { name: "Contact us" }).click();
    // The address changes before React commits the new page, so the check waits, frame by frame, for the first
    // frame in which the contact page is drawn, and reads the scroll there: already at the top (a smooth scroll
    // would still be on its way).
    const firstFrame = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const look = () => {
            if (document.querySelector("main.page-contact")) resolve(window.scrollY);
            else requestAnimationFrame(look);
          };
          requestAnimationFrame(look);
        }),
    );
    expect(firstFrame).toBe(0);
  });

  it("shows the back-to-top button only after scrolling more than 500 px, and it goes back up", async () => {
    const page = await newPage();
    await page.goto("/");
    const button = page.getByRole("button", { name: "Back to top" });
    expect(await button.count()).toBe(0);

    await scrollTo(page, 400);
    await page.waitForTimeout(150);
    expect(await button.count()).toBe(0);

    await scrollTo(page, 900);
    await button.waitFor({ state: "visible" });
    await button.click();
    await page.waitForFunction(() => window.scrollY === 0);
    await button.waitFor({ state: "detached" });
  });

  it("scrolls a control the keyboard reaches under the back-to-top button clear of it (375 px)", async () => {
    const page = await newPage({ width: 375, height: 700 });
    await gotoHydrated(page, "/");
    await scrollTo(page, 900);
    const button = page.getByRole("button", { name: "Back to top" });
    await button.waitFor({ state: "visible" });
    // A catalogue card's two full-width links: View Course Details, then Ask About This Course.
    const view = page.getByRole("link", { name: "View Course Details" }).nth(1);
    const ask = view.locator("xpath=following::a[1]");
    expect(await ask.textContent()).toContain("Ask About This Course");
    const overlap = () =>
      Promise.all([ask.boundingBox(), button.boundingBox()]).then(([a, b]) => a!.y + a!.height > b!.y && a!.y < b!.y + b!.height && a!.x + a!.width > b!.x && a!.x < b!.x + b!.width);
    // The second link on screen, right under the button; the first above it, so focusing it scrolls nothing.
    await page.evaluate(() => {
      const b = document.querySelector(".back-to-top")!.getBoundingClientRect();
      const a = [...document.querySelectorAll<HTMLElement>("a")].filter((l) => l.textContent?.includes("View Course Details"))[1].nextElementSibling!.getBoundingClientRect();
      window.scrollBy({ top: a.top + a.height / 2 - (b.top + b.height / 2), behavior: "instant" });
    });
    expect(await overlap()).toBe(true);
    await view.focus();
    await page.keyboard.press("Tab");
    expect(await ask.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await overlap()).toBe(false);
    const [a, b] = await Promise.all([ask.boundingBox(), button.boundingBox()]);
    expect(a!.y + a!.height).toBeLessThanOrEqual(b!.y);
    expect(a!.y).toBeGreaterThanOrEqual(0);
  });

  it("pages through student feedback three cards at a time", async () => {
    const total = await publicFeedbackCount();
    expect(total).toBeGreaterThanOrEqual(5);
    const page = await newPage();
    await page.goto("/");
    const section = page.locator("#feedback");
    const previous = section.getByRole("button", { name: "Previous" });
    const next = section.getByRole("button", { name: "Next" });
    const counter = section.getByTestId("feedback-count");

    await counter.waitFor();
    expect(await counter.textContent()).toBe(`Showing 1-3 of ${total}`);
    expect(await section.locator(".feedback-card").count()).toBe(3);
    expect(await previous.isDisabled()).toBe(true);
    expect(await next.isDisabled()).toBe(false);

    const firstCard = section.locator(".feedback-card").first();
    expect(await firstCard.locator(".stars").getAttribute("aria-label")).toMatch(/^Rated [0-5] out of 5$/);
    expect(await firstCard.locator(".stars-value").textContent()).toMatch(/^[0-5]\/5$/);
    // Each names its course by title (the demo's feedback is for frontend-react).
    expect(await section.locator(".feedback-group").allTextContents()).toContain("Frontend Development with React");

    let from = 1;
    while (!(await next.isDisabled())) {
      await next.click();
      from += 3;
      const to = Math.min(from + 2, total);
      expect(await counter.textContent()).toBe(`Showing ${from}-${to} of ${total}`);
      expect(await section.locator(".feedback-card").count()).toBe(to - from + 1);
    }
    expect(from + 2).toBeGreaterThanOrEqual(total);
    expect(await previous.isDisabled()).toBe(false);
    // Next disabled itself at the end: the focus is on Previous, not lost to the page.
    await expect.poll(() => previous.evaluate((el) => el === document.activeElement)).toBe(true);

    await previous.click();
    expect(await counter.textContent()).toBe(`Showing ${from - 3}-${from - 1} of ${total}`);
    expect(await next.isDisabled()).toBe(false);

    expect(await section.getByRole("link", { name: "Share Your Feedback" }).getAttribute("href")).toBe("/add-feedback");
  });
});
