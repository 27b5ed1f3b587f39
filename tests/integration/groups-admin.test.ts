import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { addCourseContent, addMember, call, createGroup, createUser, signIn, type ErrorBody, type SignedIn } from "./factories";
import { db, unique } from "./helpers";
import { ar } from "../../app/i18n/ar";
import { en, type Messages } from "../../app/i18n/en";
import { format } from "../../app/i18n/translate";
import { failureText } from "../../app/lib/group-errors";

type Managed = {
  _id: string;
  slug: string;
  title: string;
  description: string;
  imageCourse: string | null;
  start_date: string | null;
  instructorId: string | null;
  instructorName: string;
  status: string;
  capacity: number | null;
  memberCount: number;
  pendingCount: number;
  content: { _id: string; title: string; body: string; order: number }[];
};
type Catalogue = { _id: string; slug: string; membershipStatus?: string | null }[];

const admin = async () => signIn(await createUser({ role: "admin" }));
const instructor = async () => signIn(await createUser({ role: "instructor" }));
const student = async () => signIn(await createUser());

async function createViaApi(as: SignedIn, body: Record<string, unknown>) {
  const res = await call("/api/groups", { token: as.accessToken, body });
  expect(res.status).toBe(201);
  return (await res.json()) as Managed;
}

async function put(as: SignedIn, id: string, body: Record<string, unknown>) {
  return call(`/api/groups/${id}`, { method: "PUT", token: as.accessToken, body });
}

async function catalogue(token?: string): Promise<Catalogue> {
  const res = await call("/api/groups", { token });
  expect(res.status).toBe(200);
  return (await res.json()) as Catalogue;
}

