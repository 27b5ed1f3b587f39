/**
 * Styles by area: every page loads the base sheet and only its own areas' sheets, and no page loses a style. For
 * each page (as visitor, student, instructor and admin) every class on the page that some sheet of ours defines
 * must be defined by a sheet the page actually loaded; and the landing page loads no area sheet it does not show.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { baseURL, gotoHydrated, useBrowser } from "./browser";
import { DEMO_LOGINS, signIn } from "./session";

const stylesDir = join(import.meta.dirname, "..", "..", "app", "styles");

/** Class names in the selectors (not the declarations) of a stylesheet's source. */
function selectorClasses(css: string): Set<string> {
  const classes = new Set<string>();
  const text = css.replace(/\/\*[\s\S]*?\*\//g, "");
  let prelude = "";
  let depth = 0;
  let inDeclarations = false;
  for (const ch of text) {
    if (ch === "{") {
      if (!prelude.trim().startsWith("@")) for (const m of prelude.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)) classes.add(m[1]!);
      depth++;
      inDeclarations = !prelude.trim().startsWith("@");
      prelude = "";
    } else if (ch === "}") {
      depth--;
      inDeclarations = false;
      prelude = "";
    } else if (ch === ";" && !inDeclarations) {
      prelude = "";
    } else if (!inDeclarations) {
      prelude += ch;
    }
  }
  return classes;
}

const defined = new Set<string>();
for (const file of readdirSync(stylesDir).filter((f) => f.endsWith(".css"))) {
  for (const c of selectorClasses(readFileSync(join(stylesDir, file), "utf8"))) defined.add(c);
}

/** What the page uses and what its loaded sheets define (read through the CSSOM, media rules included). */
async function coverage(page: Page) {
  return page.evaluate(() => {
    const used = new Set<string>();
    for (const el of Array.from(document.querySelectorAll("[class]"))) for (const c of Array.from(el.classList)) used.add(c);
    const loaded = new Set<string>();
    const walk = (rules: CSSRuleList) => {
      for (const rule of Array.from(rules)) {
        if ("selectorText" in rule) for (const m of String((rule as CSSStyleRule).selectorText).matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)) loaded.add(m[1]!);
        if ("cssRules" in rule && (rule as CSSGroupingRule).cssRules) walk((rule as CSSGroupingRule).cssRules);
      }
    };
    const sheets = Array.from(document.styleSheets);
    for (const sheet of sheets) walk(sheet.cssRules);
    return { used: [...used], loaded: [...loaded], hrefs: sheets.map((s) => s.href ?? "") };
  });
}

type Role = "visitor" | "student" | "instructor" | "admin";

const sources = readdirSync(stylesDir)
  .filter((f) => f.endsWith(".css") && f !== "fonts.css")
  .map((f) => ({ name: f.replace(/\.css$/, ""), text: readFileSync(join(stylesDir, f), "utf8") }));

/**
 * Every rule of every sheet of ours (parsed in the page, without applying it) whose selector matches an element on
 * the page (media conditions evaluated, pseudo-classes and -elements ignored) must come from a sheet the page
 * loaded: otherwise that element lost a style. Answers "sheet: selector" for each lost rule.
 */
async function lostRules(page: Page): Promise<string[]> {
  return page.evaluate((all) => {
    const loaded = new Set(Array.from(document.styleSheets).map((s) => (s.href ?? "").split("/").pop()!.replace(/-[A-Za-z0-9_-]{8}\.css$/, "")));
    const lost: string[] = [];
    const plain = (selector: string) => selector.replace(/::?[a-z-]+(\([^)]*\))?/gi, (m) => (/^:(not|is|where|has)\(/i.test(m) ? m : ""));
    const visit = (rules: CSSRuleList, sheet: string) => {
      for (const rule of Array.from(rules)) {
        if (rule instanceof CSSMediaRule) {
          if (window.matchMedia(rule.conditionText).matches) visit(rule.cssRules, sheet);
        } else if (rule instanceof CSSStyleRule) {
          // The selector list's own commas only: `:is(thead, tbody)` is one part, not "…:is(thead" and " tbody)".
          const parts: string[] = [];
          let depth = 0;
          let from = 0;
          for (let i = 0; i < rule.selectorText.length; i++) {
            const ch = rule.selectorText[i];
            if (ch === "(") depth++;
            else if (ch === ")") depth--;
            else if (ch === "," && depth === 0) {
              parts.push(rule.selectorText.slice(from, i));
              from = i + 1;
            }
          }
          parts.push(rule.selectorText.slice(from));
          for (const part of parts) {
            const selector = plain(part.trim()).trim();
            if (!selector || selector === "*") continue;
            let found = false;
            try {
              found = document.querySelector(selector) !== null;
            } catch {
              found = false;
            }
            if (found && !loaded.has(sheet)) lost.push(`${sheet}: ${part.trim()}`);
          }
        }
      }
    };
    for (const { name, text } of all) {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(text.replace(/@import[^;]+;/g, ""));
      visit(sheet.cssRules, name);
    }
    return [...new Set(lost)];
  }, sources);
}

/** What a page lost: classes and matching rules of our sheets that it did not load ("path: what"). */
async function lostStyles(page: Page, path: string): Promise<string[]> {
  await gotoHydrated(page, path);
  const { used, loaded } = await coverage(page);
  const have = new Set(loaded);
  const classes = used.filter((c) => defined.has(c) && !have.has(c)).map((c) => `${path}: class .${c}`);
  return [...classes, ...(await lostRules(page)).map((r) => `${path}: ${r}`)];
}

