import { env, SELF } from "cloudflare:test";
import { getServerByName } from "partyserver";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Party, type ServerFrame } from "../../app/lib/realtime-protocol";
import { getSettings } from "../../worker/env";
import { publishToStaff, publishToUser, STAFF_ROOM } from "../../worker/realtime/publish";
import type { Room } from "../../worker/realtime/room";
import { mintTicket } from "../../worker/realtime/tickets";
import { newId } from "../../worker/services/ids";
import * as sc from "../../db/schema";
import { db, eventually, insertUser, randomIp, unique } from "./helpers";

const ORIGIN = "http://localhost";
type Role = "admin" | "instructor" | "user";

/** A client socket that records every frame and its close. */
class Client {
  readonly frames: ServerFrame[] = [];
  closed: { code: number; reason: string } | null = null;

  constructor(readonly ws: WebSocket) {
    ws.addEventListener("message", (e) => {
      this.frames.push(JSON.parse(String(e.data)) as ServerFrame);
    });
    ws.addEventListener("close", (e) => {
      this.closed = { code: e.code, reason: e.reason };
    });
    ws.accept();
  }

  send(data: string | ArrayBuffer) {
    this.ws.send(data);
  }

  /** The first frame (in arrival order) that matches, waiting up to `timeoutMs`. */
  next<T extends ServerFrame["type"]>(type: T, where: (f: Extract<ServerFrame, { type: T }>) => boolean = () => true, timeoutMs = 2_000) {
    return eventually(
      () => this.frames.find((f): f is Extract<ServerFrame, { type: T }> => f.type === type && where(f as Extract<ServerFrame, { type: T }>)),
      timeoutMs,
      `a ${type} frame`,
    );
  }

  of<T extends ServerFrame["type"]>(type: T) {
    return this.frames.filter((f): f is Extract<ServerFrame, { type: T }> => f.type === type);
  }

  waitClosed(timeoutMs = 3_000) {
    return eventually(() => this.closed ?? undefined, timeoutMs, "the socket to close");
  }
}

const open: Client[] = [];
afterEach(() => {
  for (const c of open.splice(0)) if (!c.closed) c.ws.close(1000, "test done");
});

function upgrade(party: string, room: string, ticket: string | null, headers: Record<string, string> = { Origin: ORIGIN }) {
  const q = ticket === null ? "" : `?ticket=${encodeURIComponent(ticket)}`;
  return SELF.fetch(`http://localhost/parties/${party}/${room}${q}`, { headers: { Upgrade: "websocket", ...headers } });
}

/** A live session for a user of this id and role (the user is created when missing): the router admits only those. */
async function liveSession(userId: string, role: Role): Promise<string> {
  const slug = unique("rt");
  await db().insert(sc.users).values({ id: userId, slug, name: `User ${slug}`, email: `${slug}@test.example`, role }).onConflictDoNothing();
  const sessionId = newId();
  const now = Date.now();
  await db().insert(sc.sessions).values({ id: sessionId, userId, refreshTokenHash: newId(), family: sessionId, lastUsedAt: new Date(now), expiresAt: new Date(now + 86_400_000) });
  return sessionId;
}

async function ticketFor(party: Party, room: string, who: { userId?: string; role?: Role } = {}) {
  const userId = who.userId ?? newId();
  const role = who.role ?? "admin";
  return mintTicket(getSettings(env), { userId, role, sessionId: await liveSession(userId, role) }, party, room);
}

/** Opens an admitted socket and waits for its welcome frame. */
async function connect(party: Party, room: string, who: { userId?: string; role?: Role } = {}) {
  const res = await upgrade(party, room, await ticketFor(party, room, who));
  expect(res.status).toBe(101);
  expect(res.webSocket).toBeTruthy();
  const client = new Client(res.webSocket!);
  open.push(client);
  await client.next("welcome");
  return client;
}

async function expectRefused(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.webSocket).toBeFalsy();
  expect(await res.json()).toMatchObject({ code });
}

const staffRoom = () => getServerByName(env.StaffInbox as unknown as DurableObjectNamespace<Room>, STAFF_ROOM);

