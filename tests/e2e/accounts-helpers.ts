/**
 * Helpers for the account browser tests: fresh users through the real API and the dev mailbox, signing a
 * browser context in by minting a session (the login form has its own tests), and a narrow allowance for the
 * one console error Chromium prints for an expected 4xx answer.
 */
import type { BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";
import { baseURL } from "./browser";

export const DEMO = {
  admin: { email: "admin@example.com", password: "demo-admin-pass", name: "Mona Admin" },
  instructor: { email: "instructor@example.com", password: "demo-instructor-pass", name: "Ahmed Hassan" },
  student: { email: "student@example.com", password: "demo-student-pass", name: "Nour Ali" },
} as const;

let counter = 0;
/** An address no other test uses. */
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.com`;
}

interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * The newest 6-digit code e-mailed to `to` whose subject matches, waiting for the background send.
 * `after` skips codes already seen (a second code for the same address).
 */
export async function mailedCode(to: string, subject: RegExp, after: string[] = []): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await fetch(`${baseURL()}/api/dev/mailbox?to=${encodeURIComponent(to)}`);
    const mails = (await res.json()) as Mail[];
    for (const mail of mails) {
      const code = subject.test(mail.subject) ? /\b(\d{6})\b/.exec(mail.text)?.[1] : undefined;
      if (code && !after.includes(code)) return code;
    }
    if (Date.now() > deadline) throw new Error(`no code e-mailed to ${to} (${mails.map((m) => m.subject).join(", ")})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export const VERIFY_SUBJECT = /verification code/i;
export const RESET_SUBJECT = /password reset code/i;

async function post(path: string, body: unknown, ip?: string): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (ip) headers["cf-connecting-ip"] = ip;
  return fetch(`${baseURL()}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
}

/**
 * An address of its own for each account the suite makes (TEST-NET-2/3, RFC 5737), as real students register from
 * their own phones: the suite makes more accounts than one address may ask codes for in 10 minutes (30), and those
 * limits are tested on their own.
 */
function ownAddress(): string {
  const host = 1 + Math.floor(Math.random() * 254);
  return Math.random() < 0.5 ? `198.51.100.${host}` : `203.0.113.${host}`;
}

export interface TestUser {
  name: string;
  email: string;
  password: string;
}

/** A verified account made through the API (register, the mailed code, verify). */
export async function createVerifiedUser(prefix: string, name = "Test Student"): Promise<TestUser> {
  const user = { name, email: uniqueEmail(prefix), password: "a-long-test-password" };
  const ip = ownAddress();
  const registered = await post("/api/users/register", { ...user, phone_number: "+201001234567", country: "EG" }, ip);
  expect(registered.status).toBe(201);
  const code = await mailedCode(user.email, VERIFY_SUBJECT);
  const verified = await post("/api/users/verify-email", { email: user.email, code }, ip);
  expect(verified.status).toBe(200);
  return user;
}

/** Signs a browser context in through the API (the cookie lands in the context's jar). */
export async function signIn(context: BrowserContext, user: { email: string; password: string }): Promise<void> {
  const res = await context.request.post("/api/users/login", { data: { email: user.email, password: user.password } });
  expect(res.status(), await res.text()).toBe(200);
}

/**
 * Chromium prints "Failed to load resource: ... status of N" for a document or fetch answered with 4xx.
 * Where a test expects exactly that answer, this replaces the page's console check with one that lets only
 * that status through for URLs containing `urlPart`. Returns the list of other problems (assert it is empty).
 */
export function allowStatus(page: Page, status: number, urlPart: string): string[] {
  return allowLoadError(page, `status of ${status}`, urlPart);
}

/**
 * As `allowStatus`, for any load error whose console text contains `text`, or one of several ("net::ERR_FAILED": no
 * answer at all).
 */
export function allowLoadError(page: Page, text: string | string[], urlPart: string): string[] {
  const texts = typeof text === "string" ? [text] : text;
  const problems: string[] = [];
  page.removeAllListeners("console");
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    if (texts.some((t) => msg.text().includes(t)) && msg.location().url.includes(urlPart)) return;
    problems.push(`${msg.location().url}: ${msg.text()}`);
  });
  return problems;
}
