/**
 * The CSV exports as data (issue "correctness": "numbers in number columns only", "the same file in every
 * language", "the CSV and the screens agree to the digit"; docs/decisions/0015-progress.md, "CSV for
 * spreadsheets"). Each file is parsed as RFC 4180 and checked cell by cell: every score and percentage cell is a
 * number or empty, every status is a word of the fixed vocabulary, the header row (indeed the whole file) is the same
 * for English and Arabic readers, and progress.csv carries exactly the numbers of GET /api/groups/{id}/progress, the
 * numbers the progress screens show. grades.csv and attendance.csv are checked against themselves too: the averages
 * and counts recomputed from their own cells equal the one definition's.
 */
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { newId } from "../../worker/services/ids";
import { exportGroupCsv, EXPORTS } from "../../worker/services/progress-export";
import { addMember, call, createGroup, createUser, signIn, type TestUser, viewerOf } from "./factories";
import { countingContext, db, insertAll } from "./helpers";

const DAY = 86_400_000;
const HOUR = 3_600_000;

const TASK_STATUSES = ["graded", "submitted", "late", "missing", "not_due"];
const QUIZ_STATUSES = ["taken", "not_taken", "open"];
const ATTENDANCE_STATUSES = ["present", "late", "excused", "absent", "open", "not_held"];
/** A number as a spreadsheet reads one: optional minus, digits, optional decimals. */
const NUMBER = /^-?\d+(\.\d+)?$/;
const isNumberOrEmpty = (cell: string) => cell === "" || NUMBER.test(cell);

/** RFC 4180: fields separated by commas, records by CRLF, quoted fields may hold commas, CRLF and doubled quotes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 2;
        continue;
      }
      if (ch === '"') {
        quoted = false;
        // A closing quote ends the field: only a separator may follow.
        if (i + 1 < text.length && text[i + 1] !== "," && text[i + 1] !== "\r") throw new Error(`text after a closing quote at ${i}`);
      } else cell += ch;
      i += 1;
      continue;
    }
    if (ch === '"') {
      if (cell !== "") throw new Error(`a quote inside an unquoted field at ${i}`);
      quoted = true;
    } else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\r") {
      if (text[i + 1] !== "\n") throw new Error(`a bare CR at ${i}`);
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i += 1;
    } else if (ch === "\n") throw new Error(`a bare LF at ${i}`);
    else cell += ch;
    i += 1;
  }
  if (quoted) throw new Error("an unterminated quoted field");
  if (cell !== "" || row.length > 0) throw new Error("the last record has no CRLF");
  return rows;
}

/** The file's text after checking its envelope: UTF-8 BOM first, CRLF line ends, every record as wide as the header. */
async function csvOf(res: Response): Promise<{ text: string; rows: string[][]; header: string[]; body: string[][] }> {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  const bytes = new Uint8Array(await res.arrayBuffer());
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = new TextDecoder().decode(bytes.slice(3));
  const rows = parseCsv(text);
  const [header, ...body] = rows;
  for (const r of body) expect(r.length).toBe(header!.length);
  return { text, rows, header: header!, body };
}

/** A row's cells by column name. */
const record = (header: string[], row: string[]) => Object.fromEntries(header.map((h, i) => [h, row[i]!]));

async function lectureIn(group: { id: string; slug: string }, slug: string, startsAt: number, order: number) {
  const row = { id: newId(), groupId: group.id, slug, title: `Lecture ${slug}`, body: "", order, startsAt: new Date(startsAt), published: true };
  await db().insert(s.lectures).values(row);
  return row;
}

async function taskOn(lecture: { id: string }, slug: string, dueAt: number | null, maxScore: number) {
  const row = { id: newId(), lectureId: lecture.id, slug, title: `Task ${slug}`, body: "", dueAt: dueAt === null ? null : new Date(dueAt), maxScore, allowLate: true };
  await db().insert(s.tasks).values(row);
  return row;
}

const mark = (lecture: { id: string }, user: { id: string }, status: (typeof s.ATTENDANCE_STATUSES)[number]) =>
  db().insert(s.attendance).values({ id: newId(), lectureId: lecture.id, userId: user.id, status, method: "manual", markedAt: new Date() });

