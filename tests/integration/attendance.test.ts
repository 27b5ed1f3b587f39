/**
 * Live attendance: codes from the server clock (rotation windows with a fixed clock), grace, late, closed and
 * wrong lectures, repeats, manual marks, device flags, QR pending check-ins, and the live frames in the group room.
 */
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { getSettings } from "../../worker/env";
import { codeFor } from "../../worker/services/attendance-codes";
import { attend, getAttendanceState, openAttendance, redeemPendingCheckin, scanCode } from "../../worker/services/attendance";
import { AppError } from "../../worker/http/errors";
import { addMember, call, createGroup, createUser, signIn, type ErrorBody, type SignedIn } from "./factories";
import { db, serviceContext } from "./helpers";
import { connectAs } from "./sockets";
import type { Viewer } from "../../worker/services/sessions";

const settings = () => getSettings(env);

/** Service contexts whose background work (live frames) is awaited after each test. */
const pending: (() => Promise<void>)[] = [];
function context() {
  const { ctx, settle } = serviceContext();
  pending.push(settle);
  return ctx;
}
afterEach(async () => {
  for (const settle of pending.splice(0)) await settle();
});

async function world(students = 2) {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const members: SignedIn[] = [];
  for (let i = 0; i < students; i++) {
    const st = await signIn(await createUser());
    await addMember(st.user, group);
    members.push(st);
  }
  const res = await call(`/api/lectures/group/${group.slug}`, { body: { title: "Live session", published: true }, token: teacher.accessToken });
  const lecture = (await res.json()) as { _id: string; slug: string };
  return { teacher, group, members, lecture };
}

const viewerOf = (who: SignedIn): Viewer => ({ userId: who.user.id, role: who.user.role, sessionId: who.sessionId, name: who.user.name, email: who.user.email });

/** Runs a service call and answers its status (200, or the AppError's). */
async function status<T>(work: Promise<T>): Promise<number> {
  try {
    await work;
    return 200;
  } catch (e) {
    if (e instanceof AppError) return e.status;
    throw e;
  }
}

async function sessionOf(lectureId: string) {
  const [row] = await db().select().from(s.attendanceSessions).where(eq(s.attendanceSessions.lectureId, lectureId));
  return row!;
}

describe("codes from the server clock", () => {
  it("accepts the current and the previous window's code plus 2 s, and refuses older ones as expired", async () => {
    const w = await world(3);
    const ctx = context();
    const t0 = Date.parse("2026-12-01T16:00:00.000Z");
    await openAttendance(ctx, viewerOf(w.teacher), w.lecture._id, { rotateSeconds: 30, lateAfterMinutes: null, durationMinutes: 60 }, t0);
    const session = await sessionOf(w.lecture._id);
    const clock = { sessionId: session.id, opensAt: t0, rotateSeconds: 30 };
    const [c0, c1, c2] = [await codeFor(settings(), clock, 0), await codeFor(settings(), clock, 1), await codeFor(settings(), clock, 2)];
    expect(c0).toMatch(/^\d{6}$/);

    // At 65 s (window 2): window 1 (previous) is fine, window 0 ended 35 s ago (older than one window + 2 s).
    expect(await status(attend(ctx, viewerOf(w.members[0]!), { slugLec: w.lecture.slug, code: c1 }, t0 + 65_000))).toBe(200);
    const expired = attend(ctx, viewerOf(w.members[1]!), { slugLec: w.lecture.slug, code: c0 }, t0 + 65_000);
    await expect(expired).rejects.toMatchObject({ status: 400, message: "That code has expired. Enter the code on the screen now." });
    // At 61.5 s window 0's code is still inside the 2 s margin after the previous window began.
    expect(await status(attend(ctx, viewerOf(w.members[1]!), { slugLec: w.lecture.slug, code: c0 }, t0 + 61_500))).toBe(200);
    expect(await status(attend(ctx, viewerOf(w.members[2]!), { slugLec: w.lecture.slug, code: c2 }, t0 + 60_000))).toBe(200);
  });

  it("a fixed code (rotateSeconds 0) works for the whole session and no longer once it closed", async () => {
    const w = await world(2);
    const ctx = context();
    const t0 = Date.parse("2026-12-01T16:00:00.000Z");
    await openAttendance(ctx, viewerOf(w.teacher), w.lecture._id, { rotateSeconds: 0, lateAfterMinutes: null, durationMinutes: 10 }, t0);
    const session = await sessionOf(w.lecture._id);
    const code = await codeFor(settings(), { sessionId: session.id, opensAt: t0, rotateSeconds: 0 }, 0);
    expect(await status(attend(ctx, viewerOf(w.members[0]!), { slugLec: w.lecture.slug, code }, t0 + 9 * 60_000))).toBe(200);
    await expect(attend(ctx, viewerOf(w.members[1]!), { slugLec: w.lecture.slug, code }, t0 + 10 * 60_000 + 1)).rejects.toMatchObject({
      status: 409,
      message: "Attendance is not open for this lecture right now.",
    });
  });

  it("marks late after lateAfterMinutes, present before", async () => {
    const w = await world(2);
    const ctx = context();
    const t0 = Date.parse("2026-12-01T16:00:00.000Z");
    await openAttendance(ctx, viewerOf(w.teacher), w.lecture._id, { rotateSeconds: 0, lateAfterMinutes: 10, durationMinutes: 60 }, t0);
    const session = await sessionOf(w.lecture._id);
    const code = await codeFor(settings(), { sessionId: session.id, opensAt: t0, rotateSeconds: 0 }, 0);
    expect(await attend(ctx, viewerOf(w.members[0]!), { slugLec: w.lecture.slug, code }, t0 + 10 * 60_000)).toMatchObject({ status: "present" });
    expect(await attend(ctx, viewerOf(w.members[1]!), { slugLec: w.lecture.slug, code }, t0 + 10 * 60_000 + 1000)).toMatchObject({ status: "late" });
  });
});

