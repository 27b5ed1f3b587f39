import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { addMember, call, COOKIE, createGroup, createUser, login, signIn, waitForMails, type ErrorBody, viewerOf } from "./factories";
import { db, gatedContext, serviceContext, unique } from "./helpers";
import { changePassword, changeRole } from "../../worker/services/users";
import { createGroup as createGroupAsAdmin, updateGroup } from "../../worker/services/groups-admin";
import type { ServiceContext } from "../../worker/context";

const userRow = async (id: string) => (await db().select().from(s.users).where(eq(s.users.id, id)))[0];

/** Makes `admins` the only admins in this file's database (tests run one at a time within a file). */
async function onlyAdmins(...ids: string[]) {
  await db().update(s.users).set({ role: "user" }).where(eq(s.users.role, "admin"));
  for (const id of ids) await db().update(s.users).set({ role: "admin" }).where(eq(s.users.id, id));
}

describe("GET /api/users/profile", () => {
  it("answers the caller with their groups and membership statuses", async () => {
    const me = await signIn(await createUser({ name: "Nour Profile" }));
    const approved = await createGroup();
    const pending = await createGroup();
    const notMine = await createGroup();
    await addMember(me.user, approved, "approved");
    await addMember(me.user, pending, "pending");
    await addMember(await createUser(), notMine, "approved");

    const res = await call("/api/users/profile", { token: me.accessToken });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as Record<string, unknown> & { groups: { _id: string }[] };
    expect(body).toMatchObject({
      _id: me.user.id,
      slug: me.user.slug,
      name: "Nour Profile",
      email: me.user.email,
      role: "user",
      phone_number: "+201001234567",
      emailVerified: true,
      hasPassword: true,
      googleLinked: false,
    });
    expect(body).not.toHaveProperty("passwordHash");
    expect(body.groups).toHaveLength(2);
    expect(body.groups).toEqual(
      expect.arrayContaining([
        { _id: approved.id, title: approved.title, slug: approved.slug, status: "approved" },
        { _id: pending.id, title: pending.title, slug: pending.slug, status: "pending" },
      ]),
    );
  });

  it("needs a signed-in caller", async () => {
    const res = await call("/api/users/profile");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: "Please log in first.", code: "unauthorized" });
  });
});

