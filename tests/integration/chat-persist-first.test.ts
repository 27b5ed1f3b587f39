/**
 * Group chat persist-first (docs/decisions/0026-chat-persist-first.md), inside workerd with real D1 and Durable
 * Objects: a message is stored in its group room's own storage, broadcast and acknowledged, then written through to
 * D1 (retried by the room's alarm); ids come from blocks the room reserves in D1; the rate limit follows the person
 * from room to room. D1 is made to refuse a write the real way: a trigger that aborts inserts of marked texts.
 */
import { env, evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { and, asc, count, eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ChatMessageFrameBody } from "../../app/lib/realtime-protocol";
import * as s from "../../db/schema";
import { RateLeases } from "../../worker/realtime/chat-rate";
import type { GroupRoom } from "../../worker/realtime/group-room";
import { reserveIdBlock, writeThrough, type StoredMessage } from "../../worker/services/chat-store";
import { addMember, call, createGroup, createUser, signIn, type SignedIn } from "./factories";
import { db, eventually, serviceContext, unique } from "./helpers";
import { connectAs, groupRoomStub, joinChat, syncChat } from "./sockets";

const DOWN = "[d1-refuses]";

/** D1 refuses (aborts) every insert into messages whose text carries DOWN, until `d1Accepts`. */
async function d1Refuses() {
  await env.DB.exec(`CREATE TRIGGER IF NOT EXISTS test_refuse_chat BEFORE INSERT ON messages WHEN NEW.text LIKE '%${DOWN}%' BEGIN SELECT RAISE(ABORT, 'test: D1 refuses this write'); END`);
}
async function d1Accepts() {
  await env.DB.exec(`DROP TRIGGER IF EXISTS test_refuse_chat`);
}
afterEach(d1Accepts);

async function world() {
  const [teacher, alice, bob] = await Promise.all([createUser({ role: "instructor" }), createUser(), createUser()]);
  const group = await createGroup({ instructorId: teacher.id });
  await Promise.all([addMember(alice, group), addMember(bob, group)]);
  const [asTeacher, asAlice, asBob] = await Promise.all([signIn(teacher), signIn(alice), signIn(bob)]);
  return { group, teacher: asTeacher, alice: asAlice, bob: asBob };
}

const cid = () => unique("cid").replace(/[^A-Za-z0-9_-]/g, "_");

function post(who: SignedIn, groupId: string, text: string, clientId = cid()) {
  return call("/api/messages", { body: { groupId, text, clientId }, token: who.accessToken });
}

async function postOk(who: SignedIn, groupId: string, text: string, clientId = cid()): Promise<ChatMessageFrameBody> {
  const res = await post(who, groupId, text, clientId);
  expect(res.status).toBe(201);
  return ((await res.json()) as { message: ChatMessageFrameBody }).message;
}

/** D1's rows for one author's clientId. */
function rowsOf(authorId: string, clientId: string) {
  return db().select().from(s.messages).where(and(eq(s.messages.authorId, authorId), eq(s.messages.clientId, clientId)));
}

/** How many write-throughs of the room failed in a row (0 once one succeeds). */
function failures(groupId: string): Promise<number> {
  return runInDurableObject(groupRoomStub(groupId), (room: GroupRoom) => (room as unknown as { failures: number }).failures);
}

describe("writing through to D1", () => {
  it("delivers, acknowledges and keeps a message D1 refuses, syncs it from the room, and writes it to D1 exactly once on the alarm's retry", async () => {
    const w = await world();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const a = (await joinChat(w.alice, w.group.id)).client;
    const b = (await joinChat(w.bob, w.group.id)).client;
    await d1Refuses();

    const clientId = cid();
    a.send({ type: "chat.send", text: `Hello ${DOWN}`, clientId });
    const ack = await a.next("chat.ack");
    expect(ack.clientId).toBe(clientId);
    expect((await b.next("chat.message")).message).toMatchObject({ id: ack.id, text: `Hello ${DOWN}`, clientId });
    await eventually(async () => ((await failures(w.group.id)) > 0 ? true : undefined), 3_000, "a failed write-through");
    expect(warn).toHaveBeenCalled();
    expect(await rowsOf(w.alice.user.id, clientId)).toEqual([]);

    // Kept: the room goes away (sockets closed) and comes back; a fresh sync, right after, still has the message.
    await evictDurableObject(groupRoomStub(w.group.id), { webSockets: "close" });
    const { history } = await joinChat(w.teacher, w.group.id);
    expect(history.messages.map((m) => m.id)).toEqual([ack.id]);
    expect(await rowsOf(w.alice.user.id, clientId)).toEqual([]);

    // D1 takes writes again: the alarm's retry writes it, once, under the id everyone has.
    await d1Accepts();
    expect(await runDurableObjectAlarm(groupRoomStub(w.group.id))).toBe(true);
    const rows = await rowsOf(w.alice.user.id, clientId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: ack.id, groupId: w.group.id, text: `Hello ${DOWN}`, deletedAt: null });
    expect(await failures(w.group.id)).toBe(0);

    // Later write-throughs leave it alone: still one row after the next message goes through.
    const next = await postOk(w.bob, w.group.id, "after the outage");
    expect(next.id).toBeGreaterThan(ack.id);
    expect(await rowsOf(w.alice.user.id, clientId)).toHaveLength(1);
    expect((await db().select({ n: count() }).from(s.messages).where(eq(s.messages.groupId, w.group.id)))[0]!.n).toBe(2);
  });

  it("writes the same stored message twice (a retry after a lost answer) as one row, and a later deletion onto it", async () => {
    const w = await world();
    const { ctx } = serviceContext();
    const block = await reserveIdBlock(ctx, w.group.id, 4);
    const m: StoredMessage = {
      id: block.start,
      groupId: w.group.id,
      authorId: w.alice.user.id,
      authorName: w.alice.user.name,
      authorRole: "user",
      text: "written twice",
      clientId: cid(),
      replyTo: null,
      createdAt: Date.now(),
      deletedAt: null,
    };
    await writeThrough(ctx, [m]);
    await writeThrough(ctx, [m]);
    expect(await rowsOf(m.authorId, m.clientId)).toEqual([expect.objectContaining({ id: m.id, text: "written twice", deletedAt: null })]);
    await writeThrough(ctx, [{ ...m, deletedAt: Date.now() }]);
    await writeThrough(ctx, [m]);
    expect(await rowsOf(m.authorId, m.clientId)).toEqual([expect.objectContaining({ id: m.id, text: "", deletedAt: expect.any(Date) })]);
  });

  it("deletes a message that D1 has not got yet, over DELETE /api/messages/{id}; D1 then gets it as a tombstone", async () => {
    const w = await world();
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const watcher = (await joinChat(w.teacher, w.group.id)).client;
    const a = (await joinChat(w.alice, w.group.id)).client;
    await d1Refuses();
    const clientId = cid();
    a.send({ type: "chat.send", text: `Oops ${DOWN}`, clientId });
    const { id } = await a.next("chat.ack");
    await eventually(async () => ((await failures(w.group.id)) > 0 ? true : undefined), 3_000, "a failed write-through");

    const res = await call(`/api/messages/${id}`, { method: "DELETE", token: w.alice.accessToken });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id, text: "", deletedAt: expect.any(String) });
    expect(await watcher.next("chat.deleted")).toEqual({ type: "chat.deleted", id, groupId: w.group.id });
    // The tombstone has no marked text, so D1 takes it: written through with the deletion.
    await eventually(async () => ((await rowsOf(w.alice.user.id, clientId)).length === 1 ? true : undefined), 3_000, "the tombstone in D1");
    expect((await rowsOf(w.alice.user.id, clientId))[0]).toMatchObject({ id, text: "", deletedAt: expect.any(Date) });
    // Only the author or staff: Bob may not delete the teacher's pending message either.
    const other = cid();
    watcher.send({ type: "chat.send", text: `Staff note ${DOWN}`, clientId: other });
    const staffAck = await watcher.next("chat.ack", (f) => f.clientId === other);
    expect((await call(`/api/messages/${staffAck.id}`, { method: "DELETE", token: w.bob.accessToken })).status).toBe(403);
    expect((await call(`/api/messages/${staffAck.id + 1_000_000}`, { method: "DELETE", token: w.teacher.accessToken })).status).toBe(404);
  });
});