describe("POST /api/lectures/attend", () => {
  async function openNow(w: Awaited<ReturnType<typeof world>>, body: Record<string, unknown> = { rotateSeconds: 0, durationMinutes: 30 }) {
    const res = await call(`/api/lectures/${w.lecture.slug}/attendance/open`, { body, token: w.teacher.accessToken });
    expect(res.status).toBe(200);
    return (await res.json()) as { session: { code: string; open: boolean; rotateSeconds: number; nextCodeAt: string | null }; counts: { members: number } };
  }

  it("checks a student in, answers the same record on a repeat, and refuses a wrong code with its message", async () => {
    const w = await world(1);
    const state = await openNow(w);
    expect(state.session.code).toMatch(/^\d{6}$/);
    expect(state.counts.members).toBe(1);
    const first = await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code: state.session.code }, token: w.members[0]!.accessToken });
    expect(first.status).toBe(200);
    const record = (await first.json()) as { status: string; markedAt: string };
    expect(record.status).toBe("present");
    const again = await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code: state.session.code }, token: w.members[0]!.accessToken });
    expect(await again.json()).toEqual(record);
    const wrongCode = String((Number(state.session.code) + 1) % 1_000_000).padStart(6, "0");
    const wrong = await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code: wrongCode }, token: w.members[0]!.accessToken });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as ErrorBody).message).toBe("That code is not right. Check the code on the screen and try again.");
    const rows = await db().select().from(s.attendance).where(eq(s.attendance.lectureId, w.lecture._id));
    expect(rows).toHaveLength(1);
  });

  it("tells a student their instructor marked them absent when a right code changes nothing (409), and the page says so without the form", async () => {
    const w = await world(2);
    const state = await openNow(w);
    const [marked, other] = w.members;
    expect((await call("/api/attendance", { body: { lectureId: w.lecture._id, userId: marked!.user.id, status: "absent" }, token: w.teacher.accessToken })).status).toBe(200);
    const refused = await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code: state.session.code }, token: marked!.accessToken });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ code: "marked_absent", message: "Your instructor marked you absent for this lecture, and a code does not change their mark. Ask them if it is a mistake." });
    const [row] = await db().select().from(s.attendance).where(and(eq(s.attendance.lectureId, w.lecture._id), eq(s.attendance.userId, marked!.user.id)));
    expect(row).toMatchObject({ status: "absent", method: "manual" });
    // Their lecture page, in both languages: the note, and no code box.
    const page = `/course/${w.group.slug}/lecture/${w.lecture.slug}`;
    for (const [lang, note] of [["en", "Your instructor marked you absent for this lecture. If that is a mistake, ask them: they can change it."], ["ar", "سجّلك المدرّب غائبًا عن هذه المحاضرة. إن كان ذلك خطأً فاسأله: يستطيع تغييره."]] as const) {
      const html = await (await call(page, { cookie: `${marked!.cookie}; lang=${lang}`, headers: { accept: "text/html" } })).text();
      expect(html).toContain(note);
      expect(html).not.toContain('id="checkin-code"');
    }
    // Anyone else checks in as usual; staff marking them excused or present is a mark that stands.
    expect((await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code: state.session.code }, token: other!.accessToken })).status).toBe(200);
    expect(await (await call(page, { cookie: other!.cookie, headers: { accept: "text/html" } })).text()).not.toContain("Your instructor marked you absent");
  });

  it("refuses visitors (401), non-members and staff (403), an unknown lecture (404) and a lecture that is not open (409)", async () => {
    const w = await world(1);
    const state = await openNow(w);
    const body = { slugLec: w.lecture.slug, code: state.session.code };
    expect((await call("/api/lectures/attend", { body })).status).toBe(401);
    const outsider = await signIn(await createUser());
    expect((await call("/api/lectures/attend", { body, token: outsider.accessToken })).status).toBe(403);
    expect((await call("/api/lectures/attend", { body, token: w.teacher.accessToken })).status).toBe(403);
    expect((await call("/api/lectures/attend", { body: { ...body, slugLec: "no-such-lecture" }, token: w.members[0]!.accessToken })).status).toBe(404);
    expect((await call(`/api/lectures/${w.lecture.slug}/attendance/close`, { method: "POST", token: w.teacher.accessToken })).status).toBe(200);
    const closed = await call("/api/lectures/attend", { body, token: w.members[0]!.accessToken });
    expect(closed.status).toBe(409);
    expect(((await closed.json()) as ErrorBody).code).toBe("attendance_closed");
  });

  it("does not accept another lecture's code", async () => {
    const w = await world(1);
    const other = (await (await call(`/api/lectures/group/${w.group.slug}`, { body: { title: "Other", published: true }, token: w.teacher.accessToken })).json()) as { slug: string };
    const a = await openNow(w);
    const b = await call(`/api/lectures/${other.slug}/attendance/open`, { body: { rotateSeconds: 0, durationMinutes: 30 }, token: w.teacher.accessToken });
    const bCode = ((await b.json()) as { session: { code: string } }).session.code;
    if (bCode === a.session.code) return; // one in a million: the two sessions drew the same code
    const res = await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code: bCode }, token: w.members[0]!.accessToken });
    expect(res.status).toBe(400);
  });

  it("limits a student to 10 tries a minute", async () => {
    const w = await world(1);
    await openNow(w);
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code: "000000" }, token: w.members[0]!.accessToken })).status);
    expect(statuses.slice(0, 10).every((x) => x === 400 || x === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it.each([{}, { slugLec: "x" }, { slugLec: "x", code: "12345" }, { slugLec: "x", code: "abcdef" }, { slugLec: 5, code: "123456" }])("answers 400 to %j", async (body) => {
    const w = await world(1);
    expect((await call("/api/lectures/attend", { body, token: w.members[0]!.accessToken })).status).toBe(400);
  });

  it.each([{ rotateSeconds: 5, durationMinutes: 30 }, { rotateSeconds: 301, durationMinutes: 30 }, { rotateSeconds: 0 }, { rotateSeconds: 0, durationMinutes: 0 }])(
    "refuses to open attendance with %j",
    async (body) => {
      const w = await world(1);
      expect((await call(`/api/lectures/${w.lecture.slug}/attendance/open`, { body, token: w.teacher.accessToken })).status).toBe(400);
    },
  );
});

