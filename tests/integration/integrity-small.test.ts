/**
 * Smaller findings of the attack review, replayed through the real Worker:
 * - a former instructor's group socket is closed (4403, as a removed student's) when an admin gives the group to
 *   someone else, through the API and through the admin's page; it receives no chat or attendance frame afterwards,
 *   and a new ticket for that room is refused;
 * - impossible dates and times (month 13, 30 February, year 0000, 25:00) are refused with a 400 and a field message
 *   by every date field of the teaching API (series, lecture start, task due, quiz opening and closing, group start)
 *   instead of a 500 or a silent roll-over, and by the page actions, in the reader's language.
 */
import { SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { seriesDays } from "../../worker/services/lectures";
import { addMember, call, createGroup, createUser, ORIGIN, signIn, type ErrorBody, type SignedIn } from "./factories";
import { db, randomIp } from "./helpers";
import { joinChat, requestTicket, ticketFor, upgrade, type SocketClient } from "./sockets";

const IMPOSSIBLE_DAYS = ["2026-13-45", "0000-00-00", "2026-02-30", "2025-02-29", "2026-04-31", "0000-01-01", "2026-00-10"];
const IMPOSSIBLE_MOMENTS = [
  "2026-13-45T10:00",
  "0000-00-00T10:00",
  "2026-02-30T10:00",
  "2026-02-30T10:00:00.000Z",
  "0000-01-01T10:00:00Z",
  "2026-01-01T25:00",
  "2026-01-01T24:00",
  "2026-01-01T10:60",
  "2026-01-01T10:00:60Z",
  "2026-01-01T10:00+25:00",
  // Real moments written in a zone, but outside the years 0001-9999 once in UTC (the year 10000, the year 0).
  "9999-12-31T23:59:59-23:59",
  "0001-01-01T00:00:00+23:59",
];

async function expect400(res: Response, field: string): Promise<ErrorBody> {
  expect(res.status).toBe(400);
  const body = (await res.json()) as ErrorBody;
  expect(body.code).toBe("validation_failed");
  expect(body.message).toEqual(expect.any(String));
  expect(body.fields?.[field]).toEqual(expect.stringMatching(/\S/));
  return body;
}

/** A document POST of a page form, as a browser without JavaScript sends it. */
function postPage(path: string, fields: Record<string, string>, cookie: string): Promise<Response> {
  return SELF.fetch(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded", accept: "text/html", cookie, "cf-connecting-ip": randomIp() },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

async function classroom() {
  const admin = await signIn(await createUser({ role: "admin" }));
  const former = await signIn(await createUser({ role: "instructor" }));
  const next = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: former.user.id });
  const student = await signIn(await createUser());
  const leaving = await signIn(await createUser());
  await addMember(student.user, group);
  await addMember(leaving.user, group);
  return { admin, former, next, group, student, leaving };
}

/** Staff lectures and quizzes need a lecture; returns its slug. */
async function lectureOf(teacher: SignedIn, groupSlug: string): Promise<string> {
  const res = await call(`/api/lectures/group/${groupSlug}`, { body: { title: "Dates", published: true }, token: teacher.accessToken });
  expect(res.status).toBe(201);
  return ((await res.json()) as { slug: string }).slug;
}

describe("changing a group's instructor ends the former instructor's access to its room", () => {
  async function replay(change: (w: Awaited<ReturnType<typeof classroom>>) => Promise<void>) {
    const w = await classroom();
    const { client: formerSocket } = await joinChat(w.former, w.group.id);
    const { client: studentSocket } = await joinChat(w.student, w.group.id);
    const { client: leavingSocket } = await joinChat(w.leaving, w.group.id);

    // A removed student's socket: the close code the former instructor's must match.
    const removed = await call(`/api/groups/${w.group.id}/students/${w.leaving.user.id}`, { method: "PUT", token: w.former.accessToken, body: { status: "removed" } });
    expect(removed.status).toBe(200);
    const removedClose = await leavingSocket.waitClosed();
    expect(removedClose.code).toBe(4403);

    await change(w);
    const closed = await formerSocket.waitClosed();
    expect(closed.code).toBe(removedClose.code);
    const framesAtClose = formerSocket.frames.length;

    // Chat and attendance go on without them.
    const sent = await call("/api/messages", { body: { groupId: w.group.id, text: "after the change", clientId: crypto.randomUUID() }, token: w.student.accessToken });
    expect(sent.status).toBe(201);
    const { message } = (await sent.json()) as { message: { id: number } };
    await studentSocket.next("chat.message", (f) => f.message.id === message.id);
    const lecture = await lectureOf(w.next, w.group.slug);
    const opened = await call(`/api/lectures/${lecture}/attendance/open`, { body: { rotateSeconds: 0, durationMinutes: 10 }, token: w.next.accessToken });
    expect(opened.status).toBe(200);
    await studentSocket.next("attendance.opened");
    expect(formerSocket.frames.length).toBe(framesAtClose);
    expect(formerSocket.of("chat.message").map((f) => f.message.id)).not.toContain(message.id);
    expect(formerSocket.of("attendance.opened")).toEqual([]);

    // No way back in; the new instructor gets in.
    const ticket = await requestTicket(w.former, "group-room", w.group.id);
    expect(ticket.status).toBe(403);
    expect((await requestTicket(w.next, "group-room", w.group.id)).status).toBe(200);
    return { w, formerSocket: formerSocket satisfies SocketClient };
  }

  it("through the API (PUT /api/groups/{id})", async () => {
    await replay(async (w) => {
      const res = await call(`/api/groups/${w.group.id}`, { method: "PUT", token: w.admin.accessToken, body: { instructorId: w.next.user.id } });
      expect(res.status).toBe(200);
    });
  });

  it("through the admin's group page, which shares the service", async () => {
    await replay(async (w) => {
      const res = await postPage(`/dashboard/admin/group/${w.group.slug}/update`, { intent: "save", title: w.group.title, description: "", start_date: "2027-01-01", instructorId: w.next.user.id, status: "published", capacity: "" }, w.admin.cookie);
      expect(res.status).toBeLessThan(400);
      const [row] = await db().select({ instructorId: s.groups.instructorId }).from(s.groups).where(eq(s.groups.id, w.group.id));
      expect(row?.instructorId).toBe(w.next.user.id);
    });
  });

  it("also when the group is left without an instructor; other edits close nothing", async () => {
    const w = await classroom();
    const { client } = await joinChat(w.former, w.group.id);
    const title = await call(`/api/groups/${w.group.id}`, { method: "PUT", token: w.admin.accessToken, body: { title: "Renamed", instructorId: w.former.user.id } });
    expect(title.status).toBe(200);
    client.send({ type: "ping", t: 1 });
    await client.next("pong", (f) => f.t === 1);
    expect(client.closed).toBeNull();
    const res = await call(`/api/groups/${w.group.id}`, { method: "PUT", token: w.admin.accessToken, body: { instructorId: null } });
    expect(res.status).toBe(200);
    expect((await client.waitClosed()).code).toBe(4403);
    expect((await requestTicket(w.former, "group-room", w.group.id)).status).toBe(403);
  });
});

describe("a ticket minted before a right ended opens nothing", () => {
  it("refuses the former instructor's ticket taken just before the change, and a removed student's", async () => {
    const w = await classroom();
    const formerTicket = await ticketFor(w.former, "group-room", w.group.id);
    const leavingTicket = await ticketFor(w.leaving, "group-room", w.group.id);
    expect((await call(`/api/groups/${w.group.id}`, { method: "PUT", token: w.admin.accessToken, body: { instructorId: w.next.user.id } })).status).toBe(200);
    expect((await call(`/api/groups/${w.group.id}/students/${w.leaving.user.id}`, { method: "PUT", token: w.next.accessToken, body: { status: "removed" } })).status).toBe(200);
    // Both tickets are well inside their 60 s; the rights behind them are gone.
    expect((await upgrade("group-room", w.group.id, formerTicket)).status).toBe(403);
    expect((await upgrade("group-room", w.group.id, leavingTicket)).status).toBe(403);
    // The new instructor's and a current student's still open.
    for (const who of [w.next, w.student]) {
      const res = await upgrade("group-room", w.group.id, await ticketFor(who, "group-room", w.group.id));
      expect(res.status).toBe(101);
      res.webSocket!.accept();
      res.webSocket!.close(1000, "done");
    }
  });
});

describe("impossible dates are refused with a 400 and a message, never a 500 or a roll-over", () => {
  async function staffWorld() {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const group = await createGroup({ instructorId: teacher.user.id });
    return { teacher, group, lecture: await lectureOf(teacher, group.slug) };
  }

  const series = (change: Record<string, unknown>) => ({ title: "Week", days: [1, 3], time: "18:00", from: "2026-03-02", count: 4, ...change });

  it("POST /api/lectures/group/{id}/schedule: from, until and the time of day", async () => {
    const w = await staffWorld();
    const path = `/api/lectures/group/${w.group.slug}/schedule`;
    for (const day of IMPOSSIBLE_DAYS) {
      await expect400(await call(path, { body: series({ from: day }), token: w.teacher.accessToken }), "from");
      await expect400(await call(path, { body: series({ count: undefined, until: day, from: "0001-01-01" }), token: w.teacher.accessToken }), "until");
    }
    for (const time of ["25:00", "24:00", "18:60", "7:00"]) {
      await expect400(await call(path, { body: series({ time }), token: w.teacher.accessToken }), "time");
    }
    // Nothing was scheduled by any of them; real days (a leap day too) still work.
    expect(await db().select({ id: s.lectures.id }).from(s.lectures).where(eq(s.lectures.groupId, w.group.id))).toHaveLength(1);
    const ok = await call(path, { body: series({ from: "2028-02-29", count: 2 }), token: w.teacher.accessToken });
    expect(ok.status).toBe(201);
    const made = (await ok.json()) as { startsAt: string }[];
    expect(made.map((l) => l.startsAt.slice(0, 10))).toEqual(["2028-03-01", "2028-03-06"]);
  });

  it("a series is never cut short without a word: past the year 9999, or more sessions than a series makes", async () => {
    expect(() => seriesDays({ days: [0, 1, 2, 3, 4, 5, 6], from: "9999-12-30", count: 5 })).toThrow("Only 2 of the 5 sessions fall before the end of the year 9999");
    expect(seriesDays({ days: [0, 1, 2, 3, 4, 5, 6], from: "9999-12-30", count: 2 })).toEqual(["9999-12-30", "9999-12-31"]);
    expect(() => seriesDays({ days: [1], from: "2026-02-30", count: 2 })).toThrow("That date does not exist.");
    // Mondays and Wednesdays from Monday 2 March 2026: the 60th is Wednesday 23 September, the 61st Monday 28 September.
    expect(seriesDays({ days: [1, 3], from: "2026-03-02", until: "2026-09-23" })).toHaveLength(60);
    expect(() => seriesDays({ days: [1, 3], from: "2026-03-02", until: "2026-09-28" })).toThrow("That period holds more than 60 sessions");

    const w = await staffWorld();
    const path = `/api/lectures/group/${w.group.slug}/schedule`;
    const refused = async (body: Record<string, unknown>, code: string, field: string) => {
      const res = await call(path, { body: series(body), token: w.teacher.accessToken });
      expect(res.status).toBe(400);
      const error = (await res.json()) as ErrorBody;
      expect(error.code).toBe(code);
      expect(error.fields?.[field]).toEqual(expect.stringMatching(/\S/));
    };
    await refused({ from: "9999-12-30", days: [4, 5, 6], count: 5 }, "series_past_years", "from");
    await refused({ count: undefined, until: "2099-01-01" }, "series_too_long", "until");
    // The last evening of 9999 twelve hours west of UTC is already the year 10000 there.
    await refused({ from: "9999-12-31", days: [0, 1, 2, 3, 4, 5, 6], count: 1, time: "23:30", timeZone: "Etc/GMT+12" }, "series_past_years", "from");
    // None of them scheduled anything.
    expect(await db().select({ id: s.lectures.id }).from(s.lectures).where(eq(s.lectures.groupId, w.group.id))).toHaveLength(1);
    const ok = await call(path, { body: series({ count: undefined, until: "2026-09-23" }), token: w.teacher.accessToken });
    expect(ok.status).toBe(201);
    expect(((await ok.json()) as unknown[]).length).toBe(60);
  });

  it("a lecture's start (create and edit)", async () => {
    const w = await staffWorld();
    for (const startsAt of IMPOSSIBLE_MOMENTS) {
      await expect400(await call(`/api/lectures/group/${w.group.slug}`, { body: { title: "Bad", startsAt }, token: w.teacher.accessToken }), "startsAt");
      await expect400(await call(`/api/lectures/${w.lecture}`, { method: "PUT", body: { startsAt }, token: w.teacher.accessToken }), "startsAt");
    }
    const ok = await call(`/api/lectures/${w.lecture}`, { method: "PUT", body: { startsAt: "2028-02-29T16:00:00+02:00" }, token: w.teacher.accessToken });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { startsAt: string }).startsAt).toBe("2028-02-29T14:00:00.000Z");
  });

  it("a task's due date (create and edit)", async () => {
    const w = await staffWorld();
    const created = await call(`/api/lectures/${w.lecture}/tasks`, { body: { title: "Due", dueAt: "2026-12-01T16:00:00.000Z" }, token: w.teacher.accessToken });
    expect(created.status).toBe(201);
    const task = (await created.json()) as { slug: string; dueAt: string };
    expect(task.dueAt).toBe("2026-12-01T16:00:00.000Z");
    for (const dueAt of IMPOSSIBLE_MOMENTS) {
      await expect400(await call(`/api/lectures/${w.lecture}/tasks`, { body: { title: "Bad", dueAt }, token: w.teacher.accessToken }), "dueAt");
      await expect400(await call(`/api/lectures/${w.lecture}/tasks/${task.slug}`, { method: "PUT", body: { dueAt }, token: w.teacher.accessToken }), "dueAt");
    }
  });

  it("a quiz's opening and closing times (create and edit)", async () => {
    const w = await staffWorld();
    const questions = [{ text: "Pick one", type: "single", options: ["a", "b"], correct: 0 }];
    const created = await call("/api/quizzes", { body: { lectureId: w.lecture, title: "Window", questions, opensAt: "2026-12-01T10:00:00Z", closesAt: "2026-12-02T10:00:00Z" }, token: w.teacher.accessToken });
    expect(created.status).toBe(201);
    const quiz = (await created.json()) as { _id: string };
    for (const at of IMPOSSIBLE_MOMENTS) {
      await expect400(await call("/api/quizzes", { body: { lectureId: w.lecture, title: "Bad", questions, opensAt: at, closesAt: null, showAnswers: "never" }, token: w.teacher.accessToken }), "opensAt");
      await expect400(await call("/api/quizzes", { body: { lectureId: w.lecture, title: "Bad", questions, closesAt: at }, token: w.teacher.accessToken }), "closesAt");
      await expect400(await call(`/api/quizzes/${quiz._id}`, { method: "PUT", body: { opensAt: at }, token: w.teacher.accessToken }), "opensAt");
      await expect400(await call(`/api/quizzes/${quiz._id}`, { method: "PUT", body: { closesAt: at }, token: w.teacher.accessToken }), "closesAt");
    }
  });

  it("a group's start date (PUT /api/groups/{id})", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    const group = await createGroup();
    for (const day of IMPOSSIBLE_DAYS) {
      await expect400(await call(`/api/groups/${group.id}`, { method: "PUT", body: { start_date: day }, token: admin.accessToken }), "start_date");
    }
    expect((await call(`/api/groups/${group.id}`, { method: "PUT", body: { start_date: "2028-02-29" }, token: admin.accessToken })).status).toBe(200);
  });
});

