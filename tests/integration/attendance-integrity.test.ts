/**
 * Attendance integrity (issue "2. Attendance", ADR 0018), replayed through the real Worker as the hostile student
 * did it:
 * - the QR route answered unlimited guesses: every way a code is tried now shares one set of limits (10 tries a minute
 *   per account, 10 wrong codes a minute per address from signed-out scans and 50 from members, 100 wrong codes a minute
 *   per lecture from its members and 100 from signed-out scans, so strangers cannot lock a class out), refused with a 429 page in
 *   the reader's language or a 429 JSON error, both with Retry-After;
 * - a signed-out scan's pending check-in was a bearer link: it now belongs to the scanning browser's cookie, works once,
 *   only while that attendance session is open, and never over a staff mark;
 * - shared devices were judged on the fingerprint the client sends: one browser or one address checking in for
 *   several students is flagged too, with the reason, in the roster's data and on the staff screen (both languages).
 * The numbers are the literal rules, not the code's constants.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { addMember, call, createGroup, createUser, signIn, type ErrorBody, type SignedIn } from "./factories";
import { db, randomIp } from "./helpers";
import { connectAs } from "./sockets";

const BROWSER_COOKIE = "cohort_browser";

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
type World = Awaited<ReturnType<typeof world>>;

async function openNow(w: World, lecture = w.lecture, body: Record<string, unknown> = { rotateSeconds: 0, durationMinutes: 30 }): Promise<string> {
  const res = await call(`/api/lectures/${lecture.slug}/attendance/open`, { body, token: w.teacher.accessToken });
  expect(res.status).toBe(200);
  return ((await res.json()) as { session: { code: string } }).session.code;
}

const wrongOf = (code: string, n = 1) => String((Number(code) + n) % 1_000_000).padStart(6, "0");

/** A phone opening the QR link (or the login's way back), as a browser: GET, HTML, its cookies. */
function open(path: string, opts: { ip?: string; cookie?: string } = {}) {
  return call(path, { ip: opts.ip, cookie: opts.cookie, headers: { accept: "text/html" } });
}

const cookies = (...parts: (string | null | undefined)[]) => parts.filter(Boolean).join("; ");

/** A signed-out scan: the login redirect, the way back it carries, and the browser cookie the scan set. */
async function scanSignedOut(w: World, code: string, opts: { ip?: string; browser?: string } = {}) {
  const res = await open(`/attend/${w.lecture.slug}?code=${code}`, { ip: opts.ip, cookie: opts.browser });
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get("location")!, "http://localhost");
  expect(location.pathname).toBe("/auth/login");
  const back = location.searchParams.get("redirectTo")!;
  expect(back).toMatch(new RegExp(`^/attend/${w.lecture.slug}\\?pending=`));
  const set = res.headers.getSetCookie().find((c) => c.startsWith(`${BROWSER_COOKIE}=`));
  const browser = opts.browser ?? (set ? set.split(";")[0]! : null);
  return { back, browser, setCookie: set ?? null };
}

async function recordOf(lectureId: string, userId: string) {
  const [row] = await db().select().from(s.attendance).where(and(eq(s.attendance.lectureId, lectureId), eq(s.attendance.userId, userId)));
  return row ?? null;
}

function expectRetryAfter(res: Response) {
  const retry = Number(res.headers.get("retry-after"));
  expect(Number.isInteger(retry)).toBe(true);
  expect(retry).toBeGreaterThanOrEqual(1);
  expect(retry).toBeLessThanOrEqual(60);
}

async function expectLimitedJson(res: Response) {
  expect(res.status).toBe(429);
  expectRetryAfter(res);
  const body = (await res.json()) as ErrorBody;
  expect(body.code).toBe("rate_limited");
  expect(body.message).toMatch(/too many/i);
}