describe("the roster", () => {
  it("flags one device checking in for two accounts, marks by hand, and counts present / late / excused / absent of members", async () => {
    const w = await world(4);
    const open = await call(`/api/lectures/${w.lecture.slug}/attendance/open`, { body: { rotateSeconds: 0, durationMinutes: 30 }, token: w.teacher.accessToken });
    const code = ((await open.json()) as { session: { code: string } }).session.code;
    for (const who of [w.members[0]!, w.members[1]!]) {
      expect((await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code, fingerprint: "same-phone" }, token: who.accessToken })).status).toBe(200);
    }
    const mark = await call("/api/attendance", { body: { lectureId: w.lecture._id, userId: w.members[2]!.user.id, status: "excused" }, token: w.teacher.accessToken });
    expect(mark.status).toBe(200);
    expect(await mark.json()).toMatchObject({ status: "excused", method: "manual" });
    const res = await call(`/api/lectures/${w.lecture._id}/attendance`, { token: w.teacher.accessToken });
    const state = (await res.json()) as { counts: Record<string, number>; roster: { user: { _id: string }; status: string | null; flagged: boolean }[] };
    expect(state.counts).toEqual({ present: 2, late: 0, excused: 1, absent: 1, members: 4 });
    const flagged = state.roster.filter((r) => r.flagged).map((r) => r.user._id).sort();
    expect(flagged).toEqual([w.members[0]!.user.id, w.members[1]!.user.id].sort());
    // A non-member cannot be marked; a student cannot mark.
    const outsider = await createUser();
    expect((await call("/api/attendance", { body: { lectureId: w.lecture._id, userId: outsider.id, status: "present" }, token: w.teacher.accessToken })).status).toBe(404);
    expect((await call("/api/attendance", { body: { lectureId: w.lecture._id, userId: w.members[3]!.user.id, status: "present" }, token: w.members[0]!.accessToken })).status).toBe(403);
  });

  it("a student's own status, and the staff's whole state, through get-user-attendance-status-in-group", async () => {
    const w = await world(1);
    const mine = await call(`/api/lectures/${w.lecture.slug}/get-user-attendance-status-in-group`, { token: w.members[0]!.accessToken });
    expect(await mine.json()).toMatchObject({ status: null, attendanceOpen: false });
    const staff = await call(`/api/lectures/${w.lecture.slug}/get-user-attendance-status-in-group`, { token: w.teacher.accessToken });
    expect(await staff.json()).toMatchObject({ session: null, counts: { members: 1 } });
  });
});

