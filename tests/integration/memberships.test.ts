import { and, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { STAFF_ROOM } from "../../worker/realtime/publish";
import { addMember, call, createGroup, createUser, signIn, waitForMails, type ErrorBody, type SignedIn } from "./factories";
import { db, eventually } from "./helpers";
import { openRoom } from "./live-socket";

type Request = {
  _id: string;
  status: string;
  requestMessage: string | null;
  createdAt: string;
  decidedAt: string | null;
  user: { _id: string; name: string; email: string; phone_number: string | null; slug: string };
  group: { _id: string; title: string; slug: string };
};

const admin = async () => signIn(await createUser({ role: "admin" }));
const instructor = async () => signIn(await createUser({ role: "instructor" }));
const student = async () => signIn(await createUser());

function join(who: SignedIn, body: Record<string, unknown>) {
  return call("/api/users/joinGroupRequest", { token: who.accessToken, body });
}

function decide(who: SignedIn, id: string, decision: string) {
  return call(`/api/membership-requests/${id}`, { method: "PUT", token: who.accessToken, body: { decision } });
}

function leave(who: SignedIn, groupSlug: string) {
  return call("/api/users/leave-group", { token: who.accessToken, body: { groupSlug } });
}

async function membership(userId: string, groupId: string) {
  const [row] = await db()
    .select()
    .from(s.memberships)
    .where(and(eq(s.memberships.userId, userId), eq(s.memberships.groupId, groupId)));
  return row;
}

async function notificationsOf(userId: string) {
  return db().select().from(s.notifications).where(eq(s.notifications.userId, userId));
}

async function expectError(res: Response, status: number, body: Partial<ErrorBody>) {
  expect(res.status).toBe(status);
  expect(await res.json()).toMatchObject(body);
}

/** A published group with its own instructor, and a signed-in student with a pending request in it. */
async function pendingRequest(opts: { capacity?: number | null } = {}) {
  const teacher = await instructor();
  const group = await createGroup({ instructorId: teacher.user.id, capacity: opts.capacity ?? null });
  const me = await student();
  const res = await join(me, { groupSlug: group.slug });
  expect(res.status).toBe(201);
  const { request } = (await res.json()) as { request: Request };
  return { teacher, group, me, request };
}

describe("POST /api/users/joinGroupRequest", () => {
  it("creates a pending request with the message, and tells the group's instructor and the admins", async () => {
    const boss = await admin();
    const teacher = await instructor();
    const group = await createGroup({ instructorId: teacher.user.id });
    const me = await student();

    const res = await join(me, { groupSlug: group.slug, message: "  I finished the HTML course.  " });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { message: string; request: Request };
    expect(body.message).toBe("Your request to join was sent.");
    expect(body.request).toMatchObject({
      status: "pending",
      requestMessage: "I finished the HTML course.",
      decidedAt: null,
      user: { _id: me.user.id, name: me.user.name, email: me.user.email, phone_number: "+201001234567", slug: me.user.slug },
      group: { _id: group.id, title: group.title, slug: group.slug },
    });
    expect(await membership(me.user.id, group.id)).toMatchObject({ status: "pending", requestMessage: "I finished the HTML course." });

    const [forTeacher] = await notificationsOf(teacher.user.id);
    expect(forTeacher).toMatchObject({ kind: "join-request", title: `${me.user.name} asked to join ${group.title}`, link: "/instructor/email-request" });
    const [forAdmin] = await notificationsOf(boss.user.id);
    expect(forAdmin).toMatchObject({ kind: "join-request", link: "/dashboard/admin/email-request" });
  });

  it("accepts the group's id instead of its slug", async () => {
    const group = await createGroup();
    expect((await join(await student(), { groupId: group.id })).status).toBe(201);
  });

  it("refuses staff: only students join groups", async () => {
    const group = await createGroup();
    for (const who of [await instructor(), await admin()]) {
      await expectError(await join(who, { groupSlug: group.slug }), 403, { code: "forbidden", message: "Only students can request to join a group." });
    }
  });

  it("refuses archived (409), draft and unknown groups (404)", async () => {
    const me = await student();
    await expectError(await join(me, { groupSlug: (await createGroup({ status: "archived" })).slug }), 409, {
      code: "group_closed",
      message: "This group is archived and no longer accepts requests.",
    });
    await expectError(await join(me, { groupSlug: (await createGroup({ status: "draft" })).slug }), 404, { message: "Course not found" });
    await expectError(await join(me, { groupSlug: "no-such-group" }), 404, { message: "Course not found" });
  });

  it("refuses a full group with 'This group is full.'", async () => {
    const group = await createGroup({ capacity: 2 });
    await addMember(await createUser(), group, "approved");
    await addMember(await createUser(), group, "special");
    await addMember(await createUser(), group, "pending");
    await expectError(await join(await student(), { groupSlug: group.slug }), 409, { code: "group_full", message: "This group is full." });
  });

  it("refuses a second request while pending, and a member asking again", async () => {
    const { me, group } = await pendingRequest();
    await expectError(await join(me, { groupSlug: group.slug }), 409, { code: "already_requested" });
    await db().update(s.memberships).set({ status: "special" }).where(eq(s.memberships.userId, me.user.id));
    await expectError(await join(me, { groupSlug: group.slug }), 409, { code: "already_member", message: "You are already a member of this group." });
  });

  it("validates the body: a group is required and the message has at most 500 characters", async () => {
    const me = await student();
    await expectError(await join(me, {}), 400, { code: "validation_failed", fields: { groupSlug: "Which group? Send groupSlug." } });
    const group = await createGroup();
    await expectError(await join(me, { groupSlug: group.slug, message: "x".repeat(501) }), 400, { code: "validation_failed" });
    expect((await call("/api/users/joinGroupRequest", { body: { groupSlug: group.slug } })).status).toBe(401);
  });

  it.each(["rejected", "left", "removed"] as const)("re-opens the same row as pending after %s", async (status) => {
    const me = await student();
    const group = await createGroup();
    const old = await addMember(me.user, group, status);
    const decider = await createUser({ role: "admin" });
    await db()
      .update(s.memberships)
      .set({ createdAt: new Date(Date.now() - 86_400_000), decidedAt: new Date(), decidedBy: decider.id, requestMessage: "old" })
      .where(eq(s.memberships.id, old.id));

    const res = await join(me, { groupSlug: group.slug, message: "Please reconsider" });
    expect(res.status).toBe(201);
    const row = await membership(me.user.id, group.id);
    expect(row).toMatchObject({ id: old.id, status: "pending", requestMessage: "Please reconsider", decidedAt: null, decidedBy: null });
    expect(Date.now() - row!.createdAt.getTime()).toBeLessThan(60_000);
    const all = await db().select().from(s.memberships).where(eq(s.memberships.userId, me.user.id));
    expect(all).toHaveLength(1);
  });
});

describe("the e-mail requests inbox", () => {
  it("lists pending requests newest first with name, e-mail, phone and group; instructors see their own groups only", async () => {
    const teacher = await instructor();
    const group = await createGroup({ instructorId: teacher.user.id });
    const other = await createGroup({ instructorId: (await createUser({ role: "instructor" })).id });
    const first = await student();
    const second = await student();
    expect((await join(first, { groupSlug: group.slug })).status).toBe(201);
    expect((await join(second, { groupSlug: group.slug })).status).toBe(201);
    expect((await join(await student(), { groupSlug: other.slug })).status).toBe(201);

    const res = await call("/api/membership-requests", { token: teacher.accessToken });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const list = (await res.json()) as Request[];
    expect(list.map((r) => r.user._id)).toEqual([second.user.id, first.user.id]);
    expect(list[0]).toMatchObject({ status: "pending", user: { email: second.user.email, phone_number: "+201001234567" }, group: { slug: group.slug } });

    const boss = await admin();
    const all = (await (await call("/api/membership-requests?pageSize=100", { token: boss.accessToken })).json()) as Request[];
    const groupsSeen = all.map((r) => r.group._id);
    expect(groupsSeen).toContain(group.id);
    expect(groupsSeen).toContain(other.id);

    const filtered = (await (await call(`/api/membership-requests?groupId=${other.slug}`, { token: boss.accessToken })).json()) as Request[];
    expect(filtered.every((r) => r.group._id === other.id)).toBe(true);
    await expectError(await call(`/api/membership-requests?groupId=${other.id}`, { token: teacher.accessToken }), 403, { code: "forbidden" });
    await expectError(await call("/api/membership-requests", { token: first.accessToken }), 403, { code: "forbidden" });
  });

  it("lists decided requests by status", async () => {
    const { teacher, request } = await pendingRequest();
    expect((await decide(teacher, request._id, "rejected")).status).toBe(200);
    const pending = (await (await call("/api/membership-requests", { token: teacher.accessToken })).json()) as Request[];
    expect(pending.map((r) => r._id)).not.toContain(request._id);
    const rejected = (await (await call("/api/membership-requests?status=rejected", { token: teacher.accessToken })).json()) as Request[];
    expect(rejected.map((r) => r._id)).toContain(request._id);
  });
});

describe("PUT /api/membership-requests/{id}", () => {
  it("approves: the student is e-mailed and notified, and sees the group as a member", async () => {
    const { teacher, group, me, request } = await pendingRequest();
    const res = await decide(teacher, request._id, "approved");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ _id: request._id, status: "approved", decidedAt: expect.any(String) });
    expect(await membership(me.user.id, group.id)).toMatchObject({ status: "approved", decidedBy: teacher.user.id });

    const [mail] = await waitForMails(me.user.email, /was approved$/);
    expect(mail!.subject).toBe(`Your request to join "${group.title}" was approved`);
    expect(mail!.text).toContain("http://localhost:8787/my-courses");
    const [note] = await notificationsOf(me.user.id);
    expect(note).toMatchObject({
      kind: "join-decision",
      title: `You're in! Your request to join ${group.title} was approved`,
      params: { group: group.title, variant: "approved" },
      link: `/course/${group.slug}`,
    });

    const catalogue = (await (await call("/api/groups", { token: me.accessToken })).json()) as { _id: string; membershipStatus: string | null }[];
    expect(catalogue.find((g) => g._id === group.id)?.membershipStatus).toBe("approved");
  });

  it("approves as special, with its own e-mail", async () => {
    const { group, me, request } = await pendingRequest();
    expect((await decide(await admin(), request._id, "special")).status).toBe(200);
    expect((await membership(me.user.id, group.id))!.status).toBe("special");
    const [mail] = await waitForMails(me.user.email, /special terms/);
    expect(mail!.subject).toBe(`Your request to join "${group.title}" was approved on special terms`);
    expect(mail!.text).toContain("/my-courses");
  });

  it("writes the decision's e-mail in the student's own language: Arabic for each decision, with its link", async () => {
    const cases = [
      { decision: "approved", subject: "تمت الموافقة على طلب انضمامك إلى", says: "أصبحت عضوًا في", link: "/my-courses", label: "افتح كورساتي" },
      { decision: "special", subject: "بشروط خاصة", says: "بشروط خاصة (مثل مقعد بمنحة)", link: "/my-courses", label: "افتح كورساتي" },
      { decision: "rejected", subject: "لم تتم الموافقة على طلب انضمامك إلى", says: "هذه المرة", link: "/courses", label: "تصفّح الكورسات" },
    ];
    for (const c of cases) {
      const { teacher, group, me, request } = await pendingRequest();
      await db().update(s.users).set({ locale: "ar" }).where(eq(s.users.id, me.user.id));
      expect((await decide(teacher, request._id, c.decision)).status).toBe(200);
      const [mail] = await waitForMails(me.user.email, new RegExp(c.subject));
      expect(mail!.subject).toContain(`«${group.title}»`);
      expect(mail!.text).toContain(c.says);
      expect(mail!.text).toContain(`${c.label}: http://localhost:8787${c.link}`);
      expect(mail!.html).toContain('dir="rtl" lang="ar"');
      expect(mail!.html).toContain(`<a href="http://localhost:8787${c.link}">${c.label}</a>`);
      expect(mail!.text).not.toMatch(/request|Hello|Good news/);
    }
  });

  it("rejects: the e-mail says not approved and links the catalogue", async () => {
    const { teacher, group, me, request } = await pendingRequest();
    expect((await decide(teacher, request._id, "rejected")).status).toBe(200);
    const [mail] = await waitForMails(me.user.email, /not approved/);
    expect(mail!.subject).toBe(`Your request to join "${group.title}" was not approved`);
    expect(mail!.text).toContain("http://localhost:8787/courses");
    const [note] = await notificationsOf(me.user.id);
    expect(note).toMatchObject({ kind: "join-decision", link: "/courses" });
  });

  it("refuses a student approving their own request, and another group's instructor", async () => {
    const { me, request, group } = await pendingRequest();
    await expectError(await decide(me, request._id, "approved"), 403, { code: "forbidden" });
    await expectError(await decide(await instructor(), request._id, "approved"), 403, {
      message: "Only this group's instructor or an admin can decide its requests.",
    });
    expect((await membership(me.user.id, group.id))!.status).toBe("pending");
  });

  it("refuses a decided request (409), an unknown one (404) and an unknown decision (400)", async () => {
    const { teacher, request } = await pendingRequest();
    await expectError(await decide(teacher, request._id, "banana"), 400, { code: "validation_failed" });
    expect((await decide(teacher, request._id, "approved")).status).toBe(200);
    await expectError(await decide(teacher, request._id, "rejected"), 409, { code: "already_decided", message: "This request was already decided." });
    await expectError(await decide(teacher, "no-such-request", "approved"), 404, { code: "not_found" });
  });

  it("refuses an approval when the group is full, but still allows a rejection", async () => {
    const { teacher, group, request } = await pendingRequest({ capacity: 1 });
    await addMember(await createUser(), group, "approved");
    await expectError(await decide(teacher, request._id, "special"), 409, { code: "group_full", message: "This group is full." });
    expect((await decide(teacher, request._id, "rejected")).status).toBe(200);
  });

  it("lets exactly one of two parallel approvals take the last seat", async () => {
    const teacher = await instructor();
    const boss = await admin();
    const group = await createGroup({ instructorId: teacher.user.id, capacity: 2 });
    await addMember(await createUser(), group, "approved");
    const a = await addMember(await createUser(), group, "pending");
    const b = await addMember(await createUser(), group, "pending");

    const results = await Promise.all([decide(teacher, a.id, "approved"), decide(boss, b.id, "special")]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    const loser = results.find((r) => r.status === 409)!;
    expect(await loser.json()).toMatchObject({ code: "group_full" });
    const members = await db()
      .select()
      .from(s.memberships)
      .where(eq(s.memberships.groupId, group.id));
    expect(members.filter((m) => m.status === "approved" || m.status === "special")).toHaveLength(2);
    expect(members.filter((m) => m.status === "pending")).toHaveLength(1);
  });
});