async function expectNoLostStyle(page: Page, path: string) {
  expect(await lostStyles(page, path)).toEqual([]);
}

describe("styles by area", () => {
  const newPage = useBrowser();
  let groupSlug = "";

  beforeAll(async () => {
    const groups = (await (await fetch(`${baseURL()}/api/groups`)).json()) as { slug: string }[];
    // The demo group with lectures (db/seed.ts).
    groupSlug = groups.find((g) => g.slug === "frontend-react")!.slug;
  });

  it("the landing page loads the base and landing sheets only", async () => {
    const page = await newPage();
    await gotoHydrated(page, "/");
    const { hrefs } = await coverage(page);
    const names = hrefs.map((h) => new URL(h).pathname.split("/").pop()!.replace(/-[A-Za-z0-9_-]{8}\.css$/, ""));
    expect(names.sort()).toEqual(["base", "landing"]);
  });

  const pages: Record<Role, (slug: string) => string[]> = {
    visitor: (slug) => ["/", "/courses", `/content/${slug}`, "/contact", "/add-feedback", "/auth/login", "/auth/register", "/auth/forget-password"],
    student: (slug) => ["/", "/profile", "/my-courses", "/add-feedback", "/courses", `/course/${slug}/lecture/react-components`, `/course/${slug}/lecture/html-foundations/Add-Task/accessible-profile-card`, `/course/${slug}/lecture/react-components/Add-Task/slugify-titles`, `/course/${slug}/lecture/modern-css-layouts/quiz/css-layouts-check`],
    instructor: (slug) => [
      "/instructor",
      "/instructor/email-request",
      "/instructor/setting",
      `/instructor/group/${slug}/students`,
      `/instructor/group/${slug}/messages`,
      `/instructor/group/${slug}/lectures`,
      `/instructor/group/${slug}/lectures/update/react-components`,
      `/instructor/group/${slug}/lectures/react-components/attendance`,
      `/instructor/group/${slug}/tasks`,
      `/instructor/group/${slug}/lectures/react-components/newTask`,
      `/instructor/group/${slug}/lecture/html-foundations/tasks/updateTask/accessible-profile-card`,
      `/instructor/group/${slug}/lecture/html-foundations/tasks/accessible-profile-card/submissions`,
      `/instructor/group/${slug}/lecture/react-components/tasks/updateTask/slugify-titles`,
      `/instructor/group/${slug}/lecture/react-components/tasks/slugify-titles/submissions`,
      `/instructor/group/${slug}/quizzes`,
      `/instructor/group/${slug}/lectures/modern-css-layouts/newQuiz`,
      `/instructor/group/${slug}/lecture/modern-css-layouts/quiz/updateQuiz/css-layouts-check`,
      `/instructor/group/${slug}/progress`,
      `/instructor/${slug}/student/nour-ali`,
    ],
    admin: (slug) => [
      "/dashboard",
      "/dashboard/admin/newGroup",
      "/dashboard/admin/allGroups",
      "/dashboard/admin/allStudent",
      "/dashboard/admin/email-request",
      "/dashboard/admin/get-all-feedback-by-admin",
      "/dashboard/admin/get-all-message-by-admin",
      "/dashboard/admin/profile-admin",
      `/dashboard/admin/group/${slug}`,
      `/dashboard/admin/group/${slug}/students`,
      `/dashboard/admin/group/${slug}/update`,
      `/dashboard/admin/group/${slug}/lectures`,
      `/dashboard/admin/group/${slug}/lectures/react-components/attendance`,
      `/dashboard/admin/group/${slug}/tasks`,
      `/dashboard/admin/group/${slug}/lecture/html-foundations/tasks/accessible-profile-card/submissions`,
      `/dashboard/admin/group/${slug}/quiz`,
      `/dashboard/admin/group/${slug}/progress`,
      "/dashboard/admin/allStudent/student/nour-ali",
      `/dashboard/admin/group/${slug}/lecture/modern-css-layouts/quiz/updateQuiz/css-layouts-check`,
    ],
  };

  for (const role of ["visitor", "student", "instructor", "admin"] as const) {
    // Each role's list is a dozen pages at two widths: allow for a busy two-core machine.
    it(`no page loses a style (${role})`, { timeout: 120_000 }, async () => {
      const page = await newPage();
      if (role !== "visitor") {
        const login = role === "student" ? DEMO_LOGINS.student : DEMO_LOGINS[role];
        await signIn(page.context(), login.email, login.password);
      }
      const lost: string[] = [];
      // Desktop and phone: some rules only apply below a width (one-column layouts, table cards).
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 800 });
        for (const path of pages[role](groupSlug)) {
          lost.push(...(await lostStyles(page, path)).map((l) => `${width}px ${l}`));
          // No page scrolls sideways, on a phone either.
          const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          if (wide > 0) lost.push(`${width}px ${path}: scrolls sideways by ${wide}px`);
        }
      }
      expect(lost, "styles a page lost: a class or rule of a sheet the page did not load").toEqual([]);
    });
  }

  it("a member's course home loads the chat and course sheets", async () => {
    const page = await newPage();
    await signIn(page.context(), DEMO_LOGINS.student.email, DEMO_LOGINS.student.password);
    await gotoHydrated(page, "/my-courses");
    const href = await page.locator(".card-grid a[href^='/course/']").first().getAttribute("href");
    expect(href).toBeTruthy();
    await expectNoLostStyle(page, href!);
  });
});
