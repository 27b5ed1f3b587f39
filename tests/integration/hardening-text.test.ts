/**
 * Free text that looks like something but shows nothing (NUL, BEL, zero-width spaces, bidi controls) is refused
 * wherever people write: names, titles, chat, contact messages, feedback. Names also lose bidi overrides, so a
 * `U+202E` name cannot reverse the text around it in a list.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { cleanName, hasVisibleText } from "../../app/lib/text";
import { initials } from "../../app/components/groups/format";
import * as s from "../../db/schema";
import { addMember, call, createGroup, createUser, signIn, type ErrorBody } from "./factories";
import { db, eventually, unique } from "./helpers";
import { joinChat } from "./sockets";

/** Texts that are empty to a reader. */
const INVISIBLE = ["\u0000", "\u0007\u0007", "\u200b", "\u200b\u200c\u200d", "\u202e", "\u2066\u2069", "\ufeff", " \u00a0\u3000 ", "\u061c"];

describe("a name's initials", () => {
  it("are two letters that never join into a word, in Arabic as in English", () => {
    // "مع" would read as the word "with": a zero-width non-joiner keeps the two letters apart.
    expect(initials("مريم عادل")).toBe("م\u200cع");
    expect(initials("Nour Ali")).toBe("NA");
    expect(initials("Nour عادل")).toBe("Nع");
    expect(initials("  layla  ")).toBe("L");
    expect(initials("")).toBe("?");
  });
});

describe("what counts as visible text", () => {
  it.each(INVISIBLE)("%j has nothing to see", (text) => {
    expect(hasVisibleText(text)).toBe(false);
  });

  it.each(["a", "أحمد", "😀", "0", "x\u200b"])("%j is text", (text) => {
    expect(hasVisibleText(text)).toBe(true);
  });

  it("a name keeps its letters and loses controls, bidi overrides and isolates", () => {
    expect(cleanName("\u202eLayla\u202c")).toBe("Layla");
    expect(cleanName("Sa\u0000ra\u2066 Ali\u2069")).toBe("Sara Ali");
    expect(cleanName("Omar\nHassan")).toBe("Omar Hassan");
  });
});