const handIn = (task: { id: string }, user: { id: string }, score: number | null, late = false) =>
  db().insert(s.submissions).values({ id: newId(), taskId: task.id, userId: user.id, link: "https://github.com/me/work", submittedAt: new Date(), late, score, gradedAt: score === null ? null : new Date() });

/**
 * Group G. Lectures: L1 and the Arabic-slugged LA held (2 days ago, yesterday); L3 in 3 days (C has a record on it,
 * so it is held for C); LO started 10 minutes ago and its attendance is open now (B has checked in). Tasks: T1 due
 * yesterday /100, TA (Arabic slug) due an hour ago /10, T2 due in 3 days /50, T3 without a due time /20. Quizzes, both
 * opened: Q1 worth 4 points now, open for 7 more days; QA (Arabic slug) worth 2, closed an hour ago.
 * Members A (nothing), B, C (a name a spreadsheet would run), D (special, Arabic name); E was removed.
 */
async function world() {
  const now = Date.now();
  const tag = newId().slice(0, 6).toLowerCase().replace(/[^a-z0-9]/g, "x");
  const teacher = await createUser({ role: "instructor" });
  const G = await createGroup({ instructorId: teacher.id });
  const L1 = await lectureIn(G, `l1-${tag}`, now - 2 * DAY, 1);
  const LA = await lectureIn(G, `محاضرة-${tag}`, now - DAY, 2);
  const L3 = await lectureIn(G, `l3-${tag}`, now + 3 * DAY, 3);
  const LO = await lectureIn(G, `lo-${tag}`, now - 10 * 60_000, 4);
  await db().insert(s.attendanceSessions).values({ id: newId(), lectureId: LO.id, opensAt: new Date(now - 10 * 60_000), closesAt: new Date(now + 50 * 60_000), createdBy: teacher.id });
  const T1 = await taskOn(L1, `t1-${tag}`, now - DAY, 100);
  const TA = await taskOn(LA, `مهمة-${tag}`, now - HOUR, 10);
  const T2 = await taskOn(LA, `t2-${tag}`, now + 3 * DAY, 50);
  const T3 = await taskOn(L1, `t3-${tag}`, null, 20);
  const quiz = (slug: string, lecture: { id: string }, closesAt = now + 7 * DAY) => ({
    id: newId(),
    lectureId: lecture.id,
    groupId: G.id,
    slug,
    title: `Quiz ${slug}`,
    durationMinutes: 10,
    opensAt: new Date(now - 2 * DAY),
    closesAt: new Date(closesAt),
    maxAttempts: 3,
    published: true,
  });
  const Q1 = quiz(`q1-${tag}`, L1);
  const QA = quiz(`اختبار-${tag}`, LA, now - HOUR);
  await db().insert(s.quizzes).values([Q1, QA]);
  await db()
    .insert(s.questions)
    .values([
      { id: newId(), quizId: Q1.id, text: "Pick b", type: "single" as const, options: ["a", "b"], correct: [1], points: 4, order: 0 },
      { id: newId(), quizId: QA.id, text: "Pick a", type: "single" as const, options: ["a", "b"], correct: [0], points: 2, order: 0 },
    ]);

  const A = await createUser({ name: `Amal ${tag}` });
  const B = await createUser({ name: `Bassem, "B" ${tag}` });
  const C = await createUser({ name: `=cmd|' /C calc'!A0 ${tag}` });
  const D = await createUser({ name: `دينا ${tag}` });
  const E = await createUser({ name: `Emad ${tag}` });
  for (const u of [A, B, C]) await addMember(u, G);
  await addMember(D, G, "special");
  await addMember(E, G, "removed");

  // B: present at L1, late at LA, checked in at LO (open). T1 graded 80/100; TA handed in late, not graded; T2 handed in early (on time),
  // not graded; T3 graded 12/20. Q1 twice: 3 of 4, then 4 of 8 (the quiz had more points then): the best is the
  // first (75 % > 50 %) although its raw score is lower.
  await mark(L1, B, "present");
  await mark(LA, B, "late");
  await mark(LO, B, "present");
  await handIn(T1, B, 80);
  await handIn(TA, B, null, true);
  await handIn(T2, B, null);
  await handIn(T3, B, 12);
  const attempt = (quizId: string, user: { id: string }, number: number, score: number, maxScore: number) => ({
    id: newId(),
    quizId,
    userId: user.id,
    answers: {},
    score,
    maxScore,
    number,
    startedAt: new Date(now - DAY),
    deadlineAt: new Date(now - DAY + 10 * 60_000),
    savedAt: new Date(now - DAY + 60_000),
    submittedAt: new Date(now - DAY + 5 * 60_000),
  });
  await db().insert(s.attempts).values([attempt(Q1.id, B, 1, 3, 4), attempt(Q1.id, B, 2, 4, 8)]);

  // C: excused from L1, absent record on LA, present at L3 (not held yet: held for C). T1 handed in late and graded
  // 50; TA graded 10/10. QA 1 of 2.
  await mark(L1, C, "excused");
  await mark(LA, C, "absent");
  await mark(L3, C, "present");
  await handIn(T1, C, 50, true);
  await handIn(TA, C, 10);
  await db().insert(s.attempts).values(attempt(QA.id, C, 1, 1, 2));

  // D: present at L1; T1 handed in on time, not graded. TA and QA extended for D to tomorrow: not due, not closed.
  await mark(L1, D, "present");
  await handIn(T1, D, null);
  await db().insert(s.extensions).values([
    { id: newId(), userId: D.id, taskId: TA.id, dueAt: new Date(now + DAY) },
    { id: newId(), userId: D.id, quizId: QA.id, closesAt: new Date(now + DAY) },
  ]);

  // E was removed: none of this may appear.
  await mark(L1, E, "present");
  await handIn(T1, E, 100);
  await db().insert(s.attempts).values(attempt(Q1.id, E, 1, 4, 4));

  return { now, G, L1, LA, L3, LO, T1, TA, T2, T3, Q1, QA, teacher, A, B, C, D, E };
}