describe("marks by hand count only for lectures that took place", () => {
  it("refuses a mark on a draft lecture, and all but 'excused' on one that has not started yet; progress is unchanged", async () => {
    const w = await world(1);
    const student = w.members[0]!;
    const mark = (lectureId: string, status: string) => call("/api/attendance", { body: { lectureId, userId: student.user.id, status }, token: w.teacher.accessToken });
    const progress = async () => ((await (await call(`/api/users/groups/${w.group.slug}/progress`, { token: student.accessToken })).json()) as { lectures: unknown }).lectures;
    const before = await progress();
    const draft = (await (await call(`/api/lectures/group/${w.group.slug}`, { body: { title: "Not yet shown", published: false }, token: w.teacher.accessToken })).json()) as { _id: string };
    const refusedDraft = await mark(draft._id, "present");
    expect(refusedDraft.status).toBe(409);
    expect(await refusedDraft.json()).toEqual({ code: "lecture_draft", message: "Publish the lecture before marking attendance: its students cannot see a draft." });
    const next = (await (await call(`/api/lectures/group/${w.group.slug}`, { body: { title: "Next week", published: true, startsAt: new Date(Date.now() + 7 * 86_400_000).toISOString() }, token: w.teacher.accessToken })).json()) as { _id: string; slug: string };
    for (const status of ["present", "late", "absent"]) {
      const refused = await mark(next._id, status);
      expect(refused.status, status).toBe(409);
      expect(((await refused.json()) as ErrorBody).code).toBe("lecture_not_held");
    }
    expect((await mark(next._id, "excused")).status).toBe(200);
    expect(await progress()).toEqual(before);
    // Held early: once attendance was opened for it, it took place, and a mark by hand counts.
    expect((await call(`/api/lectures/${next.slug}/attendance/open`, { body: { rotateSeconds: 0, durationMinutes: 30 }, token: w.teacher.accessToken })).status).toBe(200);
    expect((await mark(next._id, "present")).status).toBe(200);
  });
});

