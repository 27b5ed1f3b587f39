/**
 * Group chat end to end inside workerd: tickets and Origin, the socket and HTTP send paths, idempotent retries,
 * resync after a disconnect and after the room is evicted, deletions, and rights that end while connected.
 */
import { env, evictDurableObject } from "cloudflare:test";
import { getServerByName } from "partyserver";
import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type ChatMessageFrameBody } from "../../app/lib/realtime-protocol";
import * as s from "../../db/schema";
import type { GroupRoom } from "../../worker/realtime/group-room";
import { disconnectUserFromGroup } from "../../worker/realtime/publish";
import { addMember, call, createGroup, createUser, signIn, type SignedIn } from "./factories";
import { db, eventually, unique } from "./helpers";
import { ageChatRights, connectAs, joinChat, requestTicket, syncChat, ticketFor, upgrade } from "./sockets";

async function chatWorld() {
  const [instructor, alice, bob, outsider] = await Promise.all([createUser({ role: "instructor" }), createUser(), createUser(), createUser()]);
  const group = await createGroup({ instructorId: instructor.id });
  await Promise.all([addMember(alice, group), addMember(bob, group, "special"), addMember(outsider, group, "pending")]);
  const [asInstructor, asAlice, asBob, asOutsider] = await Promise.all([instructor, alice, bob, outsider].map((u) => signIn(u)));
  return { group, instructor: asInstructor!, alice: asAlice!, bob: asBob!, outsider: asOutsider! };
}

const cid = () => unique("cid").replace(/[^A-Za-z0-9_-]/g, "_");

async function post(who: SignedIn, groupId: string, text: string, clientId = cid(), extra: Record<string, unknown> = {}) {
  return call("/api/messages", { body: { groupId, text, clientId, ...extra }, token: who.accessToken });
}

async function postOk(who: SignedIn, groupId: string, text: string): Promise<ChatMessageFrameBody> {
  const res = await post(who, groupId, text);
  expect(res.status).toBe(201);
  return ((await res.json()) as { message: ChatMessageFrameBody }).message;
}

async function page(who: SignedIn, groupId: string, query = "") {
  const res = await call(`/api/messages/group/${groupId}${query}`, { token: who.accessToken });
  expect(res.status).toBe(200);
  return (await res.json()) as { messages: ChatMessageFrameBody[]; nextBefore: number | null };
}

const roomOf = (groupId: string) => getServerByName(env.GroupRoom as unknown as DurableObjectNamespace<GroupRoom>, groupId);

describe("admission to a group's room", () => {
  it("refuses an upgrade without a ticket (401) and a non-member's ticket request (403)", async () => {
    const w = await chatWorld();
    const none = await upgrade("group-room", w.group.id, null);
    expect(none.status).toBe(401);
    expect(none.webSocket).toBeFalsy();
    await none.body?.cancel();

    const pending = await requestTicket(w.outsider, "group-room", w.group.id);
    expect(pending.status).toBe(403);
    await pending.body?.cancel();
    const stranger = await signIn(await createUser());
    expect((await requestTicket(stranger, "group-room", w.group.id)).status).toBe(403);
  });

  it("refuses a member's valid ticket from a foreign Origin (403), and the ticket then still works once from ours", async () => {
    const w = await chatWorld();
    const ticket = await ticketFor(w.alice, "group-room", w.group.id);
    const foreign = await upgrade("group-room", w.group.id, ticket, "https://evil.example");
    expect(foreign.status).toBe(403);
    expect(foreign.webSocket).toBeFalsy();
    await foreign.body?.cancel();
    const ours = await upgrade("group-room", w.group.id, ticket);
    expect(ours.status).toBe(101);
    ours.webSocket!.accept();
    ours.webSocket!.close(1000);
  });

  it("takes chat frames only in group rooms", async () => {
    const w = await chatWorld();
    const hub = await connectAs(w.alice, "user-hub", w.alice.user.id);
    hub.send({ type: "chat.send", text: "wrong room", clientId: cid() });
    hub.send({ type: "chat.sync", after: 0 });
    await eventually(() => (hub.of("error").length === 2 ? true : undefined), 3_000, "two refusals");
    expect(hub.of("error").map((f) => f.code)).toEqual(["invalid_frame", "invalid_frame"]);
    expect(hub.closed).toBeNull();
  });

  it("refuses an oversized frame with frame_too_large, naming its clientId, and stores nothing", async () => {
    const w = await chatWorld();
    const { client } = await joinChat(w.alice, w.group.id);
    const clientId = cid();
    // As the app's client writes it (use-group-chat.ts): type and clientId first.
    client.send({ type: "chat.send", clientId, text: "x".repeat(8 * 1024) });
    const err = await client.next("error");
    expect(err.code).toBe("frame_too_large");
    // Named, so the sender's "sending" copy turns into "not sent" with Retry and Discard instead of waiting forever.
    expect(err.clientId).toBe(clientId);
    expect(client.of("chat.ack")).toHaveLength(0);
    expect((await page(w.alice, w.group.id)).messages).toHaveLength(0);
  });
});

