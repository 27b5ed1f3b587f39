/**
 * The viewer hint (worker/auth/viewer-hint.ts, ADR 0030): a signed-in page starts as the viewer its signed cookie
 * names and reads the session in the same call to D1 as the page's reads; the page is only ever sent for the viewer
 * the session names now. Each test here would pass a page to the wrong person (or not at all) if the check after
 * rendering were dropped or loosened.
 */
import { SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { addMember, call, createGroup, createUser, DEFAULT_PASSWORD, HINT_COOKIE, hintSetBy, signIn } from "./factories";
import { db, unique } from "./helpers";


async function visit(path: string, cookie: string) {
  const res = await call(path, { cookie });
  const body = await res.text();
  const setHint = hintSetBy(res);
  return { res, status: res.status, body, setHint, hint: setHint ? setHint.split(";")[0]! : null, trips: Number(res.headers.get("x-d1-round-trips")) };
}

/** A member of a group, signed in, with the hint their first page set. */
async function memberWithHint(name = `Hala ${unique("n")}`) {
  const user = await createUser({ name });
  const group = await createGroup({});
  await addMember(user, group);
  const session = await signIn(user);
  const first = await visit("/my-courses", session.cookie);
  expect(first.status).toBe(200);
  expect(first.hint).not.toBeNull();
  return { user, group, session, hint: first.hint! };
}

describe("the viewer hint", () => {
  it("is set by a signed-in page as an httpOnly, SameSite=Lax cookie, and never for a visitor", async () => {
    const { setHint, hint } = await visit("/my-courses", (await signIn(await createUser())).cookie);
    expect(hint).not.toBeNull();
    expect(setHint).toMatch(/; HttpOnly/);
    expect(setHint).toMatch(/; SameSite=Lax/);
    expect(setHint).toMatch(/; Max-Age=2592000/);
    const anonymous = await call("/courses");
    await anonymous.text();
    expect(hintSetBy(anonymous)).toBeNull();
  });

  it("saves a signed-in page one call to D1, and is not set again while it still names the viewer", async () => {
    const { group, session, hint } = await memberWithHint();
    const path = `/course/${group.slug}`;
    await visit(path, session.cookie);
    const without = await visit(path, session.cookie);
    const withHint = await visit(path, `${session.cookie}; ${hint}`);
    expect(withHint.status).toBe(200);
    expect(withHint.trips).toBe(without.trips - 1);
    expect(withHint.setHint).toBeNull();
  });

  it("naming someone else is not believed: the page is the refresh cookie's owner's, and the hint is replaced", async () => {
    const alice = await memberWithHint(`Alice ${unique("n")}`);
    const bob = await memberWithHint(`Bob ${unique("n")}`);
    // Bob's browser sends Alice's (genuine, signed) hint beside his own session.
    const page = await visit(`/course/${bob.group.slug}`, `${bob.session.cookie}; ${alice.hint}`);
    expect(page.status).toBe(200);
    expect(page.body.includes(bob.user.name)).toBe(true);
    expect(page.body.includes(alice.user.name)).toBe(false);
    expect(page.hint).not.toBeNull();
    expect(page.hint).not.toBe(alice.hint);
    // And Alice's group stays closed to Bob, hint or not.
    const other = await visit(`/course/${alice.group.slug}`, `${bob.session.cookie}; ${alice.hint}`);
    expect(other.status).toBe(403);
    expect(other.body.includes(alice.user.name)).toBe(false);
  });

  it("with a forged signature is ignored and replaced", async () => {
    const { group, session, hint } = await memberWithHint();
    const [header, payload] = hint.slice(`${HINT_COOKIE}=`.length).split(".");
    const forged = `${HINT_COOKIE}=${header}.${payload}.${"A".repeat(43)}`;
    const page = await visit(`/course/${group.slug}`, `${session.cookie}; ${forged}`);
    expect(page.status).toBe(200);
    expect(page.hint).not.toBeNull();
    expect(page.hint).not.toBe(forged);
  });

  it("of an admin whose role was taken away does not open an admin page", async () => {
    const admin = await createUser({ role: "admin", name: `Admin ${unique("n")}` });
    const session = await signIn(admin);
    const first = await visit("/dashboard/admin/allGroups", session.cookie);
    expect(first.status).toBe(200);
    await db().update(s.users).set({ role: "user" }).where(eq(s.users.id, admin.id));
    const after = await visit("/dashboard/admin/allGroups", `${session.cookie}; ${first.hint}`);
    expect(after.status).not.toBe(200);
    // The new hint names the new role: the next page starts right.
    expect(after.hint).not.toBeNull();
    expect(after.hint).not.toBe(first.hint);
  });

  it("of a session signed out elsewhere sends the browser to log in and clears the hint", async () => {
    const { group, session, hint, user } = await memberWithHint();
    await db().update(s.sessions).set({ revokedAt: new Date() }).where(eq(s.sessions.userId, user.id));
    const page = await visit(`/course/${group.slug}`, `${session.cookie}; ${hint}`);
    expect(page.status).toBe(302);
    expect(page.res.headers.get("location")).toMatch(/^\/auth\/login\?redirectTo=/);
    expect(page.setHint).toMatch(new RegExp(`^${HINT_COOKIE}=; .*Max-Age=0`));
  });

  it("is cleared by logging out, with the session", async () => {
    const { session, hint } = await memberWithHint();
    const out = await call("/api/users/logout", { method: "POST", cookie: `${session.cookie}; ${hint}` });
    expect(out.status).toBe(200);
    const cleared = out.headers.getSetCookie();
    expect(cleared.some((c) => c.startsWith(`${HINT_COOKIE}=;`) && /Max-Age=0/.test(c))).toBe(true);
    expect(cleared.some((c) => c.startsWith("cohort_refresh=;") && /Max-Age=0/.test(c))).toBe(true);
  });

  it("is cleared by the header's Log out form too, with the session", async () => {
    const { session, hint } = await memberWithHint();
    const origin = "http://localhost";
    const out = await SELF.fetch(`${origin}/auth/logout`, {
      method: "POST",
      headers: { origin, cookie: `${session.cookie}; ${hint}`, "content-type": "application/x-www-form-urlencoded" },
      body: "",
      redirect: "manual",
    });
    expect(out.status).toBe(302);
    const cleared = out.headers.getSetCookie();
    expect(cleared.some((c) => c.startsWith(`${HINT_COOKIE}=;`) && /Max-Age=0/.test(c))).toBe(true);
    expect(cleared.some((c) => c.startsWith("cohort_refresh=;") && /Max-Age=0/.test(c))).toBe(true);
  });

  it("is cleared by deleting the account on the profile page, with the session", async () => {
    const { session, hint } = await memberWithHint();
    const origin = "http://localhost";
    const out = await SELF.fetch(`${origin}/profile`, {
      method: "POST",
      headers: { origin, cookie: `${session.cookie}; ${hint}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "delete", password: DEFAULT_PASSWORD }).toString(),
      redirect: "manual",
    });
    expect(out.status).toBe(302);
    const cleared = out.headers.getSetCookie();
    expect(cleared.some((c) => c.startsWith(`${HINT_COOKIE}=;`) && /Max-Age=0/.test(c))).toBe(true);
    expect(cleared.some((c) => c.startsWith("cohort_refresh=;") && /Max-Age=0/.test(c))).toBe(true);
  });

  it("shows a name changed elsewhere on the very next page", async () => {
    const { session, hint, user } = await memberWithHint(`Before ${unique("n")}`);
    const renamed = `After ${unique("n")}`;
    await db().update(s.users).set({ name: renamed }).where(eq(s.users.id, user.id));
    const page = await visit("/my-courses", `${session.cookie}; ${hint}`);
    expect(page.status).toBe(200);
    expect(page.body.includes(renamed)).toBe(true);
    expect(page.body.includes(user.name)).toBe(false);
  });
});
