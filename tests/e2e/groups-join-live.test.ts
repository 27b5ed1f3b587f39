import { describe, expect, it } from "vitest";
import { createVerifiedUser } from "./accounts-helpers";
import { baseURL, gotoHydrated, useBrowser } from "./browser";
import { accessToken, api, INSTRUCTOR } from "./groups-helpers";
import { signIn } from "./session";

interface Mail {
  subject: string;
  text: string;
}

async function waitForMail(to: string, subject: RegExp): Promise<Mail> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mails = (await (await fetch(`${baseURL()}/api/dev/mailbox?to=${encodeURIComponent(to)}`)).json()) as Mail[];
    const mail = mails.find((m) => subject.test(m.subject));
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject}: ${mails.map((m) => m.subject).join(", ")}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("joining a group, decided live in the instructor's inbox", () => {
  const newPage = useBrowser();

  it("a new student's request appears in the open inbox without a reload; approval e-mails, notifies and opens My Courses", async () => {
    const name = `Live Joiner ${Date.now().toString(36)}`;
    const student = await createVerifiedUser("live-joiner", name);

    // The instructor already has the inbox open, connected live.
    const inbox = await newPage();
    await signIn(inbox.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await inbox.goto("/instructor/email-request");
    await inbox.locator('.live-status[data-status="open"]').waitFor();
    expect(await inbox.locator(".request-card", { hasText: name }).count()).toBe(0);

    // The student asks to join from the course page, with a note.
    const page = await newPage();
    await signIn(page.context(), student.email, student.password);
    await page.goto("/content/frontend-react");
    await page.getByRole("button", { name: "Request to join" }).click();
    await page.getByLabel("Message to the instructor (optional)").fill("I build websites at work and want to learn React properly.");
    await page.getByRole("button", { name: "Send request" }).click();
    await expect.poll(() => page.getByRole("button", { name: "Request pending" }).isDisabled()).toBe(true);
    expect(await page.locator('[data-slot="join"] [role="status"]').textContent()).toContain("Your request was sent");
    // The form and the button that had the focus are gone: the focus is on what the request is now, not the page.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id === document.querySelector("[data-slot=join] button[disabled]")?.getAttribute("aria-describedby"))).toBe(true);

    // It arrives in the instructor's inbox live, highlighted, with the note.
    const card = inbox.locator(".request-card", { hasText: name });
    await card.waitFor();
    expect(await card.getAttribute("data-fresh")).toBe("true");
    expect(await card.textContent()).toContain("I build websites at work");
    expect(await card.textContent()).toContain(student.email);
    expect(await card.getByRole("link", { name: "Frontend Development with React" }).count()).toBe(1);
    const approve = card.getByRole("button", { name: "Approve", exact: true });
    await approve.focus();
    await inbox.keyboard.press("Enter");
    await card.waitFor({ state: "detached" });
    // The card went with the button that had the focus: the focus is on the next request's name, or the count.
    await expect.poll(() => inbox.evaluate(() => document.activeElement?.matches(".request-name, .gresult-count") ?? false)).toBe(true);
    await expect.poll(() => inbox.locator('.inbox [role="status"]').textContent()).toContain(`${name} was approved for Frontend Development with React.`);

    // The student gets the e-mail and the in-app notification.
    const mail = await waitForMail(student.email, /was approved/);
    expect(mail.subject).toBe('Your request to join "Frontend Development with React" was approved');
    const token = await accessToken(student);
    const { status, body } = await api<{ notifications: { kind: string; link: string | null }[] }>(token, "GET", "/api/notifications");
    expect(status).toBe(200);
    expect(body.notifications.find((n) => n.kind === "join-decision")?.link).toBe("/course/frontend-react");

    // The course is in My Courses, and the header now offers My Courses.
    await page.goto("/my-courses");
    await page.getByRole("heading", { name: "Frontend Development with React" }).waitFor();
    const nav = page.getByRole("navigation", { name: "Main" });
    expect(await nav.getByRole("link", { name: "My Courses" }).count()).toBe(1);
    await page.getByRole("link", { name: "Open course" }).click();
    await page.waitForURL("**/course/frontend-react");
    await expect.poll(() => page.locator("h1").textContent()).toBe("Frontend Development with React");
  });

  it("Reject asks first (in Arabic, on a phone): cancelled, nothing is sent; confirmed, the student is told", async () => {
    const name = `Rejected Joiner ${Date.now().toString(36)}`;
    const student = await createVerifiedUser("rejected-joiner", name);
    const asked = await api(await accessToken(student), "POST", "/api/users/joinGroupRequest", { groupSlug: "frontend-react" });
    expect(asked.status).toBe(201);

    const inbox = await newPage({ width: 375, height: 780 });
    await inbox.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(inbox.context(), INSTRUCTOR.email, INSTRUCTOR.password);
    await gotoHydrated(inbox, "/instructor/email-request");
    const card = inbox.locator(".request-card", { hasText: name });
    await card.getByRole("button", { name: "رفض", exact: true }).click();
    const dialog = inbox.getByRole("dialog", { name: `رفض طلب ${name} للانضمام إلى Frontend Development with React؟` });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("يمكنه طلب مقعد مرة أخرى");
    // Cancelled: the request is still waiting and the student has heard nothing.
    await inbox.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    expect(await card.count()).toBe(1);
    const mailsTo = async () => (await (await fetch(`${baseURL()}/api/dev/mailbox?to=${encodeURIComponent(student.email)}`)).json()) as Mail[];
    expect((await mailsTo()).filter((m) => /not approved/.test(m.subject))).toEqual([]);

    // Confirmed: the card goes, the inbox says so, and the student is e-mailed.
    await card.getByRole("button", { name: "رفض", exact: true }).click();
    await dialog.getByRole("button", { name: "ارفض الطلب" }).click();
    await card.waitFor({ state: "detached" });
    // The dialog's opener went with the card: the focus is on the next request's name, or the count, not the page.
    await expect.poll(() => inbox.evaluate(() => document.activeElement?.matches(".request-name, .gresult-count") ?? false)).toBe(true);
    await expect.poll(() => inbox.locator('.inbox [role="status"]').textContent()).toContain(`رُفض طلب ${name} للانضمام إلى Frontend Development with React.`);
    const mail = await waitForMail(student.email, /not approved/);
    expect(mail.subject).toBe('Your request to join "Frontend Development with React" was not approved');
  });

  it("on a phone, a double click on Request to join opens the form and sends nothing (its second click lands on Send)", async () => {
    const student = await createVerifiedUser("double-joiner", `Double Joiner ${Date.now().toString(36)}`);
    const page = await newPage({ width: 375, height: 800 });
    await signIn(page.context(), student.email, student.password);
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await gotoHydrated(page, "/content/backend-node");
    await page.getByRole("button", { name: "اطلب الانضمام" }).dblclick();
    await page.waitForTimeout(500);
    expect(await page.getByRole("button", { name: "أرسل الطلب" }).count()).toBe(1);
    expect(await page.getByRole("button", { name: "الطلب قيد المراجعة" }).count()).toBe(0);
  });
});
