/**
 * Live attendance (PRODUCT.md §3 "Attendance"). Staff open a session on a lecture; students check in with the code
 * the screen shows (worker/services/attendance-codes.ts); staff mark or correct anyone by hand. Every check-in and
 * mark is stored in D1 first, then sent to the group's room, so the projector fills up live and a reconnecting
 * screen catches up by reading the state again. Late is automatic after `lateAfterMinutes`; excused lectures do
 * not count against a student (services/progress.ts).
 */
import { and, desc, eq, gt, inArray, lte, sql, type SQL } from "drizzle-orm";
import type { AttendInput, MarkAttendanceInput, OpenAttendanceInput } from "../../app/lib/lecture-schemas";
import { can, type Actor } from "../../app/lib/permissions";
import type { AttendanceCounts, AttendanceFlag, AttendanceRecordFrameBody, AttendanceSessionFrameBody } from "../../app/lib/realtime-protocol";
import { attendance, attendancePendingCheckins, attendanceSessions, lectures, memberships, sessions, users, MEMBER_STATUSES } from "../../db/schema";
import type { ServiceContext } from "../context";
import { AppError, forbidden, notFound } from "../http/errors";
import { outsider, placeFacts, requireCourseRunning } from "./group-access";
import { publishToGroup, publishToGroupRoomStaff } from "../realtime/publish";
import { keyedHash, type CheckinClient } from "./attendance-client";
import { checkCode, currentCode, windowEndsAt, type CodeClock } from "./attendance-codes";
import { newId } from "./ids";
import { announceLecture, findLecture, requireManagedLecture, type LectureRecord } from "./lectures";
import { hitRateLimit, refundRateLimit } from "./rate-limit";
import { heldSql, joinedAfterSql, lectureTime } from "./lecture-time";
import type { Viewer } from "./sessions";
import { isMember } from "./memberships";
import { countAttendance } from "../../app/lib/attendance-roster";

/**
 * Every way a code is tried (the API, the lecture page, the QR link signed in or out) passes the same limits
 * (ADR 0018): per account, every try (10 a minute); per client address, wrong codes (a classroom behind one address
 * checks in freely, one guesser does not); per lecture, wrong codes (100 a minute: what bounds guessing from many
 * addresses, and what one address alone cannot exhaust to lock a class out). The address's and the lecture's budgets
 * are each kept in two lanes: the group's signed-in members', and signed-out scans' (anybody's). Strangers scanning
 * wrong codes, from many addresses or from the classroom's own, use up only their own lane: the members still check
 * in (signed in, a scan included). An address's members' lane holds five accounts' worth of wrong codes (50 a
 * minute), so one member guessing to their own limit does not lock out the classmates behind the same address
 * (ADR 0041); signed-out scans get 10 an address.
 */
export const ATTEND_LIMIT = { max: 10, windowMs: 60_000 };
export const ATTEND_ADDRESS_LIMIT = { max: 10, windowMs: 60_000 };
export const ATTEND_MEMBERS_ADDRESS_LIMIT = { max: 50, windowMs: 60_000 };
export const ATTEND_LECTURE_LIMIT = { max: 100, windowMs: 60_000 };
const TOO_MANY = "Too many tries. Wait a minute and enter the code on the screen.";
/** How long a scanned QR code stays redeemable while its scanner logs in. */
export const PENDING_CHECKIN_SECONDS = 5 * 60;
/** Check-ins from one address closer together than this are flagged for staff. */
export const SHARED_ADDRESS_WINDOW_MS = 2 * 60_000;

export const ATTEND_MESSAGES = {
  notOpen: "Attendance is not open for this lecture right now.",
  wrong: "That code is not right. Check the code on the screen and try again.",
  expired: "That code has expired. Enter the code on the screen now.",
  notStudent: "Only the group's students check in to its lectures.",
  pendingInvalid: "This check-in belongs to the browser that scanned the code. Scan the code on the screen again.",
  pendingExpired: "That check-in has expired. Scan the code on the screen again.",
  pendingUsed: "That check-in has already been used. Scan the code on the screen again.",
  markedAbsent: "Your instructor marked you absent for this lecture, and a code does not change their mark. Ask them if it is a mistake.",
  draftLecture: "Publish the lecture before marking attendance: its students cannot see a draft.",
  notHeldYet: "This lecture has not taken place yet: mark who was there once it has (a student can be excused ahead of time).",
} as const;