describe("the API refuses invisible text", () => {
  it.each(INVISIBLE)("registration with the name %j", async (name) => {
    const res = await call("/api/users/register", {
      body: { name, email: `${unique("tx")}@test.example`, password: "long-enough-pass", phone_number: "+201001234567" },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).fields?.name).toBe("Please fill out all fields.");
  });

  it("strips a bidi override from a registered name", async () => {
    const email = `${unique("tx")}@test.example`;
    const res = await call("/api/users/register", { body: { name: "\u202eHacker\u202c", email, password: "long-enough-pass", phone_number: "+201001234567" } });
    expect(res.status).toBe(201);
    const [row] = await db().select({ name: s.users.name }).from(s.users).where(eq(s.users.email, email));
    expect(row!.name).toBe("Hacker");
  });

  it.each(INVISIBLE)("a profile name %j, and strips overrides from a real one", async (name) => {
    const me = await signIn(await createUser());
    expect((await call("/api/users", { method: "PUT", body: { name, phone_number: "+201001234567" }, token: me.accessToken })).status).toBe(400);
    expect((await call("/api/users", { method: "PUT", body: { name: "Mo\u202ena", phone_number: "+201001234567" }, token: me.accessToken })).status).toBe(200);
    const [row] = await db().select({ name: s.users.name }).from(s.users).where(eq(s.users.id, me.user.id));
    expect(row!.name).toBe("Mona");
  });

  it.each(INVISIBLE)("a contact message %j, and a contact name %j", async (text) => {
    expect((await call("/api/contact", { body: { name: "Visitor", email: "v@test.example", message: text } })).status).toBe(400);
    expect((await call("/api/contact", { body: { name: text, email: "v@test.example", message: "Hello" } })).status).toBe(400);
  });

  it.each(INVISIBLE)("chat text %j over HTTP and over the socket, storing nothing", async (text) => {
    const group = await createGroup();
    const me = await signIn(await createUser());
    await addMember(me.user, group);
    const clientId = unique("cid").replace(/[^A-Za-z0-9_-]/g, "_");
    expect((await call("/api/messages", { body: { groupId: group.id, text, clientId }, token: me.accessToken })).status).toBe(400);
    const { client } = await joinChat(me, group.id);
    client.send({ type: "chat.send", text, clientId: `${clientId}s` });
    // Refused by name, so the sender's copy stops waiting (ADR 45).
    expect(await client.next("error")).toMatchObject({ code: "invalid_input", clientId: `${clientId}s` });
    expect(await db().select().from(s.messages).where(eq(s.messages.groupId, group.id))).toEqual([]);
  });

  it.each(INVISIBLE)("feedback %j", async (text) => {
    const group = await createGroup();
    const me = await signIn(await createUser());
    await addMember(me.user, group);
    expect((await call("/api/feedback", { body: { groupSlug: group.slug, userFeedback: text, rating: 4 }, token: me.accessToken })).status).toBe(400);
  });

  it.each(INVISIBLE)("a group title %j, and a course outline title", async (title) => {
    const admin = await signIn(await createUser({ role: "admin" }));
    expect((await call("/api/groups", { body: { title, status: "draft" }, token: admin.accessToken })).status).toBe(400);
    const group = await createGroup();
    expect((await call(`/api/groups/${group.id}/content`, { body: { title, body: "x" }, token: admin.accessToken })).status).toBe(400);
  });

  it("half a surrogate pair is stored as one replacement character, and what is answered at once is what is read later", async () => {
    const group = await createGroup();
    const me = await signIn(await createUser());
    await addMember(me.user, group);
    const clientId = unique("cid").replace(/[^A-Za-z0-9_-]/g, "_");
    const posted = await call("/api/messages", { body: { groupId: group.id, text: "lone \ud800 end \udc00", clientId }, token: me.accessToken });
    expect(posted.status).toBe(201);
    expect(((await posted.json()) as { message: { text: string } }).message.text).toBe("lone \ufffd end \ufffd");
    const { client } = await joinChat(me, group.id);
    client.send({ type: "chat.send", text: "a \udbff b 😀", clientId: `${clientId}s` });
    await client.next("chat.ack");
    const live = client.of("chat.message").map((f) => f.message.text);
    expect(live).toContain("a \ufffd b 😀");
    // Written through to D1 after the broadcast (ADR 26): read there once it has landed.
    const stored = await eventually(async () => {
      const rows = await db().select({ text: s.messages.text }).from(s.messages).where(eq(s.messages.groupId, group.id));
      return rows.length === 2 ? rows.map((m) => m.text).sort() : undefined;
    }, 3_000, "both messages in D1");
    expect(stored).toEqual(["a \ufffd b 😀", "lone \ufffd end \ufffd"]);
    // Staff's announcement title, answered and listed alike.
    const staff = await signIn(await createUser({ role: "admin" }));
    const made = await call(`/api/groups/${group.slug}/announcements`, { body: { title: "Week \ud83d 2", body: "Read \udc00 this" }, token: staff.accessToken });
    expect(made.status).toBe(201);
    const listed = (await (await call(`/api/groups/${group.slug}/announcements`, { token: me.accessToken })).json()) as { announcements: { title: string }[] } | { title: string }[];
    const titles = (Array.isArray(listed) ? listed : listed.announcements).map((a) => a.title);
    expect(titles).toEqual(["Week \ufffd 2"]);
  });

  it("half a surrogate pair anywhere in a JSON body (links, lists) is answered as it is stored", async () => {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const group = await createGroup({ instructorId: teacher.user.id });
    const made = await call(`/api/lectures/group/${group.slug}`, {
      body: { title: "Links", published: true, videoUrl: "https://example.com/watch?v=A\ud800B", resources: [{ title: "Notes \udc00", url: "https://example.com/n\udbff" }] },
      token: teacher.accessToken,
    });
    expect(made.status).toBe(201);
    const answered = (await made.json()) as { slug: string; videoUrl: string; resources: { title: string; url: string }[] };
    const read = (await (await call(`/api/lectures/${answered.slug}`, { token: teacher.accessToken })).json()) as typeof answered;
    expect(read.videoUrl).toBe(answered.videoUrl);
    expect(read.resources).toEqual(answered.resources);
    expect(read.resources[0]!.title).toBe("Notes \ufffd");
    expect(read.videoUrl).not.toMatch(/[\ud800-\udfff]/);
  });

  it("a join request's note that shows nothing is stored as no note", async () => {
    const group = await createGroup();
    const me = await signIn(await createUser());
    const res = await call("/api/users/joinGroupRequest", { body: { groupSlug: group.slug, message: "\u200b\u0000" }, token: me.accessToken });
    expect(res.status).toBe(201);
    const [row] = await db().select({ note: s.memberships.requestMessage }).from(s.memberships).where(eq(s.memberships.userId, me.user.id));
    expect(row!.note ?? "").toBe("");
  });
});
