/**
 * The landings' "needs your attention" list (staffAttention): join requests waiting, work to grade, attendance
 * open now, unread contact messages (admins only) and students who need support, each for the groups the viewer
 * runs; archived groups and other instructors' groups stay out. Checked through the landing pages too.
 */
import { count, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { newId } from "../../worker/services/ids";
import { staffAttention } from "../../worker/services/dashboard";
import type { Viewer } from "../../worker/services/sessions";
import { addMember, call, createGroup, createUser, signIn, type TestUser } from "./factories";
import { db, serviceContext } from "./helpers";

const DAY = 86_400_000;
/** Karim's reasons, worked out in world(). */
const KARIM = [
  { kind: "overall", percent: 13 },
  { kind: "attendance", percent: 25 },
];
const asViewer = (u: TestUser): Viewer => ({ userId: u.id, role: u.role, sessionId: "attention", name: u.name, email: u.email });

async function world() {
  const now = Date.now();
  const teacher = await createUser({ role: "instructor", name: "Attentive Teacher" });
  const other = await createUser({ role: "instructor" });
  const admin = await createUser({ role: "admin" });
  const mine = await createGroup({ instructorId: teacher.id, title: "Mine" });
  const theirs = await createGroup({ instructorId: other.id, title: "Theirs" });
  const archived = await createGroup({ instructorId: teacher.id, status: "archived", title: "Old" });

  // Five held lectures in `mine`; the last one's attendance is open now.
  const lectures = Array.from({ length: 5 }, (_, i) => ({ id: newId(), groupId: mine.id, slug: `a${i}-${mine.slug}`, title: `Week ${i + 1}`, body: "", order: i, startsAt: new Date(now - (5 - i) * DAY), published: true }));
  await db().insert(s.lectures).values(lectures);
  await db().insert(s.attendanceSessions).values({ id: newId(), lectureId: lectures[4]!.id, opensAt: new Date(now - 60_000), closesAt: new Date(now + 3_600_000), createdBy: teacher.id });
  const task = { id: newId(), lectureId: lectures[0]!.id, slug: `at-${mine.slug}`, title: "Essay", body: "", dueAt: new Date(now - DAY), maxScore: 100, allowLate: true };
  await db().insert(s.tasks).values(task);

  // Rania attends every lecture (checked in at the open one too) and hands in (ungraded): 100 %. Karim attended 1
  // of the 4 held (the fifth is open and he has no record: not held for him yet) = 25 %, and missed the essay (0):
  // overall (25 + 0) / 2 = 12.5 → 13. Flagged for both.
  const rania = await createUser({ name: "Rania Present" });
  const karim = await createUser({ name: "Karim Absent" });
  for (const u of [rania, karim]) await addMember(u, mine);
  for (const l of lectures) await db().insert(s.attendance).values({ id: newId(), lectureId: l.id, userId: rania.id, status: "present", method: "code", markedAt: new Date(now) });
  await db().insert(s.attendance).values({ id: newId(), lectureId: lectures[0]!.id, userId: karim.id, status: "present", method: "code", markedAt: new Date(now) });
  await db().insert(s.submissions).values({ id: newId(), taskId: task.id, userId: rania.id, link: "https://github.com/r/essay", submittedAt: new Date(now), score: null });
  // Two requests waiting in `mine`, one in `theirs`, one in the archived group.
  for (const g of [mine, mine, theirs, archived]) await addMember(await createUser(), g, "pending");
  await db().insert(s.contactMessages).values({ id: newId(), name: "Visitor", email: "v@test.example", message: "Hello?" });
  return { teacher, other, admin, mine, theirs, lectures, rania, karim };
}

describe("what needs attention", () => {
  it("an instructor sees their own running groups: requests, work to grade, open attendance and who needs support", async () => {
    const w = await world();
    const { ctx } = serviceContext();
    const a = await staffAttention(ctx, asViewer(w.teacher));
    // The archived group's request and the other instructor's are not theirs to act on.
    expect(a.requests).toEqual({ total: 2, groups: [{ slug: w.mine.slug, title: "Mine", count: 2 }] });
    expect(a.ungraded).toEqual({ total: 1, groups: [{ slug: w.mine.slug, title: "Mine", count: 1 }] });
    // Rania is checked in at the open lecture; Karim is not: 1 of 2.
    expect(a.live).toEqual([{ groupSlug: w.mine.slug, groupTitle: "Mine", lectureSlug: w.lectures[4]!.slug, lectureTitle: "Week 5", checkedIn: 1, members: 2 }]);
    expect(a.unreadMessages).toBeNull();
    expect(a.atRisk).toEqual({ total: 1, groups: [{ slug: w.mine.slug, title: "Mine", count: 1, students: [{ name: "Karim Absent", slug: w.karim.slug, reasons: KARIM }] }] });

    const theirs = await staffAttention(ctx, asViewer(w.other));
    expect(theirs.requests.groups.map((g) => g.slug)).toEqual([w.theirs.slug]);
    expect(theirs.live).toEqual([]);
    expect(theirs.atRisk.total).toBe(0);
  });

  it("an admin sees every running group and the unread contact messages", async () => {
    const w = await world();
    const { ctx } = serviceContext();
    const a = await staffAttention(ctx, asViewer(w.admin));
    const [unread] = await db().select({ n: count() }).from(s.contactMessages).where(isNull(s.contactMessages.readAt));
    expect(a.unreadMessages).toBe(unread!.n);
    expect(a.unreadMessages).toBeGreaterThanOrEqual(1);
    expect(a.requests.groups).toEqual(expect.arrayContaining([{ slug: w.mine.slug, title: "Mine", count: 2 }, { slug: w.theirs.slug, title: "Theirs", count: 1 }]));
    expect(a.atRisk.groups.find((g) => g.slug === w.mine.slug)?.students).toEqual([{ name: "Karim Absent", slug: w.karim.slug, reasons: KARIM }]);
  });

  it("students cannot ask, and the landings show the list with links to where the work is done", async () => {
    const w = await world();
    const { ctx } = serviceContext();
    await expect(staffAttention(ctx, asViewer(w.rania))).rejects.toMatchObject({ status: 403 });

    const res = await call("/instructor", { cookie: (await signIn(w.teacher)).cookie, headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Needs your attention");
    expect(html).toContain(`href="/instructor/group/${w.mine.slug}/lectures/${w.lectures[4]!.slug}/attendance"`);
    expect(html).toContain(`href="/instructor/group/${w.mine.slug}/tasks"`);
    // Each group's card opens its lectures too, beside its students, progress and chat.
    expect(html).toContain(`href="/instructor/group/${w.mine.slug}/lectures"`);
    expect(html).toContain(`href="/instructor/${w.mine.slug}/student/${w.karim.slug}"`);
    // Why, beside the name, in the reader's language.
    expect(html).toContain('data-reason="overall">Overall 13%</li>');
    expect(html).toContain('data-reason="attendance">Attendance 25%</li>');
    const arabic = (await (await call("/instructor", { cookie: `${(await signIn(w.teacher)).cookie}; lang=ar`, headers: { accept: "text/html" } })).text()).replace(/[\u200e\u200f\u061c]/g, ""); // bidi marks around numbers aside
    expect(arabic).toContain('data-reason="attendance">الحضور 25%</li>');
    expect(html).toContain(`href="/instructor/group/${w.mine.slug}/progress"`);
    // The group's link says how many need support in it, then their names (not "Mine: 1: Karim").
    expect(html).toContain(`href="/instructor/group/${w.mine.slug}/progress">\u2068Mine\u2069 (1)</a>: <span class="attention-student">`);

    const admin = await call("/dashboard", { cookie: (await signIn(w.admin)).cookie, headers: { accept: "text/html" } });
    const adminHtml = await admin.text();
    expect(adminHtml).toContain(`href="/dashboard/admin/group/${w.mine.slug}/progress"`);
    expect(adminHtml).toContain(`href="/dashboard/admin/allStudent/student/${w.karim.slug}"`);
    expect(adminHtml).toContain('href="/dashboard/admin/get-all-message-by-admin"');
  });
});
