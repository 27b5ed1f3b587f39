/**
 * Helpers for the group browser tests: API calls as a given user (an access token from POST /api/users/login)
 * and a fresh student who is already a member of a group (request + admin approval through the API), so
 * tests that change memberships never touch the demo accounts others rely on.
 */
import { expect, onTestFinished } from "vitest";
import { createVerifiedUser, type TestUser } from "./accounts-helpers";
import { baseURL } from "./browser";

export const ADMIN = { email: "admin@example.com", password: "demo-admin-pass" };
export const INSTRUCTOR = { email: "instructor@example.com", password: "demo-instructor-pass" };
export const STUDENT = { email: "student@example.com", password: "demo-student-pass" };

/** An access token for API calls (sent raw in Authorization, as the spec's client does). */
export async function accessToken(user: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${baseURL()}/api/users/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

/** One JSON API call with a token; returns status and body. */
export async function api<T = unknown>(token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${baseURL()}${path}`, {
    method,
    headers: { authorization: token, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** A fresh verified student who is an approved member of `groupSlug` (asked and approved through the API). */
export async function memberOf(groupSlug: string, prefix: string, name: string): Promise<TestUser> {
  const user = await createVerifiedUser(prefix, name);
  const asked = await api<{ request: { _id: string } }>(await accessToken(user), "POST", "/api/users/joinGroupRequest", { groupSlug });
  expect(asked.status).toBe(201);
  const decided = await api(await accessToken(ADMIN), "PUT", `/api/membership-requests/${asked.body.request._id}`, { decision: "approved" });
  expect(decided.status).toBe(200);
  // The demo groups have a capacity (30 seats in frontend-react): give the seat back when the test ends, so the
  // suite's order never decides whether a later test (or the attack replay) can still join.
  onTestFinished(async () => {
    await api(await accessToken(user), "POST", "/api/users/leave-group", { groupSlug });
  });
  return user;
}
