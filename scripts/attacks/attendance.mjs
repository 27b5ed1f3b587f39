// `npm run attack`, section "2. Attendance": replays the hostile student's attendance attacks against a running local
// server (`npm start`). Loopback only (t.origin); bounded (about 170 requests, no waits). The demo instructor opens
// attendance on three new lectures of the demo student's group; a fresh account joins the group (approved by the
// instructor) to be the second student; everything made is deleted at the end (the lectures with their attendance,
// the fresh account's membership).
//
// Rules replayed (docs/decisions/0018-pending-check-in.md): every way a code is tried is limited per account (10 tries
// a minute), per address (10 wrong codes a minute from signed-out scans, 50 from members: ADR 41) and per lecture (100
// wrong codes a minute), refused with 429 and
// Retry-After (a page in the reader's language, or JSON { message, code }); a signed-out scan's pending check-in
// belongs to the scanning browser's HttpOnly cookie, works once, only while that attendance session is open and
// never over a staff mark; one browser or one address checking in for several students is flagged in the roster.

const INSTRUCTOR = { email: "instructor@example.com", password: "demo-instructor-pass" };
const STUDENT = { email: "student@example.com", password: "demo-student-pass" };

const randomIp = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
const wrongOf = (code, n) => String((Number(code) + n) % 1_000_000).padStart(6, "0");
const cookies = (...parts) => parts.filter(Boolean).join("; ");