describe("one message per author and clientId", () => {
  it("answers a socket send and then an HTTP send of the same clientId with one message, while D1 refuses and after", async () => {
    const w = await world();
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const a = (await joinChat(w.alice, w.group.id)).client;
    const b = (await joinChat(w.bob, w.group.id)).client;
    await d1Refuses();
    const clientId = cid();
    a.send({ type: "chat.send", text: `Once ${DOWN}`, clientId });
    const ack = await a.next("chat.ack");

    const again = await post(w.alice, w.group.id, `Once ${DOWN}`, clientId);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { message: ChatMessageFrameBody }).message).toMatchObject({ id: ack.id, clientId });
    await d1Accepts();
    expect(await runDurableObjectAlarm(groupRoomStub(w.group.id))).toBe(true);
    const third = await post(w.alice, w.group.id, `Once ${DOWN}`, clientId);
    expect(third.status).toBe(200);
    expect(((await third.json()) as { message: ChatMessageFrameBody }).message.id).toBe(ack.id);
    a.send({ type: "chat.send", text: `Once ${DOWN}`, clientId });
    await eventually(() => (a.of("chat.ack").length === 2 ? true : undefined), 3_000, "the second ack");
    expect(a.of("chat.ack").map((f) => f.id)).toEqual([ack.id, ack.id]);

    const marker = await postOk(w.bob, w.group.id, "marker");
    await b.next("chat.message", (f) => f.message.id === marker.id);
    expect(b.liveIds()).toEqual([ack.id, marker.id]);
    expect(await rowsOf(w.alice.user.id, clientId)).toHaveLength(1);
  });

  it("answers an HTTP send and then a socket send of the same clientId with one message", async () => {
    const w = await world();
    const a = (await joinChat(w.alice, w.group.id)).client;
    const clientId = cid();
    const first = await postOk(w.alice, w.group.id, "HTTP first", clientId);
    a.send({ type: "chat.send", text: "HTTP first", clientId });
    expect((await a.next("chat.ack")).id).toBe(first.id);
    expect(a.of("chat.message").map((f) => f.message.id)).toEqual([first.id]);
    expect(await rowsOf(w.alice.user.id, clientId)).toHaveLength(1);
  });

  it("knows the clientIds D1 had before the room kept its own (a retry after the room's storage is new)", async () => {
    const w = await world();
    const clientId = cid();
    const [old] = await db().insert(s.messages).values({ groupId: w.group.id, authorId: w.alice.user.id, text: "from before", clientId }).returning({ id: s.messages.id });
    const a = (await joinChat(w.alice, w.group.id)).client;
    a.send({ type: "chat.send", text: "from before", clientId });
    expect((await a.next("chat.ack")).id).toBe(old!.id);
    expect(a.of("chat.message")).toHaveLength(0);
    expect(await rowsOf(w.alice.user.id, clientId)).toHaveLength(1);
  });
});