describe("POST /api/groups", () => {
  it("creates a draft group with every field and a slug made from the title", async () => {
    const me = await admin();
    const teacher = await createUser({ role: "instructor", name: "Dina Teacher" });
    const title = `React From Zero ${unique("t")}`;
    const group = await createViaApi(me, {
      title,
      description: "Components, hooks and routing.",
      imageCourse: "https://cdn.example.com/react.webp",
      start_date: "2027-03-01",
      instructorId: teacher.id,
      capacity: 25,
    });
    expect(group).toMatchObject({
      title,
      slug: title.toLowerCase().replace(/ /g, "-"),
      description: "Components, hooks and routing.",
      imageCourse: "https://cdn.example.com/react.webp",
      start_date: "2027-03-01",
      instructorId: teacher.id,
      instructorName: "Dina Teacher",
      status: "draft",
      capacity: 25,
      memberCount: 0,
      pendingCount: 0,
      content: [],
    });
    expect((await catalogue()).map((g) => g._id)).not.toContain(group._id);
  });

  it("gives a repeated title the next free numeric suffix, and never the reserved slug 'manage'", async () => {
    const me = await admin();
    const title = `Same Title ${unique("t")}`;
    const slugs = [];
    for (let i = 0; i < 3; i++) slugs.push((await createViaApi(me, { title })).slug);
    const base = title.toLowerCase().replace(/ /g, "-");
    expect(slugs).toEqual([base, `${base}-2`, `${base}-3`]);

    const manage = await createViaApi(me, { title: "Manage" });
    expect(manage.slug).not.toBe("manage");
    expect(manage.slug).toMatch(/^manage-\d+$/);
  });

  it("makes slugs of long titles, Latin and Arabic, repeated too (no 5xx from a long slug's lookup)", async () => {
    const me = await admin();
    const latin = `${unique("L")}${"q".repeat(70)}`.slice(0, 80);
    // 43 Arabic letters and spaces: a slug of over 50 bytes.
    const arabic = `دورة تطوير الواجهات الأمامية باستخدام رياكت ${unique("a").slice(-6)}`;
    for (const title of [latin, arabic]) {
      const first = await call("/api/groups", { body: { title }, token: me.accessToken });
      expect(first.status, title).toBe(201);
      const again = await call("/api/groups", { body: { title }, token: me.accessToken });
      expect(again.status, title).toBe(201);
      const [a, b] = [((await first.json()) as { slug: string }).slug, ((await again.json()) as { slug: string }).slug];
      expect(b).toBe(`${a}-2`);
    }
  });

  it("gives parallel groups with one title distinct slugs", async () => {
    const me = await admin();
    const title = `Parallel ${unique("t")}`;
    const made = await Promise.all([1, 2, 3].map(() => createViaApi(me, { title })));
    expect(new Set(made.map((g) => g.slug)).size).toBe(3);
  });

  it("accepts an uploaded image path and a bundled image path", async () => {
    const me = await admin();
    const uploaded = await createViaApi(me, { title: "Img A", imageCourse: "/media/courses/AbCdEfGhIjKlMnOpQrStUv.webp" });
    expect(uploaded.imageCourse).toBe("/media/courses/AbCdEfGhIjKlMnOpQrStUv.webp");
    const bundled = await createViaApi(me, { title: "Img B", imageCourse: "/images/courses/frontend.svg" });
    expect(bundled.imageCourse).toBe("/images/courses/frontend.svg");
  });

  it.each([
    ["a missing title", { description: "x" }, "title"],
    ["an impossible date", { title: "T", start_date: "2027-02-30" }, "start_date"],
    ["a date in another format", { title: "T", start_date: "01/03/2027" }, "start_date"],
    ["a script URL as image", { title: "T", imageCourse: "javascript:alert(1)" }, "imageCourse"],
    // The pages load images over https only (Content-Security-Policy): an http image would show broken everywhere.
    ["an http (not https) image", { title: "T", imageCourse: "http://cdn.example.com/react.webp" }, "imageCourse"],
    ["a path escaping the media folder", { title: "T", imageCourse: "/media/../secrets" }, "imageCourse"],
    ["a capacity of zero", { title: "T", capacity: 0 }, "capacity"],
    ["a fractional capacity", { title: "T", capacity: 2.5 }, "capacity"],
    ["an unknown status", { title: "T", status: "hidden" }, "status"],
  ])("refuses %s with 400 and the field", async (_label, body, field) => {
    const res = await call("/api/groups", { token: (await admin()).accessToken, body });
    expect(res.status).toBe(400);
    const err = (await res.json()) as ErrorBody;
    expect(err.code).toBe("validation_failed");
    expect(err.fields).toHaveProperty(field);
  });

  it("refuses an instructorId that is not an instructor", async () => {
    const someone = await createUser();
    const res = await call("/api/groups", { token: (await admin()).accessToken, body: { title: "T", instructorId: someone.id } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "validation_failed", fields: { instructorId: "Choose one of the instructors." } });
  });

  it("is for admins only: instructors and students get 403", async () => {
    for (const who of [await instructor(), await student()]) {
      const res = await call("/api/groups", { token: who.accessToken, body: { title: "Not mine to make" } });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ message: "Only an admin can create groups.", code: "forbidden" });
    }
  });
});

