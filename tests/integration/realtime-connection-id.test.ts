/**
 * A socket's connection id is the server's, never the browser's. partyserver takes the id from the `_pk` query
 * parameter (partysocket sends one) and makes it one of the connection's tags, and tags address frames:
 * `role:admin` (the admins' inbox), `user:<id>` (one person). A member who chose `_pk=role:admin` heard the staff's
 * attendance marks and the visitors' contact messages; one who reused another member's id posted in their name.
 * The router gives every socket a fresh id whatever `_pk` says, and the room admits only that id.
 */
import { SELF } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import type { Party } from "../../app/lib/realtime-protocol";
import { STAFF_ROOM } from "../../worker/realtime/publish";
import { addMember, call, createGroup, createUser, ORIGIN, signIn, type SignedIn } from "./factories";
import { unique } from "./helpers";
import { connectAs, SocketClient, syncChat, ticketFor } from "./sockets";

const opened: SocketClient[] = [];
afterEach(() => {
  for (const c of opened.splice(0)) c.close();
});

/** An admitted socket whose upgrade carries `_pk` as partysocket sends it, with the id the client wants. */
async function connectWithId(who: SignedIn, party: Party, room: string, pk: string): Promise<SocketClient> {
  const ticket = await ticketFor(who, party, room);
  const res = await SELF.fetch(`${ORIGIN}/parties/${party}/${room}?_pk=${encodeURIComponent(pk)}&ticket=${encodeURIComponent(ticket)}`, { headers: { Upgrade: "websocket", Origin: ORIGIN } });
  expect(res.status).toBe(101);
  const client = new SocketClient(res.webSocket!);
  opened.push(client);
  await client.next("welcome");
  return client;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function world() {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const [nour, omar] = [await signIn(await createUser({ name: "Nour Chosen" })), await signIn(await createUser({ name: "Omar Victim" }))];
  await addMember(nour.user, group);
  await addMember(omar.user, group);
  const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: "Live", published: true }, token: teacher.accessToken })).json()) as { _id: string; slug: string };
  return { teacher, group, nour, omar, lecture };
}

describe("a socket's connection id", () => {
  it("is never the one a student asks for: `role:admin` or the instructor's tag hears none of the staff's attendance marks", async () => {
    const w = await world();
    const staff = await connectAs(w.teacher, "group-room", w.group.id);
    const asAdmin = await connectWithId(w.nour, "group-room", w.group.id, "role:admin");
    const asTeacher = await connectWithId(w.nour, "group-room", w.group.id, `user:${w.teacher.user.id}`);
    for (const socket of [asAdmin, asTeacher]) {
      const id = socket.of("welcome")[0]!.connectionId;
      expect(id).toMatch(UUID);
    }
    await call(`/api/lectures/${w.lecture.slug}/attendance/open`, { body: { rotateSeconds: 0, durationMinutes: 30 }, token: w.teacher.accessToken });
    await asAdmin.next("attendance.opened");
    expect((await call("/api/attendance", { body: { lectureId: w.lecture._id, userId: w.omar.user.id, status: "late" }, token: w.teacher.accessToken })).status).toBe(200);
    // The staff's socket hears the mark (with Omar's name); the student's two sockets, pinged after it, never do.
    await staff.next("attendance.marked", (f) => f.record.user._id === w.omar.user.id);
    for (const [i, socket] of [asAdmin, asTeacher].entries()) {
      socket.send({ type: "ping", t: i });
      await socket.next("pong", (f) => f.t === i);
      expect(socket.of("attendance.marked")).toEqual([]);
    }
  });

  it("an instructor who asks for `role:admin` in the staff inbox hears no visitor's contact message", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    const instructor = await signIn(await createUser({ role: "instructor" }));
    const adminTab = await connectAs(admin, "staff-inbox", STAFF_ROOM);
    const chosen = await connectWithId(instructor, "staff-inbox", STAFF_ROOM, "role:admin");
    const email = `${unique("probe")}@test.example`;
    const sent = await call("/api/contact", { body: { name: "Leak Probe", email, message: "Who hears this?" } });
    expect(sent.status).toBe(201);
    const id = ((await sent.json()) as { _id: string })._id;
    await adminTab.next("contact.created", (f) => f.message._id === id);
    chosen.send({ type: "ping", t: 7 });
    await chosen.next("pong");
    expect(chosen.of("contact.created")).toEqual([]);
  });

  it("two members who send the same `_pk` get two ids, and each message is its own sender's", async () => {
    const w = await world();
    const omar = await connectWithId(w.omar, "group-room", w.group.id, "shared-id-0001");
    const nour = await connectWithId(w.nour, "group-room", w.group.id, "shared-id-0001");
    expect(omar.of("welcome")[0]!.connectionId).not.toBe(nour.of("welcome")[0]!.connectionId);
    await syncChat(omar, 0);
    await syncChat(nour, 0);
    omar.send({ type: "chat.send", clientId: "omar-client-1", text: "Omar here" });
    await omar.next("chat.ack");
    const text = "I am Nour, whoever shares my id";
    nour.send({ type: "chat.send", clientId: "nour-client-1", text });
    await nour.next("chat.ack");
    const listed = (await (await call(`/api/messages/group/${w.group.id}`, { token: w.omar.accessToken })).json()) as { messages: { text: string; author: { _id: string; name: string } }[] };
    // Newest first.
    expect(listed.messages.map((m) => [m.text, m.author._id]).reverse()).toEqual([
      ["Omar here", w.omar.user.id],
      [text, w.nour.user.id],
    ]);
  });

  it("a `_pk` longer than a tag may be opens the socket as any other (no stack trace, no 1011)", async () => {
    const w = await world();
    const socket = await connectWithId(w.nour, "group-room", w.group.id, "a".repeat(300));
    expect(socket.of("welcome")[0]!.connectionId).toMatch(UUID);
    socket.send({ type: "ping", t: 1 });
    await socket.next("pong");
    expect(socket.closed).toBeNull();
    expect(JSON.stringify(socket.frames)).not.toContain("at prepareTags");
  });
});
