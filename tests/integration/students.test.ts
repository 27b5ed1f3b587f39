import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { getGroupForMember, listMyGroups, membershipStatus, NotAMemberError } from "../../worker/services/my-groups";
import { listCourseOutline } from "../../worker/services/groups";
import type { Viewer } from "../../worker/services/sessions";
import { addCourseContent, addMember, call, createGroup, createUser, signIn, type ErrorBody, type SignedIn, type TestUser } from "./factories";
import { countingContext, db, serviceContext, unique } from "./helpers";
import { loadPeople } from "../../app/lib/admin-people.server";
import { openRoom } from "./live-socket";

type Student = { _id: string; status: string; requestedAt: string; decidedAt: string | null; user: { _id: string; name: string; email: string; slug: string } };

const admin = async () => signIn(await createUser({ role: "admin" }));
const instructor = async () => signIn(await createUser({ role: "instructor" }));

const viewerOf = (u: TestUser): Viewer => ({ userId: u.id, role: u.role, sessionId: "test", name: u.name, email: u.email });

function setStatus(who: SignedIn, groupId: string, userId: string, status: string) {
  return call(`/api/groups/${groupId}/students/${userId}`, { method: "PUT", token: who.accessToken, body: { status } });
}

async function statusOf(userId: string, groupId: string) {
  const [row] = await db()
    .select({ status: s.memberships.status })
    .from(s.memberships)
    .where(and(eq(s.memberships.userId, userId), eq(s.memberships.groupId, groupId)));
  return row?.status;
}

/** A group run by a fresh instructor, with students in the given statuses (named so a search can find them). */
async function classroom(statuses: s.MembershipStatus[], capacity: number | null = null) {
  const teacher = await instructor();
  const group = await createGroup({ instructorId: teacher.user.id, capacity });
  const tag = unique("n");
  const students = [];
  for (const [i, status] of statuses.entries()) {
    const user = await createUser({ name: `${status} ${tag} ${i}` });
    await addMember(user, group, status);
    students.push(user);
  }
  return { teacher, group, students, tag };
}

