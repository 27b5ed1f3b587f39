/**
 * Signing a browser context in without the login form (the form has its own tests): POST /api/users/login
 * through the context's own request client, so the httpOnly refresh cookie lands in the context's cookie jar
 * and every page of the context is signed in.
 */
import type { BrowserContext } from "playwright-core";

/** The seeded demo accounts (db/seed.ts). */
export const DEMO_LOGINS = {
  admin: { email: "admin@example.com", password: "demo-admin-pass" },
  instructor: { email: "instructor@example.com", password: "demo-instructor-pass" },
  student: { email: "student@example.com", password: "demo-student-pass" },
  sara: { email: "sara@example.com", password: "demo-student-pass" },
} as const;

export async function signIn(context: BrowserContext, email: string, password: string): Promise<void> {
  const res = await context.request.post("/api/users/login", { data: { email, password } });
  if (res.status() !== 200) throw new Error(`login as ${email} failed: ${res.status()} ${await res.text()}`);
}
