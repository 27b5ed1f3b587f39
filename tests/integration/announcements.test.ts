/**
 * Announcements (issue 22): staff post Markdown to a group; each member gets it live in the bell, by e-mail in their
 * own language, and pinned on the course home until they dismiss it or it expires. Nobody else reads it.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { addMember, call, createGroup, createUser, signIn, waitForMails, type ErrorBody } from "./factories";
import { db } from "./helpers";
import { connectAs } from "./sockets";

async function world() {
  const teacher = await signIn(await createUser({ role: "instructor", name: "Mona Teacher" }));
  const group = await createGroup({ instructorId: teacher.user.id, title: "Web Basics" });
  const english = await signIn(await createUser());
  const arabic = await signIn(await createUser());
  await db().update(s.users).set({ locale: "ar" }).where(eq(s.users.id, arabic.user.id));
  await addMember(english.user, group);
  await addMember(arabic.user, group);
  return { teacher, group, english, arabic };
}

const post = (token: string, group: string, body: unknown) => call(`/api/groups/${group}/announcements`, { body, token });
type Announcement = { _id: string; title: string; bodyHtml: string; author: string; dismissed?: number } & ErrorBody;

describe("announcements", () => {
  it("reaches each member live, by e-mail in their language, and pinned until they dismiss it", async () => {
    const w = await world();
    const hub = await connectAs(w.english, "user-hub", w.english.user.id);
    const res = await post(w.teacher.accessToken, w.group.slug, { title: "No class on Thursday", body: "We meet **Sunday** instead.\n\n<script>alert(1)</script>" });
    expect(res.status).toBe(201);
    const a = (await res.json()) as Announcement;
    // Rendered once, sanitised: bold kept, the script shown as text.
    expect(a.bodyHtml).toContain("<strong>Sunday</strong>");
    expect(a.bodyHtml).not.toContain("<script>");
    expect(a.author).toBe("Mona Teacher");

    // Live in the bell.
    const frame = await hub.next("notification", (f) => f.notification.kind === "announcement");
    expect(frame.notification).toMatchObject({ title: "Web Basics: No class on Thursday", link: `/course/${w.group.slug}#announcements` });

    // By e-mail, each in their own language.
    const [en] = await waitForMails(w.english.user.email, /No class on Thursday/);
    expect(en!.text).toContain("Mona Teacher posted an announcement in Web Basics.");
    expect(en!.html).toContain("<strong>Sunday</strong>");
    const [ar] = await waitForMails(w.arabic.user.email, /No class on Thursday/);
    expect(ar!.text).toContain("نشر Mona Teacher إعلانًا في Web Basics.");
    expect(ar!.html).toContain('dir="rtl"');
    // The English announcement inside the Arabic e-mail takes its own direction (its full stop stays at its end).
    expect(ar!.html).toContain('<h2 dir="auto">No class on Thursday</h2><div dir="auto"><p>We meet <strong>Sunday</strong> instead.</p>');

    // On the Arabic reader's course home the English body keeps its own direction (lists and all), as a lecture's does.
    const home = await (await call(`/course/${w.group.slug}`, { cookie: `${w.arabic.cookie}; lang=ar` })).text();
    expect(home).toContain('<div class="markdown" dir="auto"><p>We meet <strong>Sunday</strong> instead.</p>');

    // Pinned for the member until they dismiss it; the others still have it.
    const pinned = async (who: typeof w.english) => ((await (await call(`/api/groups/${w.group.slug}/announcements`, { token: who.accessToken })).json()) as Announcement[]).map((x) => x._id);
    expect(await pinned(w.english)).toEqual([a._id]);
    expect((await call(`/api/groups/${w.group.slug}/announcements/${a._id}/dismiss`, { method: "POST", token: w.english.accessToken })).status).toBe(200);
    // Twice is harmless.
    expect((await call(`/api/groups/${w.group.slug}/announcements/${a._id}/dismiss`, { method: "POST", token: w.english.accessToken })).status).toBe(200);
    expect(await pinned(w.english)).toEqual([]);
    expect(await pinned(w.arabic)).toEqual([a._id]);
    // Staff put it away for themselves too, but their count is of members: one.
    expect((await call(`/api/groups/${w.group.slug}/announcements/${a._id}/dismiss`, { method: "POST", token: w.teacher.accessToken })).status).toBe(200);
    // Staff see every announcement with how many members dismissed it.
    const staff = (await (await call(`/api/groups/${w.group.slug}/announcements`, { token: w.teacher.accessToken })).json()) as Announcement[];
    expect(staff.map((x) => [x._id, x.dismissed])).toEqual([[a._id, 1]]);
  });

  it("stops pinning an announcement when it expires, and a deleted one is gone for everybody", async () => {
    const w = await world();
    const expiring = (await (await post(w.teacher.accessToken, w.group.slug, { title: "Today only", body: "Room 2", expiresAt: new Date(Date.now() + 60_000).toISOString() })).json()) as Announcement;
    const lasting = (await (await post(w.teacher.accessToken, w.group.slug, { title: "Welcome", body: "Hello" })).json()) as Announcement;
    const pinned = async () => ((await (await call(`/api/groups/${w.group.slug}/announcements`, { token: w.arabic.accessToken })).json()) as Announcement[]).map((x) => x.title);
    expect(await pinned()).toEqual(["Welcome", "Today only"]);
    await db().update(s.announcements).set({ expiresAt: new Date(Date.now() - 1_000) }).where(eq(s.announcements.id, expiring._id));
    expect(await pinned()).toEqual(["Welcome"]);
    expect((await call(`/api/groups/${w.group.slug}/announcements/${lasting._id}`, { method: "DELETE", token: w.teacher.accessToken })).status).toBe(200);
    expect(await pinned()).toEqual([]);
  });

  it("is for the group's staff to post and its members to read", async () => {
    const w = await world();
    const other = await signIn(await createUser({ role: "instructor" }));
    const stranger = await signIn(await createUser());
    const pending = await signIn(await createUser());
    await addMember(pending.user, w.group, "pending");
    const body = { title: "Hello", body: "Hi" };
    expect((await call(`/api/groups/${w.group.slug}/announcements`, { body })).status).toBe(401);
    expect((await post(w.english.accessToken, w.group.slug, body)).status).toBe(403);
    expect((await post(other.accessToken, w.group.slug, body)).status).toBe(403);
    const a = (await (await post(w.teacher.accessToken, w.group.slug, body)).json()) as Announcement;
    for (const who of [stranger, pending, other]) {
      expect((await call(`/api/groups/${w.group.slug}/announcements`, { token: who.accessToken })).status).toBe(403);
    }
    expect((await call(`/api/groups/${w.group.slug}/announcements/${a._id}/dismiss`, { method: "POST", token: stranger.accessToken })).status).toBe(403);
    expect((await call(`/api/groups/${w.group.slug}/announcements/${a._id}`, { method: "DELETE", token: w.english.accessToken })).status).toBe(403);
    // An announcement named under another group is not found there.
    const elsewhere = await createGroup({ instructorId: w.teacher.user.id });
    expect((await call(`/api/groups/${elsewhere.slug}/announcements/${a._id}`, { method: "DELETE", token: w.teacher.accessToken })).status).toBe(404);
    // Bad input: no title, an end in the past, too long.
    const blank = await post(w.teacher.accessToken, w.group.slug, { title: "  ", body: "x" });
    expect(blank.status).toBe(400);
    expect(((await blank.json()) as ErrorBody).fields?.title).toBe("Please enter a title.");
    const past = await post(w.teacher.accessToken, w.group.slug, { title: "Late", body: "x", expiresAt: new Date(Date.now() - 60_000).toISOString() });
    expect(past.status).toBe(400);
    expect((await post(w.teacher.accessToken, w.group.slug, { title: "Long", body: "x".repeat(10_001) })).status).toBe(400);
    // Pinned for a year at most: 365 days is fine, 366 is not.
    const yearish = (days: number) => new Date(Date.now() + days * 86_400_000 - 60_000).toISOString();
    expect((await post(w.teacher.accessToken, w.group.slug, { title: "Too long", body: "x", expiresAt: yearish(366 + 1) })).status).toBe(400);
    expect((await db().select().from(s.announcements).where(eq(s.announcements.groupId, w.group.id))).length).toBe(1);
    expect((await post(w.teacher.accessToken, w.group.slug, { title: "A year", body: "x", expiresAt: yearish(365) })).status).toBe(201);
  });
});