describe("GET /api/groups/{id}/students", () => {
  it("lists the members with status and dates; a status filter, 'all' and a search narrow it", async () => {
    const { teacher, group, students, tag } = await classroom(["approved", "special", "pending", "removed"]);
    const list = async (query = "") => {
      const res = await call(`/api/groups/${group.slug}/students${query}`, { token: teacher.accessToken });
      expect(res.status).toBe(200);
      return (await res.json()) as Student[];
    };
    const members = await list();
    expect(members.map((m) => [m.user._id, m.status])).toEqual([
      [students[0]!.id, "approved"],
      [students[1]!.id, "special"],
    ]);
    expect(members[0]).toMatchObject({ requestedAt: expect.any(String), user: { email: students[0]!.email, slug: students[0]!.slug } });
    expect((await list("?status=removed")).map((m) => m.user._id)).toEqual([students[3]!.id]);
    expect(await list("?status=all")).toHaveLength(4);
    expect((await list(`?status=all&search=${encodeURIComponent(`special ${tag}`)}`)).map((m) => m.user._id)).toEqual([students[1]!.id]);
    expect(await list("?search=100%25_nobody")).toEqual([]);
    // The longest term the box takes, Arabic letters (two bytes each) too: an answer, not a 5xx.
    expect(await list(`?search=${encodeURIComponent("ن".repeat(100))}`)).toEqual([]);
    expect(await list(`?search=${"a".repeat(100)}`)).toEqual([]);
  });

  it("finds a name however its letters were typed: Arabic's alef forms, taa marbuta and marks, Latin accents, case, a phone's apostrophe, doubled spaces", async () => {
    const teacher = await instructor();
    const group = await createGroup({ instructorId: teacher.user.id });
    const tag = unique("f");
    const names = [`أحمد علي ${tag}`, `محمد أحمد ${tag}`, `فاطمة الزهراء ${tag}`, `Émile Dupont ${tag}`, `Zainab O'Brien ${tag}`, `مُصْطَفَى إبراهيم ${tag}`, `Soak 299 ${tag}`];
    const people = [];
    for (const name of names) {
      const user = await createUser({ name });
      await addMember(user, group, "approved");
      people.push(user);
    }
    const found = async (term: string) => {
      const res = await call(`/api/groups/${group.slug}/students?search=${encodeURIComponent(term)}`, { token: teacher.accessToken });
      expect(res.status).toBe(200);
      return ((await res.json()) as Student[]).map((m) => m.user.name).sort();
    };
    expect(await found("احمد")).toEqual([names[0], names[1]].sort());
    expect(await found("محمد احمد")).toEqual([names[1]]);
    expect(await found("فاطمه")).toEqual([names[2]]);
    expect(await found("emile")).toEqual([names[3]]);
    expect(await found("EMILE DUPONT")).toEqual([names[3]]);
    expect(await found("o’brien")).toEqual([names[4]]);
    // Written with its short vowels, found without them, and the other way round; the alef of إبراهيم as a bare alef.
    expect(await found("مصطفي ابراهيم")).toEqual([names[5]]);
    expect(await found("مُحَمَّد")).toEqual([names[1]]);
    expect(await found("soak  299")).toEqual([names[6]]);
    // Still a containment search: nothing else in the group matches these.
    expect(await found(`زهراء ${tag}`)).toEqual([names[2]]);
    expect(await found("احمد سعيد")).toEqual([]);

    // The admins' list of everyone searches the same way.
    const boss = await admin();
    const res = await call(`/api/users?search=${encodeURIComponent(`فاطمه الزهراء ${tag}`)}`, { token: boss.accessToken });
    expect(((await res.json()) as { users: { name: string }[] }).users.map((u) => u.name)).toEqual([names[2]]);
  });

  it("lists names in one natural order, the same on the roster and in Progress: 2 before 10, an accent and a case beside their letter", async () => {
    const teacher = await instructor();
    const group = await createGroup({ instructorId: teacher.user.id });
    const tag = unique("o");
    const names = [`${tag} Zara`, `${tag} item 10`, `${tag} item 2`, `${tag} Émile`, `${tag} adam`, `${tag} emile b`];
    for (const name of names) await addMember(await createUser({ name }), group, "approved");
    const expected = [`${tag} adam`, `${tag} Émile`, `${tag} emile b`, `${tag} item 2`, `${tag} item 10`, `${tag} Zara`];
    const roster = (await (await call(`/api/groups/${group.slug}/students`, { token: teacher.accessToken })).json()) as Student[];
    expect(roster.map((m) => m.user.name)).toEqual(expected);
    const progress = (await (await call(`/api/groups/${group.slug}/progress`, { token: teacher.accessToken })).json()) as { students: { name: string }[] };
    expect(progress.students.map((m) => m.name)).toEqual(expected);
  });

  it("is for the group's staff: another instructor and students get 403", async () => {
    const { group, students } = await classroom(["approved"]);
    expect((await call(`/api/groups/${group.id}/students`, { token: (await instructor()).accessToken })).status).toBe(403);
    expect((await call(`/api/groups/${group.id}/students`, { token: (await signIn(students[0]!)).accessToken })).status).toBe(403);
    expect((await call(`/api/groups/${group.id}/students`, { token: (await admin()).accessToken })).status).toBe(200);
  });
});