describe("ids", () => {
  it("increase within a group and never repeat across groups, across id blocks, HTTP and socket sends alike", async () => {
    const [g1, g2] = [await world(), await world()];
    const extra = await Promise.all([0, 1, 2].map(() => createUser()));
    await Promise.all(extra.map((u) => addMember(u, g1.group)));
    const senders1 = [g1.alice, g1.bob, g1.teacher, ...(await Promise.all(extra.map((u) => signIn(u))))];
    const watcher = (await joinChat(g1.teacher, g1.group.id)).client;
    const socket2 = (await joinChat(g2.alice, g2.group.id)).client;

    const ids1: number[] = [];
    const ids2: number[] = [];
    // 72 messages in group 1 (more than one block of 64 ids), 12 in group 2 in between.
    for (let i = 0; i < 72; i++) {
      ids1.push((await postOk(senders1[i % senders1.length]!, g1.group.id, `one ${i}`)).id);
      if (i % 6 === 0) {
        const clientId = cid();
        socket2.send({ type: "chat.send", text: `two ${i}`, clientId });
        ids2.push((await socket2.next("chat.ack", (f) => f.clientId === clientId)).id);
      }
    }
    const increasing = (ids: number[]) => ids.every((id, i) => i === 0 || id > ids[i - 1]!);
    expect(increasing(ids1)).toBe(true);
    expect(increasing(ids2)).toBe(true);
    expect(ids1.filter((id) => ids2.includes(id))).toEqual([]);
    await eventually(() => (watcher.liveIds().length === 72 ? true : undefined), 5_000, "every message live");
    expect(watcher.liveIds()).toEqual(ids1);
    await eventually(
      async () => ((await db().select({ n: count() }).from(s.messages).where(eq(s.messages.groupId, g2.group.id)))[0]!.n === 12 ? true : undefined),
      3_000,
      "group 2 in D1",
    );
    const inD1 = async (groupId: string) => (await db().select({ id: s.messages.id }).from(s.messages).where(eq(s.messages.groupId, groupId)).orderBy(asc(s.messages.id))).map((r) => r.id);
    expect(await inD1(g1.group.id)).toEqual(ids1);
    expect(await inD1(g2.group.id)).toEqual(ids2);
  });

  it("keeps a reserved block out of reach of any other insert: a plain insert gets an id past every block", async () => {
    const w = await world();
    const first = await postOk(w.alice, w.group.id, "reserves a block");
    const [block] = await db().select().from(s.messageIdBlocks).where(eq(s.messageIdBlocks.groupId, w.group.id)).orderBy(sql`${s.messageIdBlocks.start} desc`).limit(1);
    expect(block!.start).toBeLessThanOrEqual(first.id);
    expect(block!.end).toBeGreaterThan(first.id);
    const [plain] = await db().insert(s.messages).values({ groupId: w.group.id, authorId: w.bob.user.id, text: "plain" }).returning({ id: s.messages.id });
    expect(plain!.id).toBeGreaterThan(block!.end);
    // No reserving row of the block is left behind.
    expect(await db().select().from(s.messages).where(sql`${s.messages.clientId} like '~%'`)).toEqual([]);
  });
});