describe("PUT /api/users", () => {
  it("edits the caller's own name, phone and country, and nothing else", async () => {
    const me = await signIn(await createUser());
    const res = await call("/api/users", { method: "PUT", token: me.accessToken, body: { name: "  New Name ", phone_number: "+966 501112227", country: "SA", role: "admin", email: "x@evil.example" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: "New Name", phone_number: "+966501112227", country: "SA", role: "user", email: me.user.email });
    expect(await userRow(me.user.id)).toMatchObject({ name: "New Name", phoneNumber: "+966501112227", role: "user", email: me.user.email });
  });

  it("keeps the phone number and the country a pair: one changed alone is checked against the other", async () => {
    const me = await signIn(await createUser());
    const put = (body: unknown) => call("/api/users", { method: "PUT", token: me.accessToken, body });
    const us = "Enter a phone number of the chosen country: +1 and at most 10 digits after it.";
    // The factory's number is Egyptian: the United States alone does not fit it.
    const alone = await put({ country: "US" });
    expect(alone.status).toBe(400);
    expect(((await alone.json()) as ErrorBody).fields?.phone_number).toBe(us);
    expect(await userRow(me.user.id)).toMatchObject({ phoneNumber: "+201001234567", country: null });
    expect((await put({ country: "US", phone_number: "+1 202 555 0123" })).status).toBe(200);
    // Now a US number is stored: an Egyptian number alone does not fit the stored country; eleven US digits neither.
    expect((await put({ phone_number: "+201001234567" })).status).toBe(400);
    expect((await put({ phone_number: "+120255501234" })).status).toBe(400);
    expect(await userRow(me.user.id)).toMatchObject({ phoneNumber: "+12025550123", country: "US" });
    // "Other" takes any international number.
    expect((await put({ country: "OTHER", phone_number: "+4915112345678" })).status).toBe(200);
  });

  it("refuses an invalid phone number", async () => {
    const me = await signIn(await createUser());
    const res = await call("/api/users", { method: "PUT", token: me.accessToken, body: { phone_number: "12345" } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).fields).toHaveProperty("phone_number");
  });
});

describe("PUT /api/users/password", () => {
  it("changes the password and signs the caller's other devices out", async () => {
    const user = await createUser();
    const here = await signIn(user);
    const elsewhere = await signIn(user);
    const res = await call("/api/users/password", { method: "PUT", token: here.accessToken, body: { currentPassword: user.password, newPassword: "a-changed-password" } });
    expect(res.status).toBe(200);
    expect((await call("/api/users/profile", { token: here.accessToken })).status).toBe(200);
    expect((await call("/api/users/profile", { token: elsewhere.accessToken })).status).toBe(401);
    expect((await login(user)).status).toBe(401);
    expect((await login({ email: user.email, password: "a-changed-password" })).status).toBe(200);
    await waitForMails(user.email, /password was changed/);
  });

  it("refuses the current password as the new one: no device signed out, and the profile form names the field with its own message", async () => {
    const user = await createUser();
    const here = await signIn(user);
    const elsewhere = await signIn(user);
    const res = await call("/api/users/password", { method: "PUT", token: here.accessToken, body: { currentPassword: user.password, newPassword: user.password } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as ErrorBody;
    expect(body.message).toBe("Choose a new password that differs from the current one.");
    expect(body.fields).toHaveProperty("newPassword");
    // Nothing happened: the other device is still signed in.
    expect((await call("/api/users/profile", { token: elsewhere.accessToken })).status).toBe(200);
    // A wrong current password is still told first (the rule says nothing about a password one does not know).
    const wrong = await call("/api/users/password", { method: "PUT", token: here.accessToken, body: { currentPassword: "not-the-password", newPassword: "not-the-password" } });
    expect(((await wrong.json()) as ErrorBody).message).toBe("The current password is incorrect.");
    // The profile form gets it as its own message (a dictionary key, shown in the reader's language) at the new password.
    const form = new FormData();
    form.set("intent", "password");
    form.set("currentPassword", user.password);
    form.set("newPassword", user.password);
    const page = await call("/profile.data", { method: "POST", form, cookie: `${here.cookie}; lang=ar` });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("account.password.same");
  });

  it("a change that lands between another's check and its write wins; the other is refused, not applied unchecked", async () => {
    const user = await createUser();
    const me = await signIn(user);
    const viewer = viewerOf(me);
    const change = (ctx: ServiceContext, newPassword: string) => changePassword(ctx, viewer, { currentPassword: user.password, newPassword });
    // The second change has checked the current password; the first lands before the second writes.
    const second = change(gatedContext(/^update "users"/, () => change(serviceContext().ctx, "first-new-password")), "second-new-password");
    await expect(second).rejects.toMatchObject({ status: 409, message: "Your password was changed a moment ago. Use the new one." });
    expect((await login({ email: user.email, password: "first-new-password" })).status).toBe(200);
    expect((await login({ email: user.email, password: "second-new-password" })).status).toBe(401);
  });

  it("refuses a wrong current password (400, so the client does not log out) and a short new one", async () => {
    const user = await createUser();
    const me = await signIn(user);
    const wrong = await call("/api/users/password", { method: "PUT", token: me.accessToken, body: { currentPassword: "not-my-password", newPassword: "a-changed-password" } });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ message: "The current password is incorrect.", code: "invalid_credentials", fields: { currentPassword: "The current password is incorrect." } });
    const short = await call("/api/users/password", { method: "PUT", token: me.accessToken, body: { currentPassword: user.password, newPassword: "short" } });
    expect(short.status).toBe(400);
    expect(((await short.json()) as ErrorBody).fields?.newPassword).toBe("Password must be at least 10 characters.");
    expect((await login(user)).status).toBe(200);
  });
});

describe("DELETE /api/user", () => {
  it("deletes the caller's account with the password; every session ends and the cookie is cleared", async () => {
    const user = await createUser();
    const here = await signIn(user);
    const elsewhere = await signIn(user);
    await addMember(user, await createGroup());
    const res = await call("/api/user", { method: "DELETE", token: here.accessToken, body: { password: user.password } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.getSetCookie()[0]).toMatch(new RegExp(`^${COOKIE}=; Path=/; Max-Age=0`));
    expect(await userRow(user.id)).toBeUndefined();
    expect(await db().$count(s.sessions, eq(s.sessions.userId, user.id))).toBe(0);
    expect(await db().$count(s.memberships, eq(s.memberships.userId, user.id))).toBe(0);
    for (const t of [here, elsewhere]) expect((await call("/api/users/profile", { token: t.accessToken })).status).toBe(401);
    expect((await login(user)).status).toBe(401);
  });

  it("refuses a wrong or missing password", async () => {
    const user = await createUser();
    const me = await signIn(user);
    const wrong = await call("/api/user", { method: "DELETE", token: me.accessToken, body: { password: "not-my-password" } });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as ErrorBody).code).toBe("invalid_credentials");
    const missing = await call("/api/user", { method: "DELETE", token: me.accessToken, body: {} });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as ErrorBody).fields?.password).toBe("Please enter your password.");
    expect(await userRow(user.id)).toBeDefined();
  });

  it("does not let the last admin delete their account", async () => {
    const admin = await createUser({ role: "admin" });
    await onlyAdmins(admin.id);
    const me = await signIn(admin);
    const res = await call("/api/user", { method: "DELETE", token: me.accessToken, body: { password: admin.password } });
    expect(res.status).toBe(409);
    expect(((await res.json()) as ErrorBody).code).toBe("last_admin");
    expect(await userRow(admin.id)).toBeDefined();
  });
});