describe("PUT /api/groups/{id}/students/{userId}", () => {
  it("switches a member between approved and special", async () => {
    const { teacher, group, students } = await classroom(["approved"]);
    const res = await setStatus(teacher, group.id, students[0]!.slug, "special");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "special", user: { _id: students[0]!.id } });
    expect(await statusOf(students[0]!.id, group.id)).toBe("special");
    expect((await setStatus(teacher, group.id, students[0]!.id, "approved")).status).toBe(200);
    expect(await statusOf(students[0]!.id, group.id)).toBe("approved");
  });

  it("keeps the day a member joined through a switch of terms: the list's joinedAt stays, decidedAt moves", async () => {
    const { teacher, group, students } = await classroom(["approved"]);
    const joined = new Date("2026-10-24T09:00:00Z");
    await db().update(s.memberships).set({ joinedAt: joined, decidedAt: joined }).where(and(eq(s.memberships.userId, students[0]!.id), eq(s.memberships.groupId, group.id)));
    const switched = (await (await setStatus(teacher, group.id, students[0]!.id, "special")).json()) as { joinedAt: string | null; decidedAt: string | null };
    expect(switched.joinedAt).toBe(joined.toISOString());
    expect(switched.decidedAt).not.toBe(joined.toISOString());
    await setStatus(teacher, group.id, students[0]!.id, "approved");
    const [row] = (await (await call(`/api/groups/${group.slug}/students`, { token: teacher.accessToken })).json()) as { joinedAt: string | null }[];
    expect(row!.joinedAt).toBe(joined.toISOString());
  });

  it("removes a member: notified, their group socket closed, and they may ask again", async () => {
    const { teacher, group, students } = await classroom(["approved"]);
    const member = await signIn(students[0]!);
    const socket = await openRoom(member, "group-room", group.id);

    const res = await setStatus(teacher, group.id, member.user.id, "removed");
    expect(res.status).toBe(200);
    expect(await statusOf(member.user.id, group.id)).toBe("removed");
    expect((await socket.waitClosed()).code).toBe(4403);
    const notes = await db().select().from(s.notifications).where(eq(s.notifications.userId, member.user.id));
    expect(notes).toEqual([expect.objectContaining({ kind: "membership-removed", title: `You were removed from ${group.title}` })]);

    const again = await call("/api/users/joinGroupRequest", { token: member.accessToken, body: { groupSlug: group.slug } });
    expect(again.status).toBe(201);
    expect(await statusOf(member.user.id, group.id)).toBe("pending");
  });

  it("restores a removed student only while a seat is free", async () => {
    const { teacher, group, students } = await classroom(["removed", "approved"], 2);
    expect((await setStatus(teacher, group.id, students[0]!.id, "approved")).status).toBe(200);
    expect(await statusOf(students[0]!.id, group.id)).toBe("approved");

    const full = await classroom(["removed", "approved"], 1);
    const res = await setStatus(full.teacher, full.group.id, full.students[0]!.id, "special");
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: "group_full", message: "This group is full." });
    expect(await statusOf(full.students[0]!.id, full.group.id)).toBe("removed");
  });

  it("refuses changes that are not the staff's to make here", async () => {
    const { teacher, group, students } = await classroom(["pending", "left", "rejected"]);
    const expect409 = async (userId: string, status: string) => {
      const res = await setStatus(teacher, group.id, userId, status);
      expect(res.status).toBe(409);
      return (await res.json()) as ErrorBody;
    };
    expect((await expect409(students[0]!.id, "approved")).message).toBe("Decide pending requests in the e-mail requests inbox.");
    expect((await expect409(students[1]!.id, "approved")).message).toBe("This student has to ask to join again.");
    expect((await expect409(students[2]!.id, "removed")).code).toBe("not_member");
    expect((await setStatus(teacher, group.id, (await createUser()).id, "removed")).status).toBe(404);
    expect((await setStatus(teacher, group.id, students[0]!.id, "pending")).status).toBe(400);
  });

  it("refuses another group's instructor", async () => {
    const { group, students } = await classroom(["approved"]);
    expect((await setStatus(await instructor(), group.id, students[0]!.id, "removed")).status).toBe(403);
    expect(await statusOf(students[0]!.id, group.id)).toBe("approved");
  });
});

describe("GET /api/students/{id}", () => {
  it("shows an admin the student with every membership", async () => {
    const a = await classroom(["approved"]);
    const kid = a.students[0]!;
    const other = await createGroup();
    await addMember(kid, other, "pending");
    const res = await call(`/api/students/${kid.slug}`, { token: (await admin()).accessToken });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { _id: string; email: string; phone_number: string; memberships: { status: string; group: { _id: string } }[] };
    expect(body).toMatchObject({ _id: kid.id, email: kid.email, phone_number: "+201001234567", role: "user" });
    expect(body.memberships.map((m) => [m.group._id, m.status]).sort()).toEqual(
      [
        [a.group.id, "approved"],
        [other.id, "pending"],
      ].sort(),
    );
  });

  it("shows an instructor only the memberships in their own groups, and nobody outside them", async () => {
    const a = await classroom(["approved"]);
    const kid = a.students[0]!;
    await addMember(kid, await createGroup(), "approved");
    const res = await call(`/api/students/${kid.id}`, { token: a.teacher.accessToken });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { memberships: { group: { _id: string } }[] };
    expect(body.memberships.map((m) => m.group._id)).toEqual([a.group.id]);

    const stranger = await instructor();
    const refused = await call(`/api/students/${kid.id}`, { token: stranger.accessToken });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ message: "You can only see the students of your own groups.", code: "forbidden" });
  });

  it("refuses students (even about themselves) and answers 404 for nobody", async () => {
    const kid = await signIn(await createUser());
    expect((await call(`/api/students/${kid.user.id}`, { token: kid.accessToken })).status).toBe(403);
    expect((await call("/api/students/no-such-person", { token: (await admin()).accessToken })).status).toBe(404);
  });
});