describe("reading right after a send", () => {
  it("a chat.sync right after a send includes it while D1 has not got it (D1 stays what the HTTP list reads)", async () => {
    const w = await world();
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const a = (await joinChat(w.alice, w.group.id)).client;
    const reader = await connectAs(w.bob, "group-room", w.group.id);
    await d1Refuses();
    const clientId = cid();
    a.send({ type: "chat.send", text: `fresh ${DOWN}`, clientId });
    const { id } = await a.next("chat.ack");
    const history = await syncChat(reader, 0);
    expect(history).toMatchObject({ messages: [expect.objectContaining({ id, text: `fresh ${DOWN}`, clientId })], more: false });
    const list = await call(`/api/messages/group/${w.group.id}`, { token: w.bob.accessToken });
    expect(((await list.json()) as { messages: unknown[] }).messages).toEqual([]);
    // A sync from where the reader is now, and then live frames, in order, once each.
    await d1Accepts();
    const next = await postOk(w.alice, w.group.id, "next");
    expect((await reader.next("chat.message")).message.id).toBe(next.id);
    expect((await syncChat(reader, id)).messages.map((m) => m.id)).toEqual([next.id]);
  });
});

describe("the rate limit follows the person across their groups", () => {
  it("counts one person's sends in two groups, over sockets and HTTP, against the one limit of 20 per 10 seconds", async () => {
    const w = await world();
    const other = await createGroup();
    await addMember(w.alice.user, other);
    const here = (await joinChat(w.alice, w.group.id)).client;
    const there = (await joinChat(w.alice, other.id)).client;
    for (let i = 0; i < 6; i++) {
      const clientId = cid();
      here.send({ type: "chat.send", text: `here ${i}`, clientId });
      await here.next("chat.ack", (f) => f.clientId === clientId);
    }
    for (let i = 0; i < 6; i++) await postOk(w.alice, other.id, `there ${i}`);
    for (let i = 0; i < 4; i++) {
      const clientId = cid();
      there.send({ type: "chat.send", text: `there again ${i}`, clientId });
      await there.next("chat.ack", (f) => f.clientId === clientId);
    }
    for (let i = 0; i < 4; i++) await postOk(w.alice, w.group.id, `here again ${i}`);
    // 20 sent: the 21st is refused wherever it goes.
    const limited = await post(w.alice, other.id, "one too many");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    const clientId = cid();
    here.send({ type: "chat.send", text: "and here", clientId });
    const refused = await here.next("error", (f) => f.clientId === clientId);
    expect(refused).toMatchObject({ code: "rate_limited" });
    // As the API's Retry-After: the seconds until the window of 10 s lets one more through.
    expect(refused.retryAfter).toBeGreaterThan(0);
    expect(refused.retryAfter).toBeLessThanOrEqual(10);
    expect((await post(w.bob, w.group.id, "someone else")).status).toBe(201);
  });

  it("counts messages, not attempts: resending a stored message's clientId is answered with it, also at the limit", async () => {
    const w = await world();
    const here = (await joinChat(w.alice, w.group.id)).client;
    const first = cid();
    here.send({ type: "chat.send", text: "first", clientId: first });
    const ack = await here.next("chat.ack", (f) => f.clientId === first);
    // Nineteen resends of a message whose ack was lost (over the socket and over HTTP) store and count nothing...
    for (let i = 0; i < 10; i++) {
      here.send({ type: "chat.send", text: "first", clientId: first });
      expect((await here.next("chat.ack", (f) => f.clientId === first)).id).toBe(ack.id);
    }
    for (let i = 0; i < 9; i++) {
      const again = await post(w.alice, w.group.id, "first", first);
      expect(again.status).toBe(200);
    }
    // ...so 19 new messages still fit in the 20 per 10 seconds.
    for (let i = 0; i < 19; i++) await postOk(w.alice, w.group.id, `new ${i}`);
    expect((await post(w.alice, w.group.id, "one too many")).status).toBe(429);
    // At the limit, a resend is still answered with its message, over HTTP and over the socket.
    const atLimit = await post(w.alice, w.group.id, "first", first);
    expect(atLimit.status).toBe(200);
    expect(((await atLimit.json()) as { message: ChatMessageFrameBody }).message.id).toBe(ack.id);
    here.send({ type: "chat.send", text: "first", clientId: first });
    expect((await here.next("chat.ack", (f) => f.clientId === first)).id).toBe(ack.id);
    expect(await rowsOf(w.alice.user.id, first)).toHaveLength(1);
  });
});