describe("GET /api/users (admins)", () => {
  it("pages through users, newest first, with the total", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    const tag = unique("page");
    for (let i = 0; i < 5; i++) await createUser({ name: `${tag} person ${i}`, createdAt: new Date(Date.UTC(2026, 0, 1 + i)) });
    const res = await call(`/api/users?search=${tag}&page=2&pageSize=2`, { token: admin.accessToken });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as { users: { name: string; email: string }[]; total: number; page: number; pageSize: number };
    expect(body.total).toBe(5);
    expect(body.page).toBe(2);
    expect(body.pageSize).toBe(2);
    expect(body.users.map((u) => u.name)).toEqual([`${tag} person 2`, `${tag} person 1`]);
    expect(Object.keys(body.users[0]!).sort()).toEqual(["_id", "country", "createdAt", "email", "emailVerified", "name", "phone_number", "role", "slug"]);
  });

  it("searches names and e-mails case-insensitively and filters by role", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    const tag = unique("find");
    const byName = await createUser({ name: `Zeinab ${tag.toUpperCase()}` });
    const byEmail = await createUser({ email: `${tag}@school.example` });
    const instructor = await createUser({ role: "instructor", name: `Teacher ${tag}` });
    const found = async (q: string) =>
      ((await (await call(`/api/users?${q}`, { token: admin.accessToken })).json()) as { users: { _id: string }[] }).users.map((u) => u._id).sort();
    expect(await found(`search=${tag}`)).toEqual([byName.id, byEmail.id, instructor.id].sort());
    expect(await found(`search=${tag}&role=instructor`)).toEqual([instructor.id]);
  });

  it("treats % and _ in the search as plain characters", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    const res = await call(`/api/users?search=${encodeURIComponent("%")}`, { token: admin.accessToken });
    expect(((await res.json()) as { total: number }).total).toBe(0);
    const underscore = await createUser({ name: `Under_${unique("u")}` });
    const found = (await (await call(`/api/users?search=${encodeURIComponent("under_")}`, { token: admin.accessToken })).json()) as { users: { _id: string }[] };
    expect(found.users.map((u) => u._id)).toContain(underscore.id);
  });

  it("searches with the longest term the box takes (100 characters, Arabic ones too) without a 5xx", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    const name = `عبد الرحمن محمد عبد العزيز السيد ${unique("n").slice(-6)}`;
    const long = await createUser({ name });
    for (const term of [name, "ع".repeat(100), "a".repeat(100), "%".repeat(100)]) {
      const res = await call(`/api/users?search=${encodeURIComponent(term)}`, { token: admin.accessToken });
      expect(res.status, term).toBe(200);
      const ids = ((await res.json()) as { users: { _id: string }[] }).users.map((u) => u._id);
      expect(ids.includes(long.id), term).toBe(term === name);
    }
    // The admin's page with the same search: an answer, and nothing found says so, not "Showing 0-0 of 0".
    const page = await call(`/dashboard/admin/allStudent?search=${encodeURIComponent("ع".repeat(100))}`, { cookie: admin.cookie, headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("No users match your search.");
    expect(html).not.toContain("Showing 0-0 of 0");
  });

  it("names on an instructor's account page the groups they teach, which is why their role cannot change", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    const teacher = await createUser({ role: "instructor", name: `Teacher ${unique("t")}` });
    const taught = await createGroup({ instructorId: teacher.id, title: `Taught ${unique("g")}` });
    const draft = await createGroup({ instructorId: teacher.id, status: "draft", title: `Draft ${unique("g")}` });
    const notTheirs = await createGroup({ title: `Other ${unique("g")}` });
    const page = async (slug: string) => (await call(`/dashboard/admin/allStudent/student/${slug}`, { cookie: admin.cookie, headers: { accept: "text/html" } })).text();
    const html = await page(teacher.slug);
    expect(html).toContain("Groups they teach");
    // Each links to the group's settings, where another instructor can be given the group.
    for (const g of [taught, draft]) expect(html).toContain(`href="/dashboard/admin/group/${g.slug}/update"`);
    expect(html).not.toContain(notTheirs.slug);
    // The refusal the list explains.
    const form = new FormData();
    form.set("intent", "role");
    form.set("role", "user");
    const refused = await call(`/dashboard/admin/allStudent/student/${teacher.slug}`, { cookie: admin.cookie, form });
    expect(refused.status).toBe(409);
    // A student's page has no such card.
    expect(await page((await createUser()).slug)).not.toContain("Groups they teach");
  });

  it("keeps the admin's lists on screen for an address edited past them: a long search, a page past the end, a role that is none", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    const tag = unique("longq").replace(/[^a-z0-9]/gi, "");
    const named = await createUser({ name: `Person ${tag}` });
    const html = { cookie: admin.cookie, headers: { accept: "text/html" } };
    // 120 characters: the box keeps 100, so the list searches the first 100 (here: the name, padded), not nothing
    // and not everyone; the page is the list with its search box, not an error in English.
    const long = `${tag}${"x".repeat(120)}`;
    const searched = await call(`/dashboard/admin/allStudent?search=${encodeURIComponent(long)}`, html);
    expect(searched.status).toBe(200);
    const searchedHtml = await searched.text();
    expect(searchedHtml).toContain('id="users-search"');
    expect(searchedHtml).toContain(`value="${long.slice(0, 100)}"`);
    expect(searchedHtml).not.toContain("Too big");
    const groups = await call(`/dashboard/admin/allGroups?search=${encodeURIComponent(`${"z".repeat(99)}qq`)}`, html);
    expect(groups.status).toBe(200);
    // Nothing is called "zzz…z": the first 100 characters found no group (before, a long search listed every group).
    expect(await groups.text()).toContain("No groups match");
    // A search that names someone still finds them when the address carries more than the box takes.
    const found = await call(`/dashboard/admin/allStudent?search=${encodeURIComponent(`Person ${tag}`)}&role=all`, html);
    expect(await found.text()).toContain(named.name);
    // Page 50 of a list of one: the last page (the address keeps its search), not "Showing 981-1 of 1".
    const past = await call(`/dashboard/admin/allStudent?search=${encodeURIComponent(tag)}&page=50`, html);
    expect(past.status).toBe(302);
    expect(past.headers.get("location")).toBe(`/dashboard/admin/allStudent?search=${tag}`);
    // A role that is not one of the filters shows the students, as the page without one does.
    const odd = await call("/dashboard/admin/allStudent?role=owner", html);
    expect(odd.status).toBe(200);
    expect(await odd.text()).toMatch(/<h1[^>]*>Students<\/h1>/);
  });

  it.each([["pageSize=0"], ["pageSize=101"], ["page=0"], ["role=owner"]])("refuses the query %s with 400", async (q) => {
    const admin = await signIn(await createUser({ role: "admin" }));
    expect((await call(`/api/users?${q}`, { token: admin.accessToken })).status).toBe(400);
  });

  it("is for admins only", async () => {
    for (const role of ["user", "instructor"] as const) {
      const me = await signIn(await createUser({ role }));
      const res = await call("/api/users", { token: me.accessToken });
      expect(res.status).toBe(403);
      expect(((await res.json()) as ErrorBody).code).toBe("forbidden");
    }
    expect((await call("/api/users")).status).toBe(401);
  });
});