describe("admission", () => {
  it("refuses an upgrade without a ticket with 401", async () => {
    await expectRefused(await upgrade("staff-inbox", STAFF_ROOM, null), 401, "unauthorized");
  });

  it("refuses a foreign or missing Origin with 403, even with a valid ticket", async () => {
    const foreign = await upgrade("staff-inbox", STAFF_ROOM, await ticketFor("staff-inbox", STAFF_ROOM), { Origin: "https://evil.example" });
    await expectRefused(foreign, 403, "forbidden");
    const missing = await upgrade("staff-inbox", STAFF_ROOM, await ticketFor("staff-inbox", STAFF_ROOM), {});
    await expectRefused(missing, 403, "forbidden");
  });

  it("accepts the configured public origin", async () => {
    const res = await upgrade("staff-inbox", STAFF_ROOM, await ticketFor("staff-inbox", STAFF_ROOM), { Origin: env.PUBLIC_ORIGIN });
    expect(res.status).toBe(101);
    open.push(new Client(res.webSocket!));
  });

  it("refuses a ticket for another room or another party with 401", async () => {
    const userId = newId();
    const otherRoom = await ticketFor("user-hub", newId(), { userId, role: "user" });
    await expectRefused(await upgrade("user-hub", userId, otherRoom), 401, "unauthorized");
    const otherParty = await ticketFor("group-room", userId, { userId, role: "user" });
    await expectRefused(await upgrade("user-hub", userId, otherParty), 401, "unauthorized");
  });

  it("refuses an expired ticket with 401", async () => {
    // Minted five minutes ago, so its 60-second lifetime is over.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - 5 * 60_000 });
    const expired = await ticketFor("staff-inbox", STAFF_ROOM).finally(() => vi.useRealTimers());
    const [, payload] = expired.split(".");
    expect(JSON.parse(atob(payload!.replace(/-/g, "+").replace(/_/g, "/"))).exp * 1000).toBeLessThan(Date.now());
    await expectRefused(await upgrade("staff-inbox", STAFF_ROOM, expired), 401, "unauthorized");
  });

  it("refuses a forged or garbled ticket with 401", async () => {
    const settings = getSettings(env);
    const forged = await mintTicket({ ...settings, authSecret: "someone-else-entirely-0123456789abcdef" }, { userId: newId(), role: "admin", sessionId: newId() }, "staff-inbox", STAFF_ROOM);
    await expectRefused(await upgrade("staff-inbox", STAFF_ROOM, forged), 401, "unauthorized");
    const good = await ticketFor("staff-inbox", STAFF_ROOM);
    const [h, , sig] = good.split(".");
    const tampered = `${h}.${btoa(JSON.stringify({ sub: "x", role: "admin", party: "staff-inbox", room: STAFF_ROOM, jti: "j", exp: 9e9 })).replace(/=+$/, "")}.${sig}`;
    await expectRefused(await upgrade("staff-inbox", STAFF_ROOM, tampered), 401, "unauthorized");
    await expectRefused(await upgrade("staff-inbox", STAFF_ROOM, "not-a-jwt"), 401, "unauthorized");
  });

  it("refuses a ticket that was already used with 403", async () => {
    const ticket = await ticketFor("staff-inbox", STAFF_ROOM);
    const first = await upgrade("staff-inbox", STAFF_ROOM, ticket);
    expect(first.status).toBe(101);
    open.push(new Client(first.webSocket!));
    const again = await upgrade("staff-inbox", STAFF_ROOM, ticket);
    expect(again.status).toBe(403);
    expect(again.webSocket).toBeFalsy();
    await again.text();
  });

  it("welcomes an admitted socket with its party, room and connection id, without logging", async () => {
    const warn = vi.spyOn(console, "warn");
    const client = await connect("staff-inbox", STAFF_ROOM);
    const welcome = await client.next("welcome");
    expect(welcome).toEqual({ type: "welcome", party: "staff-inbox", room: STAFF_ROOM, connectionId: expect.any(String) });
    expect(client.frames).toHaveLength(1);
    expect(warn).not.toHaveBeenCalled();
  });

  it("answers a plain HTTP request to a room with 404", async () => {
    const res = await SELF.fetch(`http://localhost/parties/staff-inbox/${STAFF_ROOM}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "not_found" });
  });

  it("answers 404 for a party that does not exist", async () => {
    const ticket = await ticketFor("staff-inbox", STAFF_ROOM);
    const res = await upgrade("no-such-party", STAFF_ROOM, ticket);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "not_found" });
    const plain = await SELF.fetch("http://localhost/parties/no-such-party/x");
    expect(plain.status).toBe(404);
    await plain.text();
  });
});

describe("frames", () => {
  it("answers ping with pong carrying the same t", async () => {
    const client = await connect("staff-inbox", STAFF_ROOM);
    client.send(JSON.stringify({ type: "ping", t: 1 }));
    expect(await client.next("pong")).toEqual({ type: "pong", t: 1 });
    client.send(JSON.stringify({ type: "ping", t: 42.5 }));
    expect(await client.next("pong", (f) => f.t === 42.5)).toEqual({ type: "pong", t: 42.5 });
  });

  it("refuses a frame that is not JSON with invalid_frame and keeps the socket open", async () => {
    const client = await connect("staff-inbox", STAFF_ROOM);
    client.send("{not json");
    const err = await client.next("error");
    expect(err.code).toBe("invalid_frame");
    client.send(JSON.stringify({ type: "ping", t: 7 }));
    expect(await client.next("pong")).toEqual({ type: "pong", t: 7 });
    expect(client.closed).toBeNull();
  });

  it.each([
    ["an unknown type", { type: "shout", text: "hi" }],
    ["a malformed ping", { type: "ping", t: "soon" }],
    ["a server frame sent by a client", { type: "contact.created", message: {} }],
  ])("refuses %s with invalid_frame", async (_label, frame) => {
    const client = await connect("staff-inbox", STAFF_ROOM);
    client.send(JSON.stringify(frame));
    expect((await client.next("error")).code).toBe("invalid_frame");
    expect(client.of("contact.created")).toHaveLength(0);
  });

  it.each([
    ["an unknown type", { type: "shout", text: "hi" }, "Unknown or malformed frame."],
    ["a chat.send whose clientId is too short", { type: "chat.send", text: "hi", clientId: "bad id" }, "clientId"],
    ["a chat.send whose clientId is a number", { type: "chat.send", text: "hi", clientId: 12345678 }, "clientId"],
    ["a malformed ping", { type: "ping", t: "soon" }, "t "],
  ])("says what is wrong with %s, as the API would", async (_label, frame, says) => {
    const client = await connect("staff-inbox", STAFF_ROOM);
    client.send(JSON.stringify(frame));
    const err = await client.next("error");
    expect(err.code).toBe("invalid_frame");
    expect(err.message).toContain(says);
    if (says !== "Unknown or malformed frame.") expect(err.message).not.toBe("Unknown or malformed frame.");
  });

  it("refuses an oversized frame with frame_too_large", async () => {
    const client = await connect("staff-inbox", STAFF_ROOM);
    client.send(JSON.stringify({ type: "ping", t: 1, pad: "x".repeat(8 * 1024) }));
    expect((await client.next("error")).code).toBe("frame_too_large");
    expect(client.of("pong")).toHaveLength(0);
  });

  it(`rate-limits a socket past 40 frames in 10 s`, async () => {
    const client = await connect("staff-inbox", STAFF_ROOM);
    const other = await connect("staff-inbox", STAFF_ROOM);
    for (let t = 1; t <= 40 + 5; t++) client.send(JSON.stringify({ type: "ping", t }));
    const limited = await client.next("error", (f) => f.code === "rate_limited");
    expect(limited.message.length).toBeGreaterThan(0);
    await eventually(() => (client.of("pong").length + client.of("error").length === 40 + 5 ? true : undefined), 2_000, "every frame answered");
    expect(client.of("pong").map((f) => f.t)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(client.of("error").filter((f) => f.code === "rate_limited")).toHaveLength(5);

    // The limit is per connection: another socket in the same room is unaffected.
    other.send(JSON.stringify({ type: "ping", t: 99 }));
    expect(await other.next("pong")).toEqual({ type: "pong", t: 99 });
  });

  it("closes a socket that goes on past 80 frames in 10 s (4429) instead of answering a flood frame by frame", async () => {
    const client = await connect("staff-inbox", STAFF_ROOM);
    const other = await connect("staff-inbox", STAFF_ROOM);
    for (let t = 1; t <= 500; t++) client.send(JSON.stringify({ type: "ping", t }));
    expect((await client.waitClosed()).code).toBe(4429);
    // 40 answered, the next 40 refused one by one, and nothing after that.
    expect(client.of("pong")).toHaveLength(40);
    expect(client.of("error").filter((f) => f.code === "rate_limited")).toHaveLength(40);
    other.send(JSON.stringify({ type: "ping", t: 7 }));
    expect(await other.next("pong")).toEqual({ type: "pong", t: 7 });
  });
});

describe("sockets per person", () => {
  it("keeps one person's 8 newest sockets in a room: a 9th closes the oldest (4408), nobody else's", async () => {
    const me = newId();
    const someone = newId();
    const theirs = await connect("user-hub", someone, { userId: someone, role: "user" });
    const mine = [];
    for (let i = 0; i < 8; i++) mine.push(await connect("staff-inbox", STAFF_ROOM, { userId: me, role: "instructor" }));
    const others = await connect("staff-inbox", STAFF_ROOM, { userId: newId(), role: "admin" });
    for (const c of mine) {
      c.send(JSON.stringify({ type: "ping", t: 1 }));
      await c.next("pong");
      expect(c.closed).toBeNull();
    }
    mine.push(await connect("staff-inbox", STAFF_ROOM, { userId: me, role: "instructor" }));
    expect((await mine[0]!.waitClosed()).code).toBe(4408);
    for (const c of [...mine.slice(1), others, theirs]) {
      c.send(JSON.stringify({ type: "ping", t: 2 }));
      expect(await c.next("pong", (f) => f.t === 2)).toEqual({ type: "pong", t: 2 });
      expect(c.closed).toBeNull();
    }
  });
});

describe("publishing", () => {
  it("publishToStaff delivers a frame to every connected staff socket", async () => {
    const a = await connect("staff-inbox", STAFF_ROOM, { role: "admin" });
    const b = await connect("staff-inbox", STAFF_ROOM, { role: "instructor" });
    const id = newId();
    await publishToStaff(env, {
      type: "contact.created",
      message: { _id: id, name: "Rana", email: "rana@test.example", message: "Hello", createdAt: new Date().toISOString(), readAt: null },
      unread: 1,
    });
    for (const c of [a, b]) expect((await c.next("contact.created", (f) => f.message._id === id)).message.name).toBe("Rana");
  });

  it("a real POST /api/contact reaches a connected staff socket (Worker → Durable Object → socket)", async () => {
    const staff = await connect("staff-inbox", STAFF_ROOM, { role: "admin" });
    const email = `${unique("live")}@test.example`;
    const res = await SELF.fetch("http://localhost/api/contact", {
      method: "POST",
      headers: { "content-type": "application/json", "cf-connecting-ip": randomIp() },
      body: JSON.stringify({ name: "Live Visitor", email, message: "Are you there?" }),
    });
    expect(res.status).toBe(201);
    const { _id } = (await res.json()) as { _id: string };

    const frame = await staff.next("contact.created", (f) => f.message._id === _id);
    expect(frame.message).toEqual({ _id, name: "Live Visitor", email, message: "Are you there?", createdAt: expect.any(String), readAt: null });
  });

  it("a contact message notifies a connected admin's own hub", async () => {
    const admin = await insertUser({ role: "admin" });
    const hub = await connect("user-hub", admin.id, { userId: admin.id, role: "admin" });
    const res = await SELF.fetch("http://localhost/api/contact", {
      method: "POST",
      headers: { "content-type": "application/json", "cf-connecting-ip": randomIp() },
      body: JSON.stringify({ name: "Hub Visitor", email: `${unique("hub")}@test.example`, message: "Ping the bell" }),
    });
    expect(res.status).toBe(201);
    const frame = await hub.next("notification", (f) => f.notification.title.includes("Hub Visitor"));
    expect(frame.notification).toMatchObject({ kind: "contact-message", readAt: null });
  });

  it("publishToUser reaches only that user's hub", async () => {
    const alice = newId();
    const bob = newId();
    const aliceTab1 = await connect("user-hub", alice, { userId: alice, role: "user" });
    const aliceTab2 = await connect("user-hub", alice, { userId: alice, role: "user" });
    const bobTab = await connect("user-hub", bob, { userId: bob, role: "user" });

    const n = { _id: newId(), kind: "test", title: "For Alice", params: null, link: null, createdAt: new Date().toISOString(), readAt: null };
    await publishToUser(env, alice, { type: "notification", notification: n, unread: 1 });

    for (const tab of [aliceTab1, aliceTab2]) expect((await tab.next("notification")).notification).toEqual(n);
    // Bob's hub got nothing; a ping round-trip proves his socket is live and in order.
    bobTab.send(JSON.stringify({ type: "ping", t: 5 }));
    await bobTab.next("pong");
    expect(bobTab.of("notification")).toHaveLength(0);
  });
});

describe("Room.disconnectUser", () => {
  it("closes every socket of that user and no one else's", async () => {
    const leaving = newId();
    const staying = newId();
    const tab1 = await connect("staff-inbox", STAFF_ROOM, { userId: leaving, role: "instructor" });
    const tab2 = await connect("staff-inbox", STAFF_ROOM, { userId: leaving, role: "instructor" });
    const other = await connect("staff-inbox", STAFF_ROOM, { userId: staying, role: "admin" });

    const stub = await staffRoom();
    expect(await stub.disconnectUser(leaving, "Role changed")).toBe(2);

    for (const tab of [tab1, tab2]) {
      const closed = await eventually(() => tab.closed ?? undefined, 2_000, "close");
      expect(closed).toEqual({ code: 4403, reason: "Role changed" });
    }
    other.send(JSON.stringify({ type: "ping", t: 3 }));
    expect(await other.next("pong")).toEqual({ type: "pong", t: 3 });
    expect(other.closed).toBeNull();

    // The closed sockets no longer receive anything.
    const id = newId();
    await publishToStaff(env, { type: "contact.created", message: { _id: id, name: "After", email: "a@test.example", message: "m", createdAt: new Date().toISOString(), readAt: null }, unread: 1 });
    await other.next("contact.created", (f) => f.message._id === id);
    expect(tab1.of("contact.created").filter((f) => f.message._id === id)).toHaveLength(0);
  });
});
