import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { allowLoadError, allowStatus, createVerifiedUser, DEMO, signIn } from "./accounts-helpers";
import { baseURL, useBrowser } from "./browser";
import { memberOf } from "./groups-helpers";

const toast = (page: Page, text: string) => page.locator(".toast").filter({ hasText: text }).waitFor();

describe("one's own account", () => {
  const newPage = useBrowser();

  it("sends a visitor to login and back to /profile, which shows their details and groups", async () => {
    const page = await newPage();
    await page.goto("/profile");
    expect(page.url()).toBe(`${baseURL()}/auth/login?redirectTo=%2Fprofile`);
    await page.getByLabel("Email").fill(DEMO.student.email);
    await page.getByLabel("Password", { exact: true }).fill(DEMO.student.password);
    await page.getByRole("button", { name: "Log In", exact: true }).click();
    await page.waitForURL(`${baseURL()}/profile`);
    expect(await page.locator("#details-title").textContent()).toBe(DEMO.student.name);
    const groups = page.locator(".membership-list li");
    expect(await groups.filter({ hasText: "Frontend Development with React" }).locator(".membership-status").textContent()).toBe("Approved");
    expect(await groups.filter({ hasText: "Backend Development with Node.js" }).locator(".membership-status").textContent()).toBe("Pending");
    // A member's group links to its course; a pending one does not.
    expect(await groups.filter({ hasText: "Frontend" }).getByRole("link").getAttribute("href")).toBe("/course/frontend-react");
    expect(await groups.filter({ hasText: "Backend" }).getByRole("link").count()).toBe(0);
    expect(await page.locator(".device-row[data-current]").textContent()).toContain("This device");
    expect(await page.evaluate(() => sessionStorage.getItem("redirect"))).toBeNull();
  });

  it("edits the name and phone number", async () => {
    const user = await createVerifiedUser("edit", "Karim Old");
    const page = await newPage();
    await signIn(page.context(), user);
    await page.goto("/profile");
    await page.getByLabel("Full name").fill("Karim New");
    await page.getByLabel("Country").selectOption("AE");
    await page.getByLabel("Phone number").fill("0501234567");
    await page.getByRole("button", { name: "Save changes" }).click();
    await toast(page, "Your profile was saved.");
    expect(await page.locator("#details-title").textContent()).toBe("Karim New");
    // The trunk 0 is dropped after the calling code, and the UAE's 9 digits after it are kept whole.
    expect(await page.locator(".detail-row").filter({ hasText: "Phone number" }).locator("dd").textContent()).toBe("+971501234567");
    expect(await page.locator(".detail-row").filter({ hasText: "Country" }).locator("dd").textContent()).toBe("UAE");
  });

  it("puts the keyboard on the phone number the server refused, with its reason, in Arabic", async () => {
    const user = await createVerifiedUser("badphone", "Hala Phone");
    const page = await newPage();
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(page.context(), user);
    allowStatus(page, 400, "/profile");
    await page.goto("/profile");
    await page.locator("#profile-phone").fill("12");
    // Saved from the name field: the refusal names the API's phone_number, the input is named phone.
    await page.locator("#profile-name").press("Enter");
    await page.locator("#profile-phone[aria-invalid=true]").waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("profile-phone");
    const described = (await page.locator("#profile-phone").getAttribute("aria-describedby")) ?? "";
    expect(described.split(" ")).toContain("profile-phone-error");
    expect(await page.locator("#profile-phone-error").textContent()).toBe("من فضلك أدخل رقم هاتف صحيحًا.");
  });

  it("takes a phone number pasted whole with its calling code: its country, and every digit after the code", async () => {
    const user = await createVerifiedUser("paste", "Mona Paste");
    const page = await newPage();
    await signIn(page.context(), user);
    await page.goto("/profile");
    const phone = page.getByLabel("Phone number");
    // Egypt chosen, its own number pasted in international form: not "20100111222" (the code kept, the last digit cut).
    await page.getByLabel("Country").selectOption("EG");
    await phone.fill("+20 100 111 2223");
    expect(await phone.inputValue()).toBe("1001112223");
    // Another listed country's number chooses that country.
    await phone.fill("00966 50 123 4567");
    expect(await page.getByLabel("Country").inputValue()).toBe("SA");
    expect(await phone.inputValue()).toBe("501234567");
    await phone.fill("+٢٠ ١٠٠ ١١١ ٢٢٢٣");
    expect(await page.getByLabel("Country").inputValue()).toBe("EG");
    await page.getByRole("button", { name: "Save changes" }).click();
    await toast(page, "Your profile was saved.");
    expect(await page.locator(".detail-row").filter({ hasText: "Phone number" }).locator("dd").textContent()).toBe("+201001112223");
  });

  it("changes the password: the current one is required and checked", async () => {
    const user = await createVerifiedUser("pw");
    const page = await newPage();
    const problems = allowStatus(page, 400, "/profile");
    await signIn(page.context(), user);
    await page.goto("/profile");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByText("Please enter your current password.").waitFor();
    await page.getByLabel("Current password").fill("not-my-password");
    await page.getByLabel("New password").fill("a-newer-password");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByText("The current password is incorrect.").waitFor();
    expect(await page.getByLabel("Current password").getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByLabel("Current password").evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByLabel("Current password").fill(user.password);
    await page.getByRole("button", { name: "Change password" }).click();
    await toast(page, "Your password was changed.");
    expect(await page.getByLabel("Current password").inputValue()).toBe("");
    const login = await fetch(`${baseURL()}/api/users/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: user.email, password: "a-newer-password" }),
    });
    expect(login.status).toBe(200);
    expect(problems).toEqual([]);
  });

  it("signs another device out", async () => {
    const user = await createVerifiedUser("devices");
    const laptop = await newPage();
    const phone = await newPage({ width: 375 });
    await signIn(laptop.context(), user);
    await signIn(phone.context(), user);
    await phone.goto("/profile");
    await laptop.goto("/profile");
    const rows = laptop.locator(".device-row");
    expect(await rows.count()).toBe(2);
    expect(await laptop.locator(".device-row[data-current]").count()).toBe(1);
    await laptop.locator(".device-row:not([data-current])").getByRole("button", { name: "Sign out" }).click();
    await toast(laptop, "The device was signed out.");
    await expect.poll(() => rows.count()).toBe(1);
    // The phone's session is over: its next page load goes to login.
    await phone.goto("/profile");
    expect(phone.url()).toBe(`${baseURL()}/auth/login?redirectTo=%2Fprofile`);
    await phone.locator("header.site-header").getByRole("button", { name: "Menu" }).click();
    await phone.locator("header.site-header").getByRole("link", { name: "Log In" }).waitFor();
  });

  it("deletes one's own account after the password is confirmed in a dialog", async () => {
    const user = await createVerifiedUser("delete");
    const page = await newPage();
    await signIn(page.context(), user);
    await page.goto("/profile");
    await page.getByRole("button", { name: "Delete my account" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete your account?" });
    await dialog.waitFor();
    await dialog.getByLabel("Password", { exact: true }).fill(user.password);
    await dialog.getByRole("button", { name: "Delete forever" }).click();
    await page.waitForURL(`${baseURL()}/`);
    await page.locator("header.site-header").getByRole("link", { name: "Log In" }).waitFor();
    const login = await fetch(`${baseURL()}/api/users/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    expect(login.status).toBe(401);
  });

  it("keeps the session when the deletion's request fails without an answer: the widgets ask the API again", async () => {
    const user = await createVerifiedUser("delete-drop");
    const page = await newPage();
    const problems = allowLoadError(page, "net::ERR_FAILED", "/profile.data");
    // A phone: the deletion is at the bottom of a long page.
    await page.setViewportSize({ width: 375, height: 800 });
    await signIn(page.context(), user);
    await page.goto("/profile");
    await page.locator('.bell[data-live="open"]').waitFor();
    // The network drops the deletion: no answer at all.
    await page.route(
      (url) => url.pathname === "/profile.data",
      (route) => (route.request().method() === "POST" ? route.abort("failed") : route.fallback()),
    );
    await page.getByRole("button", { name: "Delete my account" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete your account?" });
    await dialog.getByLabel("Password", { exact: true }).fill(user.password);
    await dialog.getByRole("button", { name: "Delete forever" }).click();
    await page.locator(".error-screen").waitFor();
    // The error is where the person is: focused (read out) and in view, not above the footer they had scrolled to.
    await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains("error-screen"))).toBe(true);
    // (Scrolled smoothly unless the person asks for reduced motion: wait for it to arrive.)
    const inView = () =>
      page.evaluate(() => {
        const r = document.querySelector(".error-screen h1")!.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight;
      });
    await expect.poll(inView).toBe(true);
    // Back home without a reload: still signed in, and the bell reads its panel and its live room from the API
    // (a session still marked as ending answered them 401 locally and left the bell in its error state).
    await page.locator(".error-screen").getByRole("link", { name: "Back to the home page" }).click();
    await page.waitForURL(`${baseURL()}/`);
    await page.locator('.bell[data-live="open"]').waitFor();
    await page.locator(".bell-button").click();
    await page.locator(".bell-panel:not([hidden]) .bell-empty").waitFor();
    expect(await page.locator(".bell-panel [role=alert]").count()).toBe(0);
    const login = await fetch(`${baseURL()}/api/users/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    expect(login.status).toBe(200);
    expect(problems).toEqual([]);
  });
});

describe("admins manage users", () => {
  const newPage = useBrowser();

  it("says, before a member of a group is given a staff role, that they stay a student in it", async () => {
    const stamp = Date.now().toString(36);
    const user = await memberOf("frontend-react", "role-member", `Rana Member ${stamp}`);
    const admin = await newPage();
    await signIn(admin.context(), DEMO.admin);
    await admin.goto(`/dashboard/admin/allStudent?search=${encodeURIComponent(user.email)}`);
    await admin.getByRole("link", { name: `Rana Member ${stamp}` }).click();
    await admin.waitForURL(/\/dashboard\/admin\/allStudent\/student\//);
    await admin.getByRole("combobox", { name: "Role" }).selectOption("instructor");
    await admin.getByRole("button", { name: "Change role" }).click();
    const dialog = admin.getByRole("dialog", { name: "Change this person's role?" });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("They are a student in 1 group and stay one there until removed from it.");
    await dialog.getByRole("button", { name: "Cancel" }).click();
  });

  it("finds a student, changes their role after confirming, and the new role applies at once", async () => {
    const user = await createVerifiedUser("promote", "Hana Promote");
    const admin = await newPage();
    await signIn(admin.context(), DEMO.admin);
    await admin.goto("/dashboard/admin/allStudent");
    await admin.getByRole("searchbox", { name: "Search" }).fill(user.email);
    await admin.getByRole("button", { name: "Search" }).click();
    await admin.waitForURL(/search=/);
    // The URL changes before the new list renders: wait for the filtered count.
    await admin.locator(".list-count", { hasText: /^Showing 1-1 of 1$/ }).waitFor();
    await admin.getByRole("link", { name: "Hana Promote" }).click();
    await admin.waitForURL(/\/dashboard\/admin\/allStudent\/student\/hana-promote/);
    // A cancelled change leaves the picker on the role they have, with nothing to change.
    await admin.getByRole("combobox", { name: "Role" }).selectOption("admin");
    await admin.getByRole("button", { name: "Change role" }).click();
    const dialog = admin.getByRole("dialog", { name: "Change this person's role?" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    // The dialog's `close` event (which puts the picker back) is a task after the dialog hides: waited for, not raced.
    await expect.poll(() => admin.getByRole("combobox", { name: "Role" }).inputValue()).toBe("user");
    expect(await admin.getByRole("button", { name: "Change role" }).isDisabled()).toBe(true);

    await admin.getByRole("combobox", { name: "Role" }).selectOption("instructor");
    await admin.getByRole("button", { name: "Change role" }).click();
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("Instructor");
    // In no group: nothing to say about groups.
    expect(await dialog.textContent()).not.toContain("student in");
    await dialog.getByRole("button", { name: "Change role" }).click();
    await toast(admin, "Hana Promote is now: Instructor.");
    expect(await admin.locator(".role-badge").first().textContent()).toBe("Instructor");
    expect(await admin.getByRole("combobox", { name: "Role" }).inputValue()).toBe("instructor");

    const promoted = await newPage();
    await signIn(promoted.context(), user);
    const res = await promoted.goto("/instructor");
    expect(res?.status()).toBe(200);
    expect(await promoted.locator("h1").textContent()).toBe("Your groups");
  });

  it("refuses to demote the last admin, with the reason", async () => {
    const page = await newPage();
    const problems = allowStatus(page, 409, "/dashboard/admin/allStudent/student/");
    await signIn(page.context(), DEMO.admin);
    await page.goto("/dashboard/admin/allStudent?role=admin");
    await page.getByRole("link", { name: DEMO.admin.name }).click();
    await page.getByText("This is your own account.").waitFor();
    await page.getByRole("combobox", { name: "Role" }).selectOption("user");
    await page.getByRole("button", { name: "Change role" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Change role" }).click();
    await page.getByRole("alert").filter({ hasText: "The last admin cannot be removed or demoted." }).waitFor();
    expect(await page.getByRole("combobox", { name: "Role" }).inputValue()).toBe("admin");
    expect(problems).toEqual([]);
  });

  it("deletes a user after confirming", async () => {
    const user = await createVerifiedUser("remove", "Rami Remove");
    const page = await newPage({ width: 375 });
    await signIn(page.context(), DEMO.admin);
    await page.goto(`/dashboard/admin/allStudent?search=${encodeURIComponent(user.email)}`);
    await page.getByRole("link", { name: "Rami Remove" }).click();
    await page.getByRole("button", { name: "Delete user" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this user?" });
    await dialog.getByRole("button", { name: "Delete user" }).click();
    await page.waitForURL(/\/dashboard\/admin\/allStudent$/);
    await page.getByText("Rami Remove was deleted.").waitFor();
    // Said once: not on a reload, and not by a link that names someone (who was never deleted).
    await page.reload();
    await page.getByRole("heading", { level: 1 }).waitFor();
    expect(await page.getByText("Rami Remove was deleted.").count()).toBe(0);
    await page.goto("/dashboard/admin/allStudent?deleted=Sara%20Mahmoud");
    await page.getByRole("heading", { level: 1 }).waitFor();
    expect(await page.getByText("was deleted").count()).toBe(0);
    await page.goto(`/dashboard/admin/allStudent?search=${encodeURIComponent(user.email)}`);
    // The empty state on screen (the list's live region says the same words to a screen reader, out of sight).
    await page.locator(".empty-title", { hasText: "No users match your search." }).waitFor();
  });
});