describe("DELETE /api/users (admins)", () => {
  it("deletes a user given as userId in the body, as ?id= or by slug; their sessions end", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    const a = await signIn(await createUser());
    const b = await createUser();
    const c = await createUser();
    expect((await call("/api/users", { method: "DELETE", token: admin.accessToken, body: { userId: a.user.id } })).status).toBe(200);
    expect((await call(`/api/users?id=${b.id}`, { method: "DELETE", token: admin.accessToken })).status).toBe(200);
    const res = await call("/api/users", { method: "DELETE", token: admin.accessToken, body: { userId: c.slug } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: "The user was deleted." });
    for (const u of [a.user, b, c]) expect(await userRow(u.id)).toBeUndefined();
    expect((await call("/api/users/profile", { token: a.accessToken })).status).toBe(401);
  });

  it("answers 404 for an unknown user and 400 when none is given", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    expect((await call("/api/users", { method: "DELETE", token: admin.accessToken, body: { userId: "no-such-user" } })).status).toBe(404);
    const none = await call("/api/users", { method: "DELETE", token: admin.accessToken });
    expect(none.status).toBe(400);
    expect(((await none.json()) as ErrorBody).code).toBe("validation_failed");
  });

  it("keeps the last admin", async () => {
    const admin = await createUser({ role: "admin" });
    await onlyAdmins(admin.id);
    const me = await signIn(admin);
    const res = await call("/api/users", { method: "DELETE", token: me.accessToken, body: { userId: admin.id } });
    expect(res.status).toBe(409);
    expect(((await res.json()) as ErrorBody).code).toBe("last_admin");
  });

  it("lets one of two admins delete the other, but never both at once", async () => {
    const x = await createUser({ role: "admin" });
    const y = await createUser({ role: "admin" });
    await onlyAdmins(x.id, y.id);
    const [sx, sy] = await Promise.all([signIn(x), signIn(y)]);
    const results = await Promise.all([
      call("/api/users", { method: "DELETE", token: sx.accessToken, body: { userId: y.id } }),
      call("/api/users", { method: "DELETE", token: sy.accessToken, body: { userId: x.id } }),
    ]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await db().$count(s.users, eq(s.users.role, "admin"))).toBe(1);
  });
});