export interface AttendanceSessionRow {
  id: string;
  lectureId: string;
  opensAt: Date;
  closesAt: Date | null;
  rotateSeconds: number | null;
  lateAfterMinutes: number | null;
}

export interface AttendanceStateDto {
  session: (AttendanceSessionFrameBody & { code: string | null; nextCodeAt: string | null; serverTime: string }) | null;
  /** The lecture counts as held (progress's rule): a member without a record counts as not attending it. */
  held: boolean;
  counts: AttendanceCounts;
  roster: AttendanceRecordFrameBody[];
}

const clockOf = (s: AttendanceSessionRow): CodeClock => ({ sessionId: s.id, opensAt: s.opensAt.getTime(), rotateSeconds: s.rotateSeconds });
const isOpen = (s: AttendanceSessionRow, now: number) => s.opensAt.getTime() <= now && (s.closesAt?.getTime() ?? Infinity) > now;

function sessionBody(s: AttendanceSessionRow, now: number): AttendanceSessionFrameBody {
  return {
    open: isOpen(s, now),
    rotateSeconds: s.rotateSeconds ?? 0,
    opensAt: s.opensAt.toISOString(),
    closesAt: (s.closesAt ?? s.opensAt).toISOString(),
    lateAfterMinutes: s.lateAfterMinutes,
  };
}

/** The newest attendance session of a lecture (open or not), or null. */
async function latestSession(ctx: ServiceContext, lectureId: string): Promise<AttendanceSessionRow | null> {
  const [row] = await ctx.db
    .select()
    .from(attendanceSessions)
    .where(eq(attendanceSessions.lectureId, lectureId))
    .orderBy(desc(attendanceSessions.opensAt))
    .limit(1);
  return row ?? null;
}

/**
 * Why a check-in is flagged: a QR scan's check-in redeemed on another network than the scan, the same device
 * fingerprint, the same browser (cookie) for another student of the lecture, or the same address within
 * SHARED_ADDRESS_WINDOW_MS of another student's check-in.
 */
function flagsOf(
  r: { userId: string; device: string | null; browser: string | null; address: string | null; markedAt: Date | null; elsewhere: boolean | null },
  all: { userId: string; device: string | null; browser: string | null; address: string | null; markedAt: Date | null }[],
): AttendanceFlag[] {
  const flags: AttendanceFlag[] = [];
  if (r.elsewhere) flags.push("elsewhere");
  const others = all.filter((o) => o.userId !== r.userId);
  if (r.device && others.some((o) => o.device === r.device)) flags.push("device");
  if (r.browser && others.some((o) => o.browser === r.browser)) flags.push("browser");
  if (r.address && r.markedAt) {
    const at = r.markedAt.getTime();
    if (others.some((o) => o.address === r.address && o.markedAt && Math.abs(o.markedAt.getTime() - at) <= SHARED_ADDRESS_WINDOW_MS)) flags.push("address");
  }
  return flags;
}

/**
 * Counts and roster in one call to D1, whatever the group's size: every member with their record, its flags and
 * whether they joined after the lecture, and whether the lecture counts as held (progress's rule: a member without a
 * record of a held lecture counts as not attending it).
 */
async function roster(ctx: ServiceContext, lecture: LectureRecord, now = Date.now()): Promise<{ held: boolean; counts: AttendanceCounts; roster: AttendanceRecordFrameBody[] }> {
  const [rows, [heldRow]] = await ctx.db.batch([
    ctx.db
      .select({
        userId: users.id,
        name: users.name,
        status: attendance.status,
        method: attendance.method,
        markedAt: attendance.markedAt,
        device: attendance.device,
        browser: attendance.browser,
        address: attendance.address,
        elsewhere: attendance.elsewhere,
        joinedAfter: joinedAfterSql,
      })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .innerJoin(lectures, eq(lectures.id, lecture.id))
      .leftJoin(attendance, and(eq(attendance.lectureId, lecture.id), eq(attendance.userId, memberships.userId)))
      .where(and(eq(memberships.groupId, lecture.groupId), inArray(memberships.status, [...MEMBER_STATUSES])))
      .orderBy(users.name),
    ctx.db.select({ held: heldSql(now) }).from(lectures).where(eq(lectures.id, lecture.id)),
  ]);
  const marked = rows.filter((r) => r.device || r.browser || r.address);
  return {
    held: !!heldRow?.held,
    counts: countAttendance(rows),
    roster: rows.map((r) => {
      const flags = flagsOf(r, marked);
      return {
        user: { _id: r.userId, name: r.name },
        status: r.status ?? null,
        method: r.method ?? null,
        markedAt: r.markedAt ? r.markedAt.toISOString() : null,
        flagged: flags.length > 0,
        flags,
        joinedAfter: !!r.joinedAfter,
      };
    }),
  };
}

