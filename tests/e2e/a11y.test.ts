/**
 * Accessibility bar (issue "The teaching screens, right in both languages"): axe-core finds no violation, of any
 * impact, on any screen of the app in English and in Arabic (right to left) at 1280 px, and on the main student
 * screens at 375 px. Rules: WCAG 2.0/2.1 A and AA plus axe's best practices. Every screen is reached as its
 * audience reaches it (visitor, student, instructor, admin; the demo data of db/seed.ts), including states that only
 * exist after a click: the open menu, the notifications panel, a quiz being taken, the hand-in dialog, the result.
 * A failure lists, for each violation, the screen, the rule, its impact, what axe says and the CSS selectors of the
 * elements, so it says what to fix.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, gotoHydrated, useBrowser } from "./browser";
import { memberOf } from "./groups-helpers";
import { DEMO_LOGINS, signIn } from "./session";

const axeSource = readFileSync(join(import.meta.dirname, "..", "..", "node_modules", "axe-core", "axe.min.js"), "utf8");
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

const G = "frontend-react";
const C = `/course/${G}`;
const QUIZ = `${C}/lecture/modern-css-layouts/quiz/css-layouts-check`;

interface Found {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string; summary: string }[];
}

/**
 * Runs axe on the page as it is now (injected through the DevTools protocol, so the page's CSP does not apply) and
 * answers one line per violation and element: "screen: rule [impact] help -> selector (why)".
 */
async function audit(page: Page, screen: string): Promise<string[]> {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  const found: Found[] = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: typeof import("axe-core") }).axe;
    const result = await axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.map(String).join(" >> "), summary: String(n.failureSummary ?? "") })),
    }));
  }, TAGS);
  const lines: string[] = [];
  for (const v of found) {
    for (const n of v.nodes) {
      const why = n.summary
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => l && !/^Fix (any|all) of the following:?$/.test(l))
        .join("; ");
      lines.push(`${screen}: ${v.id} [${v.impact}] ${v.help} -> ${n.target}${why ? ` (${why.slice(0, 300)})` : ""}`);
    }
  }
  return lines;
}

/** Opens a path (hydrated) and audits it. */
async function visit(page: Page, path: string, label = path): Promise<string[]> {
  await gotoHydrated(page, path);
  return audit(page, label);
}

async function newRolePage(newPage: ReturnType<typeof useBrowser>, lang: "en" | "ar", login?: { email: string; password: string }, width = 1280): Promise<Page> {
  const page = await newPage({ width, height: 800 });
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.context().addCookies([{ name: "lang", value: lang, url: baseURL() }]);
  if (login) await signIn(page.context(), login.email, login.password);
  return page;
}

function report(found: string[]): void {
  if (found.length > 0) console.log(`axe found ${found.length} problem(s):\n${found.join("\n")}`);
  expect(found, `axe violations (screen: rule [impact] help -> selector):\n${found.join("\n")}`).toEqual([]);
}

/** Opens the header's menu at a phone width and audits it open. */
async function withMenuOpen(page: Page, label: string): Promise<string[]> {
  const toggle = page.locator(".menu-toggle");
  if (!(await toggle.isVisible())) return [];
  await toggle.click();
  await page.locator('.menu-toggle[aria-expanded="true"]').waitFor();
  const found = await audit(page, `${label} (menu open)`);
  await toggle.click();
  return found;
}

/** Opens the notifications panel and audits it once its list has loaded. */
async function withBellOpen(page: Page, label: string): Promise<string[]> {
  await page.locator(".bell-button").click();
  await page.locator(".bell-panel:not([hidden]) :is(.bell-list, .bell-empty)").first().waitFor();
  const found = await audit(page, `${label} (notifications open)`);
  await page.keyboard.press("Escape");
  return found;
}

/** Each test visits 20 to 30 screens; axe takes a second or two on each. */
const TIMEOUT = 480_000;

