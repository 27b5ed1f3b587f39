/**
 * One digit rule for the whole site (issue 20, "Language and formats"): Western digits (0-9) in both languages,
 * for counts, scores, percentages, dates and times alike, so an Arabic page reads the same digits the instructor
 * projects and the codes students type. The Arabic HTML of real teaching pages, rendered by the Worker, holds no
 * Arabic-Indic digit; and digits typed on an Arabic or Persian keyboard (٠-٩, ۰-۹) are read as 0-9 wherever a
 * code, a phone number or a score is typed, by the API and by the pages alike.
 */
import { SELF } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { toLatinDigits } from "../../app/lib/digits";
import { ar } from "../../app/i18n/ar";
import { format } from "../../app/i18n/translate";
import { attendInput } from "../../app/lib/lecture-schemas";
import { registerInput, resetPasswordInput, shareFeedbackInput, verifyEmailInput } from "../../app/lib/schemas";
import { gradeSubmissionInput } from "../../app/lib/task-schemas";
import { addMember, call, codeFromMail, createGroup, createUser, ORIGIN, signIn, VERIFY_SUBJECT, type SignedIn } from "./factories";
import { db, randomIp, unique } from "./helpers";

const ARABIC_INDIC = /[\u0660-\u0669\u06f0-\u06f9]/;
/** "123456" written with Arabic-Indic (٠-٩) or Persian (۰-۹) digits. */
const arabicIndic = (digits: string) => digits.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d)));
const persian = (digits: string) => digits.replace(/\d/g, (d) => String.fromCharCode(0x06f0 + Number(d)));

const DAY = 86_400_000;
const LECTURE_AT = "2026-03-05T18:00:00.000Z";

async function world() {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id, capacity: 25 });
  const students: SignedIn[] = [];
  for (let i = 0; i < 3; i++) {
    const st = await signIn(await createUser());
    await addMember(st.user, group);
    students.push(st);
  }
  const lectureRes = await call(`/api/lectures/group/${group.slug}`, { body: { title: "Week 1", published: true, startsAt: LECTURE_AT }, token: teacher.accessToken });
  expect(lectureRes.status).toBe(201);
  const lecture = (await lectureRes.json()) as { _id: string; slug: string };
  // Due in three and a half days: "3 days left", whatever the hour.
  const taskRes = await call(`/api/lectures/${lecture.slug}/tasks`, {
    body: { title: "Profile card", body: "Build it.", dueAt: new Date(Date.now() + 3.5 * DAY).toISOString(), maxScore: 100, allowLate: true },
    token: teacher.accessToken,
  });
  expect(taskRes.status).toBe(201);
  const task = (await taskRes.json()) as { _id: string; slug: string };
  const questions = [1, 2, 3].map((n) => ({ text: `Question ${n}?`, type: "single", options: ["yes", "no"], correct: 0, points: 1 }));
  const quizRes = await call("/api/quizzes", {
    body: { lectureId: lecture.slug, title: "Check", durationMinutes: 11, maxAttempts: 2, opensAt: new Date(Date.now() - DAY).toISOString(), closesAt: new Date(Date.now() + 10 * DAY).toISOString(), showAnswers: "after-submit", published: true, questions },
    token: teacher.accessToken,
  });
  expect(quizRes.status).toBe(201);
  const quiz = (await quizRes.json()) as { slug: string };
  for (const st of students) {
    expect((await call(`/api/lectures/${lecture.slug}/submit-task/${task.slug}`, { body: { link: "https://github.com/me/card", notes: "" }, token: st.accessToken })).status).toBeLessThan(300);
  }
  const list = (await (await call(`/api/lectures/${lecture.slug}/tasks/${task.slug}/submissions`, { token: teacher.accessToken })).json()) as { submissions: { _id: string; user: { _id: string } }[] };
  const submissionOf = (who: SignedIn) => list.submissions.find((x) => x.user._id === who.user.id)!._id;
  return { teacher, group, students, lecture, task, quiz, submissionOf };
}
type World = Awaited<ReturnType<typeof world>>;

const page = (path: string, cookie: string) => call(path, { cookie: `${cookie}; lang=ar`, headers: { accept: "text/html" } });

/** What a reader sees: the HTML without scripts, styles, comments and tags. */
const visible = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<style[\s\S]*?<\/style>/g, " ")
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&nbsp;|\u00a0/g, " ")
    .replace(/\s+/g, " ");