describe("live frames", () => {
  it("stores a check-in before the group's staff hear of it, with the new count; students in the room get no marks", async () => {
    const w = await world(2);
    const staffSocket = await connectAs(w.teacher, "group-room", w.group.id);
    const studentSocket = await connectAs(w.members[1]!, "group-room", w.group.id);
    const open = await call(`/api/lectures/${w.lecture.slug}/attendance/open`, { body: { rotateSeconds: 0, durationMinutes: 30 }, token: w.teacher.accessToken });
    const code = ((await open.json()) as { session: { code: string } }).session.code;
    await studentSocket.next("attendance.opened");
    expect((await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code }, token: w.members[0]!.accessToken })).status).toBe(200);
    const frame = await staffSocket.next("attendance.marked");
    expect(frame).toMatchObject({ lectureId: w.lecture._id, record: { user: { _id: w.members[0]!.user.id }, status: "present" }, counts: { present: 1, members: 2 } });
    const [row] = await db().select().from(s.attendance).where(and(eq(s.attendance.lectureId, w.lecture._id), eq(s.attendance.userId, w.members[0]!.user.id)));
    expect(row?.status).toBe("present");
    studentSocket.send({ type: "ping", t: 3 });
    await studentSocket.next("pong");
    expect(studentSocket.of("attendance.marked")).toEqual([]);
  });
});

describe("a QR scanned on a signed-out phone", () => {
  // The scanning browser's cookie value (43 base64url characters), as ensureBrowser mints it.
  const browser = () => `${"b".repeat(21)}${crypto.randomUUID().replace(/-/g, "").slice(0, 22)}`;

  it("is judged at the scan and redeemed after login, dated at the scan, within 5 minutes", async () => {
    const w = await world(1);
    const ctx = context();
    const t0 = Date.now();
    await openAttendance(ctx, viewerOf(w.teacher), w.lecture._id, { rotateSeconds: 20, lateAfterMinutes: 1, durationMinutes: 30 }, t0);
    const session = await sessionOf(w.lecture._id);
    const code = await codeFor(settings(), { sessionId: session.id, opensAt: t0, rotateSeconds: 20 }, 0);
    const phone = browser();
    const { pendingId } = await scanCode(ctx, w.lecture.slug, code, { browser: phone }, t0 + 5_000);
    // A wrong code is refused at the scan; another browser cannot redeem the pending check-in.
    await expect(scanCode(ctx, w.lecture.slug, "000001" === code ? "000002" : "000001", { browser: phone }, t0 + 5_000)).rejects.toMatchObject({ status: 400 });
    await expect(redeemPendingCheckin(ctx, viewerOf(w.members[0]!), { id: pendingId, browser: browser() })).rejects.toMatchObject({ status: 400 });
    // Someone who is not a member cannot redeem it.
    const outsider = await signIn(await createUser());
    await expect(redeemPendingCheckin(ctx, viewerOf(outsider), { id: pendingId, browser: phone })).rejects.toMatchObject({ status: 403 });
    // Logging in took a while: the code has rotated, the check-in still counts, as present, dated at the scan.
    const result = await redeemPendingCheckin(ctx, viewerOf(w.members[0]!), { id: pendingId, browser: phone });
    expect(result.status).toBe("present");
    expect(result.markedAt).toBe(new Date(t0 + 5_000).toISOString());
  });

  it("expires 5 minutes after the scan", async () => {
    const w = await world(1);
    const ctx = context();
    const opened = Date.now() - 7 * 60_000;
    await openAttendance(ctx, viewerOf(w.teacher), w.lecture._id, { rotateSeconds: 0, lateAfterMinutes: null, durationMinutes: 30 }, opened);
    const session = await sessionOf(w.lecture._id);
    const code = await codeFor(settings(), { sessionId: session.id, opensAt: opened, rotateSeconds: 0 }, 0);
    const phone = browser();
    const fresh = await scanCode(ctx, w.lecture.slug, code, { browser: phone }, Date.now() - 4 * 60_000);
    const stale = await scanCode(ctx, w.lecture.slug, code, { browser: phone }, Date.now() - 5 * 60_000 - 2_000);
    await expect(redeemPendingCheckin(ctx, viewerOf(w.members[0]!), { id: stale.pendingId, browser: phone })).rejects.toMatchObject({ status: 400 });
    expect((await redeemPendingCheckin(ctx, viewerOf(w.members[0]!), { id: fresh.pendingId, browser: phone })).status).toBe("present");
  });
});