describe("sending", () => {
  it("delivers a socket send and an HTTP send to every member, stored first, with increasing ids", async () => {
    const w = await chatWorld();
    const a = (await joinChat(w.alice, w.group.id)).client;
    const b = (await joinChat(w.instructor, w.group.id)).client;

    const clientId = cid();
    a.send({ type: "chat.send", text: "  Hello from the socket  ", clientId });
    const ack = await a.next("chat.ack");
    expect(ack).toEqual({ type: "chat.ack", clientId, id: expect.any(Number) });
    const viaHttp = await postOk(w.bob, w.group.id, "Hello over HTTP");
    expect(viaHttp.id).toBeGreaterThan(ack.id);

    for (const c of [a, b]) {
      await eventually(() => (c.liveIds().length === 2 ? true : undefined), 3_000, "both messages");
      expect(c.liveIds()).toEqual([ack.id, viaHttp.id]);
    }
    const first = a.of("chat.message")[0]!.message;
    expect(first).toEqual({
      id: ack.id,
      groupId: w.group.id,
      author: { _id: w.alice.user.id, name: w.alice.user.name, role: "user" },
      text: "Hello from the socket",
      replyTo: null,
      createdAt: expect.any(String),
      deletedAt: null,
      clientId,
    });
    // Stored before broadcast: the HTTP page already has both.
    expect((await page(w.bob, w.group.id)).messages.map((m) => m.id)).toEqual([viaHttp.id, ack.id]);
  });

  it("stores a repeated clientId once: both sends get the same id and the room hears it once", async () => {
    const w = await chatWorld();
    const a = (await joinChat(w.alice, w.group.id)).client;
    const b = (await joinChat(w.bob, w.group.id)).client;
    const clientId = cid();

    a.send({ type: "chat.send", text: "Only once", clientId });
    const first = await a.next("chat.ack");
    const retry = await post(w.alice, w.group.id, "Only once (retry)", clientId);
    expect(retry.status).toBe(200);
    expect(((await retry.json()) as { message: ChatMessageFrameBody }).message).toMatchObject({ id: first.id, text: "Only once" });
    a.send({ type: "chat.send", text: "Only once", clientId });
    await eventually(() => (a.of("chat.ack").length === 2 ? true : undefined), 3_000, "the second ack");
    expect(a.of("chat.ack").map((f) => f.id)).toEqual([first.id, first.id]);

    const after = await postOk(w.bob, w.group.id, "Next");
    await b.next("chat.message", (f) => f.message.id === after.id);
    expect(b.liveIds()).toEqual([first.id, after.id]);
    const [stored] = await db().select({ n: count() }).from(s.messages).where(and(eq(s.messages.authorId, w.alice.user.id), eq(s.messages.clientId, clientId)));
    expect(stored!.n).toBe(1);
  });

  it("refuses empty text, a bad clientId and a reply to another group's message with 400", async () => {
    const w = await chatWorld();
    const other = await chatWorld();
    const foreign = await postOk(other.alice, other.group.id, "Elsewhere");
    expect((await post(w.alice, w.group.id, "   ")).status).toBe(400);
    expect((await post(w.alice, w.group.id, "ok", "no spaces allowed")).status).toBe(400);
    const res = await post(w.alice, w.group.id, "A reply", cid(), { replyTo: foreign.id });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ fields: { replyTo: expect.any(String) } });

    const mine = await postOk(w.alice, w.group.id, "Question?");
    const reply = await post(w.bob, w.group.id, "Answer", cid(), { replyTo: mine.id });
    expect(reply.status).toBe(201);
    expect(((await reply.json()) as { message: ChatMessageFrameBody }).message.replyTo).toBe(mine.id);
  });

  it("answers a socket send that fails validation with an error naming its clientId", async () => {
    const w = await chatWorld();
    const { client } = await joinChat(w.alice, w.group.id);
    const clientId = cid();
    client.send({ type: "chat.send", text: "Reply", clientId, replyTo: 999_999_999 });
    const err = await client.next("error", (f) => f.clientId === clientId);
    expect(err.code).toBe("invalid_input");
    expect(client.closed).toBeNull();
  });

  it.each([
    ["a zero-width space", "\u200b"],
    ["a Hangul filler", "\u3164"],
    ["a braille blank", "\u2800"],
    ["two direction marks", "\u200e\u200f"],
  ])("refuses a socket send of only %s by its clientId (invalid_input), as the API refuses it, and stores nothing", async (_label, text) => {
    const w = await chatWorld();
    const { client } = await joinChat(w.alice, w.group.id);
    const clientId = cid();
    client.send({ type: "chat.send", clientId, text });
    const err = await client.next("error", (f) => f.clientId === clientId);
    expect(err.code).toBe("invalid_input");
    expect((await post(w.alice, w.group.id, text)).status).toBe(400);
    expect((await page(w.alice, w.group.id)).messages).toHaveLength(0);
    expect(client.closed).toBeNull();
  });

  it("names the clientId of every chat.send past the socket's 40 frames in 10 s, so none is left waiting", async () => {
    const w = await chatWorld();
    const { client } = await joinChat(w.alice, w.group.id);
    // The join took frames of this window already (its sync); pings fill it to 40, then five sends go past it.
    const used = client.frames.filter((f) => f.type === "chat.history").length;
    for (let t = 1; t <= 40 - used; t++) client.send({ type: "ping", t });
    const ids = Array.from({ length: 5 }, () => cid());
    for (const clientId of ids) client.send({ type: "chat.send", clientId, text: "queued while offline" });
    for (const clientId of ids) expect((await client.next("error", (f) => f.clientId === clientId)).code).toBe("rate_limited");
    expect(client.of("chat.ack")).toHaveLength(0);
  });

  it("limits one person to 20 messages per 10 seconds (429 with Retry-After)", async () => {
    const w = await chatWorld();
    for (let i = 0; i < 20; i++) expect((await post(w.alice, w.group.id, `m${i}`)).status).toBe(201);
    const limited = await post(w.alice, w.group.id, "one too many");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await post(w.bob, w.group.id, "someone else")).status).toBe(201);
  });

  it("keeps one sender's socket messages in the order they were sent", async () => {
    const w = await chatWorld();
    const { client } = await joinChat(w.alice, w.group.id);
    const ids = Array.from({ length: 8 }, () => cid());
    for (const [i, clientId] of ids.entries()) client.send({ type: "chat.send", text: `n${i}`, clientId });
    await eventually(() => (client.of("chat.ack").length === 8 ? true : undefined), 5_000, "8 acks");
    const texts = client.of("chat.message").map((f) => f.message.text);
    expect(texts).toEqual(ids.map((_, i) => `n${i}`));
    expect(client.of("chat.ack").map((f) => f.clientId)).toEqual(ids);
  });
});

