import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getSettings } from "../../worker/env";
import { verifyTicket } from "../../worker/realtime/tickets";
import { addMember, call, createGroup, createUser, signIn, type ErrorBody, type SignedIn } from "./factories";

const ticket = (me: SignedIn | null, party: string, room: string) =>
  call("/api/realtime/ticket", { body: { party, room }, token: me?.accessToken });

async function ticketStatus(me: SignedIn | null, party: string, room: string): Promise<number> {
  return (await ticket(me, party, room)).status;
}

describe("POST /api/realtime/ticket", () => {
  it("mints a ticket for the caller's own hub, naming them and their current role", async () => {
    const me = await signIn(await createUser({ role: "instructor" }));
    const res = await ticket(me, "user-hub", me.user.id);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const { ticket: t } = (await res.json()) as { ticket: string };
    const claims = await verifyTicket(getSettings(env), t, "user-hub", me.user.id);
    expect(claims).toMatchObject({ sub: me.user.id, role: "instructor", party: "user-hub", room: me.user.id });
    expect(await verifyTicket(getSettings(env), t, "user-hub", "someone-else")).toBeNull();
  });

  it("opens the room it names", async () => {
    const me = await signIn(await createUser());
    const { ticket: t } = (await (await ticket(me, "user-hub", me.user.id)).json()) as { ticket: string };
    const res = await SELF.fetch(`http://localhost/parties/user-hub/${me.user.id}?ticket=${encodeURIComponent(t)}`, {
      headers: { Upgrade: "websocket", Origin: "http://localhost" },
    });
    expect(res.status).toBe(101);
    res.webSocket!.accept();
    res.webSocket!.close(1000, "done");
  });

  it("refuses another user's hub", async () => {
    const me = await signIn(await createUser({ role: "admin" }));
    const other = await createUser();
    const res = await ticket(me, "user-hub", other.id);
    expect(res.status).toBe(403);
    expect(((await res.json()) as ErrorBody).code).toBe("forbidden");
  });

  it("admits staff, not students, to the staff inbox", async () => {
    expect(await ticketStatus(await signIn(await createUser({ role: "admin" })), "staff-inbox", "all")).toBe(200);
    expect(await ticketStatus(await signIn(await createUser({ role: "instructor" })), "staff-inbox", "all")).toBe(200);
    expect(await ticketStatus(await signIn(await createUser()), "staff-inbox", "all")).toBe(403);
    expect(await ticketStatus(await signIn(await createUser({ role: "admin" })), "staff-inbox", "other")).toBe(404);
  });

  it("admits approved and special members, the group's instructor and admins to a group room", async () => {
    const instructor = await createUser({ role: "instructor" });
    const group = await createGroup({ instructorId: instructor.id });
    const member = async (status: Parameters<typeof addMember>[2]) => {
      const u = await createUser();
      await addMember(u, group, status);
      return signIn(u);
    };
    expect(await ticketStatus(await member("approved"), "group-room", group.id)).toBe(200);
    expect(await ticketStatus(await member("special"), "group-room", group.id)).toBe(200);
    for (const status of ["pending", "rejected", "left", "removed"] as const) {
      expect(await ticketStatus(await member(status), "group-room", group.id)).toBe(403);
    }
    expect(await ticketStatus(await signIn(await createUser()), "group-room", group.id)).toBe(403);
    expect(await ticketStatus(await signIn(instructor), "group-room", group.id)).toBe(200);
    expect(await ticketStatus(await signIn(await createUser({ role: "instructor" })), "group-room", group.id)).toBe(403);
    expect(await ticketStatus(await signIn(await createUser({ role: "admin" })), "group-room", group.id)).toBe(200);
  });

  it("answers 404 for an unknown group, 400 for an unknown party, 401 when signed out", async () => {
    const me = await signIn(await createUser({ role: "admin" }));
    expect(await ticketStatus(me, "group-room", "no-such-group")).toBe(404);
    const bad = await ticket(me, "chat-room", "x");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as ErrorBody).fields).toHaveProperty("party");
    expect(await ticketStatus(null, "user-hub", "x")).toBe(401);
  });
});