describe("PUT /api/groups/{id}", () => {
  it("lets an admin change every field; the slug stays when the title changes", async () => {
    const me = await admin();
    const teacher = await createUser({ role: "instructor", name: "New Teacher" });
    const group = await createViaApi(me, { title: `Old Title ${unique("t")}` });
    const res = await put(me, group.slug, {
      title: "A Completely New Title",
      description: "New text",
      imageCourse: null,
      start_date: "2027-09-01",
      instructorId: teacher.id,
      status: "published",
      capacity: null,
    });
    expect(res.status).toBe(200);
    const updated = (await res.json()) as Managed;
    expect(updated).toMatchObject({ _id: group._id, slug: group.slug, title: "A Completely New Title", instructorName: "New Teacher", status: "published", start_date: "2027-09-01" });
    expect((await catalogue()).find((g) => g._id === group._id)?.slug).toBe(group.slug);

    const archived = await put(me, group._id, { status: "archived" });
    expect(((await archived.json()) as Managed).status).toBe("archived");
    expect((await catalogue()).map((g) => g._id)).not.toContain(group._id);
  });

  it("lets the group's instructor edit their group and publish it", async () => {
    const teacher = await instructor();
    const group = await createGroup({ instructorId: teacher.user.id, status: "draft" });
    const res = await put(teacher, group.id, { title: "Renamed by the teacher", description: "Mine", capacity: 12, start_date: "2027-05-05", status: "published" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ slug: group.slug, title: "Renamed by the teacher", capacity: 12, status: "published", instructorId: teacher.user.id });
    // Sending their own id again is not a reassignment.
    expect((await put(teacher, group.id, { instructorId: teacher.user.id })).status).toBe(200);
  });

  it("refuses the instructor a reassignment, archiving or un-archiving", async () => {
    const teacher = await instructor();
    const other = await createUser({ role: "instructor" });
    const group = await createGroup({ instructorId: teacher.user.id });
    const reassign = await put(teacher, group.id, { instructorId: other.id });
    expect(reassign.status).toBe(403);
    expect(await reassign.json()).toEqual({ message: "Only an admin can assign the instructor.", code: "forbidden" });
    expect((await put(teacher, group.id, { instructorId: null })).status).toBe(403);
    expect((await put(teacher, group.id, { status: "archived" })).status).toBe(403);

    const archived = await createGroup({ instructorId: teacher.user.id, status: "archived" });
    expect((await put(teacher, archived.id, { status: "published" })).status).toBe(403);
    const [row] = await db().select().from(s.groups).where(eq(s.groups.id, group.id));
    expect(row).toMatchObject({ instructorId: teacher.user.id, status: "published" });
  });

  it("refuses another group's instructor and students with 403, and answers 404 for no group", async () => {
    const group = await createGroup({ instructorId: (await createUser({ role: "instructor" })).id });
    for (const who of [await instructor(), await student()]) {
      const res = await put(who, group.id, { title: "Hijacked" });
      expect(res.status).toBe(403);
    }
    expect((await put(await admin(), "no-such-group", { title: "x" })).status).toBe(404);
    const [row] = await db().select().from(s.groups).where(eq(s.groups.id, group.id));
    expect(row!.title).toBe(group.title);
  });
});

describe("GET /api/groups/manage", () => {
  it("shows admins every group with member and pending counts, searchable and filterable by status", async () => {
    const me = await admin();
    const tag = unique("find");
    const g = await createGroup({ title: `Counted ${tag}`, status: "draft" });
    await Promise.all([
      addMember(await createUser(), g, "approved"),
      addMember(await createUser(), g, "special"),
      addMember(await createUser(), g, "pending"),
      addMember(await createUser(), g, "rejected"),
      addMember(await createUser(), g, "left"),
    ]);
    await createGroup({ title: `Other ${tag}`, status: "archived" });

    const res = await call(`/api/groups/manage?search=${tag}`, { token: me.accessToken });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const page = (await res.json()) as { groups: Managed[]; total: number };
    expect(page.total).toBe(2);
    expect(page.groups.find((x) => x._id === g.id)).toMatchObject({ memberCount: 2, pendingCount: 1, status: "draft" });

    const drafts = (await (await call(`/api/groups/manage?search=${tag}&status=draft`, { token: me.accessToken })).json()) as { groups: Managed[]; total: number };
    expect(drafts.groups.map((x) => x._id)).toEqual([g.id]);
    expect(drafts.total).toBe(1);
  });

  it("searches with the longest term the box takes, Arabic included, without a 5xx", async () => {
    const me = await admin();
    const title = `مجموعة البحث الطويلة جدًا في العنوان ${unique("s").slice(-6)}`;
    expect((await call("/api/groups", { body: { title }, token: me.accessToken })).status).toBe(201);
    const search = async (term: string) => {
      const res = await call(`/api/groups/manage?search=${encodeURIComponent(term)}`, { token: me.accessToken });
      expect(res.status, term).toBe(200);
      return ((await res.json()) as { groups: { title: string }[] }).groups.map((g) => g.title);
    };
    expect(await search(title)).toEqual([title]);
    expect(await search("ب".repeat(100))).toEqual([]);
    expect(await search("%".repeat(100))).toEqual([]);
  });

  it("shows an instructor only their own groups", async () => {
    const teacher = await instructor();
    const mine = await createGroup({ instructorId: teacher.user.id, status: "draft" });
    const notMine = await createGroup({ instructorId: (await createUser({ role: "instructor" })).id });
    const page = (await (await call("/api/groups/manage?pageSize=100", { token: teacher.accessToken })).json()) as { groups: Managed[]; total: number };
    expect(page.groups.map((x) => x._id)).toEqual([mine.id]);
    expect(page.total).toBe(1);

    const one = await call(`/api/groups/manage/${mine.slug}`, { token: teacher.accessToken });
    expect(one.status).toBe(200);
    expect(((await one.json()) as Managed).status).toBe("draft");
    expect((await call(`/api/groups/manage/${notMine.slug}`, { token: teacher.accessToken })).status).toBe(403);
  });

  it("refuses students with 403", async () => {
    const res = await call("/api/groups/manage", { token: (await student()).accessToken });
    expect(res.status).toBe(403);
  });
});