let shared: ReturnType<typeof world> | undefined;
const theWorld = () => (shared ??= world());
const tokenOf = async (u: TestUser) => (await signIn(u)).accessToken;

const apiExport = async (w: Awaited<ReturnType<typeof world>>, file: string, opts: { query?: string; headers?: Record<string, string> } = {}) =>
  csvOf(await call(`/api/groups/${w.G.slug}/export/${file}${opts.query ?? ""}`, { token: await tokenOf(w.teacher), headers: opts.headers }));

interface ApiStudent {
  _id: string;
  name: string;
  email: string;
  atRisk: boolean;
  atRiskReasons: { kind: string; percent: number }[];
  progress: {
    lectures: { attended: number; held: number; rate: number | null };
    tasks: { submitted: number; given: number; graded: number; counted: number; averageScore: number | null; rate: number | null };
    quizzes: { taken: number; published: number; counted: number; averageScore: number | null; rate: number | null };
    overall: number | null;
  };
}

async function apiProgress(w: Awaited<ReturnType<typeof world>>): Promise<ApiStudent[]> {
  const res = await call(`/api/groups/${w.G.slug}/progress`, { token: await tokenOf(w.teacher) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { students: ApiStudent[] }).students;
}

/** A CSV cell for a number that may be missing, as the export writes it. */
const cell = (n: number | null) => (n === null ? "" : String(n));

describe("exports: one file whatever the reader's language", () => {
  for (const file of ["grades.csv", "attendance.csv", "progress.csv"]) {
    it(`${file}: the same header row (and file) for English and Arabic, by ?lang=, cookie or Accept-Language, API or page`, async () => {
      const w = await theWorld();
      const english = await apiExport(w, file, { query: "?lang=en" });
      const variants = [
        await apiExport(w, file),
        await apiExport(w, file, { query: "?lang=ar" }),
        await apiExport(w, file, { headers: { cookie: "lang=ar" } }),
        await apiExport(w, file, { headers: { "accept-language": "ar-EG,ar;q=0.9" } }),
      ];
      const page = async (lang: string) => {
        const session = await signIn(w.teacher);
        return csvOf(await call(`/instructor/group/${w.G.slug}/export/${file}`, { cookie: `${session.cookie}; lang=${lang}`, headers: { accept: "text/html", "accept-language": lang } }));
      };
      variants.push(await page("ar"), await page("en"));
      for (const v of variants) {
        expect(v.header).toEqual(english.header);
        expect(v.text).toBe(english.text);
      }
      // Machine-readable names: printable ASCII, snake_case or {kind}:{percent-encoded slug}:{field}, all different.
      for (const h of english.header) {
        expect(h, h).toMatch(/^(?:[a-z][a-z_]*|(?:lecture|task|quiz):[\p{L}\p{M}\p{N}-]+:[a-z_]+)$/u);
      }
      expect(new Set(english.header).size).toBe(english.header.length);
      expect(english.header.slice(0, 2)).toEqual(["student_name", "email"]);
      // Not a word of Arabic anywhere but in the names.
      for (const r of english.body) expect(r.slice(1).join(",")).not.toMatch(/[\u0600-\u06FF]/);
    });
  }
});

describe("exports: grades.csv", () => {
  it("scores and percentages are numbers or empty; each task and quiz has its status column of fixed words", async () => {
    const w = await theWorld();
    const { header, body } = await apiExport(w, "grades.csv");
    const items = (kind: string) => [...new Set(header.filter((h) => h.startsWith(`${kind}:`)).map((h) => h.split(":")[1]!))];
    const taskSlugs = items("task");
    const quizSlugs = items("quiz");
    // Every task of a published lecture, in due order (T3 has no due time: SQLite sorts it first); both opened quizzes.
    expect(taskSlugs).toEqual([w.T3.slug, w.T1.slug, w.TA.slug, w.T2.slug]);
    expect(quizSlugs.sort()).toEqual([w.Q1.slug, w.QA.slug].sort());
    // The Arabic slug is written as it is, readable in a spreadsheet (not percent-encoded).
    expect(w.TA.slug).toMatch(/[\u0600-\u06FF]/);
    expect(header).toContain(`task:${w.TA.slug}:score`);
    for (const slug of items("task")) for (const f of ["score", "max_score", "status"]) expect(header).toContain(`task:${slug}:${f}`);
    for (const slug of items("quiz")) for (const f of ["score", "max_score", "status"]) expect(header).toContain(`quiz:${slug}:${f}`);
    expect(header.slice(-2)).toEqual(["task_percent", "quiz_percent"]);
    expect(body).toHaveLength(4);

    for (const row of body) {
      const r = record(header, row);
      for (const h of header) {
        if (/:(score|max_score)$/.test(h) || h.endsWith("_percent")) expect(isNumberOrEmpty(r[h]!), `${h}=${r[h]}`).toBe(true);
        if (h.endsWith(":max_score")) expect(r[h]).toMatch(NUMBER);
        if (h.startsWith("task:") && h.endsWith(":status")) expect(TASK_STATUSES, `${h}=${r[h]}`).toContain(r[h]);
        if (h.startsWith("quiz:") && h.endsWith(":status")) expect(QUIZ_STATUSES, `${h}=${r[h]}`).toContain(r[h]);
      }
      // A score exactly when graded (tasks) or taken (quizzes).
      for (const slug of items("task")) expect(r[`task:${slug}:score`] !== "").toBe(r[`task:${slug}:status`] === "graded");
      for (const slug of items("quiz")) expect(r[`quiz:${slug}:score`] !== "").toBe(r[`quiz:${slug}:status`] === "taken");
    }
  });

  it("each member's cells, worked out by hand", async () => {
    const w = await theWorld();
    const { header, body } = await apiExport(w, "grades.csv");
    const row = (u: TestUser) => record(header, body.find((r) => r[1] === u.email)!);
    const t = (slug: string, f: string) => `task:${slug}:${f}`;
    const q = (slug: string, f: string) => `quiz:${slug}:${f}`;
    const pick = (r: Record<string, string>, keys: string[]) => keys.map((k) => r[k]);
    const cells = [
      ...[w.T1, w.TA, w.T2, w.T3].flatMap((x) => ["score", "max_score", "status"].map((f) => t(x.slug, f))),
      ...[w.Q1, w.QA].flatMap((x) => ["score", "max_score", "status"].map((f) => q(x.slug, f))),
      "task_percent",
      "quiz_percent",
    ];
    // A: T1 and TA due and missing (0, 0): 0 %; T2 not due, T3 without a due time. Q1 still open, not taken: `open`
    // (counts nowhere); QA closed, not taken: `not_taken` (0): 0 %.
    expect(pick(row(w.A), cells)).toEqual(["", "100", "missing", "", "10", "missing", "", "50", "not_due", "", "20", "not_due", "", "4", "open", "", "2", "not_taken", "0", "0"]);
    // B: T1 80, TA late ungraded, T2 early ungraded (both count nowhere yet), T3 12/20: (0.8 + 0.6) / 2 = 70 %.
    // Q1's best is 3 of 4 (75 %), not the raw 4 of 8 (50 %); QA closed, not taken (0): (0.75 + 0) / 2 = 37.5 → 38.
    expect(pick(row(w.B), cells)).toEqual(["80", "100", "graded", "", "10", "late", "", "50", "submitted", "12", "20", "graded", "3", "4", "taken", "", "2", "not_taken", "70", "38"]);
    // C: T1 50 (late, graded), TA 10/10, the rest not due: (0.5 + 1) / 2 = 75; Q1 open; QA 1 of 2 = 50.
    expect(pick(row(w.C), cells)).toEqual(["50", "100", "graded", "10", "10", "graded", "", "50", "not_due", "", "20", "not_due", "", "4", "open", "1", "2", "taken", "75", "50"]);
    // D: T1 handed in on time, not graded (counts nowhere yet); TA due for the others but extended for D: not due.
    // QA closed for the others, open for D. Nothing counts yet: both percentages empty.
    expect(pick(row(w.D), cells)).toEqual(["", "100", "submitted", "", "10", "not_due", "", "50", "not_due", "", "20", "not_due", "", "4", "open", "", "2", "open", "", ""]);
    // The formula-looking name is escaped, the quoted one read back whole; the removed member is absent.
    expect(row(w.C).student_name).toBe(`'${w.C.name}`);
    expect(row(w.B).student_name).toBe(w.B.name);
    expect(body.some((r) => r[1] === w.E.email)).toBe(false);
  });

  it("the percentages equal those recomputed from the file's own cells and the API's (the screens' numbers)", async () => {
    const w = await theWorld();
    const { header, body } = await apiExport(w, "grades.csv");
    const students = await apiProgress(w);
    const mean = (xs: number[]) => (xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 100) : null);
    for (const row of body) {
      const r = record(header, row);
      // Counted: a graded task or taken quiz at its score / max, a missing task or a closed quiz not taken at 0;
      // submitted-not-graded, late-not-graded, not_due and open cells count nowhere.
      const counted = (kind: string, zero: string) =>
        header
          .filter((h) => h.startsWith(`${kind}:`) && h.endsWith(":status") && r[h] !== "")
          .flatMap((h) => {
            const score = h.replace(/:status$/, ":score");
            if (r[score] !== "") return [Math.min(1, Math.max(0, Number(r[score]) / Number(r[h.replace(/:status$/, ":max_score")])))];
            return r[h] === zero ? [0] : [];
          });
      const api = students.find((s) => s.email === r.email)!;
      expect(r.task_percent).toBe(cell(mean(counted("task", "missing"))));
      expect(r.quiz_percent).toBe(cell(mean(counted("quiz", "not_taken"))));
      expect(r.task_percent).toBe(cell(api.progress.tasks.rate));
      expect(r.quiz_percent).toBe(cell(api.progress.quizzes.rate));
      expect(counted("task", "missing")).toHaveLength(api.progress.tasks.counted);
      expect(counted("quiz", "not_taken")).toHaveLength(api.progress.quizzes.counted);
      expect(header.filter((h) => h.startsWith("quiz:") && h.endsWith(":status"))).toHaveLength(api.progress.quizzes.published);
      // Graded and taken counts match too.
      expect(header.filter((h) => h.startsWith("task:") && h.endsWith(":status") && r[h] === "graded")).toHaveLength(api.progress.tasks.graded);
      expect(header.filter((h) => h.startsWith("quiz:") && h.endsWith(":status") && r[h] === "taken")).toHaveLength(api.progress.quizzes.taken);
      // Submitted = graded + submitted + late; missing = given - submitted.
      const statuses = header.filter((h) => h.startsWith("task:") && h.endsWith(":status")).map((h) => r[h]);
      expect(statuses.filter((x) => x === "graded" || x === "submitted" || x === "late")).toHaveLength(api.progress.tasks.submitted);
      expect(statuses.filter((x) => x === "missing")).toHaveLength(api.progress.tasks.given - api.progress.tasks.submitted);
    }
  });
});