describe("the QR route is limited like every other way a code is tried", () => {
  it("tells a scan page without a code that it carries none, and one with a malformed code that it is not valid", async () => {
    const w = await world(1);
    await openNow(w);
    const none = await open(`/attend/${w.lecture.slug}`, { cookie: w.members[0]!.cookie });
    expect(none.status).toBe(400);
    const noneHtml = await none.text();
    expect(noneHtml).toContain("This address carries no check-in code.");
    expect(noneHtml).not.toContain("not valid any more");
    const short = await (await open(`/attend/${w.lecture.slug}?code=12`, { cookie: w.members[0]!.cookie })).text();
    expect(short).toContain("This check-in code is not valid any more.");
  });

  it("per address: 10 wrong codes a minute from one address, then a 429 page with Retry-After in the reader's language", async () => {
    const w = await world(1);
    const code = await openNow(w);
    const ip = randomIp();
    for (let i = 1; i <= 10; i++) {
      const res = await open(`/attend/${w.lecture.slug}?code=${wrongOf(code, i)}`, { ip });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("We could not check you in");
    }
    const limited = await open(`/attend/${w.lecture.slug}?code=${wrongOf(code, 11)}`, { ip });
    expect(limited.status).toBe(429);
    expectRetryAfter(limited);
    const html = await limited.text();
    expect(html).toContain("Too many tries");
    expect(html).toMatch(/try again in \d+ s/);
    const arabic = await open(`/attend/${w.lecture.slug}?code=${wrongOf(code, 12)}`, { ip, cookie: "lang=ar" });
    expect(arabic.status).toBe(429);
    expectRetryAfter(arabic);
    const arabicHtml = await arabic.text();
    expect(arabicHtml).toContain('lang="ar"');
    expect(arabicHtml).toContain("محاولات كثيرة");
    // Even the right code is refused to a signed-out scan from that address now.
    expect((await open(`/attend/${w.lecture.slug}?code=${code}`, { ip })).status).toBe(429);
    // Other addresses are not locked out: the right code from another phone goes on to the login.
    expect((await open(`/attend/${w.lecture.slug}?code=${code}`)).status).toBe(302);
    // Nor are the members behind the same address (a classroom's Wi-Fi): signed in, they check in, by the API and by a scan.
    expect((await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code }, token: w.members[0]!.accessToken, ip })).status).toBe(200);
    expect(await recordOf(w.lecture._id, w.members[0]!.user.id)).not.toBeNull();
  });

  it("per address, for members: four classmates guessing to their own limits do not lock out the others behind one address; the fifth's guesses do", async () => {
    const w = await world(7);
    const code = await openNow(w);
    const ip = randomIp();
    const attendFrom = (st: SignedIn, c: string) => call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code: c }, token: st.accessToken, ip });
    // Four members, ten wrong codes each (their own limit): 40 wrong codes from the address.
    for (const st of w.members.slice(0, 4)) for (let i = 1; i <= 10; i++) expect((await attendFrom(st, wrongOf(code, i))).status).toBe(400);
    expect((await attendFrom(w.members[4]!, code)).status).toBe(200);
    // A fifth guesser makes 50 wrong codes from that address in a minute: now every try from it waits.
    for (let i = 1; i <= 10; i++) expect((await attendFrom(w.members[5]!, wrongOf(code, i))).status).toBe(400);
    await expectLimitedJson(await attendFrom(w.members[6]!, code));
    expect(await recordOf(w.lecture._id, w.members[6]!.user.id)).toBeNull();
  });

  it("per account: a signed-in student gets 10 tries a minute from any addresses, then 429 on the page and the API", async () => {
    const w = await world(1);
    const code = await openNow(w);
    const student = w.members[0]!;
    for (let i = 1; i <= 10; i++) {
      const res = await open(`/attend/${w.lecture.slug}?code=${wrongOf(code, i)}`, { cookie: student.cookie });
      expect(res.status).toBe(400);
    }
    const limited = await open(`/attend/${w.lecture.slug}?code=${code}`, { cookie: student.cookie });
    expect(limited.status).toBe(429);
    expectRetryAfter(limited);
    expect(await limited.text()).toContain("Too many tries");
    await expectLimitedJson(await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code }, token: student.accessToken }));
    expect(await recordOf(w.lecture._id, student.user.id)).toBeNull();
  });

  it("per lecture: 100 wrong signed-out scans a minute from 100 addresses, then scans are a 429, but the members still check in", async () => {
    const w = await world(1);
    const code = await openNow(w);
    const statuses: number[] = [];
    for (let i = 1; i <= 100; i++) statuses.push((await open(`/attend/${w.lecture.slug}?code=${wrongOf(code, i)}`, { ip: randomIp() })).status);
    expect(statuses.every((x) => x === 400)).toBe(true);
    const limited = await open(`/attend/${w.lecture.slug}?code=${wrongOf(code, 101)}`, { ip: randomIp() });
    expect(limited.status).toBe(429);
    expectRetryAfter(limited);
    expect((await open(`/attend/${w.lecture.slug}?code=${code}`, { ip: randomIp() })).status).toBe(429);
    // Strangers' scans cannot lock the class out: a member with the right code checks in.
    const member = await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code }, token: w.members[0]!.accessToken, ip: randomIp() });
    expect(member.status).toBe(200);
    expect(await recordOf(w.lecture._id, w.members[0]!.user.id)).not.toBeNull();
  });

  it("per lecture: 100 wrong codes a minute from the members, then every member's try on that lecture is a 429 (others are not)", async () => {
    const w = await world(11);
    const code = await openNow(w);
    // Ten members, ten wrong codes each (their own limit), each from an address of their own.
    for (const st of w.members.slice(0, 10)) {
      const ip = randomIp();
      for (let i = 1; i <= 10; i++) expect((await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code: wrongOf(code, i) }, token: st.accessToken, ip })).status).toBe(400);
    }
    const last = w.members[10]!;
    await expectLimitedJson(await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code }, token: last.accessToken, ip: randomIp() }));
    expect(await recordOf(w.lecture._id, last.user.id)).toBeNull();
    // Another lecture of the same group is not affected.
    const other = (await (await call(`/api/lectures/group/${w.group.slug}`, { body: { title: "Other", published: true }, token: w.teacher.accessToken })).json()) as {
      _id: string;
      slug: string;
    };
    const otherCode = await openNow(w, other);
    const res = await call("/api/lectures/attend", { body: { slugLec: other.slug, code: otherCode }, token: last.accessToken });
    expect(res.status).toBe(200);
  });

  it("right codes do not use up the address: a class behind one address checks in", async () => {
    const w = await world(12);
    const code = await openNow(w);
    const ip = randomIp();
    for (const st of w.members) {
      expect((await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code }, token: st.accessToken, ip })).status).toBe(200);
    }
  });
});