describe("POST /api/users/leave-group", () => {
  it("turns an approved or special membership into left", async () => {
    for (const status of ["approved", "special"] as const) {
      const me = await student();
      const group = await createGroup();
      await addMember(me.user, group, status);
      const res = await leave(me, group.slug);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ message: "You left the group.", groupSlug: group.slug, status: "left" });
      expect((await membership(me.user.id, group.id))!.status).toBe("left");
    }
  });

  it("refuses leaving a group one is not in (404), or only asked to join or already left (409)", async () => {
    const me = await student();
    const group = await createGroup();
    await expectError(await leave(me, group.slug), 404, { code: "not_member", message: "You are not a member of this group." });
    await expectError(await leave(me, "no-such-group"), 404, { code: "not_found" });
    await addMember(me.user, group, "pending");
    await expectError(await leave(me, group.slug), 409, { code: "not_member" });
    await db().update(s.memberships).set({ status: "left" }).where(eq(s.memberships.userId, me.user.id));
    await expectError(await leave(me, group.slug), 409, { code: "not_member" });
  });

  it("closes the student's socket in the group's room, and only theirs", async () => {
    const me = await student();
    const classmate = await student();
    const group = await createGroup();
    await addMember(me.user, group, "approved");
    await addMember(classmate.user, group, "approved");
    const mine = await openRoom(me, "group-room", group.id);
    const theirs = await openRoom(classmate, "group-room", group.id);

    expect((await leave(me, group.slug)).status).toBe(200);
    expect((await mine.waitClosed()).code).toBe(4403);
    await theirs.roundTrip();
    expect(theirs.closed).toBeNull();
    // And the room's door is shut for them now.
    const ticket = await call("/api/realtime/ticket", { token: me.accessToken, body: { party: "group-room", room: group.id } });
    expect(ticket.status).toBe(403);
  });
});