describe("axe finds no violation on any screen", () => {
  const newPage = useBrowser();

  for (const lang of ["en", "ar"] as const) {
    it(`public screens (${lang})`, { timeout: TIMEOUT }, async () => {
      const page = await newRolePage(newPage, lang);
      const found: string[] = [];
      found.push(...(await visit(page, "/")));
      // Scrolled down: the back-to-top button shows.
      await page.evaluate(() => window.scrollTo(0, 2000));
      await page.locator(".back-to-top").first().waitFor({ state: "visible" }).catch(() => undefined);
      found.push(...(await audit(page, "/ (scrolled)")));
      found.push(...(await visit(page, "/courses")));
      found.push(...(await visit(page, `/content/${G}`)));
      const part = await page.locator(`a[href^="/content/${G}/course/"]`).first().getAttribute("href");
      expect(part, "a link to a part of the course's content").toBeTruthy();
      found.push(...(await visit(page, part!, "/content/{slug}/course/{contentId}")));
      found.push(...(await visit(page, "/certificates/SARA-MAHM-WEBD-RE26", "/certificates/{code}")));
      found.push(...(await visit(page, "/add-feedback")));
      found.push(...(await visit(page, "/contact")));
      found.push(...(await visit(page, "/auth/login")));
      found.push(...(await visit(page, "/auth/register")));
      found.push(...(await visit(page, "/auth/verif-email?email=someone%40example.com", "/auth/verif-email")));
      found.push(...(await visit(page, "/auth/forget-password")));
      found.push(...(await visit(page, "/auth/forget-password?email=someone%40example.com", "/auth/forget-password?email")));

      // A phone: the landing page, the catalogue and the menu open.
      await page.setViewportSize({ width: 375, height: 740 });
      for (const path of ["/", "/courses"]) found.push(...(await visit(page, path, `375px ${path}`)));
      found.push(...(await withMenuOpen(page, "375px /courses")));

      // The error page (a 404 document is the one console error expected here).
      const lost = await newRolePage(newPage, lang);
      const problems: string[] = [];
      lost.removeAllListeners("console");
      lost.on("console", (msg) => {
        if (msg.type() === "error" && !(/status of 404/.test(msg.text()) && msg.location().url === lost.url())) problems.push(msg.text());
      });
      const res = await lost.goto("/no/such/page");
      expect(res?.status()).toBe(404);
      await lost.waitForSelector("html[data-hydrated]", { state: "attached" });
      found.push(...(await audit(lost, "/no/such/page (404)")));
      expect(problems).toEqual([]);
      report(found);
    });

    it(`student screens (${lang})`, { timeout: TIMEOUT }, async () => {
      const page = await newRolePage(newPage, lang, DEMO_LOGINS.student);
      const found: string[] = [];
      const student = [
        "/my-courses",
        C,
        `${C}/lecture/html-foundations`,
        `${C}/lecture/react-components`,
        `${C}/lecture/html-foundations/Add-Task/accessible-profile-card`,
        `${C}/lecture/modern-css-layouts/Add-Task/responsive-landing-page`,
        `${C}/lecture/react-components/Add-Task/slugify-titles`,
        QUIZ,
        "/profile",
      ];
      for (const path of student) found.push(...(await visit(page, path)));
      // The notifications panel open (over the course home), and the public catalogue as a signed-in reader sees it.
      await gotoHydrated(page, C);
      found.push(...(await withBellOpen(page, C)));
      found.push(...(await visit(page, "/courses", "/courses (signed in)")));

      // The main student screens on a phone: one of each kind.
      await page.setViewportSize({ width: 375, height: 740 });
      for (const path of ["/my-courses", C, student[3]!, student[4]!, student[6]!, QUIZ, "/profile"]) found.push(...(await visit(page, path, `375px ${path}`)));
      found.push(...(await withMenuOpen(page, "375px /profile")));

      // Taking the demo quiz (every question type, the code question included) as a fresh member: before, while
      // (one question at a time, then all of them, then the hand-in dialog) and after (result, review).
      const stamp = `${Date.now().toString(36)}${lang}`;
      const taker = await memberOf(G, "a11y-quiz", `Axe Taker ${stamp}`);
      const quiz = await newRolePage(newPage, lang, taker);
      found.push(...(await visit(quiz, QUIZ, `${QUIZ} (before an attempt)`)));
      await quiz.locator('button[name="intent"][value="start"]').click();
      await quiz.waitForURL(`**${QUIZ}/questions`);
      await quiz.waitForSelector("html[data-hydrated]", { state: "attached" });
      await quiz.locator(".quiz-question").first().waitFor();
      await quiz.locator('.quiz-save[data-status]').waitFor();
      found.push(...(await audit(quiz, `${QUIZ}/questions (one question)`)));
      await quiz.locator(".quiz-nav > button").click();
      await quiz.locator(".quiz-question").nth(4).waitFor();
      found.push(...(await audit(quiz, `${QUIZ}/questions (all questions)`)));
      await quiz.locator(".quiz-bar .btn-primary").click();
      await quiz.locator("dialog.confirm-dialog[open]").waitFor();
      found.push(...(await audit(quiz, `${QUIZ}/questions (hand-in dialog)`)));
      await quiz.locator('dialog.confirm-dialog[open] button[type="submit"]').click();
      await quiz.waitForURL(`**${QUIZ}/result`);
      await quiz.waitForSelector("html[data-hydrated]", { state: "attached" });
      found.push(...(await audit(quiz, `${QUIZ}/result`)));
      found.push(...(await visit(quiz, `${QUIZ}/answers`)));
      found.push(...(await visit(quiz, QUIZ, `${QUIZ} (after an attempt)`)));
      await quiz.setViewportSize({ width: 375, height: 740 });
      found.push(...(await visit(quiz, `${QUIZ}/result`, `375px ${QUIZ}/result`)));
      report(found);
    });

    it(`instructor screens (${lang})`, { timeout: TIMEOUT }, async () => {
      const page = await newRolePage(newPage, lang, DEMO_LOGINS.instructor);
      const I = `/instructor/group/${G}`;
      const found: string[] = [];
      for (const path of [
        "/instructor",
        "/instructor/email-request",
        "/instructor/setting",
        `${I}/students`,
        `${I}/lectures`,
        `${I}/lectures/update/react-components`,
        `${I}/lectures/react-components/newTask`,
        `${I}/lectures/modern-css-layouts/newQuiz`,
        `${I}/tasks`,
        `${I}/lecture/html-foundations/tasks/updateTask/accessible-profile-card`,
        `${I}/lecture/react-components/tasks/updateTask/slugify-titles`,
        `${I}/lecture/html-foundations/tasks/accessible-profile-card/submissions`,
        `${I}/lecture/react-components/tasks/slugify-titles/submissions`,
        `${I}/quizzes`,
        `${I}/lecture/modern-css-layouts/quiz/updateQuiz/css-layouts-check`,
        `${I}/progress`,
        `/instructor/${G}/student/nour-ali`,
        `${I}/messages`,
        `${I}/lectures/html-foundations/attendance`,
        `${I}/cohort`,
        `${I}/lecture/react-components/tasks/updateTask/code-review-checklist`,
      ]) {
        found.push(...(await visit(page, path)));
      }
      // The demo lecture whose attendance is open: the projector with its code and QR.
      await gotoHydrated(page, `${I}/lectures/react-components/attendance`);
      await page.locator(".projector-qr svg").waitFor();
      found.push(...(await audit(page, `${I}/lectures/react-components/attendance (projector)`)));
      // The grader with another student's hand-in open, and the notifications panel (two unread requests).
      await gotoHydrated(page, `${I}/lecture/html-foundations/tasks/accessible-profile-card/submissions`);
      const second = page.locator(".grader-student").nth(1);
      if ((await second.count()) > 0) {
        await second.click();
        found.push(...(await audit(page, `${I}/lecture/html-foundations/tasks/accessible-profile-card/submissions (second hand-in)`)));
      }
      found.push(...(await withBellOpen(page, `${I}/.../submissions`)));
      report(found);
    });

    it(`admin screens (${lang})`, { timeout: TIMEOUT }, async () => {
      const page = await newRolePage(newPage, lang, DEMO_LOGINS.admin);
      const A = `/dashboard/admin/group/${G}`;
      const found: string[] = [];
      for (const path of [
        "/dashboard",
        "/dashboard/admin/newGroup",
        "/dashboard/admin/allGroups",
        "/dashboard/admin/allStudent",
        "/dashboard/admin/allStudent/student/nour-ali",
        "/dashboard/admin/email-request",
        "/dashboard/admin/get-all-feedback-by-admin",
        "/dashboard/admin/get-all-message-by-admin",
        "/dashboard/admin/profile-admin",
        A,
        `${A}/students`,
        `${A}/update`,
        `${A}/lectures`,
        `${A}/lectures/react-components/attendance`,
        `${A}/tasks`,
        `${A}/lecture/html-foundations/tasks/accessible-profile-card/submissions`,
        `${A}/quiz`,
        `${A}/lecture/modern-css-layouts/quiz/updateQuiz/css-layouts-check`,
        `${A}/progress`,
        `${A}/cohort`,
      ]) {
        found.push(...(await visit(page, path)));
      }
      report(found);
    });
  }
});