/** GET /api/lectures/{id}/attendance (staff): the session with its current code, the counts and the roster. */
export async function getAttendanceState(ctx: ServiceContext, viewer: Actor, lectureIdOrSlug: string, now = Date.now()): Promise<AttendanceStateDto> {
  const lecture = await requireManagedLecture(ctx, viewer, lectureIdOrSlug);
  return stateOf(ctx, lecture, now);
}

/**
 * The statement that marks absent every member of the lecture's group who has no record of it yet, as of `at`
 * (method "code", no staff behind it: a check-in in a later session still replaces it, and staff can correct it).
 * One INSERT ... SELECT whatever the group's size; a record that appears meanwhile is left as it is. `joinedBy`
 * leaves out members who joined after that moment (a session that ended before they were in the group). A member who
 * joined after the lecture took place (its start, or its first session's; the progress rule of ADR 54) is never marked:
 * a lecture held before they joined counts nowhere for them, unless they check in.
 */
function absentRemaining(ctx: ServiceContext, lecture: LectureRecord, at: number, joinedBy?: number, onlyIf?: SQL) {
  return ctx.db
    .insert(attendance)
    .select(
      sql`SELECT lower(hex(randomblob(16))), ${lecture.id}, m.user_id, 'absent', 'code', ${at}, NULL, NULL, NULL, NULL, 0
        FROM memberships m JOIN lectures ON lectures.id = ${lecture.id}
        WHERE m.group_id = ${lecture.groupId} AND m.status IN ('approved', 'special')
          AND NOT EXISTS (SELECT 1 FROM attendance a WHERE a.lecture_id = ${lecture.id} AND a.user_id = m.user_id)
          AND (m.joined_at IS NULL OR m.joined_at <= ${lectureTime})
          ${joinedBy === undefined ? sql`` : sql`AND coalesce(m.decided_at, m.created_at) <= ${joinedBy}`}
          ${onlyIf ? sql`AND ${onlyIf}` : sql``}`,
    )
    .onConflictDoNothing()
    .returning({ userId: attendance.userId });
}

async function stateOf(ctx: ServiceContext, lecture: LectureRecord, now: number): Promise<AttendanceStateDto> {
  const session = await latestSession(ctx, lecture.id);
  // A session that ran out by itself (nobody pressed Close) settles like a closed one when its staff next look.
  if (session?.closesAt && session.closesAt.getTime() <= now) await absentRemaining(ctx, lecture, session.closesAt.getTime(), session.closesAt.getTime());
  const people = await roster(ctx, lecture, now);
  if (!session) return { session: null, ...people };
  const open = isOpen(session, now);
  const ends = open ? windowEndsAt(clockOf(session), now) : null;
  return {
    session: {
      ...sessionBody(session, now),
      code: open ? await currentCode(ctx.settings, clockOf(session), now) : null,
      nextCodeAt: ends ? new Date(ends).toISOString() : null,
      serverTime: new Date(now).toISOString(),
    },
    ...people,
  };
}

/**
 * POST /api/lectures/{id}/attendance/open: a new session (an open one is closed first), announced to the room. A draft
 * lecture is published in the same batch (students cannot check in to a lecture they cannot see) and its members are
 * told, as when a draft is published from the editor.
 */