describe("a signed-out scan's pending check-in", () => {
  it("is bound to the scanning browser by an HttpOnly cookie, and stored only as a hash", async () => {
    const w = await world(1);
    const code = await openNow(w);
    const scan = await scanSignedOut(w, code);
    expect(scan.setCookie).toMatch(/HttpOnly/i);
    expect(scan.setCookie).toMatch(/SameSite=Lax/i);
    const value = scan.browser!.split("=")[1]!;
    const pendingId = new URL(scan.back, "http://localhost").searchParams.get("pending")!;
    expect(scan.back).not.toContain(value);
    const [row] = await db().select().from(s.attendancePendingCheckins).where(eq(s.attendancePendingCheckins.id, pendingId));
    expect(row).toBeDefined();
    expect(JSON.stringify(row)).not.toContain(value);
    expect(JSON.stringify(row)).not.toContain(code);
  });

  it("does not work from another browser (the link without the scanning browser's cookie)", async () => {
    const w = await world(2);
    const code = await openNow(w);
    const scan = await scanSignedOut(w, code);
    const [a, b] = w.members as [SignedIn, SignedIn];
    // The link alone, and the link with another browser's cookie: refused, nothing stored.
    const bare = await open(scan.back, { cookie: b.cookie });
    expect(bare.status).toBe(400);
    expect(await bare.text()).toContain("We could not check you in");
    const other = await scanSignedOut(w, code);
    expect((await open(scan.back, { cookie: cookies(b.cookie, other.browser) })).status).toBe(400);
    expect(await recordOf(w.lecture._id, b.user.id)).toBeNull();
    // The scanning browser redeems it for whoever signed in there.
    const mine = await open(scan.back, { cookie: cookies(a.cookie, scan.browser) });
    expect(mine.status).toBe(302);
    expect(mine.headers.get("location")).toBe(`/course/${w.group.slug}/lecture/${w.lecture.slug}?checkedIn=1`);
    expect((await recordOf(w.lecture._id, a.user.id))?.status).toBe("present");
  });

  it("is single-use: a second student (even in the scanning browser) and a repeat are refused", async () => {
    const w = await world(3);
    const code = await openNow(w);
    const scan = await scanSignedOut(w, code);
    const [a, b, c] = w.members as [SignedIn, SignedIn, SignedIn];
    expect((await open(scan.back, { cookie: cookies(a.cookie, scan.browser) })).status).toBe(302);
    const second = await open(scan.back, { cookie: cookies(b.cookie, scan.browser) });
    expect(second.status).toBe(409);
    expect(await second.text()).toContain("already been used");
    const arabic = await open(scan.back, { cookie: cookies(c.cookie, scan.browser, "lang=ar") });
    expect(arabic.status).toBe(409);
    expect(await arabic.text()).toContain("استُخدم تسجيل الحضور هذا من قبل");
    expect((await open(scan.back, { cookie: cookies(a.cookie, scan.browser) })).status).toBe(409);
    expect(await recordOf(w.lecture._id, b.user.id)).toBeNull();
    expect(await recordOf(w.lecture._id, c.user.id)).toBeNull();
    const [row] = await db().select().from(s.attendancePendingCheckins).where(eq(s.attendancePendingCheckins.usedBy, a.user.id));
    expect(row?.usedAt).toBeInstanceOf(Date);
  });

  it("is not redeemed once that attendance session has closed, even when attendance is opened again", async () => {
    const w = await world(2);
    const code = await openNow(w);
    const first = await scanSignedOut(w, code);
    const second = await scanSignedOut(w, code);
    expect((await call(`/api/lectures/${w.lecture.slug}/attendance/close`, { method: "POST", token: w.teacher.accessToken })).status).toBe(200);
    const closed = await open(first.back, { cookie: cookies(w.members[0]!.cookie, first.browser) });
    expect(closed.status).toBe(409);
    expect(await closed.text()).toContain("Attendance is not open for this lecture right now.");
    await openNow(w);
    expect((await open(second.back, { cookie: cookies(w.members[1]!.cookie, second.browser) })).status).toBe(409);
    // Neither was checked in: both stay as the close left them (absent, issue 20).
    expect((await recordOf(w.lecture._id, w.members[0]!.user.id))?.status).toBe("absent");
    expect((await recordOf(w.lecture._id, w.members[1]!.user.id))?.status).toBe("absent");
  });

  it.each(["absent", "excused", "late", "present"] as const)("never overrides a staff mark (%s stands)", async (status) => {
    const w = await world(1);
    const code = await openNow(w);
    const scan = await scanSignedOut(w, code);
    const student = w.members[0]!;
    const mark = await call("/api/attendance", { body: { lectureId: w.lecture._id, userId: student.user.id, status }, token: w.teacher.accessToken });
    expect(mark.status).toBe(200);
    const res = await open(scan.back, { cookie: cookies(student.cookie, scan.browser) });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).not.toContain("checkedIn=1");
    const row = await recordOf(w.lecture._id, student.user.id);
    expect(row).toMatchObject({ status, method: "manual", markedBy: w.teacher.user.id });
  });

  it("a typed check-in does not override a staff 'absent' either", async () => {
    const w = await world(1);
    const code = await openNow(w);
    const student = w.members[0]!;
    await call("/api/attendance", { body: { lectureId: w.lecture._id, userId: student.user.id, status: "absent" }, token: w.teacher.accessToken });
    const res = await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code }, token: student.accessToken });
    // Said, not silently answered: the mark stands and the student is told why (409 marked_absent).
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: "marked_absent" });
    expect(await recordOf(w.lecture._id, student.user.id)).toMatchObject({ status: "absent", method: "manual" });
  });
});

