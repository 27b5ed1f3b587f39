import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { allowStatus, createVerifiedUser, DEMO, mailedCode, RESET_SUBJECT, uniqueEmail, VERIFY_SUBJECT } from "./accounts-helpers";
import { baseURL, gotoHydrated, useBrowser } from "./browser";
import { accessToken, ADMIN, api, INSTRUCTOR, memberOf } from "./groups-helpers";

const digitBoxes = (page: Page) => page.locator(".code-boxes input");
const boxValues = (page: Page) => digitBoxes(page).evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value).join(""));

/** Pastes text into the focused element the way a browser does (a paste event with clipboard data). */
async function paste(page: Page, text: string) {
  await page.evaluate((value) => {
    const data = new DataTransfer();
    data.setData("text/plain", value);
    document.activeElement!.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

async function logInWithForm(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log In", exact: true }).click();
}

describe("sign-up, e-mail verification and login", () => {
  const newPage = useBrowser();

  it("registers, verifies the address with the six boxes (typing, Backspace, paste) and logs in", async () => {
    const page = await newPage();
    const problems = allowStatus(page, 400, "/auth/verif-email");
    const email = uniqueEmail("signup");
    await page.goto("/auth/register");
    await page.getByLabel("Full name").fill("Salma Fathy");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("salma-password-1");
    await page.getByLabel("Confirm password").fill("salma-password-1");
    await page.getByLabel("Country").selectOption("SA");
    await page.getByLabel("Phone number").pressSequentially("05 12-34 5678 99");
    // Digits only, capped at Saudi Arabia's 9 after the trunk 0 typed first (dropped from the stored number).
    expect(await page.getByLabel("Phone number").inputValue()).toBe("0512345678");
    await page.getByRole("button", { name: "Sign up" }).click();

    await page.getByRole("heading", { name: "Welcome, Salma Fathy!" }).waitFor();
    expect(await page.locator("main").textContent()).toContain(email);
    // 2.5 s later the verification screen, carrying the address.
    await page.waitForURL(`**/auth/verif-email?email=${encodeURIComponent(email)}`);
    expect(await page.getByLabel("Email").inputValue()).toBe(email);
    const verify = page.getByRole("button", { name: "Verify", exact: true });
    expect(await verify.isDisabled()).toBe(true);
    expect(await page.getByText("Enter the full 6-digit code").count()).toBe(1);
    expect(await digitBoxes(page).first().getAttribute("autocomplete")).toBe("one-time-code");
    expect(await digitBoxes(page).first().getAttribute("inputmode")).toBe("numeric");

    const code = await mailedCode(email, VERIFY_SUBJECT);
    const wrong = code.slice(0, 5) + ((Number(code[5]) + 1) % 10);
    await digitBoxes(page).first().focus();
    await page.keyboard.type(wrong.slice(0, 3));
    // Typing advances; Backspace in the empty fourth box clears and returns to the third, then the second.
    await page.keyboard.press("Backspace");
    await page.keyboard.press("Backspace");
    expect(await boxValues(page)).toBe(wrong.slice(0, 1));
    await page.keyboard.type(wrong.slice(1));
    expect(await boxValues(page)).toBe(wrong);
    expect(await verify.isDisabled()).toBe(false);
    await verify.click();
    await page.getByRole("alert").filter({ hasText: "Verification failed" }).waitFor();
    expect(await boxValues(page)).toBe("");
    // The keyboard is back on the first box, and the box itself is described by the refusal (not only its group).
    const described = await page.evaluate(() => {
      const box = document.activeElement as HTMLInputElement | null;
      const ids = box?.getAttribute("aria-describedby")?.split(/\s+/) ?? [];
      return { name: box?.getAttribute("aria-label"), text: ids.map((id) => document.getElementById(id)?.textContent ?? "").join(" ") };
    });
    expect(described.name).toBe("Digit 1 of 6");
    expect(described.text).toContain("Verification failed");

    // A pasted code fills every box.
    await digitBoxes(page).first().focus();
    await paste(page, code);
    expect(await boxValues(page)).toBe(code);
    await verify.click();
    await page.getByText("Your e-mail is verified").waitFor();
    await page.waitForURL(`**/auth/login?email=${encodeURIComponent(email)}&verified=1`);
    expect(await page.getByLabel("Email").inputValue()).toBe(email);
    // A new member is told the address is confirmed, not welcomed back.
    expect(await page.getByRole("status").textContent()).toBe("Your e-mail address is confirmed.");
    expect(await page.locator(".auth-subtitle").textContent()).toBe("Welcome to Cohort! Log in with the password you chose to start.");

    await page.getByLabel("Password", { exact: true }).fill("salma-password-1");
    await page.getByRole("button", { name: "Log In", exact: true }).click();
    // A student without a course goes to My Courses (its empty state leads to the catalogue), not the sales page.
    await page.waitForURL(`${baseURL()}/my-courses`);
    const header = page.locator("header.site-header");
    await header.getByRole("button", { name: "Log out" }).waitFor();
    expect(await header.getByRole("link", { name: "Profile" }).count()).toBe(1);
    // Without an approved group there is no "My Courses".
    expect(await header.getByRole("link", { name: "My Courses" }).count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem("role"))).toBe("user");
    expect(await page.evaluate(() => localStorage.getItem("fingerprint"))).toMatch(/^[0-9a-f]{32}$/);

    await header.getByRole("link", { name: "Profile" }).click();
    await page.waitForURL(`${baseURL()}/profile`);
    expect(await page.locator("#details-title").textContent()).toBe("Salma Fathy");
    const detail = (label: string) => page.locator(".detail-row").filter({ hasText: label }).locator("dd");
    // Sent as +code + digits, the trunk 0 dropped and all nine digits after it kept.
    expect(await detail("Phone number").textContent()).toBe("+966512345678");
    expect(await detail("Country").textContent()).toBe("Saudi Arabia");
    expect(problems).toEqual([]);
  });

  it("brings a visitor who signed up to ask for a seat back to that course, through sign-up, verification and Log in, in a tab of its own each", async () => {
    const page = await newPage();
    await gotoHydrated(page, "/content/frontend-react");
    await page.getByRole("link", { name: "Log in to request a seat" }).click();
    await page.waitForURL("**/auth/login?redirectTo=*");
    await page.getByRole("link", { name: "Sign up" }).click();
    await page.waitForURL("**/auth/register?redirectTo=*");
    const email = uniqueEmail("seat");
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    await page.getByLabel("Full name").fill("Mariam Adel");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("mariam-password-1");
    await page.getByLabel("Confirm password").fill("mariam-password-1");
    await page.getByLabel("Country").selectOption("EG");
    await page.getByLabel("Phone number").pressSequentially("1012345678");
    // Already have an account? Log in: it carries the course too.
    expect(await page.locator(".auth-switch a").getAttribute("href")).toBe(`/auth/login?redirectTo=${encodeURIComponent("/content/frontend-react")}`);
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.waitForURL("**/auth/verif-email?**");
    const verifyUrl = new URL(page.url());
    expect(verifyUrl.searchParams.get("redirectTo")).toBe("/content/frontend-react");
    // The rest in a new tab (its session storage empty), as when the e-mail is read on the side.
    const next = await newPage();
    await gotoHydrated(next, `${verifyUrl.pathname}${verifyUrl.search}`);
    await digitBoxes(next).first().focus();
    await paste(next, await mailedCode(email, VERIFY_SUBJECT));
    await next.getByRole("button", { name: "Verify", exact: true }).click();
    await next.waitForURL("**/auth/login?**");
    expect(new URL(next.url()).searchParams.get("redirectTo")).toBe("/content/frontend-react");
    await next.getByLabel("Password", { exact: true }).fill("mariam-password-1");
    await next.getByRole("button", { name: "Log In", exact: true }).click();
    await next.waitForURL(`${baseURL()}/content/frontend-react`);
  });

  it("says a code is spent after 5 wrong tries, and a new code puts the keyboard back on the first box", async () => {
    const page = await newPage();
    const problems = allowStatus(page, 400, "/auth/verif-email");
    const user = { email: uniqueEmail("spent"), password: "spent-password-1" };
    const registered = await fetch(`${baseURL()}/api/users/register`, {
      method: "POST",
      headers: { "content-type": "application/json", "cf-connecting-ip": "198.51.100.77" },
      body: JSON.stringify({ name: "Spent Code", ...user, phone_number: "+201001234567", country: "EG" }),
    });
    expect(registered.status).toBe(201);
    const code = await mailedCode(user.email, VERIFY_SUBJECT);
    const wrong = code.slice(0, 5) + ((Number(code[5]) + 1) % 10);
    await gotoHydrated(page, `/auth/verif-email?${new URLSearchParams({ email: user.email })}`);
    const alert = page.getByRole("alert").filter({ hasText: "Verification failed" });
    for (let i = 1; i <= 5; i++) {
      await digitBoxes(page).first().focus();
      await paste(page, wrong);
      await page.getByRole("button", { name: "Verify", exact: true }).click();
      await expect.poll(async () => (await alert.count()) > 0 && (await boxValues(page)) === "").toBe(true);
      const spent = (await alert.textContent())!.includes("A code stops working after 5 wrong tries");
      // The fifth refusal says the code is spent; the four before say to check it.
      expect(spent, `try ${i}`).toBe(i === 5);
    }
    await page.getByRole("button", { name: "Send a new code" }).click();
    await page.getByText("a new code is on its way").waitFor();
    expect(await digitBoxes(page).first().evaluate((el) => el === document.activeElement)).toBe(true);
    // The new code works.
    await paste(page, await mailedCode(user.email, VERIFY_SUBJECT, [code]));
    await page.getByRole("button", { name: "Verify", exact: true }).click();
    await page.getByText("Your e-mail is verified").waitFor();
    expect(problems).toEqual([]);
  });

  it("names each password's Show button with its field, and the name follows what it does", async () => {
    const page = await newPage();
    await page.goto("/auth/register");
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    const show = page.getByRole("button", { name: /^Show / });
    expect(await show.evaluateAll((els) => els.map((el) => el.textContent))).toEqual(["Show Password", "Show Confirm password"]);
    await page.getByRole("button", { name: "Show Confirm password" }).click();
    expect(await page.locator("#register-confirm").getAttribute("type")).toBe("text");
    expect(await page.getByRole("button", { name: "Hide Confirm password" }).count()).toBe(1);
    expect(await page.locator("#register-password").getAttribute("type")).toBe("password");
  });

  it("checks the forms before sending them", async () => {
    const page = await newPage();
    await page.goto("/auth/register");
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.getByRole("alert").filter({ hasText: "Please fill out all fields." }).waitFor();
    expect(await page.getByLabel("Full name").getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByLabel("Full name").evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByLabel("Full name").fill("Short Pass");
    await page.getByLabel("Email").fill("short@example.com");
    await page.getByLabel("Password", { exact: true }).fill("short");
    await page.getByLabel("Confirm password").fill("short");
    await page.getByLabel("Phone number").fill("1001234567");
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.getByText("Password must be at least 10 characters.").waitFor();
    expect(await page.getByLabel("Password", { exact: true }).getAttribute("aria-describedby")).toContain("register-password-error");
    await page.getByLabel("Password", { exact: true }).fill("long-enough-password");
    await page.getByLabel("Confirm password").fill("long-enough-passwort");
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.getByText("Passwords do not match.").waitFor();
    // An address without its domain's ending and a number too short for any country: both said at once, before sending.
    const posts: string[] = [];
    page.on("request", (r) => void (r.method() === "POST" && posts.push(r.url())));
    await page.getByLabel("Confirm password").fill("long-enough-password");
    await page.getByLabel("Email").fill("short@example");
    await page.getByLabel("Phone number").fill("123");
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.getByText("Please enter a valid e-mail address.").waitFor();
    await page.getByText("Please enter a valid phone number.").waitFor();
    expect(await page.getByLabel("Email").evaluate((el) => el === document.activeElement)).toBe(true);
    expect(posts).toEqual([]);

    await page.goto("/auth/login");
    await page.getByRole("button", { name: "Forgot your password?" }).click();
    await page.getByText("Please enter your email.").waitFor();
    await logInWithForm(page, DEMO.student.email, "short");
    await page.getByText("Password must be at least 10 characters.").waitFor();
    expect(new URL(page.url()).pathname).toBe("/auth/login");
  });

  it("says when the e-mail or password is wrong", async () => {
    const page = await newPage();
    const problems = allowStatus(page, 400, "/auth/login");
    await page.goto("/auth/login");
    await logInWithForm(page, DEMO.student.email, "not-the-right-password");
    const alert = page.getByRole("alert").filter({ hasText: "The email or password is incorrect" });
    await alert.waitFor();
    expect(new URL(page.url()).pathname).toBe("/auth/login");
    expect(await page.getByLabel("Email").inputValue()).toBe(DEMO.student.email);
    expect(problems).toEqual([]);
  });

  it("says a refusal again when it repeats: the same wrong password twice, the same short password twice (Enter in the field)", async () => {
    const user = await createVerifiedUser("said-again");
    const page = await newPage();
    const problems = allowStatus(page, 400, "/auth/login");
    await gotoHydrated(page, "/auth/login");
    // What the page's assertive region says, in order (it is emptied between two sayings).
    await page.evaluate(() => {
      const region = document.getElementById("said-again")!;
      (window as unknown as { said: string[] }).said = [];
      new MutationObserver(() => {
        if (region.textContent) (window as unknown as { said: string[] }).said.push(region.textContent);
      }).observe(region, { childList: true, characterData: true, subtree: true });
    });
    const said = () => page.evaluate(() => (window as unknown as { said: string[] }).said);
    // Enter sends the form only while its button is enabled (not while the last answer's page data still loads).
    const ready = () => page.waitForFunction(() => document.querySelector<HTMLButtonElement>("button[value=login]")?.disabled === false);
    await page.getByLabel("Email").fill(user.email);
    const password = page.getByLabel("Password", { exact: true });
    await password.fill("not-the-right-password");
    await password.press("Enter");
    const wrong = page.getByRole("alert").filter({ hasText: "The email or password is incorrect" });
    await wrong.waitFor();
    await wrong.evaluate((el) => el.setAttribute("data-first", ""));
    await ready();
    // The same refusal again: a new alert, which a screen reader reads like the first (the same one, unchanged, it would not).
    await password.press("Enter");
    await page.locator("[role=alert]:not([data-first])").filter({ hasText: "The email or password is incorrect" }).waitFor();

    // The form's own check, with the keyboard already in the field: its error is said each time.
    await ready();
    await password.fill("short");
    await password.press("Enter");
    await page.waitForFunction(() => (window as unknown as { said: string[] }).said.length === 1);
    await password.press("Enter");
    await page.waitForFunction(() => (window as unknown as { said: string[] }).said.length === 2);
    expect(await said()).toEqual(["Password must be at least 10 characters.", "Password must be at least 10 characters."]);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("login-password");
    expect(problems).toEqual([]);
  });

  it("says a refused field again in Arabic when the keyboard is already in it", async () => {
    const page = await newPage({ width: 375, height: 800 });
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await gotoHydrated(page, "/auth/login");
    await page.locator("#login-email").fill(DEMO.student.email);
    await page.locator("#login-password").fill("قصيرة");
    await page.locator("#login-password").press("Enter");
    const region = page.locator("#said-again");
    await page.waitForFunction(() => document.getElementById("said-again")?.textContent !== "");
    expect(await region.textContent()).toBe("يجب أن تتكوّن كلمة المرور من 10 أحرف على الأقل.");
    expect(await region.getAttribute("aria-live")).toBe("assertive");
  });

  it("logs in when Enter is pressed in the password field (not the forgot-password button)", async () => {
    const page = await newPage();
    await page.goto("/auth/login");
    await page.getByLabel("Email").fill(DEMO.student.email);
    await page.getByLabel("Password", { exact: true }).fill(DEMO.student.password);
    await page.getByLabel("Password", { exact: true }).press("Enter");
    await page.waitForURL(`${baseURL()}/course/frontend-react`);
    await page.locator("header.site-header").getByRole("button", { name: "Log out" }).waitFor();
  });

  it("sends each role to its own area after login; a student with one course straight to it", async () => {
    // The demo student is approved in one group (frontend-react) and pending in another (db/seed.ts).
    for (const [who, path] of [
      ["admin", "/dashboard"],
      ["instructor", "/instructor"],
      ["student", "/course/frontend-react"],
    ] as const) {
      const page = await newPage();
      await page.goto("/auth/login");
      await logInWithForm(page, DEMO[who].email, DEMO[who].password);
      await page.waitForURL(`${baseURL()}${path}`);
      await page.locator("header.site-header").getByRole("button", { name: "Log out" }).waitFor();
      expect(await page.evaluate(() => localStorage.getItem("role"))).toBe(who === "student" ? "user" : who);
    }
  });

  it("resets a forgotten password with the mailed code, then logs in with the new one", async () => {
    const user = await createVerifiedUser("reset");
    const page = await newPage();
    await page.goto("/auth/login");
    await page.getByLabel("Email").fill(user.email);
    await page.getByRole("button", { name: "Forgot your password?" }).click();
    await page.getByText("Password reset email sent. Please check your inbox.").waitFor();
    await page.waitForURL(`**/auth/forget-password?email=${encodeURIComponent(user.email)}`);
    expect(await page.getByLabel("Email").inputValue()).toBe(user.email);

    const code = await mailedCode(user.email, RESET_SUBJECT);
    const codeField = page.getByLabel("Reset code");
    await codeField.pressSequentially(`${code.slice(0, 3)}x${code.slice(3)}9`);
    // Digits only, six at most, shown with spaces.
    expect(await codeField.inputValue()).toBe(code.split("").join(" "));
    await page.getByLabel("New password").fill("brand-new-password");
    await page.getByRole("button", { name: "Reset password" }).click();
    await page.getByText("Reset Successful , Please Login").waitFor();
    await page.waitForURL(`**/auth/login?email=${encodeURIComponent(user.email)}`);
    await page.getByLabel("Password", { exact: true }).fill("brand-new-password");
    await page.getByRole("button", { name: "Log In", exact: true }).click();
    await page.waitForURL(`${baseURL()}/my-courses`);
    await page.locator("header.site-header").getByRole("button", { name: "Log out" }).waitFor();
  });

  it("sends a code from the reset page itself when it is opened without one, then waits 30 s before another", async () => {
    const user = await createVerifiedUser("resetdirect");
    const page = await newPage();
    await page.goto("/auth/forget-password");
    await page.getByText("No code, or has it expired? Codes last 10 minutes.").waitFor();
    const sendCode = page.getByRole("button", { name: "Send a new code" });
    // No e-mail yet: said by the page, nothing sent, focus on the e-mail field.
    await sendCode.click();
    await page.getByText("Please enter your email.").waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("email");
    await page.getByLabel("Email").fill(user.email);
    // A code typed before a new one is sent is cleared: it belonged to a code the new one replaces.
    await page.getByLabel("Reset code").fill("111111");
    await sendCode.click();
    await page.getByRole("status").filter({ hasText: "Password reset email sent. Please check your inbox." }).waitFor();
    expect(await page.getByLabel("Reset code").inputValue()).toBe("");
    // Focus moves to the code; the button counts down from 30 s before it can send again.
    expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("resetCode");
    const waiting = page.getByRole("button", { name: /^Send a new code \(\d+ s\)$/ });
    expect(Number((await waiting.textContent())!.match(/\d+/)![0])).toBeGreaterThanOrEqual(28);
    expect(await waiting.isDisabled()).toBe(true);

    const code = await mailedCode(user.email, RESET_SUBJECT);
    await page.getByLabel("Reset code").fill(code);
    await page.getByLabel("New password").fill("reset-from-the-page");
    // Enter in a field resets the password (the first submit button), it does not ask for another code.
    await page.getByLabel("New password").press("Enter");
    await page.getByText("Reset Successful , Please Login").waitFor();
    await page.waitForURL(`**/auth/login?email=${encodeURIComponent(user.email)}`);
    await page.getByLabel("Password", { exact: true }).fill("reset-from-the-page");
    await page.getByRole("button", { name: "Log In", exact: true }).click();
    await page.waitForURL(`${baseURL()}/my-courses`);
  });

  it("rejects a wrong reset code with the spec's words", async () => {
    const user = await createVerifiedUser("badreset");
    const page = await newPage();
    const problems = allowStatus(page, 400, "/auth/forget-password");
    await page.goto(`/auth/forget-password?email=${encodeURIComponent(user.email)}`);
    await page.getByLabel("Reset code").fill("12345");
    await page.getByLabel("New password").fill("brand-new-password");
    await page.getByRole("button", { name: "Reset password" }).click();
    await page.getByText("Must be 6 digits").waitFor();
    await page.getByLabel("Reset code").fill("123456");
    await page.getByRole("button", { name: "Reset password" }).click();
    await page.getByRole("alert").filter({ hasText: "Error: Invalid Reset Code" }).waitFor();
    expect(problems).toEqual([]);
  });
});

/**
 * Issue 20: a student with several courses lands on My Courses, and a signed-out QR attendance scan reaches the login
 * page, which says (in the reader's language) that signing in finishes the check-in; signing in does.
 */
describe("after login", () => {
  const newPage = useBrowser();

  it("sends a student with two courses to My Courses", async () => {
    const user = await memberOf("frontend-react", "two-courses", "Two Courses");
    const asked = await api<{ request: { _id: string } }>(await accessToken(user), "POST", "/api/users/joinGroupRequest", { groupSlug: "backend-node" });
    expect(asked.status).toBe(201);
    expect((await api(await accessToken(ADMIN), "PUT", `/api/membership-requests/${asked.body.request._id}`, { decision: "approved" })).status).toBe(200);
    const page = await newPage();
    await page.goto("/auth/login");
    await logInWithForm(page, user.email, user.password);
    await page.waitForURL(`${baseURL()}/my-courses`);
    await page.locator("h1", { hasText: "My Courses" }).waitFor();
  });

  for (const lang of ["en", "ar"] as const) {
    it(`a signed-out QR scan says on the login page that signing in finishes the check-in (${lang === "en" ? "English" : "Arabic"})`, async () => {
      const stamp = Date.now().toString(36);
      const token = await accessToken(INSTRUCTOR);
      const lecture = (await api<{ slug: string }>(token, "POST", "/api/lectures/group/frontend-react", { title: `QR login ${lang} ${stamp}`, published: true })).body;
      const opened = await api<{ session: { code: string } }>(token, "POST", `/api/lectures/${lecture.slug}/attendance/open`, { rotateSeconds: 0, durationMinutes: 30 });
      expect(opened.status).toBe(200);
      const student = await memberOf("frontend-react", `qr-${lang}`, `QR ${lang} ${stamp}`);

      const page = await newPage({ width: 375, height: 740 });
      await page.context().addCookies([{ name: "lang", value: lang, url: baseURL() }]);
      await page.goto(`/attend/${lecture.slug}?code=${opened.body.session.code}`);
      await page.waitForURL((url) => url.pathname === "/auth/login");
      await page.waitForSelector("html[data-hydrated]", { state: "attached" });
      const notice = page.locator("#login-check-in");
      expect(await notice.textContent()).toBe(
        lang === "en" ? "Your attendance code was accepted. Log in to finish checking in to the lecture." : "قُبل رمز الحضور. سجّل الدخول لإتمام تسجيل حضورك في المحاضرة.",
      );
      expect(await page.locator("main form.form-fields").getAttribute("aria-describedby")).toContain("login-check-in");
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
      await page.locator('input[name="email"]').fill(student.email);
      await page.locator('input[name="password"]').fill(student.password);
      await page.getByRole("button", { name: lang === "en" ? "Log In" : "تسجيل الدخول", exact: true }).click();
      await page.waitForURL((url) => url.pathname === `/course/frontend-react/lecture/${lecture.slug}`);
      const state = await api<{ status: string | null }>(await accessToken(student), "GET", `/api/lectures/${lecture.slug}/get-user-attendance-status-in-group`);
      expect(state.body.status).toBe("present");
    });
  }

  it("keeps the page that asked to sign in through a sign-up opened in another tab, for the first login to go back to", async () => {
    const page = await newPage();
    await page.goto("/auth/login?redirectTo=%2Fcontent%2Ffrontend-react");
    const signUp = page.getByRole("link", { name: "Sign up" });
    await expect.poll(() => signUp.getAttribute("href")).toBe("/auth/register?redirectTo=%2Fcontent%2Ffrontend-react");
    // Another tab (its own session storage): the register page remembers it there.
    const other = await page.context().newPage();
    await other.goto((await signUp.getAttribute("href"))!);
    await expect.poll(() => other.evaluate(() => sessionStorage.getItem("redirect"))).toBe("/content/frontend-react");
    // Never a foreign address.
    const third = await page.context().newPage();
    await third.goto("/auth/register?redirectTo=https%3A%2F%2Fevil.example%2F");
    await third.waitForLoadState("networkidle");
    expect(await third.evaluate(() => sessionStorage.getItem("redirect"))).toBeNull();
  });

  it("says nothing of a check-in on an ordinary login", async () => {
    const page = await newPage();
    await page.goto("/auth/login?redirectTo=%2Fprofile");
    expect(await page.locator("#login-check-in").count()).toBe(0);
  });
});