export async function openAttendance(ctx: ServiceContext, viewer: Viewer, lectureIdOrSlug: string, input: OpenAttendanceInput, now = Date.now()): Promise<AttendanceStateDto> {
  const lecture = await requireManagedLecture(ctx, viewer, lectureIdOrSlug);
  // Nobody could check in (an ended course takes no check-ins): not opened at all.
  requireCourseRunning(viewer, placeFacts(lecture));
  const row = {
    id: newId(),
    lectureId: lecture.id,
    opensAt: new Date(now),
    closesAt: new Date(now + input.durationMinutes * 60_000),
    rotateSeconds: input.rotateSeconds || null,
    lateAfterMinutes: input.lateAfterMinutes,
    createdBy: viewer.userId,
  };
  const [published] = await ctx.db.batch([
    ctx.db
      .update(lectures)
      // Published now, so its schedule is done with: the publisher must not announce it a second time.
      .set({ published: true, publishAt: null })
      .where(and(eq(lectures.id, lecture.id), eq(lectures.published, false)))
      .returning({ id: lectures.id }),
    ctx.db
      .update(attendanceSessions)
      .set({ closesAt: new Date(now) })
      .where(and(eq(attendanceSessions.lectureId, lecture.id), gt(attendanceSessions.closesAt, new Date(now)))),
    ctx.db.insert(attendanceSessions).values(row),
  ]);
  const live = { ...lecture, published: true };
  if (published.length > 0) await announceLecture(ctx, { id: lecture.groupId, slug: lecture.groupSlug, title: lecture.groupTitle }, live);
  ctx.waitUntil(publishToGroup(ctx.env, lecture.groupId, { type: "attendance.opened", lectureId: lecture.id, session: sessionBody(row, now) }));
  return stateOf(ctx, live, now);
}

/**
 * POST /api/lectures/{id}/attendance/close: ends the open session now, and every member who has not checked in
 * becomes absent in the same batch (staff can still correct anyone by hand).
 */
export async function closeAttendance(ctx: ServiceContext, viewer: Viewer, lectureIdOrSlug: string, now = Date.now()): Promise<AttendanceStateDto> {
  const lecture = await requireManagedLecture(ctx, viewer, lectureIdOrSlug);
  const [closed] = await ctx.db.batch([
    ctx.db
      .update(attendanceSessions)
      .set({ closesAt: new Date(now) })
      .where(and(eq(attendanceSessions.lectureId, lecture.id), lte(attendanceSessions.opensAt, new Date(now)), gt(attendanceSessions.closesAt, new Date(now))))
      .returning({ id: attendanceSessions.id }),
    // Only when the statement above closed a session now (one transaction: nothing is marked if nothing closed).
    absentRemaining(ctx, lecture, now, undefined, sql`EXISTS (SELECT 1 FROM attendance_sessions s WHERE s.lecture_id = ${lecture.id} AND s.closes_at = ${now})`),
  ]);
  if (closed.length === 0) throw new AppError(409, "conflict", ATTEND_MESSAGES.notOpen);
  ctx.waitUntil(publishToGroup(ctx.env, lecture.groupId, { type: "attendance.closed", lectureId: lecture.id }));
  return stateOf(ctx, lecture, now);
}

/** Status for a check-in at `at` in a session: late once `lateAfterMinutes` have passed since it opened. */
function statusAt(session: AttendanceSessionRow, at: number): "present" | "late" {
  return session.lateAfterMinutes !== null && at > session.opensAt.getTime() + session.lateAfterMinutes * 60_000 ? "late" : "present";
}

/** Stores a mark (insert, or update when `overwrite` allows) and sends it to the group's staff. */
async function storeMark(
  ctx: ServiceContext,
  lecture: LectureRecord,
  userId: string,
  mark: {
    status: "present" | "late" | "excused" | "absent";
    method: "code" | "manual";
    markedAt: Date;
    markedBy: string | null;
    device: string | null;
    browser: string | null;
    address: string | null;
  },
  overwrite: "always" | "never-over-staff",
) {
  // A typed check-in or a staff mark is never a scan finished elsewhere: a record it replaces loses that flag.
  const values = { ...mark, elsewhere: false };
  const inserted = await ctx.db
    .insert(attendance)
    .values({ id: newId(), lectureId: lecture.id, userId, ...values })
    .onConflictDoUpdate({
      target: [attendance.lectureId, attendance.userId],
      set: values,
      // A check-in never replaces a staff mark (absent, excused, late or present set by hand stands).
      ...(overwrite === "never-over-staff" ? { setWhere: sql`${attendance.status} = 'absent' and ${attendance.method} <> 'manual'` } : {}),
    })
    .returning();
  const [row] = inserted.length
    ? inserted
    : await ctx.db.select().from(attendance).where(and(eq(attendance.lectureId, lecture.id), eq(attendance.userId, userId)));
  const changed = inserted.length > 0;
  if (changed) announceMark(ctx, lecture, userId);
  return row!;
}