describe("opening attendance on a draft lecture (issue 20)", () => {
  it("publishes the lecture (members told once), so the students' check-ins work", async () => {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const group = await createGroup({ instructorId: teacher.user.id });
    const members = [await signIn(await createUser()), await signIn(await createUser())];
    for (const m of members) await addMember(m.user, group);
    const draft = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: "Draft session" }, token: teacher.accessToken })).json()) as { _id: string; slug: string; published: boolean };
    expect(draft.published).toBe(false);
    expect((await call(`/api/lectures/${draft.slug}`, { token: members[0]!.accessToken })).status).toBe(404);

    const open = await call(`/api/lectures/${draft.slug}/attendance/open`, { body: { rotateSeconds: 0, durationMinutes: 30 }, token: teacher.accessToken });
    expect(open.status).toBe(200);
    const code = ((await open.json()) as { session: { code: string } }).session.code;
    const [row] = await db().select().from(s.lectures).where(eq(s.lectures.id, draft._id));
    expect(row!.published).toBe(true);
    const res = await call("/api/lectures/attend", { body: { slugLec: draft.slug, code }, token: members[0]!.accessToken });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe("present");
    // Every member hears of the lecture once, also when attendance is opened again.
    await call(`/api/lectures/${draft.slug}/attendance/open`, { body: { rotateSeconds: 0, durationMinutes: 30 }, token: teacher.accessToken });
    for (const m of members) {
      const notes = await db().select().from(s.notifications).where(eq(s.notifications.userId, m.user.id));
      expect(notes.map((n) => [n.kind, n.link])).toEqual([["lecture-published", `/course/${group.slug}/lecture/${draft.slug}`]]);
    }
  });

  it("the staff screen's form says it will publish a draft, and a published lecture's does not", async () => {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const group = await createGroup({ instructorId: teacher.user.id });
    const draft = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: "Draft" }, token: teacher.accessToken })).json()) as { slug: string };
    const page = (slug: string, lang: "en" | "ar") =>
      call(`/instructor/group/${group.slug}/lectures/${slug}/attendance`, { cookie: `${teacher.cookie}; lang=${lang}`, headers: { accept: "text/html" } }).then((r) => r.text());
    const en = await page(draft.slug, "en");
    // (The page carries the whole dictionary for the browser: look for the markup, not only the words.)
    expect(en).toMatch(/id="att-draft">This lecture is a draft\. Opening attendance publishes it/);
    expect(en).toContain(">Publish and open attendance<");
    const ar = await page(draft.slug, "ar");
    expect(ar).toMatch(/id="att-draft">هذه المحاضرة مسودّة\. فتح الحضور ينشرها/);
    expect(ar).toContain(">انشر المحاضرة وافتح الحضور<");
    await call(`/api/lectures/${draft.slug}`, { method: "PUT", body: { published: true }, token: teacher.accessToken });
    const published = await page(draft.slug, "en");
    expect(published).not.toContain('id="att-draft"');
    expect(published).toContain(">Open attendance<");
  });
});