describe("exports: attendance.csv", () => {
  it("statuses are fixed words; the counts equal those recomputed from the cells and the API's", async () => {
    const w = await theWorld();
    const { header, body } = await apiExport(w, "attendance.csv");
    const lectureCols = header.filter((h) => h.startsWith("lecture:"));
    // L1 and LA held; L3 has C's record, so it is a column too; LO's attendance is open.
    expect(lectureCols).toEqual([w.L1, w.LA, w.L3, w.LO].map((l) => `lecture:${l.slug}:status`));
    expect(header.slice(-3)).toEqual(["lectures_attended", "lectures_held", "attendance_percent"]);
    const students = await apiProgress(w);
    expect(body).toHaveLength(students.length);
    for (const row of body) {
      const r = record(header, row);
      const cells = lectureCols.map((h) => r[h]!);
      for (const c of cells) expect(ATTENDANCE_STATUSES).toContain(c);
      for (const h of ["lectures_attended", "lectures_held", "attendance_percent"]) expect(isNumberOrEmpty(r[h]!), `${h}=${r[h]}`).toBe(true);
      const attended = cells.filter((c) => c === "present" || c === "late").length;
      const held = cells.filter((c) => c !== "excused" && c !== "open" && c !== "not_held").length;
      expect([r.lectures_attended, r.lectures_held]).toEqual([String(attended), String(held)]);
      expect(r.attendance_percent).toBe(cell(held ? Math.round((attended / held) * 100) : null));
      const api = students.find((s) => s.email === r.email)!.progress.lectures;
      expect([r.lectures_attended, r.lectures_held, r.attendance_percent]).toEqual([String(api.attended), String(api.held), cell(api.rate)]);
    }
    const row = (u: TestUser) => body.find((r) => r[1] === u.email)!.slice(2);
    // A: no record at LO while its attendance is open: `open`, not absent, and not held for A.
    expect(row(w.A)).toEqual(["absent", "absent", "not_held", "open", "0", "2", "0"]);
    // B checked in at LO: held for B and attended, 3 of 3.
    expect(row(w.B)).toEqual(["present", "late", "not_held", "present", "3", "3", "100"]);
    // C: excused from L1 (not held for C), absent at LA, present at L3 (held for C), LO open: 1 of 2.
    expect(row(w.C)).toEqual(["excused", "absent", "present", "open", "1", "2", "50"]);
  });
});