/** Sends a stored mark to the group's staff (after the response, like every frame). */
function announceMark(ctx: ServiceContext, lecture: LectureRecord, userId: string) {
  ctx.waitUntil(
    (async () => {
      const frame = await markFrame(ctx, lecture, userId);
      if (frame) await publishToGroupRoomStaff(ctx.env, lecture.groupId, lecture.instructorId, frame);
    })(),
  );
}

/**
 * The live frame for one mark: that student's record (with its shared-device flag) and the lecture's counts, in
 * one batch of two queries whatever the group's size (a burst of 300 check-ins must not read the roster 300 times).
 */
async function markFrame(ctx: ServiceContext, lecture: LectureRecord, userId: string) {
  const [byStatus, [row]] = await ctx.db.batch([
    ctx.db
      .select({ status: attendance.status, joinedAfter: joinedAfterSql, n: sql<number>`count(*)` })
      .from(memberships)
      .innerJoin(lectures, eq(lectures.id, lecture.id))
      .leftJoin(attendance, and(eq(attendance.lectureId, lecture.id), eq(attendance.userId, memberships.userId)))
      .where(and(eq(memberships.groupId, lecture.groupId), inArray(memberships.status, [...MEMBER_STATUSES])))
      .groupBy(attendance.status, joinedAfterSql),
    ctx.db
      .select({
        name: users.name,
        status: attendance.status,
        method: attendance.method,
        markedAt: attendance.markedAt,
        elsewhere: attendance.elsewhere,
        joinedAfter: joinedAfterSql,
        sameDevice: sql<number>`(select count(*) from attendance a2 where a2.lecture_id = ${lecture.id} and a2.device = ${attendance.device})`,
        sameBrowser: sql<number>`(select count(*) from attendance a2 where a2.lecture_id = ${lecture.id} and a2.browser = ${attendance.browser})`,
        sameAddress: sql<number>`(select count(*) from attendance a2 where a2.lecture_id = ${lecture.id} and a2.address = ${attendance.address}
          and a2.marked_at between ${attendance.markedAt} - ${SHARED_ADDRESS_WINDOW_MS} and ${attendance.markedAt} + ${SHARED_ADDRESS_WINDOW_MS})`,
      })
      .from(attendance)
      .innerJoin(users, eq(users.id, attendance.userId))
      .innerJoin(lectures, eq(lectures.id, attendance.lectureId))
      .leftJoin(memberships, and(eq(memberships.groupId, lectures.groupId), eq(memberships.userId, attendance.userId)))
      .where(and(eq(attendance.lectureId, lecture.id), eq(attendance.userId, userId))),
  ]);
  if (!row) return null;
  const flags: AttendanceFlag[] = [];
  if (row.elsewhere) flags.push("elsewhere");
  if (row.sameDevice > 1) flags.push("device");
  if (row.sameBrowser > 1) flags.push("browser");
  if (row.sameAddress > 1) flags.push("address");
  const counts = countAttendance(byStatus);
  return {
    type: "attendance.marked" as const,
    lectureId: lecture.id,
    record: {
      user: { _id: userId, name: row.name },
      status: row.status,
      method: row.method,
      markedAt: row.markedAt.toISOString(),
      flagged: flags.length > 0,
      flags,
      joinedAfter: !!row.joinedAfter,
    },
    counts,
  };
}

/** The device a check-in comes from: the fingerprint the client sent, else the one its session was opened with. */
async function deviceOf(ctx: ServiceContext, viewer: Viewer, fingerprint: string | undefined): Promise<string | null> {
  if (fingerprint) return `fp:${fingerprint}`;
  const [row] = await ctx.db.select({ fingerprint: sessions.fingerprint }).from(sessions).where(eq(sessions.id, viewer.sessionId));
  return row?.fingerprint ? `fp:${row.fingerprint}` : null;
}

async function requireStudentLecture(ctx: ServiceContext, viewer: Viewer, slugOrId: string): Promise<LectureRecord> {
  const lecture = await findLecture(ctx, viewer, slugOrId);
  if (!lecture || !lecture.published) throw notFound("No such lecture.");
  if (!isMember(lecture)) throw outsider(viewer, placeFacts(lecture), ATTEND_MESSAGES.notStudent, "No such lecture.");
  requireCourseRunning(viewer, placeFacts(lecture));
  return lecture;
}

export interface AttendResult {
  status: "present" | "late" | "excused" | "absent";
  markedAt: string;
}

