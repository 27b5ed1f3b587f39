import { describe, expect, it } from "vitest";
import { baseURL, useBrowser } from "./browser";

interface ApiGroup {
  title: string;
  slug: string;
  start_date: string | null;
  instructorName: string;
}

async function publishedGroups(): Promise<ApiGroup[]> {
  const res = await fetch(`${baseURL()}/api/groups`);
  return (await res.json()) as ApiGroup[];
}

describe("course catalogue", () => {
  const newPage = useBrowser();

  it("lists every published group with its date, instructor, details link and chat link; drafts stay hidden", async () => {
    const groups = await publishedGroups();
    expect(groups.map((g) => g.slug)).toEqual(expect.arrayContaining(["frontend-react", "backend-node", "mobile-flutter"]));

    const page = await newPage();
    const res = await page.goto("/courses");
    expect(res?.status()).toBe(200);
    expect(await page.title()).toBe("Available Courses | Cohort");
    expect(await page.locator("h1").textContent()).toBe("Available Courses");

    const cards = page.locator("#courses .course-card");
    await cards.first().waitFor();
    expect(await cards.count()).toBe(groups.length);
    expect(await page.locator("#courses").textContent()).not.toContain("DevOps Foundations");

    for (const group of groups) {
      const card = cards.filter({ has: page.getByRole("heading", { name: group.title, exact: true }) });
      expect(await card.count()).toBe(1);
      expect(await card.getByTestId("course-start").textContent()).toBe(group.start_date ? group.start_date.slice(0, 10) : "Coming Soon");
      expect(await card.locator(".course-instructor").textContent()).toBe(`Instructor: ${group.instructorName}`);
      expect(await card.getByRole("link", { name: "View Course Details" }).getAttribute("href")).toBe(`/content/${group.slug}`);
      // Its name says which course (a screen reader's list of links read every card's alike); its text is the spec's.
      expect(await card.getByRole("link", { name: "View Course Details" }).evaluate((a) => a.textContent)).toContain(group.title);
      expect(await card.getByRole("link", { name: "View Course Details" }).evaluate((a) => a.firstChild?.textContent)).toBe("View Course Details");

      const ask = card.getByRole("link", { name: /Ask About This Course/ });
      expect(await ask.getAttribute("target")).toBe("_blank");
      expect((await ask.getAttribute("rel"))?.split(" ")).toEqual(expect.arrayContaining(["noopener", "noreferrer"]));
      const href = new URL((await ask.getAttribute("href"))!);
      expect(href.origin + href.pathname).toBe("https://wa.me/201001234567");
      expect(href.searchParams.get("text")).toBe(`مرحبا، أريد أن أعرف كيف أشترك في كورس ${group.title}`);
    }
  });

  it("keeps the Arabic chat message on the English landing page too", async () => {
    const page = await newPage();
    await page.goto("/");
    const ask = page.locator("#courses .course-card").first().getByRole("link", { name: /Ask About This Course/ });
    await ask.waitFor();
    const text = new URL((await ask.getAttribute("href"))!).searchParams.get("text");
    expect(text).toMatch(/^مرحبا، أريد أن أعرف كيف أشترك في كورس .+/);
  });

  it("opens a course's details, its outline and a part rendered from Markdown, with part navigation", async () => {
    const page = await newPage();
    await page.goto("/courses");
    const card = page.locator(".course-card").filter({ hasText: "Frontend Development with React" });
    await card.getByRole("link", { name: "View Course Details" }).click();
    await page.waitForURL("**/content/frontend-react");
    await page.waitForFunction(() => document.querySelector("h1")?.textContent === "Frontend Development with React");

    expect(await page.title()).toBe("Frontend Development with React | Cohort");
    expect(await page.locator(".page-lead").textContent()).toContain("semantic HTML");
    expect(await page.locator(".facts").textContent()).toContain("Ahmed Hassan");
    expect(await page.locator(".facts").textContent()).toContain("30 seats");
    const outline = page.locator(".outline .outline-title");
    expect(await outline.count()).toBe(5);
    expect((await outline.nth(1).textContent())?.endsWith("Modern CSS")).toBe(true);
    const ask = page.getByRole("link", { name: /Ask About This Course/ });
    expect(new URL((await ask.getAttribute("href"))!).searchParams.get("text")).toContain("Frontend Development with React");

    await page.locator(".outline-link").nth(1).click();
    await page.waitForURL(/\/content\/frontend-react\/course\/[^/]+$/);
    await page.waitForFunction(() => document.querySelector("h1")?.textContent === "Modern CSS");
    expect(await page.locator(".eyebrow").textContent()).toBe("Part 2 of 5");
    // The fenced block of the "Modern CSS" item, rendered to HTML on the server.
    expect(await page.locator(".prose pre code").textContent()).toContain(".card { display: grid; gap: 1rem; padding-inline: 1.5rem; }");
    // Fenced code is highlighted on the server (highlight.js classes) and reads left to right.
    expect(await page.locator(".prose pre code").getAttribute("class")).toBe("hljs language-css");
    expect(await page.locator(".prose pre code .hljs-attribute").first().textContent()).toBe("display");

    await page.getByRole("link", { name: /Next part/ }).click();
    await page.waitForFunction(() => document.querySelector("h1")?.textContent === "JavaScript and TypeScript");
    expect(await page.locator(".eyebrow").textContent()).toBe("Part 3 of 5");
    await page.getByRole("link", { name: /Previous part/ }).click();
    await page.waitForFunction(() => document.querySelector("h1")?.textContent === "Modern CSS");
  });

  it("renders the Markdown on the server (the HTML arrives in the document)", async () => {
    const page = await newPage();
    await page.goto("/content/frontend-react");
    const href = await page.locator(".outline-link").nth(1).getAttribute("href");
    const html = await (await fetch(`${baseURL()}${href}`)).text();
    expect(html).toContain('<pre tabindex="0"><code class="hljs language-css" dir="ltr"><span class="hljs-selector-class">.card</span> { <span class="hljs-attribute">display</span>: grid;');
  });
});
