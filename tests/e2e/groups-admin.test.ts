import { describe, expect, it } from "vitest";
import { baseURL, gotoHydrated, useBrowser } from "./browser";
import { ADMIN, INSTRUCTOR } from "./groups-helpers";
import { signIn } from "./session";

/** A 1×1 PNG: real magic bytes, so the upload service accepts it. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

describe("admin group management", () => {
  const newPage = useBrowser();

  it("creates a published group with an uploaded image; it is in the catalogue; a new title keeps the address", async () => {
    const title = `Rust for the Web ${Date.now().toString(36)}`;
    const page = await newPage();
    await signIn(page.context(), ADMIN.email, ADMIN.password);
    await page.goto("/dashboard/admin/newGroup");
    await page.getByLabel("Title", { exact: true }).fill(title);
    await page.getByLabel("Description").fill("Systems programming for web developers: ownership, async and WebAssembly.");
    await page.getByLabel("Start date").fill("2027-06-01");
    await page.getByLabel("Capacity (seats)").fill("12");
    await page.getByLabel("Status").selectOption("published");
    await page.getByLabel("Upload an image").setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: PNG });
    // The chosen file is previewed before it is sent.
    await expect.poll(() => page.getByRole("img", { name: "Preview of the course image" }).getAttribute("src")).toMatch(/^data:image\/png;base64,/);
    await page.getByRole("button", { name: "Create group" }).click();

    await page.waitForURL(/\/dashboard\/admin\/group\/[a-z0-9-]+$/);
    const slug = new URL(page.url()).pathname.split("/").pop()!;
    expect(slug).toMatch(/^rust-for-the-web-/);
    // Created as published: the notice does not ask to publish it.
    expect(await page.locator(".notice-success").textContent()).toContain("Group created and published: students can find it in the catalogue and ask to join.");
    // Said once, to the admin who created it: not again on a reload, and no link can make the page say it.
    await page.reload();
    await page.locator("h1").waitFor();
    expect(await page.locator(".notice-success").count()).toBe(0);
    await page.goto(`/dashboard/admin/group/frontend-react?created=1`);
    await page.locator("h1").waitFor();
    expect(await page.locator(".notice-success").count()).toBe(0);
    await page.goBack();
    await expect.poll(() => page.locator("h1").textContent()).toBe(title);
    const image = await page.getByRole("img", { name: `Cover image of ${title}` }).getAttribute("src");
    expect(image).toMatch(/^\/media\/courses\/[\w-]+\.png$/);
    const served = await fetch(`${baseURL()}${image}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");

    await page.goto("/courses");
    await page.getByRole("heading", { name: title }).waitFor();

    // Edit the title: the address stays.
    await page.goto(`/dashboard/admin/group/${slug}/update`);
    expect(await page.getByLabel("Address").inputValue()).toBe(`/content/${slug}`);
    await page.getByLabel("Title", { exact: true }).fill(`${title} (evening)`);
    await page.getByRole("button", { name: "Save changes" }).click();
    // Said beside the button that saved, where the person is (the form's top can be screens away on a phone).
    await page.locator(".group-form-actions .notice-success", { hasText: "Changes saved." }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/dashboard/admin/group/${slug}/update`);
    expect(await page.locator("h1").textContent()).toBe(`${title} (evening)`);
    expect(await page.getByLabel("Address").inputValue()).toBe(`/content/${slug}`);
    await page.goto(`/content/${slug}`);
    expect(await page.locator("h1").textContent()).toBe(`${title} (evening)`);

    // Archiving asks first, saying what it does; Cancel saves nothing.
    await gotoHydrated(page, `/dashboard/admin/group/${slug}/update`);
    await page.getByLabel("Status").selectOption("archived");
    await page.getByRole("button", { name: "Save changes" }).click();
    const dialog = page.getByRole("dialog", { name: `Archive “\u2068${title} (evening)\u2069”?` });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("Only an admin can bring it back.");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.waitForTimeout(300);
    expect((await fetch(`${baseURL()}/content/${slug}`)).status).toBe(200);
    await page.getByRole("button", { name: "Save changes" }).click();
    await dialog.getByRole("button", { name: "Archive" }).click();
    await page.locator(".group-form-actions .notice-success", { hasText: "Changes saved." }).waitFor();
    expect((await fetch(`${baseURL()}/content/${slug}`)).status).toBe(404);
  });

  it("asks before typed settings are lost, and never saves without a refused image: it waits for another or its removal", async () => {
    const page = await newPage();
    await signIn(page.context(), ADMIN.email, ADMIN.password);
    await page.goto("/dashboard/admin/newGroup");
    await page.locator("html[data-hydrated=true]").waitFor();
    const title = `Unsaved Lab ${Date.now().toString(36)}`;
    await page.getByLabel("Title", { exact: true }).fill(title);
    await page.getByRole("navigation").getByRole("link", { name: "All groups" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Leave without saving?" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(new URL(page.url()).pathname).toBe("/dashboard/admin/newGroup");
    expect(await page.getByLabel("Title", { exact: true }).inputValue()).toBe(title);

    // An image over 2 MB is refused when chosen; Create then waits (same page, the file field in focus).
    await page.getByLabel("Upload an image").setInputFiles({ name: "big.png", mimeType: "image/png", buffer: Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]) });
    await page.locator(".field-error", { hasText: "Images are limited to 2 MB." }).waitFor();
    await page.getByRole("button", { name: "Create group" }).click();
    await page.waitForTimeout(300);
    expect(new URL(page.url()).pathname).toBe("/dashboard/admin/newGroup");
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe("file");
    // Removing the choice clears the refusal; the group is then created without an image, and nothing asks.
    await page.getByRole("button", { name: "Remove image" }).click();
    expect(await page.locator(".field-error", { hasText: "Images are limited to 2 MB." }).count()).toBe(0);
    await page.getByRole("button", { name: "Create group" }).click();
    await page.waitForURL(/\/dashboard\/admin\/group\/[a-z0-9-]+$/);
    expect(await page.getByRole("dialog", { name: "Leave without saving?" }).count()).toBe(0);
  });

  it("refuses a file named .png that is not a picture when it is chosen, instead of a broken preview", async () => {
    const page = await newPage({ width: 375, height: 780 });
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(page.context(), ADMIN.email, ADMIN.password);
    await page.goto("/dashboard/admin/newGroup");
    await page.locator("html[data-hydrated=true]").waitFor();
    const file = page.locator('input[type="file"][name="file"]');
    await file.setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("These are my notes, not a picture.") });
    await page.locator(".field-error", { hasText: "هذا الملف ليس صورة يمكن عرضها. اختر صورة PNG أو JPEG أو WebP." }).waitFor();
    expect(await page.locator(".image-preview img").count()).toBe(0);
    expect(await page.locator(".image-preview").getAttribute("data-empty")).toBe("true");
    expect(await file.evaluate((el: HTMLInputElement) => el.files?.length ?? 0)).toBe(0);
    expect(await file.getAttribute("aria-invalid")).toBe("true");
    // A real picture then previews, and the refusal goes.
    await file.setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: PNG });
    await page.locator(".image-preview img").waitFor();
    expect(await page.locator(".field-error", { hasText: "هذا الملف ليس صورة" }).count()).toBe(0);
  });

  it("edits the outline: add parts, move one up with the keyboard-reachable buttons, remove one after confirming", async () => {
    const page = await newPage();
    await signIn(page.context(), ADMIN.email, ADMIN.password);
    await page.goto("/dashboard/admin/newGroup");
    const title = `Outline Lab ${Date.now().toString(36)}`;
    await page.getByLabel("Title", { exact: true }).fill(title);
    await page.getByLabel("Status").selectOption("published");
    await page.getByRole("button", { name: "Create group" }).click();
    await page.waitForURL(/\/dashboard\/admin\/group\/[a-z0-9-]+$/);
    const slug = new URL(page.url()).pathname.split("/").pop()!;
    await page.getByRole("navigation", { name: "Group pages" }).getByRole("link", { name: "Update" }).click();
    await page.waitForURL(`**/dashboard/admin/group/${slug}/update`);
    await page.getByText("No parts yet. Add the first one below.").waitFor();

    const addForm = page.getByRole("form", { name: "Add a part" });
    for (const part of ["Setup", "Ownership", "Async"]) {
      await addForm.getByLabel("Part title").fill(part);
      await addForm.getByLabel("Text").fill(`All about ${part.toLowerCase()}.`);
      await addForm.getByRole("button", { name: "Add part" }).click();
      await page.locator(".outline-edit-item", { hasText: part }).waitFor();
      await expect.poll(() => addForm.getByLabel("Part title").inputValue()).toBe("");
    }
    const titles = () => page.locator(".outline-edit-item .outline-title").allTextContents();
    await expect.poll(async () => (await titles()).map((t) => t.replace(/^Part \d+ of \d+: /, ""))).toEqual(["Setup", "Ownership", "Async"]);

    // Move "Async" up; focus stays on the moved part's button so it can be pressed again.
    await page.getByRole("button", { name: "Move Async up" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(async () => (await titles()).map((t) => t.replace(/^Part \d+ of \d+: /, ""))).toEqual(["Setup", "Async", "Ownership"]);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Move Async up");

    // Remove "Setup" after confirming.
    await page.getByRole("button", { name: "Remove Setup" }).click();
    const dialog = page.getByRole("dialog", { name: "Remove Setup?" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Remove part" }).click();
    await dialog.waitFor({ state: "hidden" });
    await expect.poll(async () => (await titles()).map((t) => t.replace(/^Part \d+ of \d+: /, ""))).toEqual(["Async", "Ownership"]);

    // The public page shows the new order.
    await page.goto(`/content/${slug}`);
    const outline = await page.locator(".outline .outline-title").allTextContents();
    expect(outline.map((t) => t.replace(/^Part \d+ of \d+: /, ""))).toEqual(["Async", "Ownership"]);
  });
});

/**
 * Issue 20: every staff page of a group marks its own section in the group's links (aria-current="page", exactly
 * one): a new task, a task's form and the grader are Tasks; a new quiz and a quiz's form are Quizzes; the rest of a
 * lecture's pages are Lectures. Instructor and admin areas, on the demo group's pages.
 */
describe("the group's section links", () => {
  const newPage = useBrowser();
  const G = "frontend-react";
  const pages: [path: string, section: string][] = [
    ["students", "students"],
    ["lectures", "lectures"],
    ["lectures/update/html-foundations", "lectures"],
    ["lectures/html-foundations/attendance", "lectures"],
    ["lectures/html-foundations/newTask", "tasks"],
    ["tasks", "tasks"],
    ["lecture/html-foundations/tasks/accessible-profile-card/submissions", "tasks"],
    ["lecture/html-foundations/tasks/updateTask/accessible-profile-card", "tasks"],
    ["lectures/modern-css-layouts/newQuiz", "quizzes"],
    ["quizzes", "quizzes"],
    ["lecture/modern-css-layouts/quiz/updateQuiz/css-layouts-check", "quizzes"],
    ["progress", "progress"],
  ];
  const current = async (page: import("playwright-core").Page) => {
    const marked = page.locator('.group-tabs [aria-current="page"]');
    await marked.first().waitFor();
    expect(await marked.count()).toBe(1);
    return marked.getAttribute("href");
  };

  it("marks the page's own section on every instructor page of a group", async () => {
    const page = await newPage();
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    const base = `/instructor/group/${G}`;
    for (const [path, section] of [...pages, ["messages", "messages"] as [string, string]]) {
      const res = await page.goto(`${base}/${path}`);
      expect(res?.status(), path).toBe(200);
      expect(await current(page), path).toBe(`${base}/${section}`);
    }
  });

  it("marks the page's own section on every admin page of a group", async () => {
    const page = await newPage();
    await signIn(page.context(), ADMIN.email, ADMIN.password);
    const base = `/dashboard/admin/group/${G}`;
    // The admin's quizzes section lives at /quiz (platform-spec §2).
    const adminSection = (s: string) => (s === "quizzes" ? "quiz" : s);
    for (const [path, section] of [["", ""], ...pages.map(([p, s]) => [p.replace(/^quizzes$/, "quiz"), adminSection(s)]), ["update", "update"]] as [string, string][]) {
      const res = await page.goto(path ? `${base}/${path}` : base);
      expect(res?.status(), path).toBe(200);
      expect(await current(page), path).toBe(section ? `${base}/${section}` : base);
    }
  });
});

/**
 * Issue 20: the admin's Students page lists students, and its role filters change the heading and the list; it
 * fits a phone in both languages.
 */
describe("the admin's Students page", () => {
  const newPage = useBrowser();
  for (const lang of ["en", "ar"] as const) {
    it(`filters by role at 375 px in ${lang === "en" ? "English" : "Arabic"}`, async () => {
      const words = lang === "en" ? { students: "Students", instructors: "Instructors", student: "Student" } : { students: "الطلاب", instructors: "المدرّبون", student: "طالب" };
      const page = await newPage({ width: 375, height: 800 });
      await page.context().addCookies([{ name: "lang", value: lang, url: baseURL() }]);
      await signIn(page.context(), ADMIN.email, ADMIN.password);
      await page.goto("/dashboard/admin/allStudent");
      expect(await page.locator("h1").textContent()).toBe(words.students);
      // Only students are listed by default.
      expect(new Set(await page.locator(".role-badge").allTextContents())).toEqual(new Set([words.student]));
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
      await page.locator(".user-role-filter").getByRole("link", { name: new RegExp(`^${words.instructors}`) }).click();
      await page.waitForURL(/role=instructor/);
      await expect.poll(() => page.locator("h1").textContent()).toBe(words.instructors);
      expect(await page.locator('.user-role-filter [aria-current="page"]').getAttribute("href")).toBe("/dashboard/admin/allStudent?role=instructor");
      expect(new Set(await page.locator(".role-badge").allTextContents())).toEqual(new Set([lang === "en" ? "Instructor" : "مدرّب"]));
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    });
  }
});
