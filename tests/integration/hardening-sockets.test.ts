/**
 * A revoked session ends its sockets (issue: "ended sessions end their sockets"): logout, "sign out this device",
 * a password reset and a password change close the sockets opened under the sessions they end, and a frame that
 * still reaches a room under a revoked session is refused. Everything goes through the real API, the Worker's
 * realtime router and the Durable Objects.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { addMember, call, codeFromMail, createGroup, createUser, RESET_SUBJECT, signIn } from "./factories";
import { db } from "./helpers";
import { ageChatRights, connectAs, joinChat, ticketFor, upgrade } from "./sockets";

describe("revoking a session closes its sockets", () => {
  it("logout (POST /api/users/logout) closes that device's hub and group sockets, not the other device's", async () => {
    const group = await createGroup();
    const user = await createUser();
    await addMember(user, group);
    const phone = await signIn(user, "phone");
    const laptop = await signIn(user, "laptop");
    const phoneHub = await connectAs(phone, "user-hub", user.id);
    const { client: phoneChat } = await joinChat(phone, group.id);
    const laptopHub = await connectAs(laptop, "user-hub", user.id);

    const res = await call("/api/users/logout", { method: "POST", cookie: phone.cookie });
    expect(res.status).toBe(200);

    expect((await phoneHub.waitClosed()).code).toBe(4401);
    expect((await phoneChat.waitClosed()).code).toBe(4401);
    // The laptop's session is alive: its socket still answers.
    laptopHub.send({ type: "ping", t: 7 });
    await laptopHub.next("pong", (f) => f.t === 7);
    expect(laptopHub.closed).toBeNull();
  });

  it("signing out one device (DELETE /api/users/sessions/{id}) closes that device's sockets", async () => {
    const user = await createUser();
    const phone = await signIn(user, "phone");
    const laptop = await signIn(user, "laptop");
    const phoneHub = await connectAs(phone, "user-hub", user.id);
    const res = await call(`/api/users/sessions/${phone.sessionId}`, { method: "DELETE", token: laptop.accessToken });
    expect(res.status).toBe(200);
    expect((await phoneHub.waitClosed()).code).toBe(4401);
  });

  it("a password reset closes every socket of the user", async () => {
    const group = await createGroup();
    const user = await createUser();
    await addMember(user, group);
    const a = await signIn(user, "a");
    const b = await signIn(user, "b");
    const sockets = [await connectAs(a, "user-hub", user.id), (await joinChat(a, group.id)).client, await connectAs(b, "user-hub", user.id)];
    expect((await call("/api/users/forgot-password", { body: { email: user.email } })).status).toBe(200);
    const code = await codeFromMail(user.email, RESET_SUBJECT);
    const res = await call("/api/users/reset-password", { body: { email: user.email, resetCode: code, newPassword: "brand-new-password-1" } });
    expect(res.status).toBe(200);
    // "Session ended" (4401), which the page says as such and does not retry; not "no access" (4403).
    for (const socket of sockets) expect((await socket.waitClosed()).code).toBe(4401);
  });

  it("a role change closes the person's sockets with 4409 (ask again), and a new ticket opens them again", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    const group = await createGroup();
    const user = await createUser();
    await addMember(user, group);
    const me = await signIn(user);
    const sockets = [await connectAs(me, "user-hub", user.id), (await joinChat(me, group.id)).client];
    expect((await call(`/api/users/${user.id}/role`, { method: "PUT", body: { role: "instructor" }, token: admin.accessToken })).status).toBe(200);
    for (const socket of sockets) expect((await socket.waitClosed()).code).toBe(4409);
    // Still a member and still signed in: the chat and the bell come back with tickets asked now.
    const hub = await connectAs(me, "user-hub", user.id);
    const { client: chat } = await joinChat(me, group.id);
    for (const socket of [hub, chat]) expect(socket.closed).toBeNull();
  });

  it("a staff socket under a revoked session closes too (the staff inbox)", async () => {
    const admin = await createUser({ role: "admin" });
    const session = await signIn(admin);
    const inbox = await connectAs(session, "staff-inbox", "all");
    expect((await call("/api/users/logout", { method: "POST", cookie: session.cookie })).status).toBe(200);
    expect((await inbox.waitClosed()).code).toBe(4401);
  });

  it("refuses a chat frame sent under a session revoked behind the room's back", async () => {
    const group = await createGroup();
    const user = await createUser();
    await addMember(user, group);
    const session = await signIn(user);
    const { client } = await joinChat(session, group.id);
    // Revoked directly in D1 (no socket closing): the room itself must refuse what this socket sends, at the latest
    // once the rights it read for the socket are FACTS_TTL_MS old.
    await db().update(s.sessions).set({ revokedAt: new Date() }).where(eq(s.sessions.id, session.sessionId));
    expect(await ageChatRights(group.id)).toBeGreaterThan(0);
    client.send({ type: "chat.send", text: "after logout", clientId: "revoked-session-1" });
    const error = await client.next("error");
    // Said as a session that ended ("log in again", 4401), not as access to the group lost (4403).
    expect(error).toMatchObject({ code: "unauthorized", message: "Your session has ended. Please log in again." });
    expect(await db().select().from(s.messages).where(eq(s.messages.clientId, "revoked-session-1"))).toEqual([]);
    expect((await client.waitClosed()).code).toBe(4401);
  });

  it("a ticket names its session: a ticket minted before logout cannot open a socket after it", async () => {
    const user = await createUser();
    const session = await signIn(user);
    const ticketRes = await call("/api/realtime/ticket", { body: { party: "user-hub", room: user.id }, token: session.accessToken });
    const { ticket } = (await ticketRes.json()) as { ticket: string };
    const claims = JSON.parse(atob(ticket.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))) as { sid?: string };
    expect(claims.sid).toBe(session.sessionId);
    expect((await call("/api/users/logout", { method: "POST", cookie: session.cookie })).status).toBe(200);
    const res = await upgrade("user-hub", user.id, ticket);
    expect(res.status).toBe(401);
    expect(res.webSocket).toBeNull();
  });

  it("a ticket minted before a role change opens its socket with the role its person has now: a demoted admin's opens nothing", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    const rogue = await createUser({ role: "admin" });
    const session = await signIn(rogue);
    const group = await createGroup();
    const inbox = await ticketFor(session, "staff-inbox", "all");
    const room = await ticketFor(session, "group-room", group.id);
    const demoted = await call(`/api/users/${rogue.id}/role`, { method: "PUT", body: { role: "user" }, token: admin.accessToken });
    expect(demoted.status).toBe(200);
    for (const [party, name, ticket] of [["staff-inbox", "all", inbox], ["group-room", group.id, room]] as const) {
      const res = await upgrade(party, name, ticket);
      expect(res.status, party).toBe(403);
      expect(res.webSocket, party).toBeNull();
    }
    // Promoted meanwhile, a student's ticket for their own hub opens it with the role they have now.
    const student = await createUser();
    const own = await signIn(student);
    const hub = await ticketFor(own, "user-hub", student.id);
    expect((await call(`/api/users/${student.id}/role`, { method: "PUT", body: { role: "instructor" }, token: admin.accessToken })).status).toBe(200);
    const opened = await upgrade("user-hub", student.id, hub);
    expect(opened.status).toBe(101);
    opened.webSocket?.accept();
    opened.webSocket?.close();
  });
});