describe("exports: progress.csv", () => {
  it("every number is the API's (the progress screens') for the same student, to the digit", async () => {
    const w = await theWorld();
    const { header, body } = await apiExport(w, "progress.csv");
    expect(header).toEqual([
      "student_name",
      "email",
      "lectures_attended",
      "lectures_held",
      "attendance_percent",
      "tasks_submitted",
      "tasks_given",
      "tasks_graded",
      "tasks_counted",
      "task_percent",
      "quizzes_taken",
      "quizzes_published",
      "quizzes_counted",
      "quiz_percent",
      "overall_percent",
      "at_risk",
      "at_risk_reasons",
    ]);
    const students = await apiProgress(w);
    expect(body.map((r) => r[1]).sort()).toEqual(students.map((s) => s.email).sort());
    for (const s of students) {
      const p = s.progress;
      const row = body.find((r) => r[1] === s.email)!;
      expect(row.slice(2)).toEqual([
        String(p.lectures.attended),
        String(p.lectures.held),
        cell(p.lectures.rate),
        String(p.tasks.submitted),
        String(p.tasks.given),
        String(p.tasks.graded),
        String(p.tasks.counted),
        cell(p.tasks.rate),
        String(p.quizzes.taken),
        String(p.quizzes.published),
        String(p.quizzes.counted),
        cell(p.quizzes.rate),
        cell(p.overall),
        s.atRisk ? "true" : "false",
        s.atRiskReasons.map((x) => x.kind).join(" "),
      ]);
      for (const c of row.slice(2, -2)) expect(isNumberOrEmpty(c)).toBe(true);
      expect(["", "overall", "attendance", "overall attendance"]).toContain(row[row.length - 1]);
    }
    // Worked by hand. B attended 3 of 3 (L1, LA, and LO where B checked in while it is open); tasks 4 of 4 handed
    // in (T1, TA due; T2 early; T3 without a due time), 2 graded and none missing: (0.8 + 0.6) / 2 = 70; Q1 75 %
    // (open, but taken), QA closed and not taken (0): 2 counted, 37.5 → 38; overall (100 + 70 + 38) / 3 = 69.3 → 69,
    // below 70.
    expect(body.find((r) => r[1] === w.B.email)!.slice(2)).toEqual(["3", "3", "100", "4", "4", "2", "2", "70", "1", "2", "2", "38", "69", "true", "overall"]);
    // A: 0 of 2 (LO open); T1 and TA missing; QA not taken (Q1 open counts nowhere): 0, 0, 0 → 0, both reasons.
    expect(body.find((r) => r[1] === w.A.email)!.slice(2)).toEqual(["0", "2", "0", "0", "2", "0", "2", "0", "0", "2", "1", "0", "0", "true", "overall attendance"]);
    // D: 1 of 2 = 50; T1 waiting for a grade, TA extended (not due for D): none counted; QA extended (open for D),
    // Q1 open: none counted. Only attendance counts: 50.
    expect(body.find((r) => r[1] === w.D.email)!.slice(2)).toEqual(["1", "2", "50", "1", "1", "0", "0", "", "0", "2", "0", "", "50", "true", "overall attendance"]);
  });
});

