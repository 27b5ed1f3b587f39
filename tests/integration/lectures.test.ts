/**
 * Lectures through the real API: who reads and writes them, published versus drafts, order, the weekly series,
 * the rendered Markdown, and the notification members get when a lecture is published.
 */
import { SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { seriesDays, updateLecture, zonedTime } from "../../worker/services/lectures";
import { addMember, call, createGroup, createUser, signIn, type ErrorBody, type SignedIn, viewerOf } from "./factories";
import { db, serviceContext } from "./helpers";

async function world() {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const student = await signIn(await createUser());
  await addMember(student.user, group);
  return { teacher, group, student };
}

async function newLecture(who: SignedIn, groupSlug: string, body: Record<string, unknown>) {
  const res = await call(`/api/lectures/group/${groupSlug}`, { body, token: who.accessToken });
  expect(res.status).toBe(201);
  return (await res.json()) as { _id: string; slug: string; title: string; order: number; published: boolean };
}

describe("lectures", () => {
  it("creates lectures in order with unique slugs, and lists them; students see only the published ones", async () => {
    const w = await world();
    const a = await newLecture(w.teacher, w.group.slug, { title: "Intro to the web", published: true, startsAt: "2026-12-01T16:00:00.000Z" });
    const b = await newLecture(w.teacher, w.group.slug, { title: "Intro to the web", published: false });
    expect(b.slug).not.toBe(a.slug);
    // Neither follows a staff order: both follow their dates (order 0), the undated one after the dated one.
    expect([a.order, b.order]).toEqual([0, 0]);
    const staffList = (await (await call(`/api/lectures/group/${w.group.slug}`, { token: w.teacher.accessToken })).json()) as { _id: string }[];
    expect(staffList.map((l) => l._id)).toEqual([a._id, b._id]);
    const studentList = (await (await call(`/api/lectures/group/${w.group.id}`, { token: w.student.accessToken })).json()) as { _id: string; startsAt: string }[];
    expect(studentList.map((l) => l._id)).toEqual([a._id]);
    expect(studentList[0]!.startsAt).toBe("2026-12-01T16:00:00.000Z");
    // A draft is not found for a student, by id or slug.
    expect((await call(`/api/lectures/${b.slug}`, { token: w.student.accessToken })).status).toBe(404);
  });

  it("renders the body as sanitised HTML with highlighted code, and never passes raw HTML through", async () => {
    const w = await world();
    const lecture = await newLecture(w.teacher, w.group.slug, {
      title: "Closures",
      published: true,
      body: "# Closures\n\n<script>alert(1)</script>\n\n```js\nconst add = (a) => (b) => a + b;\n```\n\n[docs](javascript:alert(1))",
    });
    const res = await call(`/api/lectures/${lecture.slug}`, { token: w.student.accessToken });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { bodyHtml: string; body: string; attendance: unknown; attendanceOpen: boolean };
    expect(body.bodyHtml).toContain("<h1>Closures</h1>");
    expect(body.bodyHtml).not.toContain("<script>");
    expect(body.bodyHtml).toContain("&lt;script&gt;");
    expect(body.bodyHtml).toContain('<code class="hljs language-javascript" dir="ltr">');
    expect(body.bodyHtml).toContain('<span class="hljs-keyword">const</span>');
    expect(body.bodyHtml).not.toContain('href="javascript:');
    expect(body.attendance).toBeNull();
    expect(body.attendanceOpen).toBe(false);
  });

  it("edits, publishes (telling the members once), reorders and deletes", async () => {
    const w = await world();
    const a = await newLecture(w.teacher, w.group.slug, { title: "First" });
    const b = await newLecture(w.teacher, w.group.slug, { title: "Second" });
    const published = await call(`/api/lectures/${a._id}`, { method: "PUT", body: { published: true, title: "First, renamed" }, token: w.teacher.accessToken });
    expect(published.status).toBe(200);
    expect(await published.json()).toMatchObject({ title: "First, renamed", published: true });
    const notes = await db().select().from(s.notifications).where(eq(s.notifications.userId, w.student.user.id));
    expect(notes).toEqual([expect.objectContaining({ kind: "lecture-published", title: `New lecture in ${w.group.title}: First, renamed`, link: `/course/${w.group.slug}/lecture/${a.slug}` })]);
    // Saving again does not notify again.
    await call(`/api/lectures/${a._id}`, { method: "PUT", body: { title: "First again" }, token: w.teacher.accessToken });
    expect(await db().select().from(s.notifications).where(eq(s.notifications.userId, w.student.user.id))).toHaveLength(1);
    // Published by ten saves at once (a double-clicked button, two tabs), each of which read the lecture as a draft
    // before any wrote: still one announcement.
    const teacher = viewerOf(w.teacher);
    const saves = await Promise.all(Array.from({ length: 10 }, () => updateLecture(serviceContext().ctx, teacher, b._id, { published: true })));
    expect(saves.every((l) => l.published)).toBe(true);
    expect((await db().select().from(s.notifications).where(eq(s.notifications.userId, w.student.user.id))).filter((n) => n.link?.endsWith(`/lecture/${b.slug}`))).toHaveLength(1);

    const order = await call(`/api/lectures/group/${w.group.slug}/order`, { method: "PUT", body: { ids: [b.slug, a._id] }, token: w.teacher.accessToken });
    expect(order.status).toBe(200);
    expect(((await order.json()) as { _id: string }[]).map((l) => l._id)).toEqual([b._id, a._id]);
    expect((await call(`/api/lectures/group/${w.group.slug}/order`, { method: "PUT", body: { ids: [b._id] }, token: w.teacher.accessToken })).status).toBe(400);

    expect((await call(`/api/lectures/${b._id}`, { method: "DELETE", token: w.teacher.accessToken })).status).toBe(200);
    expect((await call(`/api/lectures/${b._id}`, { token: w.teacher.accessToken })).status).toBe(404);
  });

  it("refuses strangers: another group's instructor cannot write, another group's student cannot read", async () => {
    const w = await world();
    const lecture = await newLecture(w.teacher, w.group.slug, { title: "Private", published: true });
    const otherTeacher = await signIn(await createUser({ role: "instructor" }));
    const outsider = await signIn(await createUser());
    expect((await call(`/api/lectures/${lecture._id}`, { method: "PUT", body: { title: "Hijacked" }, token: otherTeacher.accessToken })).status).toBe(403);
    expect((await call(`/api/lectures/group/${w.group.slug}`, { body: { title: "Sneaky" }, token: w.student.accessToken })).status).toBe(403);
    expect((await call(`/api/lectures/${lecture._id}`, { token: outsider.accessToken })).status).toBe(403);
    expect((await call(`/api/lectures/group/${w.group.slug}`, { token: outsider.accessToken })).status).toBe(403);
    expect((await call(`/api/lectures/group/${w.group.slug}`)).status).toBe(401);
  });

  it("an unpublished lecture and its task are as unknown to someone outside the group as to a member: 404, never a 403 saying they exist", async () => {
    const w = await world();
    const hidden = await newLecture(w.teacher, w.group.slug, { title: "Not yet", published: false });
    const task = (await (await call(`/api/lectures/${hidden.slug}/tasks`, { body: { title: "Hidden task" }, token: w.teacher.accessToken })).json()) as { slug: string };
    const outsider = await signIn(await createUser());
    for (const who of [outsider, w.student]) {
      for (const path of [`/api/lectures/${hidden.slug}`, `/api/lectures/${hidden.slug}/tasks/${task.slug}`, `/api/lectures/no-such-lecture-${w.group.slug}`]) {
        const res = await call(path, { token: who.accessToken });
        expect(res.status, `${path} as ${who === outsider ? "outsider" : "member"}`).toBe(404);
      }
    }
    // Published, it is there: a member reads it, and someone outside is refused (403).
    const shown = await newLecture(w.teacher, w.group.slug, { title: "Out now", published: true });
    expect((await call(`/api/lectures/${shown.slug}`, { token: w.student.accessToken })).status).toBe(200);
    expect((await call(`/api/lectures/${shown.slug}`, { token: outsider.accessToken })).status).toBe(403);
  });

  it.each([
    [{ title: "" }, "title"],
    [{ title: "\u200b" }, "title"],
    [{ title: "Ok", videoUrl: "javascript:alert(1)" }, "videoUrl"],
    [{ title: "Ok", resources: [{ title: "x", url: "ftp://files" }] }, "resources.0.url"],
    [{ title: "Ok", startsAt: "tomorrow" }, "startsAt"],
    [{ title: "Ok", published: "yes" }, "published"],
  ])("refuses %j with 400 naming %s", async (body, field) => {
    const w = await world();
    const res = await call(`/api/lectures/group/${w.group.slug}`, { body, token: w.teacher.accessToken });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).fields).toHaveProperty(field);
  });
});