function postForm(path: string, fields: [string, string][], cookie?: string): Promise<Response> {
  const headers: Record<string, string> = { "cf-connecting-ip": randomIp(), origin: ORIGIN, "content-type": "application/x-www-form-urlencoded", accept: "text/html" };
  if (cookie) headers.cookie = cookie;
  return SELF.fetch(`${ORIGIN}${path}`, { method: "POST", headers, body: new URLSearchParams(fields).toString(), redirect: "manual" });
}

describe("Arabic pages use Western digits only", () => {
  it("course home, lecture, task, quiz, staff progress and grader: no Arabic-Indic digit, dates and counts in 0-9", async () => {
    const w = await world();
    // One graded submission of three, so the grader counts "1 of 3" and the progress page shows percentages.
    const graded = await call(`/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions/${w.submissionOf(w.students[0]!)}`, { method: "PUT", body: { score: 45, feedback: "" }, token: w.teacher.accessToken });
    expect(graded.status).toBe(200);
    const student = w.students[0]!.cookie;
    const base = `/course/${w.group.slug}`;
    const lecture = `${base}/lecture/${w.lecture.slug}`;
    const pages: [string, string, string[]][] = [
      // The group starts on 2027-01-01 (factories): "1 يناير 2027", not "١ يناير ٢٠٢٧".
      [base, student, ["1 يناير 2027"]],
      // The lecture's date and time, in UTC until the browser knows its zone.
      [lecture, student, ["5 مارس 2026", "06:00"]],
      // (The time left, "بقيت 3 أيام", is drawn once the page runs in the browser: the e2e test reads it.)
      [`${lecture}/Add-Task/${w.task.slug}`, student, ["من 100"]],
      [`${lecture}/quiz/${w.quiz.slug}`, student, ["3 أسئلة، 3 درجات", "11 دقيقة من لحظة البدء"]],
      [`/instructor/group/${w.group.slug}/progress`, w.teacher.cookie, ["%"]],
      [`/instructor/group/${w.group.slug}/lecture/${w.lecture.slug}/tasks/${w.task.slug}/submissions`, w.teacher.cookie, ["1 من 3"]],
    ];
    // The time and its day period ("م", PM: 18:00) are held together by a no-break space: a narrow screen never leaves the
    // "م" alone on the next line.
    expect(await (await page(lecture, student)).text()).toContain("06:00\u00a0م");
    const year = String(new Date().getUTCFullYear());
    for (const [path, cookie, expected] of pages) {
      const res = await page(path, cookie);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      const html = await res.text();
      expect(html).toContain('<html lang="ar" dir="rtl"');
      const text = visible(html);
      // Not in the text, not in an attribute, not in the page's data.
      expect({ path, arabicIndic: html.match(ARABIC_INDIC)?.[0] ?? null }).toEqual({ path, arabicIndic: null });
      expect({ path, latin: /\d/.test(text) }).toEqual({ path, latin: true });
      for (const bit of expected) expect({ path, has: text.includes(bit), bit }).toEqual({ path, has: true, bit });
      // The footer's year is a year, not a count: "2026", never "2,026".
      if (text.includes("©")) expect(text).toContain(`© ${year} `);
    }
  });
});