describe("student area services", () => {
  it("listMyGroups answers the approved and special groups only", async () => {
    const me = await createUser();
    const [a, b, c, d] = await Promise.all([1, 2, 3, 4].map(() => createGroup()));
    await addMember(me, a!, "approved");
    await addMember(me, b!, "special");
    await addMember(me, c!, "pending");
    await addMember(me, d!, "left");
    const { ctx } = serviceContext();
    const mine = await listMyGroups(ctx, viewerOf(me));
    expect(mine.map((g) => [g._id, g.membershipStatus]).sort()).toEqual(
      [
        [a!.id, "approved"],
        [b!.id, "special"],
      ].sort(),
    );
    expect(mine[0]).toHaveProperty("instructorName");
  });

  it("getGroupForMember opens the group to members and staff; listCourseOutline gives its outline's titles in order", async () => {
    const teacher = await createUser({ role: "instructor", name: "Omar Teacher" });
    const group = await createGroup({ instructorId: teacher.id });
    await addCourseContent(group, 1, "Second");
    await addCourseContent(group, 0, "First");
    const me = await createUser();
    await addMember(me, group, "special");
    const { ctx } = serviceContext();

    const seen = await getGroupForMember(ctx, viewerOf(me), group.slug);
    expect(seen).toMatchObject({ _id: group.id, instructor: { _id: teacher.id, name: "Omar Teacher" }, membershipStatus: "special", start_date: "2027-01-01" });
    expect((await listCourseOutline(ctx, group.id)).map((c) => c.title)).toEqual(["First", "Second"]);
    expect((await getGroupForMember(ctx, viewerOf(teacher), group.id)).membershipStatus).toBeNull();
    expect(await membershipStatus(ctx, viewerOf(me), group.id)).toBe("special");
  });

  it("getGroupForMember refuses non-members with a 403 carrying their status, and hides drafts", async () => {
    const group = await createGroup();
    const pending = await createUser();
    await addMember(pending, group, "pending");
    const { ctx } = serviceContext();

    const refusal = await getGroupForMember(ctx, viewerOf(pending), group.slug).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(NotAMemberError);
    expect((refusal as NotAMemberError).status).toBe(403);
    expect((refusal as NotAMemberError).toJSON()).toEqual({ message: "Your request to join this group is pending.", code: "not_member", membershipStatus: "pending" });

    const stranger = await getGroupForMember(ctx, viewerOf(await createUser()), group.slug).catch((e: unknown) => e);
    expect((stranger as NotAMemberError).membershipStatus).toBeNull();

    const draft = await createGroup({ status: "draft" });
    const hidden = await getGroupForMember(ctx, viewerOf(await createUser()), draft.slug).catch((e: unknown) => e);
    expect((hidden as { status: number }).status).toBe(404);
  });
});

/**
 * Issue 20: the admin's "Students" page (/dashboard/admin/allStudent; the API stays GET /api/users) lists students
 * unless a role filter says otherwise (?role=instructor, admin or all), with the heading, the counts and the total
 * following the filter; a role that is none of these is a 400; the statements do not grow with the accounts.
 */