describe("the schedule's order (issue 20)", () => {
  const titles = async (path: string, who: SignedIn) => ((await (await call(path, { token: who.accessToken })).json()) as { title: string }[]).map((l) => l.title);

  /** The order in which `names` appear in a page's list of lectures (from `marker` on; each title is unique here). */
  async function onPage(path: string, who: SignedIn, names: string[], marker: string): Promise<string[]> {
    const res = await call(path, { cookie: who.cookie, headers: { accept: "text/html" } });
    expect(res.status, path).toBe(200);
    const page = await res.text();
    expect(page).toContain(marker);
    const html = page.slice(page.indexOf(marker));
    return names.filter((n) => html.includes(`>${n}<`)).sort((x, y) => html.indexOf(`>${x}<`) - html.indexOf(`>${y}<`));
  }

  async function outOfOrder(w: Awaited<ReturnType<typeof world>>) {
    // Added out of date order, as staff do: the undated one in the middle, a draft among them.
    await newLecture(w.teacher, w.group.slug, { title: "Third (Dec 20)", published: true, startsAt: "2026-12-20T16:00:00.000Z" });
    await newLecture(w.teacher, w.group.slug, { title: "Undated", published: true });
    await newLecture(w.teacher, w.group.slug, { title: "First (Dec 5)", published: true, startsAt: "2026-12-05T16:00:00.000Z" });
    await newLecture(w.teacher, w.group.slug, { title: "Draft (Dec 8)", published: false, startsAt: "2026-12-08T16:00:00.000Z" });
    await newLecture(w.teacher, w.group.slug, { title: "Second (Dec 12)", published: true, startsAt: "2026-12-12T16:00:00.000Z" });
  }
  const BY_DATE = ["First (Dec 5)", "Second (Dec 12)", "Third (Dec 20)", "Undated"];
  // Where each page's list of lectures starts (the course home shows "up next" above it).
  const COURSE_LIST = 'class="course-lecture-list"';
  const STAFF_LIST = 'class="lecture-list"';

  it("follows the dates, undated lectures last, the same for students and staff, in the API and on both pages", async () => {
    const w = await world();
    await outOfOrder(w);
    expect(await titles(`/api/lectures/group/${w.group.slug}`, w.student)).toEqual(BY_DATE);
    expect(await titles(`/api/lectures/group/${w.group.slug}`, w.teacher)).toEqual(["First (Dec 5)", "Draft (Dec 8)", "Second (Dec 12)", "Third (Dec 20)", "Undated"]);
    expect(await onPage(`/course/${w.group.slug}`, w.student, BY_DATE, COURSE_LIST)).toEqual(BY_DATE);
    expect(await onPage(`/instructor/group/${w.group.slug}/lectures`, w.teacher, BY_DATE, STAFF_LIST)).toEqual(BY_DATE);
    // A new date moves a lecture; an undated lecture added later still comes after every dated one.
    const [undated] = await db().select().from(s.lectures).where(eq(s.lectures.title, "Undated"));
    expect((await call(`/api/lectures/${undated!.id}`, { method: "PUT", body: { startsAt: "2026-12-01T16:00:00.000Z" }, token: w.teacher.accessToken })).status).toBe(200);
    await newLecture(w.teacher, w.group.slug, { title: "Later, undated", published: true });
    expect(await titles(`/api/lectures/group/${w.group.slug}`, w.student)).toEqual(["Undated", "First (Dec 5)", "Second (Dec 12)", "Third (Dec 20)", "Later, undated"]);
  });

  it("a staff reorder wins over the dates, for everyone; new lectures join the end; Sort by date goes back", async () => {
    const w = await world();
    await outOfOrder(w);
    const staffList = (await (await call(`/api/lectures/group/${w.group.slug}`, { token: w.teacher.accessToken })).json()) as { _id: string; title: string }[];
    const wanted = ["Undated", "Third (Dec 20)", "Draft (Dec 8)", "First (Dec 5)", "Second (Dec 12)"];
    const ids = wanted.map((title) => staffList.find((l) => l.title === title)!._id);
    expect((await call(`/api/lectures/group/${w.group.slug}/order`, { method: "PUT", body: { ids }, token: w.teacher.accessToken })).status).toBe(200);
    const students = ["Undated", "Third (Dec 20)", "First (Dec 5)", "Second (Dec 12)"];
    expect(await titles(`/api/lectures/group/${w.group.slug}`, w.teacher)).toEqual(wanted);
    expect(await titles(`/api/lectures/group/${w.group.slug}`, w.student)).toEqual(students);
    expect(await onPage(`/course/${w.group.slug}`, w.student, students, COURSE_LIST)).toEqual(students);
    expect(await onPage(`/instructor/group/${w.group.slug}/lectures`, w.teacher, students, STAFF_LIST)).toEqual(students);
    // A lecture added after a reorder goes to the end of the staff's order, even with an earlier date.
    const added = await newLecture(w.teacher, w.group.slug, { title: "Added (Dec 1)", published: true, startsAt: "2026-12-01T16:00:00.000Z" });
    expect(added.order).toBe(6);
    expect(await titles(`/api/lectures/group/${w.group.slug}`, w.student)).toEqual([...students, "Added (Dec 1)"]);

    // "Sort by date" on the staff's lecture list: a student cannot, the group's instructor can.
    const form = (intent: string) => {
      const f = new FormData();
      f.set("intent", intent);
      return f;
    };
    const page = `/instructor/group/${w.group.slug}/lectures?index`;
    expect((await call(page, { method: "POST", form: form("order-by-date"), cookie: w.student.cookie })).status).toBeGreaterThanOrEqual(400);
    expect(await titles(`/api/lectures/group/${w.group.slug}`, w.student)).toEqual([...students, "Added (Dec 1)"]);
    const sorted = await call(page, { method: "POST", form: form("order-by-date"), cookie: w.teacher.cookie });
    expect(sorted.status).toBe(200);
    expect(await titles(`/api/lectures/group/${w.group.slug}`, w.student)).toEqual(["Added (Dec 1)", ...BY_DATE]);
  });
});