describe("course outline", () => {
  it("adds, edits, reorders and removes items; the public page follows", async () => {
    const teacher = await instructor();
    const group = await createGroup({ instructorId: teacher.user.id });
    const base = `/api/groups/${group.slug}/content`;
    const add = async (title: string) => {
      const res = await call(base, { token: teacher.accessToken, body: { title, body: `# ${title}` } });
      expect(res.status).toBe(201);
      return (await res.json()) as Managed["content"][number];
    };
    const a = await add("Intro");
    const b = await add("HTML");
    const c = await add("CSS");
    expect([a.order, b.order, c.order]).toEqual([0, 1, 2]);

    const edited = await call(`${base}/${b._id}`, { method: "PUT", token: teacher.accessToken, body: { title: "HTML basics" } });
    expect(edited.status).toBe(200);
    expect(await edited.json()).toEqual({ _id: b._id, title: "HTML basics", body: "# HTML", order: 1 });

    const reordered = await call(`${base}/order`, { method: "PUT", token: teacher.accessToken, body: { ids: [c._id, a._id, b._id] } });
    expect(reordered.status).toBe(200);
    expect(((await reordered.json()) as { _id: string }[]).map((x) => x._id)).toEqual([c._id, a._id, b._id]);

    expect((await call(`${base}/${a._id}`, { method: "DELETE", token: teacher.accessToken })).status).toBe(200);
    const pub = (await (await call(`/api/groups/${group.slug}`)).json()) as Managed;
    expect(pub.content.map((x) => x.title)).toEqual(["CSS", "HTML basics"]);

    const staffList = (await (await call(base, { token: teacher.accessToken })).json()) as { _id: string }[];
    expect(staffList.map((x) => x._id)).toEqual([c._id, b._id]);
  });

  it("refuses a reorder that does not name every item exactly once, and changes nothing", async () => {
    const me = await admin();
    const group = await createGroup();
    const [a, b] = [await addCourseContent(group, 0), await addCourseContent(group, 1)];
    const path = `/api/groups/${group.id}/content/order`;
    for (const ids of [[a.id], [a.id, a.id], [a.id, b.id, "someone-elses"]]) {
      const res = await call(path, { method: "PUT", token: me.accessToken, body: { ids } });
      expect(res.status).toBe(409);
    }
    const rows = await db().select().from(s.courseContents).where(eq(s.courseContents.groupId, group.id));
    expect(Object.fromEntries(rows.map((r) => [r.id, r.order]))).toEqual({ [a.id]: 0, [b.id]: 1 });
  });

  it("answers 404 for an item of another group, and 403 to another group's instructor", async () => {
    const teacher = await instructor();
    const group = await createGroup({ instructorId: teacher.user.id });
    const foreign = await addCourseContent(await createGroup());
    const res = await call(`/api/groups/${group.id}/content/${foreign.id}`, { method: "PUT", token: teacher.accessToken, body: { title: "Mine now" } });
    expect(res.status).toBe(404);
    expect((await call(`/api/groups/${group.id}/content/${foreign.id}`, { method: "DELETE", token: teacher.accessToken })).status).toBe(404);

    const other = await instructor();
    expect((await call(`/api/groups/${group.id}/content`, { token: other.accessToken, body: { title: "Sneaky" } })).status).toBe(403);
  });
});

describe("GET /api/users/instructors", () => {
  it("lists instructors only, for admins", async () => {
    const teacher = await createUser({ role: "instructor", name: "Aaa Picker" });
    const plain = await createUser();
    const res = await call("/api/users/instructors", { token: (await admin()).accessToken });
    expect(res.status).toBe(200);
    const list = (await res.json()) as { _id: string; name: string; email: string }[];
    expect(list).toContainEqual({ _id: teacher.id, name: "Aaa Picker", email: teacher.email });
    expect(list.map((x) => x._id)).not.toContain(plain.id);
    expect((await call("/api/users/instructors", { token: (await instructor()).accessToken })).status).toBe(403);
  });
});