describe("closing attendance (issue 20)", () => {
  type State = { session: { open: boolean } | null; counts: Record<string, number>; roster: { user: { _id: string }; status: string | null; method: string | null }[] };

  it("marks every member who did not check in absent, leaves the others, and staff can still correct", async () => {
    const w = await world(4);
    const open = await call(`/api/lectures/${w.lecture.slug}/attendance/open`, { body: { rotateSeconds: 0, durationMinutes: 30 }, token: w.teacher.accessToken });
    const code = ((await open.json()) as { session: { code: string } }).session.code;
    const [here, excused, missing, alsoMissing] = w.members as [SignedIn, SignedIn, SignedIn, SignedIn];
    expect((await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code }, token: here.accessToken })).status).toBe(200);
    expect((await call("/api/attendance", { body: { lectureId: w.lecture._id, userId: excused.user.id, status: "excused" }, token: w.teacher.accessToken })).status).toBe(200);

    const closed = await call(`/api/lectures/${w.lecture.slug}/attendance/close`, { method: "POST", token: w.teacher.accessToken });
    expect(closed.status).toBe(200);
    const state = (await closed.json()) as State;
    expect(state.session?.open).toBe(false);
    expect(state.counts).toEqual({ present: 1, late: 0, excused: 1, absent: 2, members: 4 });
    const statusOf = (who: SignedIn) => state.roster.find((r) => r.user._id === who.user.id)?.status;
    expect([statusOf(here), statusOf(excused), statusOf(missing), statusOf(alsoMissing)]).toEqual(["present", "excused", "absent", "absent"]);
    // Stored, not only shown: no "Not yet" (no record) is left for a member.
    const rows = await db().select().from(s.attendance).where(eq(s.attendance.lectureId, w.lecture._id));
    expect(rows).toHaveLength(4);
    expect(rows.find((r) => r.userId === missing.user.id)).toMatchObject({ status: "absent", method: "code", markedBy: null });
    expect(rows.find((r) => r.userId === excused.user.id)).toMatchObject({ status: "excused", method: "manual" });
    // The student sees it too.
    const own = await call(`/api/lectures/${w.lecture.slug}/get-user-attendance-status-in-group`, { token: missing.accessToken });
    expect(await own.json()).toMatchObject({ status: "absent", attendanceOpen: false });

    // Staff correct one by hand; a student who was only marked absent by the close can check in if attendance opens again.
    const fix = await call("/api/attendance", { body: { lectureId: w.lecture._id, userId: missing.user.id, status: "late" }, token: w.teacher.accessToken });
    expect(await fix.json()).toMatchObject({ status: "late", method: "manual" });
    const again = await call(`/api/lectures/${w.lecture.slug}/attendance/open`, { body: { rotateSeconds: 0, durationMinutes: 30 }, token: w.teacher.accessToken });
    const code2 = ((await again.json()) as { session: { code: string } }).session.code;
    expect(await (await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code: code2 }, token: alsoMissing.accessToken })).json()).toMatchObject({ status: "present" });
  });

  it("closing when nothing is open answers 409 and marks nobody", async () => {
    const w = await world(2);
    const res = await call(`/api/lectures/${w.lecture.slug}/attendance/close`, { method: "POST", token: w.teacher.accessToken });
    expect(res.status).toBe(409);
    expect(await db().select().from(s.attendance).where(eq(s.attendance.lectureId, w.lecture._id))).toEqual([]);
  });

  it("a session that ran out by itself settles the same way, for those who were members by then", async () => {
    const w = await world(2);
    const ctx = context();
    const now = Date.now();
    // Both members joined an hour ago; the session opened 3 minutes ago for 1 minute.
    await db().update(s.memberships).set({ createdAt: new Date(now - 3_600_000) }).where(eq(s.memberships.groupId, w.group.id));
    await openAttendance(ctx, viewerOf(w.teacher), w.lecture._id, { rotateSeconds: 0, lateAfterMinutes: null, durationMinutes: 1 }, now - 180_000);
    const late = await signIn(await createUser());
    await addMember(late.user, w.group);
    const state = await getAttendanceState(ctx, viewerOf(w.teacher), w.lecture._id, now);
    expect(state.session?.open).toBe(false);
    const statusOf = (who: SignedIn) => state.roster.find((r) => r.user._id === who.user.id)?.status;
    expect([statusOf(w.members[0]!), statusOf(w.members[1]!), statusOf(late)]).toEqual(["absent", "absent", null]);
    expect(state.counts).toEqual({ present: 0, late: 0, excused: 0, absent: 3, members: 3 });
  });

  it("the staff screen says Closed, not Live, once attendance is closed (both languages)", async () => {
    const w = await world(1);
    const page = (lang: "en" | "ar") =>
      call(`/instructor/group/${w.group.slug}/lectures/${w.lecture.slug}/attendance`, { cookie: `${w.teacher.cookie}; lang=${lang}`, headers: { accept: "text/html" } }).then((r) => r.text());
    await call(`/api/lectures/${w.lecture.slug}/attendance/open`, { body: { rotateSeconds: 0, durationMinutes: 30 }, token: w.teacher.accessToken });
    expect(await page("en")).toContain(">Live attendance<");
    await call(`/api/lectures/${w.lecture.slug}/attendance/close`, { method: "POST", token: w.teacher.accessToken });
    const en = await page("en");
    expect(en).not.toContain(">Live attendance<");
    expect(en).not.toContain('class="live-indicator"');
    expect(en).toMatch(/data-session="closed"[^>]*>Closed</);
    const ar = await page("ar");
    expect(ar).not.toContain(">الحضور المباشر<");
    expect(ar).toMatch(/data-session="closed"[^>]*>مُغلق</);
  });
});
