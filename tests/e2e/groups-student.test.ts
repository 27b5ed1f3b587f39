import { describe, expect, it } from "vitest";
import { allowStatus } from "./accounts-helpers";
import { baseURL, useBrowser } from "./browser";
import { INSTRUCTOR, memberOf, STUDENT } from "./groups-helpers";
import { signIn } from "./session";

describe("students in groups", () => {
  const newPage = useBrowser();

  it("leaves a group after confirming; it disappears from My Courses and from the header", async () => {
    const student = await memberOf("mobile-flutter", "leaver", "Leaving Student");
    const page = await newPage();
    await signIn(page.context(), student.email, student.password);
    await page.goto("/my-courses");
    await page.getByRole("heading", { name: "Mobile Apps with Flutter" }).waitFor();
    const nav = page.getByRole("navigation", { name: "Main" });
    expect(await nav.getByRole("link", { name: "My Courses" }).count()).toBe(1);

    await page.getByRole("button", { name: "Leave Mobile Apps with Flutter" }).click();
    const dialog = page.getByRole("dialog", { name: "Leave Mobile Apps with Flutter?" });
    await dialog.waitFor();
    // Focus starts on the safe choice.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Cancel");
    await dialog.getByRole("button", { name: "Leave group" }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.getByText("You're not in a course yet").waitFor();
    expect(await page.getByRole("heading", { name: "Mobile Apps with Flutter" }).count()).toBe(0);
    await expect.poll(() => page.locator('.my-courses [role="status"]').textContent()).toBe("You left Mobile Apps with Flutter.");
    await expect.poll(() => nav.getByRole("link", { name: "My Courses" }).count()).toBe(0);

    // The course home is closed to them now, and says why.
    const problems = allowStatus(page, 403, "/course/mobile-flutter");
    const res = await page.goto("/course/mobile-flutter");
    expect(res?.status()).toBe(403);
    expect(await page.locator(".not-member-status").textContent()).toContain("Left");
    expect(problems).toEqual([]);
  });

  it("shows a non-member the 403 page with their pending status and the way to the course page", async () => {
    const page = await newPage();
    const problems = allowStatus(page, 403, "/course/backend-node");
    await signIn(page.context(), STUDENT.email, STUDENT.password);
    const res = await page.goto("/course/backend-node");
    expect(res?.status()).toBe(403);
    expect(await page.locator("h1").textContent()).toBe("This course is for its members");
    expect(await page.locator(".not-member-status").textContent()).toContain("Pending");
    expect(await page.getByText("Your request to join is pending.").count()).toBe(1);
    expect(await page.title()).toBe("This course is for its members | Cohort");
    await page.getByRole("link", { name: "View course details" }).click();
    await page.waitForURL("**/content/backend-node");
    expect(await page.getByRole("button", { name: "Request pending" }).isDisabled()).toBe(true);
    expect(problems).toEqual([]);
  });

  it("a lecture, a task or a quiz of a course they are not in says it is for members and leads to the course, in Arabic", async () => {
    const page = await newPage({ width: 375 });
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    const inner = ["/lecture/modern-css-layouts", "/lecture/modern-css-layouts/quiz/css-layouts-check", "/lecture/modern-css-layouts/Add-Task/responsive-landing-page"];
    const problems = allowStatus(page, 403, "/course/frontend-react");
    // Layla is in no demo group's roster for this course.
    await signIn(page.context(), "layla@example.com", "demo-student-pass");
    for (const path of inner) {
      const res = await page.goto(`/course/frontend-react${path}`);
      expect(res?.status(), path).toBe(403);
      expect(await page.locator("h1").textContent(), path).toBe("هذا الكورس لأعضائه فقط");
      expect(await page.getByRole("link", { name: "افتح الكورس" }).getAttribute("href"), path).toBe("/course/frontend-react");
    }
    // The course's home says where their request stands and how to join.
    await page.getByRole("link", { name: "افتح الكورس" }).click();
    await page.waitForURL("**/course/frontend-react");
    await page.locator(".not-member .error-actions").waitFor();
    expect(await page.locator("h1").textContent()).toBe("هذا الكورس لأعضائه فقط");
    expect(problems).toEqual([]);
  });

  it("gives the instructor the group's members and lets them switch one to a special seat", async () => {
    const name = `Scholar ${Date.now().toString(36)}`;
    await memberOf("frontend-react", "scholar", name);
    const page = await newPage();
    await signIn(page.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await page.goto("/instructor");
    await page.locator(".teach-group", { hasText: "Frontend Development with React" }).getByRole("link", { name: "Students" }).click();
    await page.waitForURL("**/instructor/group/frontend-react/students");
    const rows = page.locator(".students-table tbody tr");
    await rows.filter({ hasText: name }).waitFor();
    for (const member of ["Nour Ali", "Sara Mahmoud", "Omar Khaled", name]) {
      expect(await rows.filter({ hasText: member }).count(), member).toBe(1);
    }

    const row = rows.filter({ hasText: name });
    expect(await row.locator(".membership-badge").textContent()).toBe("Approved");
    await row.getByRole("button", { name: `Make special ${name}` }).click();
    await expect.poll(() => row.locator(".membership-badge").textContent()).toBe("Special");
    await expect.poll(() => page.locator('.students-screen > [role="status"]').textContent()).toBe(`${name} now has a special seat.`);
    await row.getByRole("button", { name: `Make approved ${name}` }).waitFor();
    // The button pressed went away: the keyboard goes on from the one that took its place, not from the page's start.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe(`Make approved ${name}`);

    // Search narrows the list; the change was saved.
    await page.getByLabel("Search").fill(name);
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/search=/);
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().locator(".membership-badge").textContent()).toBe("Special");
    await rows.first().getByRole("link", { name }).click();
    await page.waitForURL(/\/instructor\/frontend-react\/student\//);
    await expect.poll(() => page.locator("h1").textContent()).toBe(name);
    expect(await page.locator(".student-membership", { hasText: "Frontend Development with React" }).locator(".membership-badge").textContent()).toBe("Special");
  });
});