describe("GET /api/groups with a signed-in caller", () => {
  it("carries the caller's membership status in each group, null where they never asked", async () => {
    const me = await student();
    const [pending, approved, special, rejected, none] = await Promise.all([1, 2, 3, 4, 5].map(() => createGroup()));
    await addMember(me.user, pending!, "pending");
    await addMember(me.user, approved!, "approved");
    await addMember(me.user, special!, "special");
    await addMember(me.user, rejected!, "rejected");
    await addMember(await createUser(), none!, "approved");

    const res = await call("/api/groups", { token: me.accessToken });
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const byId = new Map(((await res.json()) as Catalogue).map((g) => [g._id, g.membershipStatus]));
    expect(byId.get(pending!.id)).toBe("pending");
    expect(byId.get(approved!.id)).toBe("approved");
    expect(byId.get(special!.id)).toBe("special");
    expect(byId.get(rejected!.id)).toBe("rejected");
    expect(byId.get(none!.id)).toBeNull();

    const detail = await call(`/api/groups/${approved!.slug}`, { token: me.accessToken });
    expect(((await detail.json()) as { membershipStatus: string }).membershipStatus).toBe("approved");
  });

  it("keeps the anonymous answer as it was (no membershipStatus), also for a stale or invalid token", async () => {
    await createGroup();
    for (const token of [undefined, "not-a-token", "Bearer eyJhbGciOiJIUzI1NiJ9.e30.x"]) {
      const res = await call("/api/groups", { token });
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).not.toBe("private, no-store");
      const list = (await res.json()) as Catalogue;
      expect(list.length).toBeGreaterThan(0);
      expect(list.every((g) => !("membershipStatus" in g))).toBe(true);
    }
  });
});

describe("a group's capacity and its members", () => {
  it("is never set below the seats taken: 3 members refuse 2 seats (409, capacity unchanged), take 3, and a title edit is not refused", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    const group = await createGroup({ capacity: 30 });
    for (const status of ["approved", "approved", "special"] as const) await addMember(await createUser(), group, status);
    // Those who asked, left or were removed hold no seat.
    await addMember(await createUser(), group, "pending");
    await addMember(await createUser(), group, "removed");
    const put = (body: Record<string, unknown>) => call(`/api/groups/${group.id}`, { method: "PUT", token: admin.accessToken, body });
    const refused = await put({ capacity: 2 });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: "capacity_below_members", message: "This group already has 3 members: its capacity cannot be lower than that." });
    expect((await db().select({ capacity: s.groups.capacity }).from(s.groups).where(eq(s.groups.id, group.id)))[0]?.capacity).toBe(30);
    expect((await put({ capacity: 3 })).status).toBe(200);
    expect((await db().select({ capacity: s.groups.capacity }).from(s.groups).where(eq(s.groups.id, group.id)))[0]?.capacity).toBe(3);
    // A group already over its capacity (an earlier rule let that happen) still takes edits that leave the capacity as it is.
    await db().update(s.groups).set({ capacity: 1 }).where(eq(s.groups.id, group.id));
    expect((await put({ title: `Renamed ${unique("g")}`, capacity: 1 })).status).toBe(200);
  });

  it("is said in the reader's language on the group screens", async () => {
    const failure = { ok: false as const, code: "capacity_below_members", message: "This group already has 3 members: its capacity cannot be lower than that." };
    const inArabic = failureText((key, params) => format(ar, key, params), failure);
    expect(inArabic).toBe("في هذه المجموعة أعضاء أكثر من هذا العدد: لا يمكن أن تقل سعتها عن عدد أعضائها.");
    expect(failureText((key, params) => format(en as Messages, key, params), failure)).toBe("This group already has more members than that: its capacity cannot be lower than its number of members.");
  });
});

