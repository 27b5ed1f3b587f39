/**
 * What users tripped on in the screens that exist: a course page that did not follow a live approval, a footer
 * that offered Log In to signed-in people and the API reference to everyone, pale focus rings, notifications in
 * English on Arabic pages, a login that said "Please fill out all fields." three times, staff sent to student pages.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { allowStatus, createVerifiedUser } from "./accounts-helpers";
import { baseURL, gotoHydrated, useBrowser } from "./browser";
import { accessToken, ADMIN, api, INSTRUCTOR, memberOf, STUDENT } from "./groups-helpers";
import { signIn } from "./session";

/** Relative luminance and contrast ratio (WCAG 2.x) of two CSS rgb() colours. */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

async function requestToJoin(student: { email: string; password: string }, slug: string): Promise<string> {
  const asked = await api<{ request: { _id: string } }>(await accessToken(student), "POST", "/api/users/joinGroupRequest", { groupSlug: slug });
  expect(asked.status).toBe(201);
  return asked.body.request._id;
}

const footerLinks = (page: Page) => page.locator("footer.site-footer nav").getByRole("link").allTextContents();

describe("polish of the existing screens", () => {
  const newPage = useBrowser();

  it("an open course page follows a live approval: the join spot and the header change without a reload", async () => {
    const student = await createVerifiedUser("live-page", `Live Page ${Date.now().toString(36)}`);
    const requestId = await requestToJoin(student, "frontend-react");
    const page = await newPage();
    await signIn(page.context(), student.email, student.password);
    await gotoHydrated(page, "/content/frontend-react");
    await page.getByRole("button", { name: "Request pending" }).waitFor();
    const nav = page.getByRole("navigation", { name: "Main" });
    expect(await nav.getByRole("link", { name: "My Courses" }).count()).toBe(0);
    // The decision must be sent once the page listens (the bell's live connection is open).
    await page.locator('.bell[data-live="open"]').waitFor();

    const decided = await api(await accessToken(INSTRUCTOR), "PUT", `/api/membership-requests/${requestId}`, { decision: "approved" });
    expect(decided.status).toBe(200);

    await nav.getByRole("link", { name: "My Courses" }).waitFor({ timeout: 10_000 });
    await page.getByRole("button", { name: "Request pending" }).waitFor({ state: "detached" });
    // The join spot says it, for a screen reader too; the link no longer repeats "You're a member".
    await expect.poll(() => page.locator('[data-slot="join"] [role="status"]').textContent()).toBe("You're a member of this group.");
    expect(await page.locator('[data-slot="join"] a').textContent()).toBe("Open the course");

    // Followed from the bell's panel, the notification's page has the keyboard's focus on its content.
    await gotoHydrated(page, "/my-courses");
    await page.locator('.bell[data-live="open"]').waitFor();
    await page.locator(".bell button").first().click();
    const note = page.locator(".bell a", { hasText: "Frontend Development with React" }).first();
    await note.focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/course\/frontend-react$/);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("main");
  });

  it("shows the pending request on My Courses", async () => {
    const student = await createVerifiedUser("pending-mc", `Pending Mc ${Date.now().toString(36)}`);
    await requestToJoin(student, "frontend-react");
    const page = await newPage();
    await signIn(page.context(), student.email, student.password);
    await gotoHydrated(page, "/my-courses");
    const pending = page.locator(".my-request", { hasText: "Frontend Development with React" });
    await pending.waitFor();
    expect(await pending.textContent()).toContain("Pending");
  });

  it("a waiting request is taken back from the course page, where the request button then has the focus, and from My Courses", async () => {
    const student = await createVerifiedUser("withdraw", `Withdraw ${Date.now().toString(36)}`);
    await requestToJoin(student, "frontend-react");
    const page = await newPage();
    await signIn(page.context(), student.email, student.password);
    await gotoHydrated(page, "/content/frontend-react");
    await page.getByRole("button", { name: "Request pending" }).waitFor();
    await page.getByRole("button", { name: "Withdraw request" }).click();
    const ask = page.getByRole("button", { name: "Request to join" });
    await ask.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim() ?? "")).toBe("Request to join");
    expect(await page.locator('.enrol-actions [role="status"]').textContent()).toBe("Your request was withdrawn. You can ask again at any time.");
    // Nothing is waiting any more: the staff's list does not have it.
    const waiting = await api<{ user: { email: string } }[]>(await accessToken(INSTRUCTOR), "GET", "/api/membership-requests?status=pending&groupId=frontend-react&pageSize=100");
    expect(waiting.body.map((r) => r.user.email)).not.toContain(student.email);

    // Asked again, and taken back from My Courses this time.
    await requestToJoin(student, "frontend-react");
    await gotoHydrated(page, "/my-courses");
    const row = page.locator(".my-request", { hasText: "Frontend Development with React" });
    await row.getByRole("button", { name: "Withdraw request Frontend Development with React" }).click();
    await row.waitFor({ state: "detached" });
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe("H1");
    await expect.poll(() => page.locator('.my-courses > [role="status"]').textContent()).toBe("Your request to join Frontend Development with React was withdrawn.");
  });

  it("closing the join form (Cancel, or Escape in its message) puts the keyboard back on Request to join, in Arabic", async () => {
    const student = await createVerifiedUser("join-cancel", `Join Cancel ${Date.now().toString(36)}`);
    const page = await newPage();
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(page.context(), student.email, student.password);
    await gotoHydrated(page, "/content/frontend-react");
    const ask = page.getByRole("button", { name: "اطلب الانضمام" });
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? document.activeElement?.tagName);
    await ask.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe("TEXTAREA");
    await page.keyboard.type("مرحبًا");
    await page.locator(".join-form").getByRole("button", { name: "إلغاء" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(focused).toBe("اطلب الانضمام");
    // Opened again, the note is still there; Escape in it closes the form the same way, and nothing was sent.
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator(".join-form textarea").inputValue()).toBe("مرحبًا");
    await page.keyboard.press("Escape");
    await page.locator(".join-form").waitFor({ state: "detached" });
    await expect.poll(focused).toBe("اطلب الانضمام");
    const waiting = await api<{ user: { email: string } }[]>(await accessToken(INSTRUCTOR), "GET", "/api/membership-requests?status=pending&groupId=frontend-react&pageSize=100");
    expect(waiting.body.map((r) => r.user.email)).not.toContain(student.email);
  });

  it("the footer shows what fits the viewer", async () => {
    const visitor = await newPage();
    await gotoHydrated(visitor, "/");
    expect(await footerLinks(visitor)).toEqual(["Home", "Courses", "Contact us", "Check a certificate", "Log In"]);
    await visitor.locator("footer.site-footer nav").getByRole("link", { name: "Check a certificate" }).click();
    await visitor.waitForURL("**/certificates");
    await visitor.getByRole("heading", { name: "Check a certificate", level: 1 }).waitFor();

    const student = await newPage();
    await signIn(student.context(), STUDENT.email, STUDENT.password);
    await gotoHydrated(student, "/");
    const forStudent = await footerLinks(student);
    expect(forStudent).not.toContain("Log In");
    expect(forStudent).not.toContain("API reference");
    expect(forStudent).toContain("Profile");

    const admin = await newPage();
    await signIn(admin.context(), ADMIN.email, ADMIN.password);
    await gotoHydrated(admin, "/courses");
    const forAdmin = await footerLinks(admin);
    expect(forAdmin).toContain("API reference");
    expect(forAdmin).not.toContain("Log In");
  });

  it("every focus ring has at least 3:1 contrast: the language button, a link in the footer, a button", async () => {
    const page = await newPage();
    // No transitions: the ring is measured in its final colour.
    await page.emulateMedia({ reducedMotion: "reduce" });
    await gotoHydrated(page, "/");
    for (const selector of [".lang-switch-button", "footer.site-footer nav a", ".hero .btn"]) {
      const el = page.locator(selector).first();
      await el.focus();
      await page.keyboard.press("Shift+Tab");
      await page.keyboard.press("Tab");
      // The ring's (shortened) transition finishes within two frames: read the settled style.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      const { rings, behind } = await el.evaluate((node) => {
        // Buttons draw their ring as box-shadow (a surface-coloured gap, then the focus colour outside); other
        // elements use the outline. Every opaque colour of the ring counts; the one that stands out most is judged.
        const style = getComputedStyle(node);
        const colours = (style.boxShadow.match(/rgba?\([^)]*\)/g) ?? []).filter((c) => !/rgba\([^)]*,\s*0(\.\d+)?\)$/.test(c) || /,\s*1\)$/.test(c));
        if (style.outlineStyle !== "none" && style.outlineWidth !== "0px") colours.push(style.outlineColor);
        // The colour the ring sits on: the first ancestor with an opaque background.
        let at: Element | null = node.parentElement;
        let bg = "rgb(255, 255, 255)";
        while (at) {
          const c = getComputedStyle(at).backgroundColor;
          if (c && !c.startsWith("rgba(0, 0, 0, 0)") && c !== "transparent") {
            bg = c;
            break;
          }
          at = at.parentElement;
        }
        return { rings: colours, behind: bg };
      });
      expect(rings.length, `${selector} shows a focus ring`).toBeGreaterThan(0);
      const best = Math.max(...rings.map((r) => contrast(r, behind)));
      expect(best, `${selector}: ${rings.join(" / ")} on ${behind}`).toBeGreaterThanOrEqual(3);
    }
  });

  it("renders a notification in the reader's language", async () => {
    const student = await createVerifiedUser("ar-note", `Arabic Note ${Date.now().toString(36)}`);
    const requestId = await requestToJoin(student, "frontend-react");
    expect((await api(await accessToken(INSTRUCTOR), "PUT", `/api/membership-requests/${requestId}`, { decision: "approved" })).status).toBe(200);
    const page = await newPage({ locale: "ar" });
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(page.context(), student.email, student.password);
    await gotoHydrated(page, "/");
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
    await page.locator(".bell-button").click();
    const title = page.locator(".bell-item-title").first();
    await title.waitFor();
    expect(await title.textContent()).toContain("تم قبولك");
  });

  it("keeps the keyboard's place through a submission: the button that sent a form has the focus again, the chat box after a tap on Send", async () => {
    const user = await createVerifiedUser("focus", "Focus Kept");
    const page = await newPage();
    await signIn(page.context(), user.email, user.password);
    await gotoHydrated(page, "/profile");
    await page.getByLabel("Full name").fill("Focus Kept Again");
    const save = page.getByRole("button", { name: "Save changes" });
    await save.focus();
    await page.keyboard.press("Enter");
    await page.getByText("Your profile was saved.").first().waitFor();
    // The button was disabled while the form was sent (its focus went to the page then); it has it back.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Save changes");

    const member = await memberOf("frontend-react", "focus-chat", `Focus Chat ${Date.now().toString(36)}`);
    const phone = await newPage({ width: 375, height: 800 });
    await signIn(phone.context(), member.email, member.password);
    await gotoHydrated(phone, "/course/frontend-react");
    await phone.locator(".chat-input").fill("Hello from a phone");
    await phone.locator(".chat-composer button[type=submit]").click();
    await phone.locator(".chat-scroll").getByText("Hello from a phone").waitFor();
    expect(await phone.evaluate(() => document.activeElement?.classList.contains("chat-input"))).toBe(true);
  });

  it("on an Arabic page an empty box that follows its text's direction shows its hint text right to left; typed English reads left to right", async () => {
    const page = await newPage({ width: 375, height: 800 });
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(page.context(), STUDENT.email, STUDENT.password);
    await gotoHydrated(page, "/course/frontend-react");
    const box = page.locator(".chat-input");
    expect(await box.getAttribute("dir")).toBe("auto");
    expect(await box.evaluate((el) => getComputedStyle(el).direction)).toBe("rtl");
    await box.fill("Hello everyone");
    expect(await box.evaluate((el) => getComputedStyle(el).direction)).toBe("ltr");
    await box.fill("");
    expect(await box.evaluate((el) => getComputedStyle(el).direction)).toBe("rtl");
  });

  it("after a link leads to another page, the keyboard's focus is on the new page's content, not lost", async () => {
    const page = await newPage();
    await signIn(page.context(), STUDENT.email, STUDENT.password);
    await gotoHydrated(page, "/my-courses");
    const open = page.locator(".card-grid a[href='/course/frontend-react']").first();
    await open.focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/course\/frontend-react$/);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("main");
    // The next Tab goes on from there, into the page's content (not back to the header's first link).
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => !!document.activeElement?.closest("main"))).toBe(true);
  });

  it("a link followed by the keyboard from far down a page opens the next page at its top, with reduced motion too", async () => {
    for (const reducedMotion of ["reduce", "no-preference"] as const) {
      const page = await newPage({ width: 375, height: 740 });
      await page.emulateMedia({ reducedMotion });
      await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
      await gotoHydrated(page, "/");
      // The first course card's link, far below the fold (the back-to-top button is showing once it is reached).
      const link = page.locator("a[href='/content/frontend-react']").first();
      await link.focus();
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
      await page.keyboard.press("Enter");
      await page.waitForURL(/\/content\/frontend-react$/);
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("main");
      // Smooth scrolling (motion not reduced) takes a moment to get there.
      await expect.poll(() => page.evaluate(() => window.scrollY), { message: reducedMotion, timeout: 3_000 }).toBe(0);
      await page.close();
    }
  });

  it("the keyboard meets the join card and the check-in where a phone shows them, first, and a wide screen still sets them beside", async () => {
    const page = await newPage({ width: 375, height: 740 });
    await signIn(page.context(), STUDENT.email, STUDENT.password);
    for (const [path, side, main] of [["/content/frontend-react", ".course-aside", ".course-main"], ["/course/frontend-react/lecture/react-components", ".lecture-aside", ".lecture-content"]] as const) {
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await gotoHydrated(page, path);
        const placed = await page.evaluate(([a, b]) => {
          const first = document.querySelector(a)!;
          const second = document.querySelector(b)!;
          const [ra, rb] = [first.getBoundingClientRect(), second.getBoundingClientRect()];
          return { before: !!(first.compareDocumentPosition(second) & Node.DOCUMENT_POSITION_FOLLOWING), above: ra.bottom <= rb.top + 1, beside: ra.left >= rb.right - 1 };
        }, [side, main]);
        expect(placed.before, `${path} ${width}`).toBe(true);
        if (width === 375) expect(placed.above, path).toBe(true);
        else expect(placed.beside, path).toBe(true);
      }
    }
  });

  it("the browser's own form checks speak the page's language, not the browser's, and a fixed field is sent", async () => {
    // An Arabic page in an English browser.
    const page = await newPage({ locale: "en-US" });
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(page.context(), ADMIN.email, ADMIN.password);
    await gotoHydrated(page, "/dashboard/admin/newGroup");
    const title = page.locator("input[name=title]");
    const capacity = page.locator("input[name=capacity]");
    const create = page.getByRole("button", { name: "أنشئ المجموعة" });
    await create.click();
    expect(await title.evaluate((el: HTMLInputElement) => el.validationMessage)).toBe("يُرجى ملء هذا الحقل.");
    await title.fill(`Native checks ${Date.now().toString(36)}`);
    expect(await title.evaluate((el: HTMLInputElement) => el.validationMessage)).toBe("");
    await capacity.fill("0");
    await create.click();
    expect(await capacity.evaluate((el: HTMLInputElement) => el.validationMessage)).toBe("يُرجى إدخال 1 أو أكثر.");
    await capacity.fill("12");
    await create.click();
    // Nothing stale holds the form back: it is sent and the new group opens.
    await page.waitForURL(/\/dashboard\/admin\/group\//);

    // An English page in an Arabic browser.
    const english = await newPage({ locale: "ar-EG" });
    await english.context().addCookies([{ name: "lang", value: "en", url: baseURL() }]);
    await signIn(english.context(), ADMIN.email, ADMIN.password);
    await gotoHydrated(english, "/dashboard/admin/newGroup");
    await english.getByRole("button", { name: "Create group" }).click();
    expect(await english.locator("input[name=title]").evaluate((el: HTMLInputElement) => el.validationMessage)).toBe("Please fill in this field.");
  });

  it("keeps an English notification left to right when it starts with an Arabic name, the name set apart", async () => {
    const name = `ليلى تجربة ${Date.now().toString(36)}`;
    const student = await createVerifiedUser("ar-name", name);
    await requestToJoin(student, "frontend-react");
    const page = await newPage();
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, "/instructor");
    await page.locator(".bell-button").click();
    const title = page.locator(".bell-item-title", { hasText: name }).first();
    await title.waitFor();
    expect(await title.evaluate((el) => getComputedStyle(el).direction)).toBe("ltr");
    expect(await title.textContent()).toBe(`\u2068${name}\u2069 asked to join \u2068Frontend Development with React\u2069`);
  });

  it("in Arabic a score reads as it does in English, score then maximum from left to right, like every other fraction", async () => {
    const page = await newPage({ width: 375, height: 800 });
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(page.context(), STUDENT.email, STUDENT.password);
    await gotoHydrated(page, "/course/frontend-react");
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
    // The demo student's graded task: 92 of 100. Where each number sits on screen, not the order of the text.
    const where = await page.evaluate(() => {
      const walker = document.createTreeWalker(document.querySelector("main")!, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        const [score, max] = [text.indexOf("92"), text.indexOf("100")];
        if (score < 0 || max < 0) continue;
        const left = (at: number, length: number) => {
          const range = document.createRange();
          range.setStart(node!, at);
          range.setEnd(node!, at + length);
          return range.getBoundingClientRect().left;
        };
        return { text, score: left(score, 2), max: left(max, 3) };
      }
      return null;
    });
    expect(where, "the grade 92 / 100 on the course page").not.toBeNull();
    expect(where!.text).toContain("الدرجة");
    expect(where!.score, `"${where!.text}": 92 sits left of 100`).toBeLessThan(where!.max);
  });

  it("on a phone the header's controls take focus in the order they are seen, in both languages", async () => {
    for (const [lang, forward] of [["en", 1], ["ar", -1]] as const) {
      const page = await newPage({ width: 375, height: 700 });
      await page.context().addCookies([{ name: "lang", value: lang, url: baseURL() }]);
      await signIn(page.context(), STUDENT.email, STUDENT.password);
      await gotoHydrated(page, "/my-courses");
      await page.locator(".bell-button").waitFor();
      await page.locator("header.site-header .brand").focus();
      // The middle of each control that takes focus, from the logo until focus leaves the header.
      const seen: { name: string; x: number }[] = [];
      for (let i = 0; i < 6; i++) {
        const at = await page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          if (!el?.closest("header.site-header")) return null;
          const box = el.getBoundingClientRect();
          return { name: el.getAttribute("aria-label") ?? el.textContent?.trim() ?? "", x: box.left + box.width / 2 };
        });
        if (!at) break;
        seen.push(at);
        await page.keyboard.press("Tab");
      }
      expect(seen.length, `${lang}: the logo, the menu button and the bell`).toBe(3);
      for (let i = 1; i < seen.length; i++) {
        expect((seen[i]!.x - seen[i - 1]!.x) * forward, `${lang}: ${seen[i - 1]!.name} then ${seen[i]!.name}, in reading order`).toBeGreaterThan(0);
      }
    }
  });

  it("on a phone a staff area's row of links scrolls the link that takes focus fully into view, in both languages", async () => {
    for (const [lang, who, path] of [["en", INSTRUCTOR, "/instructor"], ["ar", ADMIN, "/dashboard"]] as const) {
      const page = await newPage({ width: 375, height: 700 });
      await page.context().addCookies([{ name: "lang", value: lang, url: baseURL() }]);
      await signIn(page.context(), who.email, who.password);
      await gotoHydrated(page, path);
      const links = page.locator(".area-nav-link");
      const count = await links.count();
      expect(count, `${lang}: the row has links to reach`).toBeGreaterThan(2);
      // Tab from the first link to the last, as a keyboard does.
      await links.first().focus();
      for (let i = 1; i < count; i++) await page.keyboard.press("Tab");
      expect(await links.last().evaluate((el) => el === document.activeElement), `${lang}: the last link has focus`).toBe(true);
      await page.waitForFunction(() => {
        const row = document.querySelector(".area-nav-list")!.getBoundingClientRect();
        const last = [...document.querySelectorAll(".area-nav-link")].pop()!.getBoundingClientRect();
        return last.left >= row.left && last.right <= row.right;
      }, null, { timeout: 3_000 });
    }
  });

  it("a lecture's code block is a Tab stop only while it scrolls sideways", async () => {
    // The demo's first lecture shows a 56-character line of HTML: wider than a phone, narrower than a desktop.
    const page = await newPage({ width: 375, height: 800 });
    await signIn(page.context(), STUDENT.email, STUDENT.password);
    await gotoHydrated(page, "/course/frontend-react/lecture/html-foundations");
    const code = page.locator("main pre").first();
    const state = () => code.evaluate((el) => ({ scrolls: el.scrollWidth > el.clientWidth + 1, tabIndex: el.getAttribute("tabindex") }));
    await page.waitForFunction(() => document.querySelector("main pre")?.hasAttribute("data-scroll-stop"));
    expect(await state()).toEqual({ scrolls: true, tabIndex: "0" });
    // A keyboard reaches it and scrolls it.
    await code.focus();
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction(() => document.querySelector("main pre")!.scrollLeft > 0);

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.waitForFunction(() => document.querySelector("main pre")?.getAttribute("tabindex") === "0");
    // Still focused: it keeps its stop until focus leaves it; then, fitting the wider page, it gives it up.
    await page.locator("main h1").click();
    await page.setViewportSize({ width: 1281, height: 800 });
    await page.waitForFunction(() => !document.querySelector("main pre")?.hasAttribute("tabindex"));
    expect((await state()).scrolls).toBe(false);

    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForFunction(() => document.querySelector("main pre")?.getAttribute("tabindex") === "0");
  });

  it("a staff table's box that fits its table is not a Tab stop", async () => {
    const page = await newPage({ width: 1280, height: 800 });
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, "/instructor/group/frontend-react/tasks");
    const box = page.locator('.gtable-wrap[aria-labelledby="tasks-title"]');
    await page.waitForFunction(() => document.querySelector(".gtable-wrap")?.hasAttribute("data-scroll-stop"));
    expect(await box.evaluate((el) => ({ scrolls: el.scrollWidth > el.clientWidth + 1, stop: el.hasAttribute("tabindex") }))).toEqual({ scrolls: false, stop: false });
  });

  it("an inline editor takes focus when it opens and gives it back to the button that opened it when it closes", async () => {
    const page = await newPage({ width: 1280, height: 900 });
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    const focused = () => page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return el ? `${el.tagName.toLowerCase()}:${(el.textContent ?? "").trim().slice(0, 40)}` : "none";
    });
    const closeWithKeyboard = async (scope: string) => {
      await page.locator(scope).getByRole("button", { name: "Cancel", exact: true }).focus();
      await page.keyboard.press("Enter");
    };

    // The question bank (Quizzes tab): its editor's title takes focus; Cancel returns to "Add a question".
    await gotoHydrated(page, "/instructor/group/frontend-react/quizzes");
    await page.getByRole("button", { name: "Add a question" }).click();
    await page.waitForFunction(() => document.activeElement?.textContent?.trim() === "New bank question");
    await closeWithKeyboard(".bank-editor");
    await page.waitForFunction(() => document.activeElement?.textContent?.trim() === "Add a question");

    // Rubrics (Tasks tab): "New rubric" and an Edit, each given focus back after Cancel.
    await gotoHydrated(page, "/instructor/group/frontend-react/tasks");
    await page.getByRole("button", { name: "New rubric" }).click();
    await page.locator(".rubric-editor input:not([type=hidden])").first().waitFor();
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("INPUT");
    await closeWithKeyboard(".rubric-editor");
    await page.waitForFunction(() => document.activeElement?.textContent?.trim() === "New rubric");
    const edit = page.locator(".rubrics-section [data-opens-editor]:not([data-opens-editor='new'])").first();
    const editId = await edit.getAttribute("data-opens-editor");
    await edit.click();
    await closeWithKeyboard(".rubric-editor");
    await page.waitForFunction((id) => document.activeElement?.getAttribute("data-opens-editor") === id, editId);
    expect(await focused()).toMatch(/^button:Edit/);
  });

  it("a select's arrow sits at its end in both languages, on the side its padding leaves room for", async () => {
    for (const [lang, end] of [["en", "right"], ["ar", "left"]] as const) {
      const page = await newPage({ width: 375, height: 800 });
      await page.context().addCookies([{ name: "lang", value: lang, url: baseURL() }]);
      await gotoHydrated(page, "/auth/register");
      const select = page.getByRole("combobox", { name: lang === "en" ? "Country" : "الدولة" });
      const look = await select.evaluate((el) => {
        const style = getComputedStyle(el);
        const box = el.getBoundingClientRect();
        // Where the arrow's image is drawn, from the left edge: Chromium computes "right 0.75rem" as calc(100% - 12px).
        const x = style.backgroundPositionX;
        const size = parseFloat(style.backgroundSize);
        const px = (v: string) => parseFloat(v) * (v.endsWith("rem") ? parseFloat(getComputedStyle(document.documentElement).fontSize) : 1);
        const fromRight = /^calc\(100% - (.+)\)$/.exec(x)?.[1] ?? /^right\s+(.+)$/.exec(x)?.[1];
        const arrowLeft = fromRight !== undefined ? box.width - px(fromRight) - size : x.endsWith("%") ? ((box.width - size) * parseFloat(x)) / 100 : px(x.replace(/^left\s+/, ""));
        return { appearance: style.appearance, image: style.backgroundImage, width: box.width, arrowLeft, size, padLeft: parseFloat(style.paddingLeft), padRight: parseFloat(style.paddingRight) };
      });
      expect(look.appearance, lang).toBe("none");
      expect(look.image, lang).toContain("data:image/svg+xml");
      const arrowEnd = look.arrowLeft + look.size;
      if (end === "right") {
        // Inside the room the padding leaves at the right, at least 8 px from the border.
        expect(look.arrowLeft, lang).toBeGreaterThanOrEqual(look.width - look.padRight);
        expect(look.width - arrowEnd, lang).toBeGreaterThanOrEqual(8);
      } else {
        expect(arrowEnd, lang).toBeLessThanOrEqual(look.padLeft);
        expect(look.arrowLeft, lang).toBeGreaterThanOrEqual(8);
      }
    }
  });

  it("a visitor's name of one long word wraps in the admins' messages at 375 px instead of widening the page", async () => {
    const name = `سارة ${"x".repeat(60)}`;
    const sent = await fetch(`${baseURL()}/api/contact`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name, email: "long.name@example.com", message: "Do you run evening groups?" }) });
    expect(sent.status).toBe(201);
    for (const lang of ["en", "ar"]) {
      const page = await newPage({ width: 375, height: 800 });
      await page.context().addCookies([{ name: "lang", value: lang, url: baseURL() }]);
      await signIn(page.context(), ADMIN.email, ADMIN.password);
      await gotoHydrated(page, "/dashboard/admin/get-all-message-by-admin");
      await page.locator(".inbox-item", { hasText: name }).first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), lang).toBeLessThanOrEqual(375);
    }
  });

  it("a lecture's task and quiz titles stay readable at 375 px: the date goes under the title instead of over it", async () => {
    const page = await newPage({ width: 375, height: 800 });
    await signIn(page.context(), STUDENT.email, STUDENT.password);
    await gotoHydrated(page, "/course/frontend-react/lecture/react-components");
    const items = page.locator(".lecture-work-item");
    expect(await items.count()).toBeGreaterThan(0);
    for (const item of await items.all()) {
      const title = (await item.locator(".lecture-work-title").boundingBox())!;
      const date = (await item.locator(".muted").first().boundingBox())!;
      expect(title.width, "the title keeps at least 12rem").toBeGreaterThanOrEqual(180);
      const overlap = title.x < date.x + date.width && date.x < title.x + title.width && title.y < date.y + date.height && date.y < title.y + title.height;
      expect(overlap, `${await item.locator(".lecture-work-title").textContent()} overlaps its date`).toBe(false);
    }
  });

  it("at 375 px a pasted link neither widens the chat's box nor a hand-in's notes past the page, in Arabic", async () => {
    const link = `https://github.com/nour-ali/responsive-landing-page/blob/main/src/components/Header.tsx#L10-L42${"x".repeat(400)}`;
    const stamp = Date.now().toString(36);
    const staff = await accessToken(INSTRUCTOR);
    const lecture = (await api<{ slug: string }>(staff, "POST", "/api/lectures/group/frontend-react", { title: `Wide week ${stamp}`, published: true })).body.slug;
    const task = (await api<{ slug: string }>(staff, "POST", `/api/lectures/${lecture}/tasks`, { title: `Landing page ${stamp}` })).body.slug;
    const student = await memberOf("frontend-react", "wide", `Wide Notes ${stamp}`);
    const handIn = await api(await accessToken(student), "POST", `/api/lectures/${lecture}/submit-task/${task}`, { link: "https://nour-landing.pages.dev", notes: `Figma: ${link}` });
    expect(handIn.status).toBe(201);

    const page = await newPage({ width: 375, height: 800 });
    await signIn(page.context(), student.email, student.password);
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    const width = () => page.evaluate(() => document.documentElement.scrollWidth);
    await gotoHydrated(page, `/course/frontend-react/lecture/${lecture}/Add-Task/${task}`);
    expect(await page.locator(".work-notes").first().textContent()).toContain("Figma:");
    expect(await width()).toBeLessThanOrEqual(375);

    await gotoHydrated(page, "/course/frontend-react");
    await page.locator(".chat-input").fill(link);
    expect(await width()).toBeLessThanOrEqual(375);
    const send = (await page.locator(".chat-composer button[type=submit]").boundingBox())!;
    expect(send.x >= 0 && send.x + send.width <= 375, "Send stays on the screen").toBe(true);
  });

  it("at 375 px the staff's lecture picker stays in its column and the group's tabs show no vertical scrollbar", async () => {
    const page = await newPage({ width: 375, height: 800 });
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await gotoHydrated(page, "/instructor/group/frontend-react/tasks");
    const picker = (await page.locator(".section-actions select").boundingBox())!;
    const column = (await page.locator(".tasks-screen").boundingBox())!;
    expect(picker.x).toBeGreaterThanOrEqual(column.x - 0.5);
    expect(picker.x + picker.width).toBeLessThanOrEqual(column.x + column.width + 0.5);
    const tabs = await page.locator(".group-tabs ul").evaluate((ul) => ({ scrolls: ul.scrollHeight > ul.clientHeight, overflowY: getComputedStyle(ul).overflowY }));
    expect(tabs.scrolls && tabs.overflowY !== "hidden", "the tab strip scrolls up and down").toBe(false);
  });

  it("a new quiz the server refuses brings its first problem into view: answers shown after closing ask for a closing time", async () => {
    const stamp = Date.now().toString(36);
    const lecture = (await api<{ slug: string }>(await accessToken(INSTRUCTOR), "POST", "/api/lectures/group/frontend-react", { title: `Refused quiz week ${stamp}`, published: true })).body.slug;
    const page = await newPage({ width: 1280, height: 800 });
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, `/instructor/group/frontend-react/lectures/${lecture}/newQuiz`);
    await page.locator("#quiz-title").fill(`Quick check ${stamp}`);
    await page.getByLabel("Question (Markdown, code blocks with ```)").fill("2 + 2?");
    await page.getByLabel("Option 1", { exact: true }).fill("3");
    await page.getByLabel("Option 2", { exact: true }).fill("4");
    await page.getByLabel("Option 2 is correct").check();
    // Answers shown after the quiz closes, chosen by hand, and no closing time set.
    await page.getByLabel("Show the correct answers").selectOption("after-close");
    const problems = allowStatus(page, 400, "newQuiz");
    await page.getByRole("button", { name: "Create the quiz" }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id ?? "")).toBe("quiz-closes");
    expect(problems).toEqual([]);
    // Scrolled there (smoothly): the closing time ends up on the screen.
    await expect
      .poll(async () => {
        const box = (await page.locator("#quiz-closes").boundingBox())!;
        return box.y >= 0 && box.y + box.height <= 800;
      })
      .toBe(true);
  });

  it("an empty login says 'Please fill out all fields.' once", async () => {
    const page = await newPage();
    await gotoHydrated(page, "/auth/login");
    await page.getByRole("button", { name: "Log In", exact: true }).click();
    await page.locator("#login-form-error").waitFor();
    expect(await page.getByText("Please fill out all fields.").count()).toBe(1);
    expect(await page.locator("#login-email").getAttribute("aria-invalid")).toBe("true");
  });

  it("after Log out, Back to a public page shows it signed out, without going to the login page", async () => {
    const student = await createVerifiedUser("back-nav", `Back Nav ${Date.now().toString(36)}`);
    const page = await newPage();
    await signIn(page.context(), student.email, student.password);
    await gotoHydrated(page, "/courses");
    await page.locator('.bell[data-live="open"]').waitFor();
    const header = page.locator("header.site-header");
    await header.getByRole("button", { name: "Log out" }).click();
    await header.getByRole("link", { name: "Log In" }).waitFor();
    await page.goBack();
    await page.waitForURL((url) => url.pathname === "/courses");
    await header.getByRole("link", { name: "Log In" }).waitFor();
    // Nothing may send the page away afterwards either (it used to go to the login page once its refresh failed).
    await page.waitForTimeout(300);
    expect(new URL(page.url()).pathname).toBe("/courses");
    expect(await page.locator(".bell-button").count()).toBe(0);
  });

  it("staff have one account page: Profile and /profile lead to it, /my-courses to the groups they run", async () => {
    const page = await newPage();
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(page, "/");
    expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Profile" }).getAttribute("href")).toBe("/instructor/setting");
    await page.goto("/profile");
    await page.waitForURL("**/instructor/setting");
    await page.goto("/my-courses");
    await page.waitForURL((url) => url.pathname === "/instructor");
  });
});