/**
 * Judges a code against a session under the address and lecture limits: the hits are taken before the check (so
 * parallel guesses cannot slip under a limit) and given back unless the code was wrong, so only guesses count there.
 */
async function judgeCode(ctx: ServiceContext, lectureId: string, session: AttendanceSessionRow, code: string, now: number, lane: "members" | "signed-out"): Promise<void> {
  const members = lane === "members";
  const keys = members ? [`attend-address:${ctx.ip}`, `attend-lecture:${lectureId}`] : [`attend-address-scan:${ctx.ip}`, `attend-lecture-scan:${lectureId}`];
  await hitRateLimit(ctx, keys[0]!, members ? ATTEND_MEMBERS_ADDRESS_LIMIT : ATTEND_ADDRESS_LIMIT, TOO_MANY);
  await hitRateLimit(ctx, keys[1]!, ATTEND_LECTURE_LIMIT, TOO_MANY);
  const check = await checkCode(ctx.settings, clockOf(session), code, now);
  if (check !== "wrong") await Promise.all(keys.map((key) => refundRateLimit(ctx, key)));
  if (check !== "valid") {
    const message = check === "expired" ? ATTEND_MESSAGES.expired : ATTEND_MESSAGES.wrong;
    throw new AppError(400, "invalid_code", message, members ? { code: message } : undefined);
  }
}

/** The hashed address of this request, as a check-in is stored with it (for the roster's flags). */
async function addressMark(ctx: ServiceContext): Promise<string | null> {
  return ctx.ip ? `ip:${await keyedHash(ctx.settings, "address", ctx.ip)}` : null;
}

/** The hashed browser and address a check-in is stored with (for the roster's flags). */
async function clientMarks(ctx: ServiceContext, client: CheckinClient): Promise<{ browser: string | null; address: string | null }> {
  return {
    browser: client.browser ? `br:${await keyedHash(ctx.settings, "browser", client.browser)}` : null,
    address: await addressMark(ctx),
  };
}

/**
 * POST /api/lectures/attend {slugLec, code}, the lecture page and a signed-in QR scan: the caller checks in with the
 * code on the screen. Repeating answers the record already stored (a staff mark stands: one that says absent is a 409
 * `marked_absent`); a wrong, expired or closed code is a 400/409 with a clear message; past a limit a 429 with Retry-After.
 */
export async function attend(ctx: ServiceContext, viewer: Viewer, input: AttendInput, now = Date.now(), client: CheckinClient = { browser: null }): Promise<AttendResult> {
  await hitRateLimit(ctx, `attend:${viewer.userId}`, ATTEND_LIMIT, TOO_MANY);
  const lecture = await requireStudentLecture(ctx, viewer, input.slugLec);
  const session = await latestSession(ctx, lecture.id);
  if (!session || !isOpen(session, now)) throw new AppError(409, "attendance_closed", ATTEND_MESSAGES.notOpen);
  await judgeCode(ctx, lecture.id, session, input.code, now, "members");
  const row = await storeMark(
    ctx,
    lecture,
    viewer.userId,
    {
      status: statusAt(session, now),
      method: "code",
      markedAt: new Date(now),
      markedBy: null,
      device: await deviceOf(ctx, viewer, input.fingerprint),
      ...(await clientMarks(ctx, client)),
    },
    "never-over-staff",
  );
  // A staff mark stands; one that says absent is not a check-in, and the student is told why the code changed nothing.
  if (row.status === "absent" && row.method === "manual") throw new AppError(409, "marked_absent", ATTEND_MESSAGES.markedAbsent);
  return { status: row.status, markedAt: row.markedAt.toISOString() };
}