describe("the admin's Students page", () => {
  async function people(students: number, instructors: number, admins: number) {
    const tag = unique("ppl");
    for (let i = 0; i < students; i++) await createUser({ name: `${tag} student ${i}` });
    for (let i = 0; i < instructors; i++) await createUser({ role: "instructor", name: `${tag} teacher ${i}` });
    for (let i = 0; i < admins; i++) await createUser({ role: "admin", name: `${tag} admin ${i}` });
    return tag;
  }
  const html = async (who: SignedIn, query: string) => {
    const res = await call(`/dashboard/admin/allStudent${query}`, { cookie: who.cookie, headers: { accept: "text/html" } });
    return { status: res.status, text: await res.text() };
  };
  const heading = (text: string) => /<h1[^>]*>([^<]*)<\/h1>/.exec(text)?.[1];
  const count = (text: string, role: string) => new RegExp(`data-testid="role-count-${role}">(\\d+)<`).exec(text)?.[1];
  const listCount = (text: string) => /class="list-count"[^>]*>([^<]*)</.exec(text)?.[1];

  it("shows students by default; a role filter changes the list, the heading and the total; the counts stay per role", async () => {
    const me = await admin();
    const tag = await people(3, 2, 1);
    const page = await html(me, `?search=${tag}`);
    expect(page.status).toBe(200);
    expect(heading(page.text)).toBe("Students");
    expect(listCount(page.text)).toBe("Showing 1-3 of 3");
    const rows = (text: string) => [...text.matchAll(new RegExp(`>(${tag} [a-z]+ \\d+)</a>`, "g"))].map((m) => m[1]).sort();
    expect(rows(page.text)).toEqual([`${tag} student 0`, `${tag} student 1`, `${tag} student 2`]);
    expect([count(page.text, "user"), count(page.text, "instructor"), count(page.text, "admin"), count(page.text, "all")]).toEqual(["3", "2", "1", "6"]);

    const teachers = await html(me, `?search=${tag}&role=instructor`);
    expect(heading(teachers.text)).toBe("Instructors");
    expect(listCount(teachers.text)).toBe("Showing 1-2 of 2");
    expect(rows(teachers.text)).toEqual([`${tag} teacher 0`, `${tag} teacher 1`]);
    const everyone = await html(me, `?search=${tag}&role=all`);
    expect(heading(everyone.text)).toBe("Everyone");
    expect(listCount(everyone.text)).toBe("Showing 1-6 of 6");
    expect(heading((await html(me, `?search=${tag}&role=admin`)).text)).toBe("Admins");
    // The filter links keep the search, and the current one is marked.
    expect(everyone.text).toMatch(new RegExp(`href="/dashboard/admin/allStudent\\?search=${tag}&amp;role=instructor"`));
    expect(everyone.text).toMatch(/aria-current="page"[^>]*>Everyone</);
  });

  it("names the heading in Arabic too", async () => {
    const me = await admin();
    const tag = await people(1, 1, 0);
    const ar = async (query: string) => heading((await (await call(`/dashboard/admin/allStudent${query}`, { cookie: `${me.cookie}; lang=ar` })).text()));
    expect(await ar(`?search=${tag}`)).toBe("الطلاب");
    expect(await ar(`?search=${tag}&role=instructor`)).toBe("المدرّبون");
    expect(await ar(`?search=${tag}&role=all`)).toBe("كل الحسابات");
  });

  // As the groups list reads its address: a value the list cannot use falls back (the students, the first page),
  // instead of a page of one English sentence (list-query.ts).
  it.each([["?role=owner"], ["?role=users"], ["?page=0"], ["?page=abc"]])("shows the students' first page for %s", async (query) => {
    const res = await html(await admin(), query);
    expect(res.status).toBe(200);
    expect(heading(res.text)).toBe("Students");
    expect(res.text).toContain('id="users-search"');
  });

  it("is for admins only", async () => {
    expect((await html(await instructor(), "")).status).toBe(403);
  });

  it("runs the same statements for 3 accounts and for 60", async () => {
    const me = await createUser({ role: "admin" });
    const viewer = viewerOf(me);
    const measure = async (n: number) => {
      const tag = await people(n, 1, 1);
      const counter = countingContext();
      const page = await loadPeople(counter.ctx, viewer, new URL(`http://localhost/dashboard/admin/allStudent?search=${tag}`));
      return { statements: counter.count(), total: page.total, shown: page.users.length };
    };
    const small = await measure(3);
    const large = await measure(60);
    expect([small.total, small.shown, large.total, large.shown]).toEqual([3, 3, 60, 20]);
    expect(large.statements).toBe(small.statements);
    expect(small.statements).toBeLessThanOrEqual(2);
  });

  it("GET /api/users answers the counts per role beside the filtered total", async () => {
    const me = await admin();
    const tag = await people(2, 1, 0);
    const res = await call(`/api/users?search=${tag}&role=user`, { token: me.accessToken });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { total: number; counts: Record<string, number> };
    expect(body.total).toBe(2);
    expect(body.counts).toEqual({ admin: 0, instructor: 1, user: 2 });
    // Without a role, everyone (as before).
    expect(((await (await call(`/api/users?search=${tag}`, { token: me.accessToken })).json()) as { total: number }).total).toBe(3);
  });
});