describe("reading and resync", () => {
  it("pages newest first with nextBefore, tombstones included", async () => {
    const w = await chatWorld();
    const sent: number[] = [];
    for (let i = 0; i < 5; i++) sent.push((await postOk(w.alice, w.group.id, `p${i}`)).id);
    const first = await page(w.bob, w.group.id, "?limit=2");
    expect(first.messages.map((m) => m.id)).toEqual([sent[4], sent[3]]);
    expect(first.nextBefore).toBe(sent[3]);
    const second = await page(w.bob, w.group.id, `?limit=2&before=${first.nextBefore}`);
    expect(second.messages.map((m) => m.id)).toEqual([sent[2], sent[1]]);
    const last = await page(w.bob, w.group.id, `?limit=2&before=${second.nextBefore}`);
    expect(last).toEqual({ messages: [expect.objectContaining({ id: sent[0] })], nextBefore: null });
    // By slug as well as by id.
    expect((await page(w.bob, w.group.slug, "?limit=1")).messages[0]!.id).toBe(sent[4]);
  });

  it("gives a connection no live messages before its first sync", async () => {
    const w = await chatWorld();
    const unsynced = await connectAs(w.bob, "group-room", w.group.id);
    const m = await postOk(w.alice, w.group.id, "Before the sync");
    const history = await syncChat(unsynced, 0);
    expect(history.messages.map((x) => x.id)).toEqual([m.id]);
    expect(unsynced.of("chat.message")).toHaveLength(0);
    const next = await postOk(w.alice, w.group.id, "After the sync");
    expect((await unsynced.next("chat.message")).message.id).toBe(next.id);
  });

  it("after a disconnect, chat.sync returns exactly the missed messages, in order", async () => {
    const w = await chatWorld();
    const a = (await joinChat(w.alice, w.group.id)).client;
    const b = (await joinChat(w.bob, w.group.id)).client;
    const seen = await postOk(w.alice, w.group.id, "Everyone saw this");
    await b.next("chat.message", (f) => f.message.id === seen.id);
    b.close();

    const missed = [await postOk(w.alice, w.group.id, "one"), await postOk(w.instructor, w.group.id, "two"), await postOk(w.alice, w.group.id, "three")];
    const { client: again, history } = await joinChat(w.bob, w.group.id, seen.id);
    expect(history.messages.map((m) => m.text)).toEqual(["one", "two", "three"]);
    expect(history.messages.map((m) => m.id)).toEqual(missed.map((m) => m.id));
    expect(history.more).toBe(false);
    const live = await postOk(w.alice, w.group.id, "four");
    expect((await again.next("chat.message")).message.id).toBe(live.id);
    expect(a.liveIds()).toEqual([seen.id, ...missed.map((m) => m.id), live.id]);
  });

  it("pages a long history: more: true until the end", async () => {
    const w = await chatWorld();
    const rows = Array.from({ length: 230 }, (_, i) => ({ groupId: w.group.id, authorId: w.alice.user.id, text: `bulk ${i}`, createdAt: new Date() }));
    // D1 takes at most 100 bound values per statement.
    for (let i = 0; i < rows.length; i += 20) await db().insert(s.messages).values(rows.slice(i, i + 20));
    const client = await connectAs(w.bob, "group-room", w.group.id);
    const first = await syncChat(client, 0);
    expect(first.messages).toHaveLength(200);
    expect(first.more).toBe(true);
    const rest = await syncChat(client, first.messages.at(-1)!.id);
    expect(rest.messages).toHaveLength(30);
    expect(rest.more).toBe(false);
    expect(rest.messages.at(-1)!.text).toBe("bulk 229");
  });

  it("cuts a history page early when its texts are long, so frames stay small", async () => {
    const w = await chatWorld();
    const rows = Array.from({ length: 60 }, (_, i) => ({ groupId: w.group.id, authorId: w.alice.user.id, text: `${i} ${"é".repeat(1990)}`, createdAt: new Date() }));
    for (let i = 0; i < rows.length; i += 20) await db().insert(s.messages).values(rows.slice(i, i + 20));
    const client = await connectAs(w.bob, "group-room", w.group.id);
    const pages = [await syncChat(client, 0)];
    while (pages.at(-1)!.more) pages.push(await syncChat(client, pages.at(-1)!.messages.at(-1)!.id));
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.flatMap((p) => p.messages.map((m) => Number(m.text.split(" ")[0])))).toEqual(rows.map((_, i) => i));
  });

  it("loses nothing when the room is evicted: hibernated sockets keep receiving, closed ones resync", async () => {
    const w = await chatWorld();
    const a = (await joinChat(w.alice, w.group.id)).client;
    const before = await postOk(w.alice, w.group.id, "before eviction");
    await a.next("chat.message", (f) => f.message.id === before.id);

    await evictDurableObject(await roomOf(w.group.id), { webSockets: "hibernate" });
    const afterHibernation = await postOk(w.bob, w.group.id, "after hibernation");
    expect((await a.next("chat.message", (f) => f.message.id === afterHibernation.id)).message.text).toBe("after hibernation");

    await evictDurableObject(await roomOf(w.group.id), { webSockets: "close" });
    await a.waitClosed();
    const whileGone = await postOk(w.bob, w.group.id, "while the room was gone");
    const { history } = await joinChat(w.alice, w.group.id, afterHibernation.id);
    expect(history.messages.map((m) => m.id)).toEqual([whileGone.id]);
    const fresh = await joinChat(w.instructor, w.group.id);
    expect(fresh.history.messages.map((m) => m.text)).toEqual(["before eviction", "after hibernation", "while the room was gone"]);
  });
});