describe("digits typed on an Arabic keyboard are read as 0-9", () => {
  it("in the shared schemas (so API and pages agree)", () => {
    expect(toLatinDigits("٠١٢٣٤٥٦٧٨٩ ۰۱۲۳۴۵۶۷۸۹ 42")).toBe("0123456789 0123456789 42");
    expect(verifyEmailInput.parse({ email: "a@test.example", code: "١٢٣ ٤٥٦" }).code).toBe("123456");
    expect(resetPasswordInput.parse({ email: "a@test.example", newPassword: "a-long-enough-password", resetCode: "۹۸۷۶۵۴" }).resetCode).toBe("987654");
    expect(attendInput.parse({ slugLec: "week-1", code: "٠٤٢ ٩٩٧" }).code).toBe("042997");
    expect(registerInput.parse({ name: "Salma", email: "s@test.example", password: "a-long-enough-password", phone_number: "+٢٠ ١٠٠-١٢٣-٤٥٦٧" }).phone_number).toBe("+201001234567");
    expect(gradeSubmissionInput.parse({ score: "٤٥" })).toEqual({ score: 45 });
    expect(gradeSubmissionInput.parse({ score: 45 })).toEqual({ score: 45 });
    expect(gradeSubmissionInput.safeParse({ score: "٤٫٥" }).success).toBe(false);
    expect(shareFeedbackInput.parse({ groupSlug: "g", userFeedback: "Great", rating: "٥" }).rating).toBe(5);
  });

  it("the API: registration's phone, the e-mail code, the attendance code and a score", async () => {
    const email = `${unique("digits")}@test.example`;
    const reg = await call("/api/users/register", { body: { name: "Salma Hany", email, password: "a-long-enough-password", phone_number: "+٢٠١٠٠١٢٣٤٥٦٧" } });
    expect(reg.status).toBe(201);
    const [user] = await db().select().from(s.users).where(eq(s.users.email, email));
    expect(user!.phoneNumber).toBe("+201001234567");
    const code = await codeFromMail(email, VERIFY_SUBJECT);
    const verified = await call("/api/users/verify-email", { body: { email, code: arabicIndic(code) } });
    expect(verified.status).toBe(200);

    const w = await world();
    const open = await call(`/api/lectures/${w.lecture.slug}/attendance/open`, { body: { rotateSeconds: 0, durationMinutes: 30 }, token: w.teacher.accessToken });
    expect(open.status).toBe(200);
    const attendance = ((await open.json()) as { session: { code: string } }).session.code;
    const attended = await call("/api/lectures/attend", { body: { slugLec: w.lecture.slug, code: persian(attendance) }, token: w.students[0]!.accessToken });
    expect(attended.status).toBe(200);
    expect(((await attended.json()) as { status: string }).status).toBe("present");

    const submission = w.submissionOf(w.students[0]!);
    const res = await call(`/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions/${submission}`, { method: "PUT", body: { score: "٤٥" }, token: w.teacher.accessToken });
    expect(res.status).toBe(200);
    const [row] = await db().select().from(s.submissions).where(eq(s.submissions.id, submission));
    expect(row!.score).toBe(45);
  });

  it("the pages: the verification form, the profile's phone, the lecture's check-in and the grader", async () => {
    const email = `${unique("digits")}@test.example`;
    expect((await call("/api/users/register", { body: { name: "Nour Ali", email, password: "a-long-enough-password", phone_number: "+201001234567" } })).status).toBe(201);
    const code = await codeFromMail(email, VERIFY_SUBJECT);
    const verify = await postForm("/auth/verif-email", [["email", email], ...[...persian(code)].map((d) => ["digit", d] as [string, string])]);
    expect(verify.status).toBeLessThan(500);
    const [verifiedUser] = await db().select().from(s.users).where(eq(s.users.email, email));
    expect(verifiedUser!.emailVerifiedAt).toBeInstanceOf(Date);

    const w = await world();
    const me = w.students[1]!;
    const profile = await postForm("/profile", [["intent", "profile"], ["name", "Nour Ali"], ["country", "EG"], ["phone", "٠١٠٠١٢٣٤٥٦٧"]], me.cookie);
    expect(profile.status).toBeLessThan(500);
    const [person] = await db().select().from(s.users).where(eq(s.users.id, me.user.id));
    expect(person!.phoneNumber).toBe("+201001234567");

    const open = await call(`/api/lectures/${w.lecture.slug}/attendance/open`, { body: { rotateSeconds: 0, durationMinutes: 30 }, token: w.teacher.accessToken });
    const attendance = ((await open.json()) as { session: { code: string } }).session.code;
    const checkIn = await postForm(`/course/${w.group.slug}/lecture/${w.lecture.slug}`, [["intent", "attend"], ["code", arabicIndic(attendance)]], me.cookie);
    expect(checkIn.status).toBeLessThan(500);
    const records = await db().select().from(s.attendance).where(and(eq(s.attendance.lectureId, w.lecture._id), eq(s.attendance.userId, me.user.id)));
    expect(records.map((r) => r.status)).toEqual(["present"]);

    const submission = w.submissionOf(w.students[2]!);
    const grade = await postForm(`/instructor/group/${w.group.slug}/lecture/${w.lecture.slug}/tasks/${w.task.slug}/submissions`, [["intent", "grade"], ["submissionId", submission], ["score", "۴۰"], ["feedback", ""]], w.teacher.cookie);
    expect(grade.status).toBeLessThan(500);
    const [row] = await db().select().from(s.submissions).where(eq(s.submissions.id, submission));
    expect(row!.score).toBe(40);
  });
});

describe("a range of numbers between Arabic words", () => {
  it("is isolated left to right, so 1-6 does not read 6-1 (the users' and the feedback's paging)", () => {
    for (const key of ["admin.users.showing", "feedback.showing"] as const) {
      expect(format(ar, key, { from: 1, to: 6, total: 6 })).toBe("عرض \u20661-6\u2069 من 6");
    }
  });
});
