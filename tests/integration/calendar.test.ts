/**
 * The course calendar (/course/{slug}/calendar.ics) read by a real iCalendar parser (ical.js): lectures, due times
 * and quiz windows, only what the reader may see, in the reader's language; lines folded at 75 octets of UTF-8
 * with CRLF ends, URLs percent-encoded (the slugs are Arabic), TEXT escaped, stable UIDs, times in UTC; a
 * constant number of statements however big the group.
 */
import ICAL from "ical.js";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { newId } from "../../worker/services/ids";
import { groupCalendar } from "../../worker/services/calendar";
import { addMember, call, createUser, signIn, viewerOf } from "./factories";
import { countingContext, db, insertAll, unique } from "./helpers";

const at = (iso: string) => new Date(iso);
const ARABIC_LECTURE = "الخطافات بالتفصيل: useState وuseEffect، والسياق, والمراجع; ومشاركة الحالة بين المكوّنات \\ الجزء الأول";
const TASK_TITLE = "Landing page, v2; final \\ edition";

async function world() {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const student = await signIn(await createUser());
  const outsider = await signIn(await createUser());
  const pending = await signIn(await createUser());
  const tag = unique("c");
  const group = { id: newId(), slug: `الخطافات-${tag}`, title: `رياكت, المستوى; الثاني ${tag}`, status: "published" as const, startDate: "2027-01-01", instructorId: teacher.user.id };
  await db().insert(s.groups).values(group);
  await addMember(student.user, group);
  await addMember(pending.user, group, "pending");

  const lecture = { id: newId(), groupId: group.id, slug: `الخطافات-بالتفصيل-${tag}`, title: ARABIC_LECTURE, startsAt: at("2027-03-01T16:00:00Z"), order: 1, published: true };
  const draft = { id: newId(), groupId: group.id, slug: `draft-${tag}`, title: "Secret draft lecture", startsAt: at("2027-03-05T16:00:00Z"), order: 2, published: false };
  const undated = { id: newId(), groupId: group.id, slug: `undated-${tag}`, title: "Undated lecture", startsAt: null, order: 3, published: true };
  await db().insert(s.lectures).values([lecture, draft, undated]);

  const task = { id: newId(), lectureId: lecture.id, slug: `مهمة-${tag}`, title: TASK_TITLE, dueAt: at("2027-03-08T21:59:00Z") };
  const draftTask = { id: newId(), lectureId: draft.id, slug: `draft-task-${tag}`, title: "Task on the draft", dueAt: at("2027-03-09T21:59:00Z") };
  const undatedTask = { id: newId(), lectureId: lecture.id, slug: `undated-task-${tag}`, title: "No due date", dueAt: null };
  // On the published lecture, but shown to its students only from a later time (issue 22's "publish later").
  const scheduledTask = { id: newId(), lectureId: lecture.id, slug: `scheduled-task-${tag}`, title: "Scheduled task", dueAt: at("2027-03-10T21:59:00Z"), publishAt: at("2027-03-03T08:00:00Z") };
  await db().insert(s.tasks).values([task, draftTask, undatedTask, scheduledTask]);

  const quiz = { id: newId(), groupId: group.id, lectureId: lecture.id, slug: `اختبار-${tag}`, title: "اختبار الخطافات", opensAt: at("2027-03-02T09:00:00Z"), closesAt: at("2027-03-02T18:00:00Z"), published: true };
  const openOnly = { id: newId(), groupId: group.id, lectureId: lecture.id, slug: `open-only-${tag}`, title: "Open-ended quiz", opensAt: at("2027-03-03T09:00:00Z"), closesAt: null, published: true };
  const hiddenQuiz = { id: newId(), groupId: group.id, lectureId: lecture.id, slug: `hidden-quiz-${tag}`, title: "Unpublished quiz", opensAt: at("2027-03-04T09:00:00Z"), closesAt: at("2027-03-04T10:00:00Z"), published: false };
  const draftLectureQuiz = { id: newId(), groupId: group.id, lectureId: draft.id, slug: `draft-quiz-${tag}`, title: "Quiz on the draft", opensAt: at("2027-03-06T09:00:00Z"), closesAt: null, published: true };
  await db().insert(s.quizzes).values([quiz, openOnly, hiddenQuiz, draftLectureQuiz]);
  return { teacher, student, outsider, pending, group, lecture, draft, task, draftTask, scheduledTask, quiz, openOnly, hiddenQuiz, draftLectureQuiz };
}