describe("the rate counter's hand-over (chat-rate.ts, in a room's real storage)", () => {
  it("refuses a grant that a release of its epoch overtook, and answers a repeated release with the same value", async () => {
    const w = await world();
    const limit = { max: 3, windowMs: 10_000 };
    await runInDurableObject(groupRoomStub(w.group.id), (_room: GroupRoom, state) => {
      const leases = new RateLeases(state.storage.sql);
      const user = w.alice.user.id;
      // The UserHub handed epoch 1 over, then took it back before the grant arrived: the late grant counts nothing here.
      expect(leases.release(user, 1)).toBeNull();
      leases.take(user, { epoch: 1, count: 0, resetAt: 0 });
      expect(leases.holds(user)).toBe(false);
      expect(leases.hit(user, limit, 1_000)).toBeUndefined();

      leases.take(user, { epoch: 2, count: 2, resetAt: 5_000 });
      expect(leases.hit(user, limit, 1_000)).toEqual({ retryAfter: null });
      expect(leases.hit(user, limit, 1_000)).toEqual({ retryAfter: 4 });
      expect(leases.release(user, 2)).toEqual({ count: 4, resetAt: 5_000 });
      expect(leases.release(user, 2)).toEqual({ count: 4, resetAt: 5_000 });
      expect(leases.hit(user, limit, 1_000)).toBeUndefined();
      // A later epoch this room never got: nothing counted here.
      expect(leases.release(user, 3)).toBeNull();
      // After the window: a fresh count.
      leases.take(user, { epoch: 4, count: 4, resetAt: 5_000 });
      expect(leases.hit(user, limit, 5_000)).toEqual({ retryAfter: null });
      expect(leases.release(user, 4)).toEqual({ count: 1, resetAt: 15_000 });
    });
  });
});

describe("rights", () => {
  it("refuses a send once the socket's session has expired, without waiting for the rights it read to age", async () => {
    const w = await world();
    const expiresAt = Date.now() + 3_000;
    await db().update(s.sessions).set({ expiresAt: new Date(expiresAt) }).where(eq(s.sessions.id, w.bob.sessionId));
    const { client } = await joinChat(w.bob, w.group.id);
    await new Promise((r) => setTimeout(r, expiresAt - Date.now() + 100));
    const clientId = cid();
    client.send({ type: "chat.send", text: "expired?", clientId });
    expect(await client.next("error", (f) => f.clientId === clientId)).toMatchObject({ code: "unauthorized", message: "Your session has ended. Please log in again." });
    expect((await client.waitClosed()).code).toBe(4401);
  });

  it("closes the socket of a person who logs out; nothing they send afterwards is stored", async () => {
    const w = await world();
    const { client } = await joinChat(w.bob, w.group.id);
    expect((await call("/api/users/logout", { method: "POST", cookie: w.bob.cookie })).status).toBe(200);
    expect((await client.waitClosed()).code).toBe(4401);
    expect([401, 403]).toContain((await post(w.bob, w.group.id, "after logout")).status);
  });
});