describe("a group with members and the way back to draft", () => {
  const statusOf = async (id: string) => (await db().select({ status: s.groups.status }).from(s.groups).where(eq(s.groups.id, id)))[0]?.status;

  it("is refused to everyone once one member holds a seat (409, still published), whatever else the change holds", async () => {
    const boss = await admin();
    const teacher = await instructor();
    const group = await createGroup({ instructorId: teacher.user.id, capacity: 30 });
    await addMember(await createUser(), group, "approved");
    for (const as of [boss, teacher]) {
      const refused = await put(as, group.id, { status: "draft", title: `Renamed ${unique("g")}` });
      expect(refused.status).toBe(409);
      expect(await refused.json()).toMatchObject({ code: "has_members", message: "This group has 1 member: it cannot go back to draft, where they could no longer open it. Archive it when the cohort ends." });
      expect(await statusOf(group.id)).toBe("published");
    }
    // The title of the refused change was not written either.
    expect((await db().select({ title: s.groups.title }).from(s.groups).where(eq(s.groups.id, group.id)))[0]?.title).toBe(group.title);
    // A special seat counts too, and the count is said.
    await addMember(await createUser(), group, "special");
    expect(await ((await put(boss, group.id, { status: "draft" })).json())).toMatchObject({ message: expect.stringContaining("This group has 2 members:") });
    // Archiving (the admins') and edits that leave the status alone still pass.
    expect((await put(teacher, group.id, { status: "published", capacity: 20 })).status).toBe(200);
    expect((await put(boss, group.id, { status: "archived" })).status).toBe(200);
    expect(await statusOf(group.id)).toBe("archived");
  });

  it("lets a group whose only students are waiting go back; they no longer see it until it is published again", async () => {
    const boss = await admin();
    const group = await createGroup({ title: unique("Waiting"), capacity: 30 });
    const asker = await student();
    await addMember(asker.user, group, "pending");
    await addMember(await createUser(), group, "left");
    const profileGroups = async () => ((await (await call("/api/users/profile", { token: asker.accessToken })).json()) as { groups: { slug: string }[] }).groups.map((g) => g.slug);
    const myCourses = async () => (await call("/my-courses", { cookie: asker.cookie, headers: { accept: "text/html" } })).text();
    expect(await profileGroups()).toContain(group.slug);
    expect(await myCourses()).toContain(group.title);

    expect((await put(boss, group.id, { status: "draft" })).status).toBe(200);
    expect(await profileGroups()).not.toContain(group.slug);
    expect(await myCourses()).not.toContain(group.title);

    // Published again, the request is where it was.
    expect((await put(boss, group.id, { status: "published" })).status).toBe(200);
    expect(await profileGroups()).toContain(group.slug);
    expect(await myCourses()).toContain(group.title);
  });

  it("is not offered on the admin's edit page of a group with members, and the refusal reads in Arabic", async () => {
    const boss = await admin();
    const group = await createGroup({ capacity: 30 });
    await addMember(await createUser(), group, "approved");
    const html = await (await call(`/dashboard/admin/group/${group.slug}/update`, { cookie: boss.cookie, headers: { accept: "text/html" } })).text();
    expect(html).toMatch(/<option value="draft" disabled="">/);
    expect(html).toContain("It has 1 member, so it cannot go back to draft: they could no longer open their course.");
    const empty = await createGroup({ capacity: 30 });
    const emptyHtml = await (await call(`/dashboard/admin/group/${empty.slug}/update`, { cookie: boss.cookie, headers: { accept: "text/html" } })).text();
    expect(emptyHtml).toMatch(/<option value="draft">/);
    const failure = { ok: false as const, code: "has_members", message: "This group has 1 member: it cannot go back to draft, where they could no longer open it. Archive it when the cohort ends." };
    expect(failureText((key, params) => format(ar, key, params), failure)).toBe("في هذه المجموعة أعضاء: لا يمكن إعادتها إلى مسودة، فلن يستطيعوا فتح دورتهم. أرشِفها عند انتهاء الدفعة.");
  });
});

describe("the admins' list of groups", () => {
  it("shows each group's public address as visitors open it (/content/{slug}), beside its title", async () => {
    const boss = await signIn(await createUser({ role: "admin" }));
    const group = await createGroup({ title: unique("Listed") });
    const res = await call(`/dashboard/admin/allGroups?search=${encodeURIComponent(group.title)}`, { cookie: boss.cookie, headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<span class="row-sub" dir="ltr">/content/${group.slug}</span>`);
    // The address shown is one that answers.
    expect((await call(`/content/${group.slug}`, { headers: { accept: "text/html" } })).status).toBe(200);
  });
});
