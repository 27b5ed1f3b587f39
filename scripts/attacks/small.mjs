// `npm run attack`, section "4. Smaller findings": replays them against a running local server (`npm start`).
// Loopback only (t.origin), bounded (about 80 requests, one socket, waits of at most 3 s, and up to
// 15 s for a close code that wrangler's local proxy delivers late).
//
// 1. Changing a group's instructor closes the former instructor's socket in the group's room (4403, as for a removed
//    student) and their next ticket for it is refused. Done on a fresh draft group with two fresh accounts made
//    instructors by the demo admin; at the end the group is archived and both accounts deleted, so the demo data
//    stays as it was.
// 2. Impossible dates and times (month 13, 30 February, year 0000, 25:00) answer 400 with a message, never a 500 or a
//    silent roll-over: the weekly series, a lecture's start, a task's due time, a quiz's opening and closing, a group's
//    start date, and the admin's group page (its field error in Arabic). The demo instructor works on a draft lecture
//    of their demo group that is deleted at the end; every request that should fail would change nothing else.

const ADMIN = { email: "admin@example.com", password: "demo-admin-pass" };
const INSTRUCTOR = { email: "instructor@example.com", password: "demo-instructor-pass" };
const DAYS = ["2026-13-45", "0000-00-00", "2026-02-30"];
const MOMENTS = ["2026-13-45T10:00", "0000-00-00T10:00", "2026-02-30T10:00", "2026-01-01T25:00"];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export default async function small(t) {
  const admin = await t.signIn(ADMIN);
  const staff = await t.signIn(INSTRUCTOR);
  const json = async (res) => ({ status: res.status, body: await res.json().catch(() => null) });
  const stamp = Date.now().toString(36);
  const cleanup = [];
  try {
    const fresh = await instructorChange(t, admin, json, stamp, cleanup);
    await impossibleDates(t, admin, staff, json, stamp, cleanup, fresh);
  } finally {
    for (const undo of cleanup.reverse()) {
      try {
        await undo();
      } catch (e) {
        t.check("small: cleaning up", false, e instanceof Error ? e.message : String(e));
      }
    }
  }
}

/** A 400 with a message and the field named. */
async function refused(res, field) {
  const body = await res.json().catch(() => null);
  const ok = res.status === 400 && typeof body?.message === "string" && typeof body?.fields?.[field] === "string";
  return { ok, detail: `${res.status} ${body?.fields?.[field] ?? body?.message ?? ""}`.trim() };
}

async function instructorChange(t, admin, json, stamp, cleanup) {
  // Two fresh accounts, made instructors by the admin (deleted at the end).
  const people = [];
  for (let i = 0; i < 2; i++) {
    const account = await t.freshAccount();
    const session = await t.signIn(account);
    const me = await json(await t.api("/api/users/profile", { token: session.token }));
    if (!me.body?._id) return t.check("small: a fresh account signs in", false, String(me.status));
    cleanup.push(async () => void (await t.api(`/api/users?id=${encodeURIComponent(me.body._id)}`, { method: "DELETE", token: admin.token })));
    const role = await t.api(`/api/users/${me.body._id}/role`, { method: "PUT", body: { role: "instructor" }, token: admin.token });
    if (role.status !== 200) return t.check("small: the admin makes a fresh account an instructor", false, String(role.status));
    people.push({ ...session, id: me.body._id });
  }
  const [former, next] = people;

  const created = await json(await t.api("/api/groups", { body: { title: `Attack replay ${stamp}`, instructorId: former.id, status: "draft" }, token: admin.token }));
  if (created.status !== 201) return t.check("small: the admin creates a fresh group", false, `${created.status} ${created.body?.message ?? ""}`);
  const group = created.body;
  cleanup.push(async () => void (await t.api(`/api/groups/${group._id}`, { method: "PUT", body: { status: "archived", instructorId: null }, token: admin.token })));

  const ticketFor = (who) => t.api("/api/realtime/ticket", { body: { party: "group-room", room: group._id }, token: who.token });
  const ticket = await json(await ticketFor(former));
  if (ticket.status !== 200) return t.check("small: the group's instructor gets a ticket for its room", false, String(ticket.status));
  const socket = await t.openSocket(`${t.origin.replace("http", "ws")}/parties/group-room/${group._id}?ticket=${encodeURIComponent(ticket.body.ticket)}`);
  for (let i = 0; i < 30 && !socket.frames.some((f) => f.type === "welcome") && socket.closed === null; i++) await sleep(100);
  t.check("small: the instructor's socket in the group's room opens", socket.frames.some((f) => f.type === "welcome") && socket.closed === null);

  const changed = await t.api(`/api/groups/${group._id}`, { method: "PUT", body: { instructorId: next.id }, token: admin.token });
  t.check("small: the admin gives the group to another instructor", changed.status === 200, String(changed.status));
  // The server starts the close handshake at once; through wrangler's local proxy the client can stay in CLOSING (2)
  // for about 10 s before the close event (and its code) arrives, so the code gets a longer wait.
  for (let i = 0; i < 30 && socket.closed === null && socket.ws.readyState < 2; i++) await sleep(100);
  t.check("small: the former instructor's group socket is closed by the server", socket.ws.readyState >= 2, `readyState ${socket.ws.readyState}`);
  for (let i = 0; i < 150 && socket.closed === null && socket.ws.readyState >= 2; i++) await sleep(100);
  t.check("small: ... with 4403, the code a removed student's socket gets", socket.closed === 4403, String(socket.closed ?? "pending"));
  if (socket.closed === null) socket.ws.close();

  const again = await ticketFor(former);
  // The group is a draft: to someone outside it (its former instructor now) its room is as unknown as one that does not exist.
  t.check("small: the former instructor cannot get a new ticket for the room", again.status === 404, String(again.status));
  const theirs = await ticketFor(next);
  t.check("small: ... the new instructor can", theirs.status === 200, String(theirs.status));
  return group;
}