/** POST /api/attendance (staff): marks or corrects one member by hand; sent like a check-in. */
export async function markAttendance(ctx: ServiceContext, viewer: Viewer, input: MarkAttendanceInput, now = Date.now()): Promise<AttendanceRecordFrameBody> {
  const lecture = await requireManagedLecture(ctx, viewer, input.lectureId);
  // Marks count in progress: not on a lecture its students cannot see, and not (but "excused") before it took place,
  // which is its start time or an attendance session opened for it.
  if (!lecture.published) throw new AppError(409, "lecture_draft", ATTEND_MESSAGES.draftLecture);
  // Dated later than now: it took place early only if attendance was opened for it.
  const ahead = input.status !== "excused" && lecture.startsAt !== null && lecture.startsAt.getTime() > now;
  const [[member], session] = await Promise.all([
    ctx.db
      .select({ id: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.groupId, lecture.groupId), eq(memberships.userId, input.userId), inArray(memberships.status, [...MEMBER_STATUSES]))),
    ahead ? latestSession(ctx, lecture.id) : null,
  ]);
  if (!member) throw notFound("That person is not a student of this group.");
  if (ahead && !(session && session.opensAt.getTime() <= now)) throw new AppError(409, "lecture_not_held", ATTEND_MESSAGES.notHeldYet);
  await storeMark(
    ctx,
    lecture,
    input.userId,
    { status: input.status, method: "manual", markedAt: new Date(now), markedBy: viewer.userId, device: null, browser: null, address: null },
    "always",
  );
  const people = await roster(ctx, lecture);
  return people.roster.find((r) => r.user._id === input.userId)!;
}

/** GET /api/lectures/{id}/get-user-attendance-status-in-group: the caller's status (staff: the whole state). */
export async function attendanceStatusFor(ctx: ServiceContext, viewer: Viewer, lectureIdOrSlug: string, now = Date.now()) {
  const lecture = await findLecture(ctx, viewer, lectureIdOrSlug);
  if (!lecture) throw notFound("No such lecture.");
  if (can(viewer, "group.manage", { group: lecture })) return stateOf(ctx, lecture, now);
  if (!lecture.published) throw notFound("No such lecture.");
  if (!can(viewer, "group.viewInside", { group: lecture })) throw outsider(viewer, placeFacts(lecture), "Only the group's members and staff can see its lectures.", "No such lecture.");
  const [[mine], session] = await Promise.all([
    ctx.db.select({ status: attendance.status, markedAt: attendance.markedAt }).from(attendance).where(and(eq(attendance.lectureId, lecture.id), eq(attendance.userId, viewer.userId))),
    latestSession(ctx, lecture.id),
  ]);
  return {
    lecture: { _id: lecture.id, slug: lecture.slug },
    status: mine?.status ?? null,
    markedAt: mine ? mine.markedAt.toISOString() : null,
    attendanceOpen: !!session && isOpen(session, now),
  };
}


/* ---------------------------------------------------------------------------------------------------------------
 * QR check-in from a signed-out phone (ADR 0018): the code is judged when it is scanned, under the same limits as
 * every other try. A pending check-in row remembers the judgement (lecture, session, status at the scan, the scan's
 * time) and belongs to the scanning browser: only a keyed hash of that browser's HttpOnly cookie is stored, and the
 * id in the login's return link is useless without the cookie. It is redeemed once, within 5 minutes, while that
 * attendance session is still open, and never over a staff mark.
 * ------------------------------------------------------------------------------------------------------------- */

const PENDING_ID = /^[A-Za-z0-9_-]{22}$/;

/** Judges a scanned code now and, when it is valid, stores a pending check-in for the scanning browser. */
export async function scanCode(
  ctx: ServiceContext,
  slugLec: string,
  code: string,
  client: { browser: string },
  now = Date.now(),
): Promise<{ pendingId: string; lecture: { slug: string; groupSlug: string } }> {
  const lecture = await findLecture(ctx, { userId: "", role: "user" }, slugLec);
  if (!lecture || !lecture.published) throw notFound("No such lecture.");
  const session = await latestSession(ctx, lecture.id);
  if (!session || !isOpen(session, now)) throw new AppError(409, "attendance_closed", ATTEND_MESSAGES.notOpen);
  await judgeCode(ctx, lecture.id, session, code, now, "signed-out");
  const pendingId = newId();
  await ctx.db.insert(attendancePendingCheckins).values({
    id: pendingId,
    lectureId: lecture.id,
    sessionId: session.id,
    browserHash: await keyedHash(ctx.settings, "pending", client.browser),
    scanAddress: await addressMark(ctx),
    status: statusAt(session, now),
    scannedAt: new Date(now),
    expiresAt: new Date(now + PENDING_CHECKIN_SECONDS * 1000),
  });
  return { pendingId, lecture: { slug: lecture.slug, groupSlug: lecture.groupSlug } };
}

/**
 * Redeems a pending check-in for the signed-in viewer in the browser that scanned it, dated at the scan. The claim
 * and the mark are one D1 batch (one transaction): a pending check-in is used exactly once, and never without its
 * mark. `checkedIn` is false when a record already stood (a staff mark, or an earlier check-in): it is left as it is.
 */