describe("PUT /api/users/{id}/role (admins)", () => {
  it("changes a role, effective on the user's very next request", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    const target = await signIn(await createUser());
    expect((await call("/api/users", { token: target.accessToken })).status).toBe(403);
    const res = await call(`/api/users/${target.user.slug}/role`, { method: "PUT", token: admin.accessToken, body: { role: "admin" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ _id: target.user.id, role: "admin" });
    expect((await call("/api/users", { token: target.accessToken })).status).toBe(200);

    expect((await call(`/api/users/${target.user.id}/role`, { method: "PUT", token: admin.accessToken, body: { role: "user" } })).status).toBe(200);
    expect((await call("/api/users", { token: target.accessToken })).status).toBe(403);
  });

  it("keeps the instructor's role while they run a group: a demoted teacher would stay listed on groups nobody of theirs runs", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    const teacher = await createUser({ role: "instructor" });
    const group = await createGroup({ instructorId: teacher.id });
    for (const role of ["user", "admin"] as const) {
      const res = await call(`/api/users/${teacher.id}/role`, { method: "PUT", token: admin.accessToken, body: { role } });
      expect(res.status, role).toBe(409);
      const body = (await res.json()) as ErrorBody & { code: string };
      expect(body.code).toBe("runs_groups");
      expect(body.message).toBe("This instructor runs groups. Give their groups to another instructor first, then change the role.");
      expect((await userRow(teacher.id))!.role).toBe("instructor");
    }
    // Given to another instructor, the group no longer holds them.
    await db().update(s.groups).set({ instructorId: (await createUser({ role: "instructor" })).id }).where(eq(s.groups.id, group.id));
    expect((await call(`/api/users/${teacher.id}/role`, { method: "PUT", token: admin.accessToken, body: { role: "user" } })).status).toBe(200);
  });

  // Each side checked the other as it read it: the assignment saw an instructor, the demotion a teacher of nothing.
  it("never leaves a group given to someone demoted between the check and the write", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    const as = viewerOf(admin);
    const group = await createGroup({});
    const [one, two] = [await createUser({ role: "instructor" }), await createUser({ role: "instructor" })];
    const background = serviceContext();
    const demote = (id: string) => () => changeRole(background.ctx, as, id, { role: "user" });
    await expect(updateGroup(gatedContext(/^update "groups"/, demote(one.id)), as, group.id, { instructorId: one.id })).rejects.toMatchObject({ status: 400, fields: { instructorId: "Choose one of the instructors." } });
    expect((await db().select({ instructorId: s.groups.instructorId }).from(s.groups).where(eq(s.groups.id, group.id)))[0]!.instructorId).toBeNull();
    const title = `Crossed ${unique("g")}`;
    await expect(createGroupAsAdmin(gatedContext("batch", demote(two.id)), as, { title, instructorId: two.id })).rejects.toMatchObject({ status: 400 });
    expect(await db().select().from(s.groups).where(eq(s.groups.title, title))).toEqual([]);
    expect((await userRow(one.id))!.role).toBe("user");
    expect((await userRow(two.id))!.role).toBe("user");
    await background.settle();
  });

  it("refuses an unknown role (400) and an unknown user (404)", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    const target = await createUser();
    const bad = await call(`/api/users/${target.id}/role`, { method: "PUT", token: admin.accessToken, body: { role: "superuser" } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as ErrorBody).fields?.role).toBe("Choose admin, instructor or user.");
    expect((await call("/api/users/no-such-user/role", { method: "PUT", token: admin.accessToken, body: { role: "user" } })).status).toBe(404);
  });

  it("does not let the last admin demote themselves; with a second admin it works", async () => {
    const admin = await createUser({ role: "admin" });
    await onlyAdmins(admin.id);
    const me = await signIn(admin);
    const res = await call(`/api/users/${admin.id}/role`, { method: "PUT", token: me.accessToken, body: { role: "instructor" } });
    expect(res.status).toBe(409);
    expect(((await res.json()) as ErrorBody).code).toBe("last_admin");
    expect((await userRow(admin.id))!.role).toBe("admin");

    const other = await createUser({ role: "admin" });
    expect((await call(`/api/users/${admin.id}/role`, { method: "PUT", token: me.accessToken, body: { role: "instructor" } })).status).toBe(200);
    expect(await db().$count(s.users, eq(s.users.role, "admin"))).toBe(1);
    expect((await userRow(other.id))!.role).toBe("admin");
    // The demoted admin lost admin rights at once.
    expect((await call("/api/users", { token: me.accessToken })).status).toBe(403);
  });

  it("is for admins only", async () => {
    const target = await createUser();
    const instructor = await signIn(await createUser({ role: "instructor" }));
    expect((await call(`/api/users/${target.id}/role`, { method: "PUT", token: instructor.accessToken, body: { role: "admin" } })).status).toBe(403);
    expect((await userRow(target.id))!.role).toBe("user");
  });
});

