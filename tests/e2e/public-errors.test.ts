import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, useBrowser } from "./browser";
import { allowStatus } from "./accounts-helpers";

/**
 * Chromium reports a document answered with 404 as a console error ("Failed to load resource"). That one
 * is the point of these tests; every other console error still fails them.
 */
function allowNotFoundDocument(page: Page): string[] {
  const problems: string[] = [];
  page.removeAllListeners("console");
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    if (/status of 404/.test(msg.text()) && msg.location().url === page.url()) return;
    problems.push(msg.text());
  });
  return problems;
}

describe("unknown pages and the dev mailbox", () => {
  const newPage = useBrowser();

  it("answers an unknown path with a 404 page inside the public layout", async () => {
    const page = await newPage();
    const problems = allowNotFoundDocument(page);
    const res = await page.goto("/no/such/page");
    expect(res?.status()).toBe(404);
    expect(await page.locator("h1").textContent()).toBe("Page not found");
    expect(await page.locator(".error-code").textContent()).toBe("404");
    expect(await page.locator("header.site-header").count()).toBe(1);
    expect(await page.locator("footer.site-footer").count()).toBe(1);
    expect(await page.title()).toBe("Page not found | Cohort");
    await page.getByRole("link", { name: "Back to the home page" }).click();
    await page.waitForURL(`${baseURL()}/`);
    expect(problems).toEqual([]);
  });

  it("a refused form shows the error screen without hydrating it at the posted address: no React error, links work", async () => {
    const page = await newPage({ width: 375, height: 800 });
    const problems: string[] = [];
    page.removeAllListeners("console");
    page.on("console", (msg) => {
      if (msg.type() !== "error") return;
      // The refused document's own status (405, 413) is what is being shown.
      if (/status of 4(05|13)/.test(msg.text()) && msg.location().url === page.url()) return;
      problems.push(msg.text());
    });
    page.on("pageerror", (err) => problems.push(err.message));
    const post = async (path: string, size: number) => {
      await page.goto(path);
      const [res] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === "POST" && r.request().isNavigationRequest()),
        // A plain form submission, as a browser without the app's scripts sends it (a string: the tests' types are the Worker's).
        page.evaluate(`(() => {
          const form = document.createElement("form");
          form.method = "post";
          form.action = ${JSON.stringify(path)};
          const field = document.createElement("input");
          field.name = "message";
          field.value = "x".repeat(${size});
          form.append(field);
          document.body.append(form);
          form.submit();
        })()`),
      ]);
      await page.waitForLoadState("load");
      return res;
    };
    // A page that takes no form, then a form above the 64 KB limit.
    expect((await post("/courses", 10)).status()).toBe(405);
    expect(await page.locator("h1").textContent()).toBe("That form could not be read");
    expect(await page.title()).toBe("That form could not be read | Cohort");
    // Sent without scripts, the header takes its no-script form at 375 px: no menu button that could not open, the
    // site's links in the bar.
    expect(await page.locator(".menu-toggle").isVisible()).toBe(false);
    expect(await page.locator("#site-menu").getByRole("link", { name: "Courses" }).isVisible()).toBe(true);
    expect((await post("/contact", 70_000)).status()).toBe(413);
    expect(await page.locator("h1").textContent()).toBe("That was too much to send");
    await page.waitForTimeout(500);
    await page.getByRole("link", { name: "Back to the home page" }).click();
    await page.waitForURL(`${baseURL()}/`);
    expect(problems).toEqual([]);
  });

  it("answers 404 for an unknown course, a draft course and an unknown part", async () => {
    for (const path of ["/content/no-such-course", "/content/devops-foundations", "/content/frontend-react/course/no-such-part"]) {
      const res = await fetch(`${baseURL()}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.text()).toContain("Page not found");
    }
    const page = await newPage();
    const problems = allowNotFoundDocument(page);
    const res = await page.goto("/content/no-such-course");
    expect(res?.status()).toBe(404);
    expect(await page.locator("h1").textContent()).toBe("Page not found");
    expect(problems).toEqual([]);
  });

  it("shows the development mailbox with its recipient filter", async () => {
    const page = await newPage();
    const res = await page.goto("/dev/mailbox");
    expect(res?.status()).toBe(200);
    expect(await page.locator("h1").textContent()).toBe("Development mailbox");
    const count = Number((await page.locator(".mailbox-count").textContent())?.replace(/\D+/g, ""));
    if (count === 0) {
      expect(await page.locator(".empty-title").textContent()).toBe("No e-mails yet.");
    } else {
      expect(await page.locator(".mail-card").count()).toBe(count);
    }

    await page.getByRole("textbox", { name: "Recipient" }).fill("nobody-here@example.com");
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL("**/dev/mailbox?to=nobody-here%40example.com");
    await page.locator(".empty-title").waitFor();
    expect(await page.locator(".mailbox-count").textContent()).toBe("E-mails: 0");
    expect(await page.getByRole("textbox", { name: "Recipient" }).inputValue()).toBe("nobody-here@example.com");
  });
});

describe("a page that cannot hydrate", () => {
  const newPage = useBrowser();

  it("whose dictionary is gone (a page from before a new version) reloads once, then says so in its language with a way to reload", async () => {
    const words = {
      en: { said: "This page could not finish loading, so its buttons may not work. Check your connection, then reload.", reload: "Reload the page" },
      ar: { said: "تعذّر إكمال تحميل هذه الصفحة، لذا قد لا تعمل أزرارها. تحقّق من اتصالك ثم أعد التحميل.", reload: "أعد تحميل الصفحة" },
    };
    for (const lang of ["en", "ar"] as const) {
      const page = await newPage({ width: 375, height: 800 });
      // The missing dictionary is the point: the browser reports its 404s; any other problem is kept.
      const problems = allowStatus(page, 404, "/i18n/");
      await page.context().addCookies([{ name: "lang", value: lang, url: baseURL() }]);
      await page.route("**/i18n/*.json", (route) => route.fulfill({ status: 404, contentType: "text/plain", body: "gone" }));
      let documents = 0;
      page.on("request", (r) => {
        if (r.resourceType() === "document") documents++;
      });
      await page.goto(`${baseURL()}/courses`);
      const notice = page.locator("#boot-failed");
      await notice.waitFor({ state: "visible" });
      // One reload, not a loop.
      expect(documents).toBe(2);
      expect(await notice.locator("p").textContent()).toBe(words[lang].said);
      expect(await page.locator("html").getAttribute("data-hydrated")).toBeNull();
      await page.waitForTimeout(500);
      expect(documents).toBe(2);
      // Once the dictionary answers again, the notice's button brings a working page.
      await page.unroute("**/i18n/*.json");
      await notice.getByRole("button", { name: words[lang].reload }).click();
      await page.waitForSelector("html[data-hydrated]", { state: "attached" });
      expect(await notice.isVisible()).toBe(false);
      expect(problems).toEqual([]);
    }
  });
});