describe("POST /api/users/withdraw-request", () => {
  const withdraw = (who: SignedIn, groupSlug: string) => call("/api/users/withdraw-request", { token: who.accessToken, body: { groupSlug } });

  it("takes a waiting request back: gone from the staff's inbox and live to them, and the student may ask again", async () => {
    const teacher = await instructor();
    const group = await createGroup({ instructorId: teacher.user.id });
    const me = await student();
    const inbox = await openRoom(teacher, "staff-inbox", STAFF_ROOM);
    const { request } = (await (await join(me, { groupSlug: group.slug })).json()) as { request: Request };

    const res = await withdraw(me, group.slug);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: "Your request was withdrawn.", groupSlug: group.slug });
    // As someone who never asked: no row, not `left` (which would read "you are no longer in this group").
    expect(await membership(me.user.id, group.id)).toBeUndefined();
    const frame = await inbox.next("membership.decided", (f) => f.decision._id === request._id);
    expect(frame.decision).toMatchObject({ status: "withdrawn", userId: me.user.id, decidedBy: { _id: me.user.id } });
    const pending = (await (await call(`/api/membership-requests?status=pending&groupId=${group.slug}`, { token: teacher.accessToken })).json()) as Request[];
    expect(pending.map((r) => r._id)).not.toContain(request._id);
    // Deciding it now finds nothing to decide.
    expect((await decide(teacher, request._id, "approved")).status).toBe(404);

    // Twice is refused, and so is asking again once more and withdrawing a decided request.
    await expect409(await withdraw(me, group.slug));
    expect((await join(me, { groupSlug: group.slug })).status).toBe(201);
    const again = await membership(me.user.id, group.id);
    expect((await decide(teacher, again!.id, "approved")).status).toBe(200);
    await expect409(await withdraw(me, group.slug));
    expect((await membership(me.user.id, group.id))?.status).toBe("approved");
  });

  it("retires the staff's notifications of the request (live, with their unread count); other requests' stay", async () => {
    const teacher = await instructor();
    const group = await createGroup({ instructorId: teacher.user.id });
    const [me, other] = [await student(), await student()];
    const hub = await openRoom(teacher, "user-hub", teacher.user.id);
    expect((await join(other, { groupSlug: group.slug })).status).toBe(201);
    expect((await join(me, { groupSlug: group.slug })).status).toBe(201);
    const mine = await hub.next("notification", (f) => f.notification.kind === "join-request" && f.notification.title.includes(me.user.name));
    const unreadBefore = async () => ((await (await call("/api/notifications", { token: teacher.accessToken })).json()) as { unread: number; notifications: { _id: string }[] });
    const before = await unreadBefore();
    expect(before.notifications.map((n) => n._id)).toContain(mine.notification._id);

    expect((await withdraw(me, group.slug)).status).toBe(200);
    const removed = await hub.next("notification.removed");
    expect(removed).toMatchObject({ ids: [mine.notification._id], unread: before.unread - 1 });
    const after = await unreadBefore();
    expect(after.unread).toBe(before.unread - 1);
    expect(after.notifications.map((n) => n._id)).not.toContain(mine.notification._id);
    // The other student's request is still there to decide, and so is its notification.
    expect(after.notifications).toHaveLength(before.notifications.length - 1);
    const admins = await db().select({ id: s.notifications.id }).from(s.notifications).where(like(s.notifications.about, `membership:${(await membership(other.user.id, group.id))!.id}:%`));
    expect(admins.length).toBeGreaterThan(0);
  });

  it("marks every staff member's notification of a request read once anyone decides it (it stays, and stops counting)", async () => {
    const teacher = await instructor();
    const group = await createGroup({ instructorId: teacher.user.id });
    const me = await student();
    const { request } = (await (await join(me, { groupSlug: group.slug, message: "Please" })).json()) as { request: Request };
    const about = like(s.notifications.about, `membership:${request._id}:%`);
    const held = await db().select().from(s.notifications).where(about);
    // The instructor's and every admin's: unread until someone decides.
    expect(held.length).toBeGreaterThan(1);
    expect(held.every((n) => n.readAt === null)).toBe(true);
    const admin = await signIn(await createUser({ role: "admin" }));
    expect((await decide(admin, request._id, "approved")).status).toBe(200);
    const after = await db().select().from(s.notifications).where(about);
    expect(after.map((n) => n.id).sort()).toEqual(held.map((n) => n.id).sort());
    expect(after.every((n) => n.readAt !== null)).toBe(true);
    // The instructor's unread count no longer holds it.
    const mine = (await (await call("/api/notifications", { token: teacher.accessToken })).json()) as { unread: number };
    expect(mine.unread).toBe(0);
  });

  it("takes back only the withdrawn request's notifications, not those of an earlier request that was decided", async () => {
    const teacher = await instructor();
    const group = await createGroup({ instructorId: teacher.user.id });
    const me = await student();
    const mineAbout = async () => (await db().select({ id: s.notifications.id }).from(s.notifications).where(and(eq(s.notifications.userId, teacher.user.id), eq(s.notifications.kind, "join-request")))).map((n) => n.id);
    const { request } = (await (await join(me, { groupSlug: group.slug, message: "first" })).json()) as { request: Request };
    expect((await decide(teacher, request._id, "rejected")).status).toBe(200);
    const [first] = await mineAbout();
    expect(first).toBeDefined();
    // Asking again re-opens the same row; withdrawing that second request leaves the first one's notification.
    expect((await join(me, { groupSlug: group.slug, message: "second" })).status).toBe(201);
    expect(await mineAbout()).toHaveLength(2);
    expect((await withdraw(me, group.slug)).status).toBe(200);
    expect(await mineAbout()).toEqual([first]);
  });

  it("asking to join is limited to 10 an hour per student (429 with a sentence, nothing written), so asking and withdrawing cannot flood the staff", async () => {
    const teacher = await instructor();
    const group = await createGroup({ instructorId: teacher.user.id });
    const me = await student();
    for (let i = 0; i < 10; i++) {
      expect((await join(me, { groupSlug: group.slug })).status).toBe(201);
      expect((await withdraw(me, group.slug)).status).toBe(200);
    }
    const limited = await join(me, { groupSlug: group.slug });
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as ErrorBody).message).toBe("You have asked to join groups many times in the last hour. Please wait a while and ask again.");
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await membership(me.user.id, group.id)).toBeUndefined();
    // Another student is not held back.
    expect((await join(await student(), { groupSlug: group.slug })).status).toBe(201);
  });

  it("is 404 for an unknown group and for a draft the student never asked, 401 signed out", async () => {
    const me = await student();
    expect((await withdraw(me, "no-such-group-here")).status).toBe(404);
    expect((await withdraw(me, (await createGroup({ status: "draft" })).slug)).status).toBe(404);
    expect((await call("/api/users/withdraw-request", { body: { groupSlug: (await createGroup()).slug } })).status).toBe(401);
  });

  async function expect409(res: Response) {
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ code: "not_pending", message: "You have no request waiting for this group." });
  }
});