describe("page actions refuse impossible dates too, in the reader's language", () => {
  it("the admin's group form shows the date's field error in Arabic", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    const group = await createGroup();
    for (const day of ["2026-13-45", "0000-00-00", "2026-02-30", "0000-01-01"]) {
      const fields = { intent: "save", title: group.title, description: "", start_date: day, instructorId: "", status: "published", capacity: "" };
      const ar = await postPage(`/dashboard/admin/group/${group.slug}/update`, fields, `${admin.cookie}; lang=ar`);
      expect(ar.status).toBe(400);
      const html = await ar.text();
      expect(html).toContain('lang="ar"');
      expect(html).toMatch(/class="field-error"[^>]*>اختر تاريخًا صحيحًا\.</);
      const en = await postPage(`/dashboard/admin/group/${group.slug}/update`, fields, `${admin.cookie}; lang=en`);
      expect(en.status).toBe(400);
      expect(await en.text()).toMatch(/class="field-error"[^>]*>Choose a valid date\.</);
    }
    const [row] = await db().select({ startDate: s.groups.startDate }).from(s.groups).where(eq(s.groups.id, group.id));
    expect(row?.startDate).toBe("2027-01-01");
  });

  it("the instructor's task form and weekly series refuse them (400, in Arabic, nothing stored)", async () => {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const group = await createGroup({ instructorId: teacher.user.id });
    const lecture = await lectureOf(teacher, group.slug);
    const cookie = `${teacher.cookie}; lang=ar`;
    for (const dueAt of ["2026-02-30T10:00:00.000Z", "2026-13-45T10:00", "2026-01-01T25:00"]) {
      const res = await postPage(`/instructor/group/${group.slug}/lectures/${lecture}/newTask`, { intent: "save", title: "Bad date", body: "", dueAt, maxScore: "100", allowLate: "on", kind: "link" }, cookie);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('lang="ar"');
    }
    for (const from of ["2026-13-45", "0000-00-00", "2026-02-30"]) {
      const res = await postPage(`/instructor/group/${group.slug}/lectures?index`, { intent: "schedule", series: JSON.stringify(seriesForm(from)) }, cookie);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('lang="ar"');
    }
    const tasks = await db().select({ id: s.tasks.id }).from(s.tasks).innerJoin(s.lectures, eq(s.lectures.id, s.tasks.lectureId)).where(eq(s.lectures.groupId, group.id));
    expect(tasks).toEqual([]);
    const lectures = await db().select({ id: s.lectures.id }).from(s.lectures).where(eq(s.lectures.groupId, group.id));
    expect(lectures).toHaveLength(1);
  });
});

function seriesForm(from: string) {
  return { title: "Week", days: [1], time: "18:00", timeZone: "Africa/Cairo", from, count: 2, published: false };
}