export async function redeemPendingCheckin(
  ctx: ServiceContext,
  viewer: Viewer,
  pending: { id: string; browser: string | null },
  now = Date.now(),
): Promise<AttendResult & { checkedIn: boolean; lecture: { slug: string; groupSlug: string } }> {
  const invalid = () => new AppError(400, "invalid_code", ATTEND_MESSAGES.pendingInvalid);
  if (!pending.browser || !PENDING_ID.test(pending.id)) throw invalid();
  const [row] = await ctx.db.select().from(attendancePendingCheckins).where(eq(attendancePendingCheckins.id, pending.id));
  if (!row || row.browserHash !== (await keyedHash(ctx.settings, "pending", pending.browser))) throw invalid();
  if (row.usedAt) throw new AppError(409, "conflict", ATTEND_MESSAGES.pendingUsed);
  if (row.expiresAt.getTime() <= now) throw new AppError(400, "invalid_code", ATTEND_MESSAGES.pendingExpired);
  const lecture = await requireStudentLecture(ctx, viewer, row.lectureId);
  const [session] = await ctx.db.select().from(attendanceSessions).where(eq(attendanceSessions.id, row.sessionId));
  if (!session || !isOpen(session, now)) throw new AppError(409, "attendance_closed", ATTEND_MESSAGES.notOpen);

  // The address is the scan's, not this request's: a check-in minted in the classroom and handed to a friend at home
  // carries the classroom's address, so several of them from one scanner are flagged like any shared network. And
  // redeemed on another network than the scan's (the scanner's browser cookie and link sent to someone elsewhere),
  // it is flagged for staff as such: the scanner and the person signing in are not in one place.
  const here = await clientMarks(ctx, { browser: pending.browser });
  const elsewhere = !!row.scanAddress && !!here.address && row.scanAddress !== here.address;
  const marks = { device: await deviceOf(ctx, viewer, undefined), ...here, address: row.scanAddress ?? here.address };
  const [claimed, inserted] = await ctx.db.batch([
    ctx.db
      .update(attendancePendingCheckins)
      .set({ usedAt: new Date(now), usedBy: viewer.userId })
      .where(and(eq(attendancePendingCheckins.id, row.id), sql`${attendancePendingCheckins.usedAt} is null`, gt(attendancePendingCheckins.expiresAt, new Date(now))))
      .returning({ id: attendancePendingCheckins.id }),
    // Inserts only when the claim above is this request's (same user, same moment), and over no staff mark.
    ctx.db
      .insert(attendance)
      .select(
        sql`SELECT ${newId()}, ${lecture.id}, ${viewer.userId}, ${row.status}, 'code', ${row.scannedAt.getTime()}, NULL, ${marks.device}, ${marks.browser}, ${marks.address}, ${elsewhere ? 1 : 0}
          WHERE EXISTS (SELECT 1 FROM attendance_pending_checkins p WHERE p.id = ${row.id} AND p.used_by = ${viewer.userId} AND p.used_at = ${now})`,
      )
      .onConflictDoUpdate({
        target: [attendance.lectureId, attendance.userId],
        set: {
          status: sql`excluded.status`,
          method: sql`excluded.method`,
          markedAt: sql`excluded.marked_at`,
          markedBy: null,
          device: sql`excluded.device`,
          browser: sql`excluded.browser`,
          address: sql`excluded.address`,
          elsewhere: sql`excluded.elsewhere`,
        },
        setWhere: sql`${attendance.status} = 'absent' and ${attendance.method} <> 'manual'`,
      })
      .returning({ id: attendance.id }),
  ]);
  if (claimed.length === 0) throw new AppError(409, "conflict", ATTEND_MESSAGES.pendingUsed);
  const checkedIn = inserted.length > 0;
  if (checkedIn) announceMark(ctx, lecture, viewer.userId);
  const [stored] = await ctx.db
    .select({ status: attendance.status, markedAt: attendance.markedAt })
    .from(attendance)
    .where(and(eq(attendance.lectureId, lecture.id), eq(attendance.userId, viewer.userId)));
  if (!stored) throw new AppError(409, "conflict", ATTEND_MESSAGES.pendingUsed);
  return { status: stored.status, markedAt: stored.markedAt.toISOString(), checkedIn, lecture: { slug: lecture.slug, groupSlug: lecture.groupSlug } };
}