describe("lectures created at the same moment", () => {
  // Two requests finding the same slugs free, one inserting first (a lone lecture races the same way; this one loses
  // every time here, since both series read the same numbering): the other finds fresh slugs and lands whole.
  it("two series of one title created at once both land whole, each lecture with its own address", async () => {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const group = await createGroup({ instructorId: teacher.user.id });
    const body = { title: "Session", days: [1, 3], time: "10:00", from: "2027-02-01", count: 10, timeZone: "Africa/Cairo" };
    const answers = await Promise.all([0, 1].map(() => call(`/api/lectures/group/${group.slug}/schedule`, { body, token: teacher.accessToken })));
    expect(answers.map((r) => r.status)).toEqual([201, 201]);
    const rows = await db().select({ slug: s.lectures.slug }).from(s.lectures).where(eq(s.lectures.groupId, group.id));
    expect(rows).toHaveLength(20);
    expect(new Set(rows.map((r) => r.slug)).size).toBe(20);
  });
});

describe("the weekly series", () => {
  it("lists the chosen weekdays from the first day, N of them or up to a date", () => {
    // 2026-12-01 is a Tuesday; Sunday = 0, Tuesday = 2, Thursday = 4.
    expect(seriesDays({ days: [2, 4], from: "2026-12-01", count: 4 })).toEqual(["2026-12-01", "2026-12-03", "2026-12-08", "2026-12-10"]);
    expect(seriesDays({ days: [0], from: "2026-12-01", until: "2026-12-20" })).toEqual(["2026-12-06", "2026-12-13", "2026-12-20"]);
  });

  it("turns a local time into the right instant, across the zone's offset", () => {
    expect(new Date(zonedTime("2026-12-01", "18:00", "Africa/Cairo")).toISOString()).toBe("2026-12-01T16:00:00.000Z");
    expect(new Date(zonedTime("2026-07-01", "18:00", "Asia/Riyadh")).toISOString()).toBe("2026-07-01T15:00:00.000Z");
    expect(new Date(zonedTime("2026-07-01", "09:30", "America/New_York")).toISOString()).toBe("2026-07-01T13:30:00.000Z");
  });

  it("creates the whole series in one request, numbered after the existing lectures", async () => {
    const w = await world();
    await newLecture(w.teacher, w.group.slug, { title: "Kick-off" });
    const res = await call(`/api/lectures/group/${w.group.slug}/schedule`, {
      body: { title: "Session", days: [0, 3], time: "19:00", timeZone: "Africa/Cairo", from: "2026-12-06", count: 4, published: true },
      token: w.teacher.accessToken,
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { title: string; startsAt: string; order: number; published: boolean }[];
    expect(created.map((l) => [l.title, l.startsAt, l.order])).toEqual([
      ["Session 2", "2026-12-06T17:00:00.000Z", 0],
      ["Session 3", "2026-12-09T17:00:00.000Z", 0],
      ["Session 4", "2026-12-13T17:00:00.000Z", 0],
      ["Session 5", "2026-12-16T17:00:00.000Z", 0],
    ]);
    const notes = await db().select().from(s.notifications).where(eq(s.notifications.userId, w.student.user.id));
    expect(notes.map((n) => n.kind)).toEqual(["lectures-scheduled"]);
  });

  it.each([
    [{ days: [], time: "19:00", from: "2026-12-06", count: 2 }, "days"],
    [{ days: [1], time: "25:00", from: "2026-12-06", count: 2 }, "time"],
    [{ days: [1], time: "19:00", from: "2026-12-06" }, "count"],
    [{ days: [1], time: "19:00", from: "2026-12-06", count: 2, until: "2026-12-30" }, "count"],
    [{ days: [1], time: "19:00", from: "2026-12-06", count: 61 }, "count"],
    [{ days: [1], time: "19:00", from: "2026-12-06", count: 2, timeZone: "Mars/Olympus" }, "timeZone"],
  ])("refuses the series %j (400 on %s)", async (body, field) => {
    const w = await world();
    const res = await call(`/api/lectures/group/${w.group.slug}/schedule`, { body: { title: "S", ...body }, token: w.teacher.accessToken });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).fields).toHaveProperty(field);
  });
});