describe("live inboxes", () => {
  it("sends membership.requested to admins and that group's instructor only, and membership.decided to staff and the student", async () => {
    const teacher = await instructor();
    const otherTeacher = await instructor();
    const boss = await admin();
    const group = await createGroup({ instructorId: teacher.user.id });
    const otherGroup = await createGroup({ instructorId: otherTeacher.user.id });
    const me = await student();

    const teacherInbox = await openRoom(teacher, "staff-inbox", STAFF_ROOM);
    const otherInbox = await openRoom(otherTeacher, "staff-inbox", STAFF_ROOM);
    const adminInbox = await openRoom(boss, "staff-inbox", STAFF_ROOM);
    const hub = await openRoom(me, "user-hub", me.user.id);

    const res = await join(me, { groupSlug: group.slug, message: "Hi" });
    const { request } = (await res.json()) as { request: Request };
    for (const inbox of [teacherInbox, adminInbox]) {
      const frame = await inbox.next("membership.requested", (f) => f.request._id === request._id);
      expect(frame.request).toEqual({ ...request, decidedAt: null });
    }

    // A request for the other group reaches the other instructor, which proves their socket was listening.
    const someone = await student();
    const otherRes = await join(someone, { groupSlug: otherGroup.slug });
    const otherRequest = ((await otherRes.json()) as { request: Request }).request;
    await otherInbox.next("membership.requested", (f) => f.request._id === otherRequest._id);
    await teacherInbox.roundTrip();
    expect(otherInbox.of("membership.requested").map((f) => f.request._id)).not.toContain(request._id);
    expect(teacherInbox.of("membership.requested").map((f) => f.request._id)).not.toContain(otherRequest._id);

    expect((await decide(boss, request._id, "approved")).status).toBe(200);
    for (const socket of [teacherInbox, adminInbox, hub]) {
      const frame = await socket.next("membership.decided", (f) => f.decision._id === request._id);
      expect(frame.decision).toMatchObject({
        status: "approved",
        userId: me.user.id,
        group: { _id: group.id, slug: group.slug, title: group.title },
        decidedBy: { _id: boss.user.id, name: boss.user.name },
      });
    }
    const note = await hub.next("notification", (f) => f.notification.kind === "join-decision");
    expect(note.notification.link).toBe(`/course/${group.slug}`);
    await otherInbox.roundTrip();
    expect(otherInbox.of("membership.decided")).toHaveLength(0);
  });

  it("notifies the group's instructor live of a new request", async () => {
    const teacher = await instructor();
    const group = await createGroup({ instructorId: teacher.user.id });
    const hub = await openRoom(teacher, "user-hub", teacher.user.id);
    const me = await student();
    expect((await join(me, { groupSlug: group.slug })).status).toBe(201);
    const frame = await hub.next("notification", (f) => f.notification.kind === "join-request");
    expect(frame.notification).toMatchObject({ title: `${me.user.name} asked to join ${group.title}`, link: "/instructor/email-request" });
    await eventually(async () => ((await notificationsOf(teacher.user.id)).length === 1 ? true : undefined));
  });
});
