import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useBrowser } from "./browser";

/**
 * A refused submission answers 400 (its status is part of the contract), which Chromium reports as a
 * console error for that request. Only that one is allowed; any other console error still fails the test.
 */
function allowRefusedSubmission(page: Page): string[] {
  const problems: string[] = [];
  page.removeAllListeners("console");
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    if (/status of 400/.test(msg.text()) && new URL(msg.location().url).pathname.startsWith("/contact")) return;
    problems.push(msg.text());
  });
  return problems;
}

const fieldsetDisabled = (page: Page) => page.evaluate(() => document.querySelector<HTMLFieldSetElement>("fieldset.form-fields")!.disabled);

describe("contact form", () => {
  const newPage = useBrowser();

  it("sends a message: success toast, fields cleared, form re-enabled after 2 s", async () => {
    const page = await newPage();
    await page.goto("/contact");
    expect(await page.locator("h1").textContent()).toBe("Contact Us");
    expect(await page.locator("main a[href='mailto:hello@cohort.example']").count()).toBe(1);
    const submit = page.getByRole("button", { name: "Send Message" });
    const name = page.getByRole("textbox", { name: "Name" });
    const email = page.getByRole("textbox", { name: "Email" });
    const message = page.getByRole("textbox", { name: "Message" });
    expect(await email.getAttribute("type")).toBe("email");

    // Submit is disabled while the message is empty after trimming.
    await page.waitForFunction(() => (document.querySelector("main button[type=submit]") as HTMLButtonElement).disabled);
    await name.fill("Rana Adel");
    await email.fill("rana@example.com");
    await message.fill("   ");
    expect(await submit.isDisabled()).toBe(true);
    // ...and says why, beside it and to a screen reader.
    expect(await page.locator("#contact-send-hint").textContent()).toBe("Write your message to send it.");
    expect(await submit.getAttribute("aria-describedby")).toBe("contact-send-hint");
    // A keyboard never lands on a disabled button: the message field, where the keyboard is, says it too.
    expect(await message.getAttribute("aria-describedby")).toContain("contact-send-hint");
    await message.fill("Do you have evening groups for the React course?");
    expect(await submit.isDisabled()).toBe(false);
    expect(await page.locator("#contact-send-hint").count()).toBe(0);
    expect(await submit.getAttribute("aria-describedby")).toBeNull();

    await submit.click();
    const toast = page.locator(".toast-region .toast");
    await toast.waitFor();
    expect(await toast.textContent()).toContain("Thank you for contacting us! We'll get back to you soon.");
    expect(await page.locator(".toast-region").getAttribute("role")).toBe("status");
    expect(await name.inputValue()).toBe("");
    expect(await email.inputValue()).toBe("");
    expect(await message.inputValue()).toBe("");
    expect(await fieldsetDisabled(page)).toBe(true);
    expect(await name.isEditable()).toBe(false);
    await page.waitForFunction(() => !(document.querySelector("fieldset.form-fields") as HTMLFieldSetElement).disabled, undefined, { timeout: 4_000 });
    expect(await name.isEditable()).toBe(true);
  });

  it("keeps the values and shows the failure toast when the server refuses the message", async () => {
    const page = await newPage();
    const problems = allowRefusedSubmission(page);
    await page.goto("/contact");
    await page.waitForFunction(() => (document.querySelector("main button[type=submit]") as HTMLButtonElement).disabled);
    await page.getByRole("textbox", { name: "Name" }).fill("Rana Adel");
    // The browser's e-mail check accepts a host without a dot; the server's schema does not.
    await page.getByRole("textbox", { name: "Email" }).fill("rana@localhost");
    await page.getByRole("textbox", { name: "Message" }).fill("Hello there");
    await page.getByRole("button", { name: "Send Message" }).click();

    const toast = page.locator(".toast-region .toast");
    await toast.waitFor();
    expect(await toast.textContent()).toContain("Failed to send your message. Please try again.");
    expect(await toast.getAttribute("data-kind")).toBe("error");
    expect(await page.getByRole("textbox", { name: "Name" }).inputValue()).toBe("Rana Adel");
    expect(await page.getByRole("textbox", { name: "Email" }).inputValue()).toBe("rana@localhost");
    expect(await page.getByRole("textbox", { name: "Message" }).inputValue()).toBe("Hello there");
    expect(await page.getByRole("textbox", { name: "Email" }).getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#email-error").textContent()).toBe("Please enter a valid e-mail address.");
    expect(await page.getByRole("button", { name: "Send Message" }).isDisabled()).toBe(false);
    expect(await fieldsetDisabled(page)).toBe(false);
    expect(problems).toEqual([]);
  });
});