describe("deleting", () => {
  it("broadcasts a deletion to everyone; the message stays as a tombstone", async () => {
    const w = await chatWorld();
    const a = (await joinChat(w.alice, w.group.id)).client;
    const b = (await joinChat(w.instructor, w.group.id)).client;
    const m = await postOk(w.alice, w.group.id, "Oops, wrong group");

    const res = await call(`/api/messages/${m.id}`, { method: "DELETE", token: w.alice.accessToken });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: m.id, text: "", deletedAt: expect.any(String) });
    for (const c of [a, b]) expect(await c.next("chat.deleted")).toEqual({ type: "chat.deleted", id: m.id, groupId: w.group.id });
    expect((await page(w.bob, w.group.id)).messages).toEqual([expect.objectContaining({ id: m.id, text: "", deletedAt: expect.any(String) })]);
    const [row] = await db().select({ text: s.messages.text }).from(s.messages).where(eq(s.messages.id, m.id));
    expect(row!.text).toBe("");

    // Twice is harmless and broadcasts nothing new.
    expect((await call(`/api/messages/${m.id}`, { method: "DELETE", token: w.instructor.accessToken })).status).toBe(200);
    const marker = await postOk(w.alice, w.group.id, "marker");
    await a.next("chat.message", (f) => f.message.id === marker.id);
    expect(a.of("chat.deleted")).toHaveLength(1);
  });

  it("tells a client that was away about deletions within what it holds", async () => {
    const w = await chatWorld();
    const [m1, m2, m3] = [await postOk(w.alice, w.group.id, "a"), await postOk(w.alice, w.group.id, "b"), await postOk(w.alice, w.group.id, "c")];
    expect((await call(`/api/messages/${m2.id}`, { method: "DELETE", token: w.instructor.accessToken })).status).toBe(200);
    const { history } = await joinChat(w.bob, w.group.id, m3.id, m1.id);
    expect(history).toMatchObject({ messages: [], more: false, deleted: [m2.id] });
  });

  it("lets only the author and the group's staff delete", async () => {
    const w = await chatWorld();
    const m = await postOk(w.alice, w.group.id, "mine");
    expect((await call(`/api/messages/${m.id}`, { method: "DELETE", token: w.bob.accessToken })).status).toBe(403);
    const otherInstructor = await signIn(await createUser({ role: "instructor" }));
    expect((await call(`/api/messages/${m.id}`, { method: "DELETE", token: otherInstructor.accessToken })).status).toBe(403);
    expect((await call(`/api/messages/999999999`, { method: "DELETE", token: w.instructor.accessToken })).status).toBe(404);
    expect((await call(`/api/messages/${m.id}`, { method: "DELETE", token: w.instructor.accessToken })).status).toBe(200);
  });
});