async function impossibleDates(t, admin, staff, json, stamp, cleanup, fresh) {
  const groups = await json(await t.api("/api/groups/manage", { token: staff.token }));
  const group = groups.body?.groups?.[0] ?? groups.body?.items?.[0] ?? (Array.isArray(groups.body) ? groups.body[0] : null);
  if (!group?.slug) return t.check("small: the demo instructor runs a demo group", false, String(groups.status));

  // The weekly series: from and until, and the time of day.
  const series = (change) => ({ title: `Attack series ${stamp}`, days: [1], time: "18:00", from: "2026-03-02", count: 2, published: false, ...change });
  const schedule = (body) => t.api(`/api/lectures/group/${group.slug}/schedule`, { body, token: staff.token });
  for (const day of DAYS) {
    const r = await refused(await schedule(series({ from: day })), "from");
    t.check(`small: a series from ${day} answers 400 with a message`, r.ok, r.detail);
  }
  const until = await refused(await schedule(series({ count: undefined, until: "2026-02-30" })), "until");
  t.check("small: a series until 2026-02-30 answers 400 with a message", until.ok, until.detail);
  const time = await refused(await schedule(series({ time: "25:00" })), "time");
  t.check("small: a series at 25:00 answers 400 with a message", time.ok, time.detail);

  // A draft lecture to hang tasks and quizzes on (deleted at the end, with anything made on it by mistake).
  const lecture = await json(await t.api(`/api/lectures/group/${group.slug}`, { body: { title: `Attack dates ${stamp}`, published: false }, token: staff.token }));
  if (lecture.status !== 201) return t.check("small: the instructor adds a draft lecture", false, String(lecture.status));
  cleanup.push(async () => void (await t.api(`/api/lectures/${lecture.body._id}`, { method: "DELETE", token: staff.token })));

  const questions = [{ text: "Pick one", type: "single", options: ["a", "b"], correct: 0 }];
  for (const at of MOMENTS) {
    const start = await refused(await t.api(`/api/lectures/${lecture.body._id}`, { method: "PUT", body: { startsAt: at }, token: staff.token }), "startsAt");
    t.check(`small: a lecture starting ${at} answers 400 with a message`, start.ok, start.detail);

    const taskRes = await t.api(`/api/lectures/${lecture.body.slug}/tasks`, { body: { title: `Attack task ${stamp}`, dueAt: at }, token: staff.token });
    const due = await refused(taskRes.clone(), "dueAt");
    if (taskRes.status === 201) {
      const made = await taskRes.json();
      cleanup.push(async () => void (await t.api(`/api/lectures/${lecture.body.slug}/tasks/${made._id}`, { method: "DELETE", token: staff.token })));
    }
    t.check(`small: a task due ${at} answers 400 with a message`, due.ok, due.detail);

    for (const field of ["opensAt", "closesAt"]) {
      const body = { lectureId: lecture.body.slug, title: `Attack quiz ${stamp}`, questions, showAnswers: "never", [field]: at };
      const quizRes = await t.api("/api/quizzes", { body, token: staff.token });
      const r = await refused(quizRes.clone(), field);
      if (quizRes.status === 201) {
        const made = await quizRes.json();
        cleanup.push(async () => void (await t.api(`/api/quizzes/${made._id}`, { method: "DELETE", token: staff.token })));
      }
      t.check(`small: a quiz with ${field} ${at} answers 400 with a message`, r.ok, r.detail);
    }
  }

  // A group's start date, through the API and the admin's page (in Arabic). The demo group is only touched by
  // requests that must be refused; the page is tried on the fresh draft group of part 1 (archived at the end).
  for (const day of DAYS) {
    const r = await refused(await t.api(`/api/groups/${group._id}`, { method: "PUT", body: { start_date: day }, token: admin.token }), "start_date");
    t.check(`small: a group starting ${day} answers 400 with a message`, r.ok, r.detail);
  }
  if (!fresh) return t.check("small: a fresh group for the page check", false, "part 1 made none");
  for (const day of [...DAYS, "0000-01-01"]) {
    const form = new URLSearchParams({ intent: "save", title: fresh.title, description: "", start_date: day, instructorId: "", status: "draft", capacity: "" });
    const res = await t.page(`/dashboard/admin/group/${fresh.slug}/update`, form, { cookie: `${admin.cookie}; lang=ar` });
    const html = await res.text();
    t.check(`small: the admin's group page refuses ${day} with the field error in Arabic`, res.status === 400 && html.includes("اختر تاريخًا صحيحًا."), String(res.status));
  }
}