export default async function attendance(t) {
  const json = async (res) => ({ status: res.status, body: await res.json().catch(() => null) });
  /** A phone opening a page: GET, HTML, its own address and cookies, redirects not followed. */
  const open = (path, { ip = randomIp(), cookie } = {}) =>
    fetch(`${t.origin}${path}`, { headers: { accept: "text/html", "cf-connecting-ip": ip, ...(cookie ? { cookie } : {}) }, redirect: "manual" });
  const retryAfterOk = (res) => {
    const n = Number(res.headers.get("retry-after"));
    return Number.isInteger(n) && n >= 1 && n <= 60;
  };

  const staff = await t.signIn(INSTRUCTOR);
  const student = await t.signIn(STUDENT);
  const profile = (await json(await t.api("/api/users/profile", { token: student.token }))).body;
  const group = profile?.groups?.find((g) => g.status === "approved" || g.status === "special");
  if (!group) return t.check("attendance: the demo student is a member of a demo group", false, "no approved group in the profile");

  const stamp = Date.now().toString(36);
  const lectures = [];
  const newLecture = async (title) => {
    const res = await json(await t.api(`/api/lectures/group/${group.slug}`, { body: { title: `${title} ${stamp}`, published: true }, token: staff.token }));
    if (res.status !== 201) throw new Error(`the instructor could not add a lecture (${res.status})`);
    lectures.push(res.body);
    return res.body;
  };
  const openAttendance = async (lecture) => {
    const res = await json(await t.api(`/api/lectures/${lecture.slug}/attendance/open`, { body: { rotateSeconds: 0, durationMinutes: 30, lateAfterMinutes: null }, token: staff.token }));
    if (res.status !== 200) throw new Error(`the instructor could not open attendance (${res.status})`);
    return res.body.session.code;
  };
  const statusOf = async (lecture, who) => (await json(await t.api(`/api/lectures/${lecture.slug}/get-user-attendance-status-in-group`, { token: who.token }))).body?.status ?? null;
  /** A signed-out phone scanning the QR: the login redirect's way back, and the browser cookie the scan set. */
  const scan = async (lecture, code, opts = {}) => {
    const res = await open(`/attend/${lecture.slug}?code=${code}`, opts);
    const location = res.headers.get("location") ?? "";
    const back = new URL(location, t.origin).searchParams.get("redirectTo") ?? "";
    const set = res.headers.getSetCookie().find((c) => /^(__Host-)?cohort_browser=/.test(c)) ?? "";
    return { status: res.status, back, setCookie: set, browser: opts.cookie ?? set.split(";")[0] };
  };

  let friend = null;
  try {
    // 1. Guessing through the QR route: per address, per account, per lecture.
    const guessed = await newLecture("Attack replay: guesses");
    const code = await openAttendance(guessed);
    const ip = randomIp();
    const statuses = [];
    for (let i = 1; i <= 11; i++) statuses.push((await open(`/attend/${guessed.slug}?code=${wrongOf(code, i)}`, { ip })).status);
    t.check("attendance: 10 wrong QR codes from one address are answered (400)", statuses.slice(0, 10).every((s) => s === 400), statuses.join(","));
    const limited = await open(`/attend/${guessed.slug}?code=${wrongOf(code, 12)}`, { ip });
    const limitedHtml = await limited.text();
    t.check("attendance: the next QR guess from that address is a 429 page with Retry-After", limited.status === 429 && retryAfterOk(limited) && limitedHtml.includes("Too many tries"), `${limited.status} Retry-After ${limited.headers.get("retry-after")}`);
    const arabic = await open(`/attend/${guessed.slug}?code=${wrongOf(code, 13)}`, { ip, cookie: "lang=ar" });
    t.check("attendance: ... in Arabic for an Arabic reader", arabic.status === 429 && (await arabic.text()).includes("محاولات كثيرة"), String(arabic.status));
    // Signed-out guesses spend only their own lane: a member behind the same address (a classroom's Wi-Fi) still checks in.
    const viaApi = await t.api("/api/lectures/attend", { body: { slugLec: guessed.slug, code }, token: student.token, ip });
    t.check("attendance: a signed-in member from that address still checks in with the right code (ADR 41)", viaApi.status === 200, String(viaApi.status));

    const stranger = await t.signIn(await t.freshAccount());
    const accountStatuses = [];
    for (let i = 1; i <= 11; i++) accountStatuses.push((await open(`/attend/${guessed.slug}?code=${wrongOf(code, 20 + i)}`, { cookie: stranger.cookie })).status);
    const lastAccount = accountStatuses.at(-1);
    t.check("attendance: one account gets 10 QR tries a minute from any addresses, then 429", accountStatuses.slice(0, 10).every((s) => s !== 429) && lastAccount === 429, accountStatuses.join(","));

    const crowd = await newLecture("Attack replay: crowd");
    const crowdCode = await openAttendance(crowd);
    const crowdStatuses = [];
    for (let i = 1; i <= 100; i++) crowdStatuses.push((await open(`/attend/${crowd.slug}?code=${wrongOf(crowdCode, i)}`)).status);
    const crowdLimited = await open(`/attend/${crowd.slug}?code=${crowdCode}`);
    t.check(
      "attendance: 100 wrong QR codes on one lecture from 100 addresses, then every try on it is a 429",
      crowdStatuses.every((s) => s === 400) && crowdLimited.status === 429 && retryAfterOk(crowdLimited),
      `${crowdStatuses.filter((s) => s === 429).length} early 429s, then ${crowdLimited.status}`,
    );

    // 2. The pending check-in of a signed-out scan.
    const live = await newLecture("Attack replay: pending");
    const liveCode = await openAttendance(live);
    const first = await scan(live, liveCode);
    t.check("attendance: a signed-out scan sets an HttpOnly cookie and sends the phone to the login", first.status === 302 && /HttpOnly/i.test(first.setCookie) && first.back.startsWith(`/attend/${live.slug}?pending=`), `${first.status} ${first.setCookie.split(";")[0] ? "cookie" : "no cookie"}`);
    const foreign = await open(first.back, { cookie: student.cookie });
    t.check("attendance: the pending link from another browser (no scanning cookie) is refused", foreign.status === 400 && (await statusOf(live, student)) === null, String(foreign.status));
    const redeemed = await open(first.back, { cookie: cookies(student.cookie, first.browser) });
    t.check("attendance: the scanning browser redeems it", redeemed.status === 302 && (redeemed.headers.get("location") ?? "").includes("checkedIn=1"), `${redeemed.status} ${redeemed.headers.get("location")}`);
    const again = await open(first.back, { cookie: cookies(stranger.cookie, first.browser) });
    t.check("attendance: the pending check-in is single-use (a second account in the same browser: 409)", again.status === 409, String(again.status));

    const marked = await json(await t.api("/api/attendance", { body: { lectureId: live._id, userId: profile._id ?? profile.user?._id, status: "absent" }, token: staff.token }));
    const overStaff = await scan(live, liveCode);
    const overRes = await open(overStaff.back, { cookie: cookies(student.cookie, overStaff.browser) });
    t.check("attendance: a pending check-in does not override the instructor's 'absent'", marked.status === 200 && overRes.status < 500 && (await statusOf(live, student)) === "absent", `${marked.status} → ${overRes.status}, ${await statusOf(live, student)}`);

    const late = await scan(live, liveCode);
    await t.api(`/api/lectures/${live.slug}/attendance/close`, { method: "POST", token: staff.token });
    const afterClose = await open(late.back, { cookie: cookies(student.cookie, late.browser) });
    t.check("attendance: a pending check-in is refused after attendance closed", afterClose.status === 409 && (await statusOf(live, student)) === "absent", String(afterClose.status));

    // 3. Shared-device flags by browser and by address.
    const join = await json(await t.api("/api/users/joinGroupRequest", { body: { groupSlug: group.slug }, token: stranger.token }));
    const approve = join.body?.request?._id ? await json(await t.api(`/api/membership-requests/${join.body.request._id}`, { method: "PUT", body: { decision: "approved" }, token: staff.token })) : { status: join.status };
    if (approve.status !== 200) {
      t.check("attendance: a fresh account joins the demo group for the flag replays", false, `join ${join.status} ${join.body?.code ?? ""}, approve ${approve.status}`);
    } else {
      friend = stranger;
      const flags = await newLecture("Attack replay: flags");
      const flagsCode = await openAttendance(flags);
      // One phone: scan, sign in as the demo student, redeem; scan again, sign in as the friend, redeem.
      const one = await scan(flags, flagsCode);
      await open(one.back, { cookie: cookies(student.cookie, one.browser) });
      const two = await scan(flags, flagsCode, { cookie: one.browser });
      await open(two.back, { cookie: cookies(friend.cookie, one.browser) });
      const roster = (await json(await t.api(`/api/lectures/${flags.slug}/attendance`, { token: staff.token }))).body?.roster ?? [];
      const flagged = roster.filter((r) => r.flags?.includes("browser"));
      t.check("attendance: one browser checking in two students is flagged 'browser' in the roster", flagged.length === 2 && flagged.every((r) => r.flagged), JSON.stringify(roster.map((r) => r.flags)));

      const net = await newLecture("Attack replay: one address");
      const netCode = await openAttendance(net);
      // Two phones (two browsers) on one address, one student each: scanned and redeemed from that address.
      const shared = randomIp();
      for (const who of [student, friend]) {
        const phone = await scan(net, netCode, { ip: shared });
        await open(phone.back, { ip: shared, cookie: cookies(who.cookie, phone.browser) });
      }
      const netRoster = (await json(await t.api(`/api/lectures/${net.slug}/attendance`, { token: staff.token }))).body?.roster ?? [];
      t.check("attendance: two check-ins from one address within 2 minutes are flagged 'address'", netRoster.filter((r) => r.flags?.includes("address")).length === 2, JSON.stringify(netRoster.map((r) => r.flags)));
      const screen = await open(`/instructor/group/${group.slug}/lectures/${net.slug}/attendance`, { cookie: cookies(staff.cookie, "lang=ar") });
      t.check("attendance: the staff screen shows the reason (Arabic)", screen.status === 200 && (await screen.text()).includes("الشبكة نفسها"), String(screen.status));
    }
  } catch (e) {
    t.check("attendance: the replay ran to the end", false, e.message);
  } finally {
    for (const lecture of lectures) await t.api(`/api/lectures/${lecture.slug}`, { method: "DELETE", token: staff.token }).catch(() => undefined);
    if (friend) await t.api("/api/users/leave-group", { body: { groupSlug: group.slug }, token: friend.token }).catch(() => undefined);
  }
}
