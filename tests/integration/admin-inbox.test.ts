/**
 * The admins' inbox of contact messages: list with read state and paging, read/unread, delete, all live on the
 * staff inbox for admins only (instructors share that room and must never see visitors' messages).
 */
import { describe, expect, it } from "vitest";
import type { ContactMessageFrameBody } from "../../app/lib/realtime-protocol";
import * as s from "../../db/schema";
import { STAFF_ROOM } from "../../worker/realtime/publish";
import { newId } from "../../worker/services/ids";
import { call, createUser, signIn, type SignedIn } from "./factories";
import { db, unique } from "./helpers";
import { connectAs, type SocketClient } from "./sockets";

type Page = { messages: ContactMessageFrameBody[]; total: number; unread: number; page: number; pageSize: number };

async function sendContact(name = "Visitor"): Promise<string> {
  const res = await call("/api/contact", { body: { name, email: `${unique("v")}@test.example`, message: `Hello from ${name}` } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { _id: string })._id;
}

async function inbox(admin: SignedIn, query = ""): Promise<Page> {
  const res = await call(`/api/contact-messages${query}`, { token: admin.accessToken });
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
}

const setRead = (admin: SignedIn, id: string, read: boolean) => call(`/api/contact-messages/${id}/read`, { method: "PUT", body: { read }, token: admin.accessToken });

/** Proves a socket is live and has processed everything sent before: a ping answered after it. */
async function settled(client: SocketClient) {
  const t = Math.random();
  client.send({ type: "ping", t });
  await client.next("pong", (f) => f.t === t);
}

async function staff() {
  const [admin, instructor] = await Promise.all([createUser({ role: "admin" }), createUser({ role: "instructor" })]);
  return { admin: await signIn(admin), instructor: await signIn(instructor) };
}

describe("the contact inbox over HTTP", () => {
  it("lists newest first with filters, paging and the unread count", async () => {
    const { admin } = await staff();
    // Messages of this test are inserted with times in the future, so they are the newest whatever else exists.
    const base = Date.now() + 3_600_000;
    const rows = Array.from({ length: 3 }, (_, i) => ({
      id: newId(),
      name: `Sender ${i}`,
      email: `${unique("s")}@test.example`,
      message: `Message ${i}`,
      createdAt: new Date(base + i * 1000),
      readAt: i === 1 ? new Date() : null,
    }));
    for (const row of rows) await db().insert(s.contactMessages).values(row);

    const all = await inbox(admin, "?pageSize=2");
    expect(all.messages.map((m) => m._id)).toEqual([rows[2]!.id, rows[1]!.id]);
    expect(all.messages[0]).toEqual({ _id: rows[2]!.id, name: "Sender 2", email: rows[2]!.email, message: "Message 2", createdAt: expect.any(String), readAt: null });
    expect(all).toMatchObject({ page: 1, pageSize: 2 });
    expect(all.total).toBeGreaterThanOrEqual(3);
    const next = await inbox(admin, "?pageSize=2&page=2");
    expect(next.messages[0]!._id).toBe(rows[0]!.id);

    const unread = await inbox(admin, "?status=unread&pageSize=100");
    expect(unread.messages.every((m) => m.readAt === null)).toBe(true);
    expect(unread.total).toBe(unread.unread);
    expect(unread.messages.map((m) => m._id)).not.toContain(rows[1]!.id);
    const read = await inbox(admin, "?status=read&pageSize=100");
    expect(read.messages.map((m) => m._id)).toContain(rows[1]!.id);
    expect((await call("/api/contact-messages?status=spam", { token: admin.accessToken })).status).toBe(400);
  });

  it("marks read and unread (keeping the first read time) and deletes", async () => {
    const { admin } = await staff();
    const id = await sendContact("Reader");
    const before = (await inbox(admin)).unread;

    const read = (await (await setRead(admin, id, true)).json()) as { message: ContactMessageFrameBody; unread: number };
    expect(read).toEqual({ message: expect.objectContaining({ _id: id, readAt: expect.any(String) }), unread: before - 1 });
    const again = (await (await setRead(admin, id, true)).json()) as typeof read;
    expect(again.message.readAt).toBe(read.message.readAt);
    const unread = (await (await setRead(admin, id, false)).json()) as typeof read;
    expect(unread).toEqual({ message: expect.objectContaining({ _id: id, readAt: null }), unread: before });

    const del = await call(`/api/contact-messages/${id}`, { method: "DELETE", token: admin.accessToken });
    expect(await del.json()).toEqual({ message: "The message was deleted.", unread: before - 1 });
    expect((await call(`/api/contact-messages/${id}`, { method: "DELETE", token: admin.accessToken })).status).toBe(404);
    expect((await setRead(admin, id, true)).status).toBe(404);
    expect((await setRead(admin, "no-such-message", true)).status).toBe(404);
  });

  it("refuses a body without a boolean read", async () => {
    const { admin } = await staff();
    const id = await sendContact();
    const res = await call(`/api/contact-messages/${id}/read`, { method: "PUT", body: { read: "yes" }, token: admin.accessToken });
    expect(res.status).toBe(400);
  });
});

describe("the contact inbox, live", () => {
  it("sends contact frames to admins' connections and never to instructors'", async () => {
    const { admin, instructor } = await staff();
    const adminTab = await connectAs(admin, "staff-inbox", STAFF_ROOM);
    const instructorTab = await connectAs(instructor, "staff-inbox", STAFF_ROOM);

    const id = await sendContact("Live visitor");
    const created = await adminTab.next("contact.created", (f) => f.message._id === id);
    expect(created.message).toMatchObject({ _id: id, name: "Live visitor", readAt: null });
    expect(created.unread).toBeGreaterThan(0);

    await setRead(admin, id, true);
    const updated = await adminTab.next("contact.updated", (f) => f.message._id === id);
    expect(updated).toEqual({ type: "contact.updated", message: expect.objectContaining({ _id: id, readAt: expect.any(String) }), unread: created.unread - 1 });

    await call(`/api/contact-messages/${id}`, { method: "DELETE", token: admin.accessToken });
    expect(await adminTab.next("contact.deleted", (f) => f._id === id)).toEqual({ type: "contact.deleted", _id: id, unread: created.unread - 1 });

    await settled(instructorTab);
    expect(instructorTab.frames.map((f) => f.type).filter((t) => t.startsWith("contact."))).toEqual([]);
  });

  it("notifies every admin's bell with the new unread count", async () => {
    const { admin } = await staff();
    const hub = await connectAs(admin, "user-hub", admin.user.id);
    await sendContact("Bell ringer");
    const frame = await hub.next("notification", (f) => f.notification.title.includes("Bell ringer"));
    expect(frame.notification).toMatchObject({ kind: "contact-message", link: "/dashboard/admin/get-all-message-by-admin" });
    expect(frame.unread).toBeGreaterThanOrEqual(1);
  });
});