interface RosterRecord {
  user: { _id: string };
  status: string | null;
  flagged: boolean;
  flags: string[];
}
async function rosterOf(w: World): Promise<Map<string, RosterRecord>> {
  const res = await call(`/api/lectures/${w.lecture._id}/attendance`, { token: w.teacher.accessToken });
  expect(res.status).toBe(200);
  const state = (await res.json()) as { roster: RosterRecord[] };
  return new Map(state.roster.map((r) => [r.user._id, r]));
}

describe("shared-device flags by browser and by address", () => {
  it("flags one browser checking in for several students (signing out and in between scans), with the reason", async () => {
    const w = await world(3);
    const code = await openNow(w);
    const [a, b, c] = w.members as [SignedIn, SignedIn, SignedIn];
    // One phone: scan, sign in as A, redeem; scan again, sign in as B, redeem. Each request from another address.
    const first = await scanSignedOut(w, code);
    expect((await open(first.back, { cookie: cookies(a.cookie, first.browser) })).status).toBe(302);
    const again = await scanSignedOut(w, code, { browser: first.browser! });
    expect((await open(again.back, { cookie: cookies(b.cookie, first.browser) })).status).toBe(302);
    // C checks in from their own browser.
    expect((await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code }, token: c.accessToken })).status).toBe(200);
    const roster = await rosterOf(w);
    // Redeemed from another address than each scan's, they are also 'elsewhere' (the address flag cannot tell them apart).
    expect(roster.get(a.user.id)).toMatchObject({ status: "present", flagged: true, flags: ["elsewhere", "browser"] });
    expect(roster.get(b.user.id)).toMatchObject({ status: "present", flagged: true, flags: ["elsewhere", "browser"] });
    expect(roster.get(c.user.id)).toMatchObject({ status: "present", flagged: false, flags: [] });
    // The browser cookie is stored only as a keyed hash.
    const value = first.browser!.split("=")[1]!;
    expect((await recordOf(w.lecture._id, a.user.id))?.browser).not.toContain(value);
  });

  it("flags the same browser through the API and the QR route for signed-in students", async () => {
    const w = await world(2);
    const code = await openNow(w);
    const [a, b] = w.members as [SignedIn, SignedIn];
    const phone = `${BROWSER_COOKIE}=${"p".repeat(43)}`;
    expect((await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code }, token: a.accessToken, cookie: phone })).status).toBe(200);
    expect((await open(`/attend/${w.lecture.slug}?code=${code}`, { cookie: cookies(b.cookie, phone) })).status).toBe(302);
    const roster = await rosterOf(w);
    expect(roster.get(a.user.id)?.flags).toEqual(["browser"]);
    expect(roster.get(b.user.id)?.flags).toEqual(["browser"]);
  });

  it("flags several check-ins from one address within 2 minutes, with the reason, on the staff screen in English and Arabic", async () => {
    const w = await world(3);
    const code = await openNow(w);
    const [a, b, c] = w.members as [SignedIn, SignedIn, SignedIn];
    const ip = randomIp();
    const screen = `/instructor/group/${w.group.slug}/lectures/${w.lecture.slug}/attendance`;
    expect(await (await open(screen, { cookie: cookies(w.teacher.cookie, "lang=en") })).text()).not.toContain("flag-legend");
    // No cookies, no fingerprint: a script checking in two accounts from one machine.
    for (const who of [a, b]) expect((await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code }, token: who.accessToken, ip })).status).toBe(200);
    expect((await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code }, token: c.accessToken })).status).toBe(200);
    const roster = await rosterOf(w);
    expect(roster.get(a.user.id)).toMatchObject({ flagged: true, flags: ["address"] });
    expect(roster.get(b.user.id)).toMatchObject({ flagged: true, flags: ["address"] });
    expect(roster.get(c.user.id)).toMatchObject({ flagged: false, flags: [] });
    expect((await recordOf(w.lecture._id, a.user.id))?.address).not.toContain(ip);

    const en = await open(screen, { cookie: cookies(w.teacher.cookie, "lang=en") });
    expect(en.status).toBe(200);
    const enHtml = await en.text();
    expect(enHtml.match(/data-flag="address"/g)).toHaveLength(2);
    expect(enHtml).toContain("Same network");
    // What the flag means is written under the roster once, for a phone or a keyboard (no tooltip), and only for the
    // flags shown.
    const legend = (html: string) => html.slice(html.indexOf('class="flag-legend"'));
    expect(enHtml).toContain('class="flag-legend"');
    expect(legend(enHtml)).toContain("What the flags mean");
    expect(legend(enHtml)).toContain("Checked in from the same network address as another student within 2 minutes.");
    expect(legend(enHtml)).not.toContain("Shared device");
    expect(enHtml).not.toMatch(/class="flag"[^>]*title=/);
    const ar = await open(screen, { cookie: cookies(w.teacher.cookie, "lang=ar") });
    const arHtml = await ar.text();
    expect(arHtml).toContain("الشبكة نفسها");
    expect(legend(arHtml)).toContain("ما تعنيه العلامات");
    expect(legend(arHtml)).toContain("سُجّل الحضور من عنوان الشبكة نفسه الذي سجّل منه طالب آخر خلال دقيقتين.");
  });

  it("a check-in scanned signed out carries the scan's address wherever it is redeemed: one scanner's check-ins handed to friends at home are flagged", async () => {
    const w = await world(3);
    const code = await openNow(w);
    const [a, b, c] = w.members as [SignedIn, SignedIn, SignedIn];
    const classroom = randomIp();
    // A present student scans twice from the classroom with no cookies (two pending check-ins, two browser cookies)...
    const first = await scanSignedOut(w, code, { ip: classroom });
    const second = await scanSignedOut(w, code, { ip: classroom });
    // ...and hands them to two friends who redeem them from their homes.
    expect((await open(first.back, { ip: randomIp(), cookie: cookies(a.cookie, first.browser) })).status).toBe(302);
    expect((await open(second.back, { ip: randomIp(), cookie: cookies(b.cookie, second.browser) })).status).toBe(302);
    expect((await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code }, token: c.accessToken })).status).toBe(200);
    const roster = await rosterOf(w);
    expect(roster.get(a.user.id)).toMatchObject({ status: "present", flagged: true, flags: ["elsewhere", "address"] });
    expect(roster.get(b.user.id)).toMatchObject({ status: "present", flagged: true, flags: ["elsewhere", "address"] });
    expect(roster.get(c.user.id)).toMatchObject({ flagged: false, flags: [] });
    expect((await recordOf(w.lecture._id, a.user.id))?.address).toBe((await recordOf(w.lecture._id, b.user.id))?.address);
  });

  it("one scan handed on to one friend at home is flagged 'elsewhere', live and in the roster; finished on the scan's network it is not", async () => {
    const w = await world(2);
    const staff = await connectAs(w.teacher, "group-room", w.group.id);
    const code = await openNow(w);
    const [absent, present] = w.members as [SignedIn, SignedIn];
    const classroom = randomIp();
    const handedOn = await scanSignedOut(w, code, { ip: classroom });
    expect((await open(handedOn.back, { ip: randomIp(), cookie: cookies(absent.cookie, handedOn.browser) })).status).toBe(302);
    const frame = await staff.next("attendance.marked", (f) => f.record.user._id === absent.user.id);
    expect(frame.record).toMatchObject({ status: "present", flagged: true, flags: ["elsewhere"] });
    // A student who scans and signs in on the classroom's network is not flagged.
    const mine = await scanSignedOut(w, code, { ip: classroom });
    expect((await open(mine.back, { ip: classroom, cookie: cookies(present.cookie, mine.browser) })).status).toBe(302);
    const own = await staff.next("attendance.marked", (f) => f.record.user._id === present.user.id);
    // Two check-ins from the classroom's address within 2 minutes: the shared network's flag, and nothing more.
    expect(own.record.flags).not.toContain("elsewhere");
    const roster = await rosterOf(w);
    expect(roster.get(absent.user.id)).toMatchObject({ flagged: true, flags: ["elsewhere", "address"] });
    expect(roster.get(present.user.id)?.flags).toEqual(["address"]);
    expect((await recordOf(w.lecture._id, absent.user.id))?.elsewhere).toBe(true);
    expect((await recordOf(w.lecture._id, present.user.id))?.elsewhere).toBe(false);
    // The staff's page says why, in the reader's language.
    const en = await (await call(`/instructor/group/${w.group.slug}/lectures/${w.lecture.slug}/attendance`, { cookie: w.teacher.cookie })).text();
    expect(en).toContain("Scanned elsewhere");
    const ar = await (await call(`/instructor/group/${w.group.slug}/lectures/${w.lecture.slug}/attendance`, { cookie: `${w.teacher.cookie}; lang=ar` })).text();
    expect(ar).toContain("مسح من مكان آخر");
    staff.close();
  });

  it("keeps the fingerprint flag, now with its reason", async () => {
    const w = await world(2);
    const code = await openNow(w);
    for (const who of w.members) {
      expect((await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code, fingerprint: "same-phone" }, token: who.accessToken })).status).toBe(200);
    }
    const roster = await rosterOf(w);
    for (const who of w.members) expect(roster.get(who.user.id)?.flags).toEqual(["device"]);
  });
});