type World = Awaited<ReturnType<typeof world>>;
const calendarPath = (w: World) => `/course/${encodeURIComponent(w.group.slug)}/calendar.ics`;

interface ParsedEvent {
  summary: string;
  start: Date;
  end: Date;
  url: string;
  description: string;
  dtstamp: string;
}

interface Parsed {
  text: string;
  bytes: Uint8Array;
  /** Content lines after unfolding. */
  unfolded: string[];
  events: Map<string, ParsedEvent>;
}

async function fetchCalendar(w: World, cookie: string, headers: Record<string, string> = {}): Promise<{ res: Response; cal: Parsed }> {
  const res = await call(calendarPath(w), { cookie, headers });
  expect(res.status).toBe(200);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  const root = new ICAL.Component(ICAL.parse(text));
  const events = new Map<string, ParsedEvent>();
  for (const vevent of root.getAllSubcomponents("vevent")) {
    const e = new ICAL.Event(vevent);
    expect(events.has(e.uid)).toBe(false);
    events.set(e.uid, {
      summary: e.summary,
      start: e.startDate.toJSDate(),
      end: e.endDate.toJSDate(),
      url: String(vevent.getFirstPropertyValue("url")),
      description: e.description,
      dtstamp: String(vevent.getFirstPropertyValue("dtstamp") ?? ""),
    });
  }
  const unfolded = text.replace(/\r\n /g, "").split("\r\n");
  return { res, cal: { text, bytes, unfolded, events } };
}

/** The event of a row, by the UID the file gives it. */
const lectureUid = (l: { id: string }) => `${l.id}@cohort`;
const taskUid = (t: { id: string }) => `task-${t.id}@cohort`;
const quizUid = (q: { id: string }) => `quiz-${q.id}@cohort`;

/** The path a URL names, decoded; and the URL itself must be ASCII only (percent-encoded). */
function decodedPath(url: string): string {
  expect(url).toMatch(/^https?:\/\/[\x21-\x7e]+$/);
  return decodeURIComponent(new URL(url).pathname);
}