describe("exports: bad input and cost", () => {
  it("answers bad input with a 4xx and a message, never a 5xx", async () => {
    const w = await theWorld();
    const token = await tokenOf(w.teacher);
    const badLang = await call(`/api/groups/${w.G.slug}/export/grades.csv?lang=fr`, { token });
    expect(badLang.status).toBe(400);
    expect(((await badLang.json()) as { message?: string }).message).toBeTruthy();
    expect((await call(`/api/groups/${w.G.slug}/export/scores.csv`, { token })).status).toBe(404);
    expect((await call(`/api/groups/no-such-group/export/grades.csv`, { token })).status).toBe(404);
    expect((await call(`/api/groups/${encodeURIComponent("a b!")}/export/grades.csv`, { token })).status).toBe(400);
    const session = await signIn(w.teacher);
    expect((await call(`/instructor/group/no-such-group/export/grades.csv`, { cookie: session.cookie, headers: { accept: "text/html" } })).status).toBe(404);
  });

  it("every export issues as many statements for 3 students as for 60", async () => {
    const measure = async (n: number) => {
      const now = Date.now();
      const teacher = await createUser({ role: "instructor" });
      const group = await createGroup({ instructorId: teacher.id });
      const lecture = await lectureIn(group, `l-${group.slug}`, now - DAY, 1);
      const task = await taskOn(lecture, `t-${group.slug}`, now - HOUR, 100);
      const students = Array.from({ length: n }, (_, i) => ({ id: newId(), slug: `${group.slug}-s${i}`, name: `Student ${i}`, email: `${group.slug}-s${i}@test.example`, role: "user" as const }));
      await insertAll(s.users, students);
      await insertAll(s.memberships, students.map((u) => ({ id: newId(), userId: u.id, groupId: group.id, status: "approved" as const })));
      await insertAll(s.attendance, students.map((u) => ({ id: newId(), lectureId: lecture.id, userId: u.id, status: "present" as const, method: "manual" as const, markedAt: new Date(now) })));
      await insertAll(s.submissions, students.map((u, i) => ({ id: newId(), taskId: task.id, userId: u.id, link: "https://github.com/x/y", submittedAt: new Date(now), score: i % 2 ? 70 : null })));
      const viewer = viewerOf(teacher, "count");
      const counts: number[] = [];
      for (const kind of EXPORTS) {
        const counter = countingContext();
        const file = await exportGroupCsv(counter.ctx, viewer, group.slug, kind);
        expect(file.body.split("\r\n").filter(Boolean)).toHaveLength(n + 1);
        counts.push(counter.count());
      }
      return counts;
    };
    expect(await measure(60)).toEqual(await measure(3));
  });
});