describe("malformed bodies get 400s, never 5xx", () => {
  const BODIES = ["not json", "[]", "null", '"text"', "{", '{"title": {"$gt": ""}}', '{"ids": "x"}', '{"rotateSeconds": "30", "durationMinutes": []}'];

  it("on every lecture and attendance write", async () => {
    const w = await world();
    const lecture = await newLecture(w.teacher, w.group.slug, { title: "Target", published: true });
    const targets: [string, string][] = [
      ["POST", `/api/lectures/group/${w.group.slug}`],
      ["PUT", `/api/lectures/group/${w.group.slug}/order`],
      ["POST", `/api/lectures/group/${w.group.slug}/schedule`],
      ["PUT", `/api/lectures/${lecture._id}`],
      ["POST", `/api/lectures/${lecture._id}/attendance/open`],
      ["POST", "/api/attendance"],
    ];
    for (const [method, path] of targets) {
      for (const body of BODIES) {
        const res = await fetchRaw(method, path, body, w.teacher.accessToken);
        expect(res.status, `${method} ${path} ${body}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${method} ${path} ${body}`).toBeLessThan(500);
      }
    }
    for (const body of BODIES) {
      const res = await fetchRaw("POST", "/api/lectures/attend", body, w.student.accessToken);
      expect(res.status, body).toBe(400);
    }
  });
});

function fetchRaw(method: string, path: string, body: string, token: string) {
  return SELF.fetch(`http://localhost${path}`, { method, headers: { authorization: token, "content-type": "application/json", origin: "http://localhost" }, body });
}