function expectWellFormed(cal: Parsed) {
  // Every line ends with CRLF: the file ends with one, and no bare CR or LF is left once split on CRLF.
  expect(cal.text.endsWith("\r\n")).toBe(true);
  const physical = cal.text.slice(0, -2).split("\r\n");
  for (const line of physical) expect(line).not.toMatch(/[\r\n]/);
  // No line is longer than 75 octets, and none splits a UTF-8 sequence (each line decodes on its own).
  const encoder = new TextEncoder();
  for (const line of physical) {
    const octets = encoder.encode(line);
    expect(octets.length, line).toBeLessThanOrEqual(75);
    expect(() => new TextDecoder("utf-8", { fatal: true }).decode(octets)).not.toThrow();
  }
  // The long Arabic lines were folded (continuations start with one space).
  expect(physical.some((l) => l.startsWith(" "))).toBe(true);
  // Times are UTC.
  for (const line of cal.unfolded.filter((l) => /^(DTSTART|DTEND|DTSTAMP)[:;]/.test(l))) expect(line).toMatch(/^(DTSTART|DTEND|DTSTAMP):\d{8}T\d{6}Z$/);
  // Every event has a UID and a DTSTAMP.
  const begins = cal.unfolded.filter((l) => l === "BEGIN:VEVENT").length;
  expect(cal.unfolded.filter((l) => l.startsWith("UID:")).length).toBe(begins);
  expect(cal.unfolded.filter((l) => l.startsWith("DTSTAMP:")).length).toBe(begins);
  for (const e of cal.events.values()) expect(e.dtstamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
}

describe("the course calendar", () => {
  it("gives a student the published lectures, due times and quiz windows, well formed, in Arabic when asked", async () => {
    const w = await world();
    const { res, cal } = await fetchCalendar(w, `${w.student.cookie}; lang=ar`);
    expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(res.headers.get("content-disposition")).toContain(`filename*=UTF-8''${encodeURIComponent(w.group.slug)}.ics`);
    expectWellFormed(cal);

    // Exactly these events: no draft lecture, no task or quiz of it, no unpublished quiz, nothing undated.
    expect([...cal.events.keys()].sort()).toEqual([lectureUid(w.lecture), taskUid(w.task), quizUid(w.quiz), quizUid(w.openOnly)].sort());
    expect(cal.text).not.toContain("Secret draft lecture");
    expect(cal.text).not.toContain("Unpublished quiz");
    expect(cal.text).not.toContain("Task on the draft");
    expect(cal.text).not.toContain("Scheduled task");
    expect(cal.text).not.toContain("Quiz on the draft");

    const base = `/course/${w.group.slug}/lecture/${w.lecture.slug}`;
    const lecture = cal.events.get(lectureUid(w.lecture))!;
    expect(lecture.summary).toBe(ARABIC_LECTURE);
    expect(lecture.start.toISOString()).toBe("2027-03-01T16:00:00.000Z");
    expect(lecture.end.toISOString()).toBe("2027-03-01T17:30:00.000Z");
    expect(decodedPath(lecture.url)).toBe(base);
    expect(lecture.description).toBe(`${w.group.title}\n${lecture.url}`);

    const task = cal.events.get(taskUid(w.task))!;
    expect(task.summary).toBe(`موعد تسليم: ${TASK_TITLE}`);
    expect(task.start.toISOString()).toBe("2027-03-08T21:59:00.000Z");
    expect(task.end.toISOString()).toBe("2027-03-08T21:59:00.000Z");
    expect(decodedPath(task.url)).toBe(`${base}/Add-Task/${w.task.slug}`);

    const quiz = cal.events.get(quizUid(w.quiz))!;
    expect(quiz.summary).toBe(`اختبار: ${w.quiz.title}`);
    expect([quiz.start.toISOString(), quiz.end.toISOString()]).toEqual(["2027-03-02T09:00:00.000Z", "2027-03-02T18:00:00.000Z"]);
    expect(decodedPath(quiz.url)).toBe(`${base}/quiz/${w.quiz.slug}`);

    const openOnly = cal.events.get(quizUid(w.openOnly))!;
    expect(openOnly.summary).toBe(`يُفتح الاختبار: ${w.openOnly.title}`);
    expect([openOnly.start.toISOString(), openOnly.end.toISOString()]).toEqual(["2027-03-03T09:00:00.000Z", "2027-03-03T09:00:00.000Z"]);

    // TEXT values are escaped on the wire (the parser above read them back whole).
    expect(cal.unfolded).toContain(`SUMMARY:موعد تسليم: Landing page\\, v2\\; final \\\\ edition`);
    expect(cal.unfolded.find((l) => l.startsWith("X-WR-CALNAME:"))).toBe(`X-WR-CALNAME:${w.group.title.replace(/,/g, "\\,").replace(/;/g, "\\;")}`);
    expect(cal.unfolded.filter((l) => l.startsWith("DESCRIPTION:")).every((l) => l.includes("\\n") && !/[^\\][,;]/.test(l.slice(12)))).toBe(true);
  });

  it("gives the group's staff everything, drafts marked, in English by default; UIDs are stable across downloads", async () => {
    const w = await world();
    const { cal } = await fetchCalendar(w, w.teacher.cookie);
    expectWellFormed(cal);
    expect([...cal.events.keys()].sort()).toEqual(
      [lectureUid(w.lecture), lectureUid(w.draft), taskUid(w.task), taskUid(w.draftTask), taskUid(w.scheduledTask), quizUid(w.quiz), quizUid(w.openOnly), quizUid(w.hiddenQuiz), quizUid(w.draftLectureQuiz)].sort(),
    );
    expect(cal.events.get(taskUid(w.task))!.summary).toBe(`Due: ${TASK_TITLE}`);
    expect(cal.events.get(quizUid(w.quiz))!.summary).toBe(`Quiz: ${w.quiz.title}`);
    expect(cal.events.get(lectureUid(w.draft))!.summary).toBe("(draft) Secret draft lecture");
    expect(cal.events.get(taskUid(w.draftTask))!.summary).toBe("(draft) Due: Task on the draft");
    // A task its students see only later is a draft to them until then.
    expect(cal.events.get(taskUid(w.scheduledTask))!.summary).toBe("(draft) Due: Scheduled task");
    const hidden = cal.events.get(quizUid(w.hiddenQuiz))!;
    expect(hidden.summary).toBe("(draft) Quiz: Unpublished quiz");
    expect([hidden.start.toISOString(), hidden.end.toISOString()]).toEqual(["2027-03-04T09:00:00.000Z", "2027-03-04T10:00:00.000Z"]);
    expect(cal.events.get(quizUid(w.draftLectureQuiz))!.summary).toBe("(draft) Quiz opens: Quiz on the draft");
    expect(decodedPath(cal.events.get(lectureUid(w.draft))!.url)).toBe(`/course/${w.group.slug}/lecture/${w.draft.slug}`);

    // Accept-Language picks Arabic when there is no cookie; the events keep their UIDs.
    const again = await fetchCalendar(w, w.teacher.cookie, { "accept-language": "ar-EG,ar;q=0.9,en;q=0.5" });
    expect([...again.cal.events.keys()].sort()).toEqual([...cal.events.keys()].sort());
    expect(again.cal.events.get(taskUid(w.task))!.summary).toBe(`موعد تسليم: ${TASK_TITLE}`);
    expect(again.cal.events.get(lectureUid(w.draft))!.summary).toBe("(مسودة) Secret draft lecture");

    // An admin is staff of every group.
    const admin = await signIn(await createUser({ role: "admin" }));
    const adminCal = await fetchCalendar(w, admin.cookie);
    expect(adminCal.cal.events.size).toBe(9);
  });

  it("ends a lecture at the very end of year 9999 within four-digit years (RFC 5545 DATE-TIME)", async () => {
    const w = await world();
    const last = { id: newId(), groupId: w.group.id, slug: unique("last"), title: "The last lecture", startsAt: at("9999-12-31T23:59:00Z"), order: 9, published: true };
    await db().insert(s.lectures).values(last);
    const { cal } = await fetchCalendar(w, w.teacher.cookie);
    expectWellFormed(cal);
    expect(cal.unfolded).toContain("DTSTART:99991231T235900Z");
    expect(cal.unfolded).toContain("DTEND:99991231T235959Z");
  });

  it("refuses outsiders, pending members, unknown groups and bad slugs with a 4xx in the reader's language", async () => {
    const w = await world();
    const outsider = await call(calendarPath(w), { cookie: w.outsider.cookie });
    expect(outsider.status).toBe(403);
    expect(await outsider.text()).toBe("Only the group's students and staff can download its calendar.");
    const pending = await call(calendarPath(w), { cookie: `${w.pending.cookie}; lang=ar` });
    expect(pending.status).toBe(403);
    expect(await pending.text()).toBe("يستطيع تنزيل تقويم المجموعة طلابُها وفريقها فقط.");
    const unknown = await call(`/course/${encodeURIComponent(`لا-يوجد-${unique("x")}`)}/calendar.ics`, { cookie: w.student.cookie });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe("There is no such course.");
    const bad = await call(`/course/${encodeURIComponent("a b<c>")}/calendar.ics`, { cookie: w.student.cookie });
    expect(bad.status).toBe(404);
    const anonymous = await call(calendarPath(w));
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toMatch(/^\/auth\/login\?redirectTo=/);

    // A draft group is hidden from its students (404), not from its staff.
    await db().update(s.groups).set({ status: "draft" }).where(eq(s.groups.id, w.group.id));
    expect((await call(calendarPath(w), { cookie: w.student.cookie })).status).toBe(404);
    expect((await call(calendarPath(w), { cookie: w.teacher.cookie })).status).toBe(200);
  });

  it("reads the same number of statements for a small and a large group", async () => {
    const measure = async (n: number) => {
      const teacher = await createUser({ role: "instructor" });
      const group = { id: newId(), slug: unique("g"), title: "Counted", status: "published" as const, instructorId: teacher.id };
      await db().insert(s.groups).values(group);
      const ls = Array.from({ length: n }, (_, i) => ({ id: newId(), groupId: group.id, slug: `${group.slug}-l${i}`, title: `Lecture ${i}`, startsAt: new Date(Date.UTC(2027, 0, 1 + i, 16)), order: i, published: true }));
      await insertAll(s.lectures, ls);
      await insertAll(s.tasks, ls.map((l, i) => ({ id: newId(), lectureId: l.id, slug: `${l.slug}-t`, title: `Task ${i}`, dueAt: new Date(Date.UTC(2027, 0, 2 + i, 21)) })));
      await insertAll(s.quizzes, ls.map((l, i) => ({ id: newId(), groupId: group.id, lectureId: l.id, slug: `${l.slug}-q`, title: `Quiz ${i}`, opensAt: new Date(Date.UTC(2027, 0, 3 + i, 9)), closesAt: new Date(Date.UTC(2027, 0, 3 + i, 10)), published: true })));
      const viewer = viewerOf(teacher, "count");
      const counter = countingContext();
      const file = await groupCalendar(counter.ctx, viewer, group.slug, { lang: "en" });
      return { statements: counter.count(), events: file.body.split("BEGIN:VEVENT").length - 1 };
    };
    const small = await measure(2);
    const large = await measure(60);
    expect([small.events, large.events]).toEqual([6, 180]);
    expect(large.statements).toBe(small.statements);
    expect(small.statements).toBeLessThanOrEqual(4);
  });
});