describe("rights that end while connected", () => {
  it("closes a member's socket when the group's staff remove them; they cannot send over HTTP or come back", async () => {
    const w = await chatWorld();
    const { client } = await joinChat(w.bob, w.group.id);
    const res = await call(`/api/groups/${w.group.id}/students/${w.bob.user.id}`, { method: "PUT", body: { status: "removed" }, token: w.instructor.accessToken });
    expect(res.status).toBe(200);
    expect((await client.waitClosed()).code).toBe(4403);
    expect((await post(w.bob, w.group.id, "Still here?")).status).toBe(403);
    expect((await requestTicket(w.bob, "group-room", w.group.id)).status).toBe(403);
    expect((await page(w.alice, w.group.id)).messages).toHaveLength(0);
  });

  it("refuses a chat.send of a member removed behind the room's back once the rights it read are FACTS_TTL_MS old, and closes the socket", async () => {
    const w = await chatWorld();
    const { client } = await joinChat(w.bob, w.group.id);
    await db().update(s.memberships).set({ status: "removed" }).where(and(eq(s.memberships.userId, w.bob.user.id), eq(s.memberships.groupId, w.group.id)));
    expect(await ageChatRights(w.group.id)).toBeGreaterThan(0);
    const clientId = cid();
    client.send({ type: "chat.send", text: "Am I still here?", clientId });
    expect(await client.next("error", (f) => f.clientId === clientId)).toMatchObject({ code: "forbidden" });
    expect((await client.waitClosed()).code).toBe(4403);
    expect((await page(w.alice, w.group.id)).messages).toHaveLength(0);
  });

  it("disconnectUserFromGroup closes that user's sockets in that room only", async () => {
    const w = await chatWorld();
    const bob = (await joinChat(w.bob, w.group.id)).client;
    const alice = (await joinChat(w.alice, w.group.id)).client;
    await disconnectUserFromGroup(env, w.group.id, w.bob.user.id);
    expect((await bob.waitClosed()).code).toBe(4403);
    const m = await postOk(w.alice, w.group.id, "still here");
    expect((await alice.next("chat.message")).message.id).toBe(m.id);
  });

  it("closes a user's sockets when an admin changes their role", async () => {
    const w = await chatWorld();
    const admin = await signIn(await createUser({ role: "admin" }));
    const room = (await joinChat(w.instructor, w.group.id)).client;
    const hub = await connectAs(w.instructor, "user-hub", w.instructor.user.id);
    const inbox = await connectAs(w.instructor, "staff-inbox", "all");
    // An instructor keeps the role while they run a group: the group goes to another one first, which closes their
    // socket in its room; the role change then closes the rest.
    const next = await createUser({ role: "instructor" });
    expect((await call(`/api/groups/${w.group.id}`, { method: "PUT", body: { instructorId: next.id }, token: admin.accessToken })).status).toBe(200);
    expect((await room.waitClosed()).code).toBe(4403);
    const res = await call(`/api/users/${w.instructor.user.id}/role`, { method: "PUT", body: { role: "user" }, token: admin.accessToken });
    expect(res.status).toBe(200);
    // Not "no access" (4403): "ask again" (4409). The hub's new ticket opens it again; the inbox's is refused now.
    for (const c of [hub, inbox]) expect(await c.waitClosed()).toEqual({ code: 4409, reason: "Your role changed." });
    expect((await requestTicket(w.instructor, "user-hub", w.instructor.user.id)).status).toBe(200);
    expect((await requestTicket(w.instructor, "staff-inbox", "all")).status).toBe(403);
  });

  it("closes a demoted admin's socket in a group they only watched as an admin", async () => {
    const w = await chatWorld();
    const [admin, other] = await Promise.all([createUser({ role: "admin" }), createUser({ role: "admin" })]);
    const [asAdmin, asOther] = await Promise.all([signIn(admin), signIn(other)]);
    const room = (await joinChat(asAdmin, w.group.id)).client;
    expect((await call(`/api/users/${admin.id}/role`, { method: "PUT", body: { role: "user" }, token: asOther.accessToken })).status).toBe(200);
    // Closed to ask again (4409); asked again, the room refuses them (a student of no group of theirs).
    expect((await room.waitClosed()).code).toBe(4409);
    expect((await requestTicket(asAdmin, "group-room", w.group.id)).status).toBe(403);
  });

  it("closes every socket of a deleted account", async () => {
    const w = await chatWorld();
    const room = (await joinChat(w.alice, w.group.id)).client;
    const hub = await connectAs(w.alice, "user-hub", w.alice.user.id);
    const res = await call("/api/user", { method: "DELETE", body: { password: w.alice.user.password }, token: w.alice.accessToken });
    expect(res.status).toBe(200);
    // A session that ended (4401: the page says so and stops), not "no access" (4403).
    for (const c of [room, hub]) expect((await c.waitClosed()).code).toBe(4401);
  });
});
