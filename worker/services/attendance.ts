/**
 * Live attendance (PRODUCT.md §3 "Attendance"). Staff open a session on a lecture; students check in with the code
 * the screen shows (worker/services/attendance-codes.ts); staff mark or correct anyone by hand. Every check-in and
 * mark is stored in D1 first, then sent to the group's room, so the projector fills up live and a reconnecting
 * screen catches up by reading the state again. Late is automatic after `lateAfterMinutes`; excused lectures do
 * not count against a student (services/progress.ts).
 */
import { jwtVerify, SignJWT } from "jose";
import { and, desc, eq, gt, inArray, lte, sql } from "drizzle-orm";
import { z } from "zod";
import type { AttendInput, MarkAttendanceInput, OpenAttendanceInput } from "../../app/lib/lecture-schemas";
import { can, type Actor } from "../../app/lib/permissions";
import type { AttendanceCounts, AttendanceRecordFrameBody, AttendanceSessionFrameBody } from "../../app/lib/realtime-protocol";
import { attendance, attendanceSessions, memberships, sessions, users, MEMBER_STATUSES } from "../../db/schema";
import { hasAlgorithm } from "../auth/tokens";
import type { ServiceContext } from "../context";
import type { Settings } from "../env";
import { AppError, forbidden, notFound } from "../http/errors";
import { publishToGroup, publishToGroupRoomStaff } from "../realtime/publish";
import { checkCode, currentCode, windowEndsAt, type CodeClock } from "./attendance-codes";
import { newId } from "./ids";
import { findLecture, requireManagedLecture, type LectureRecord } from "./lectures";
import { hitRateLimit } from "./rate-limit";
import type { Viewer } from "./sessions";
import { isMember } from "./memberships";

/** Check-in tries per student per minute (a mistyped code is fine, guessing is not). */
export const ATTEND_LIMIT = { max: 10, windowMs: 60_000 };
/** How long a scanned QR code stays redeemable while its scanner logs in. */
export const PENDING_CHECKIN_SECONDS = 5 * 60;

export const ATTEND_MESSAGES = {
  notOpen: "Attendance is not open for this lecture right now.",
  wrong: "That code is not right. Check the code on the screen and try again.",
  expired: "That code has expired. Enter the code on the screen now.",
  notStudent: "Only the group's students check in to its lectures.",
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

/** Counts and roster in two queries, whatever the group's size: every member with their record, flags by device. */
async function roster(ctx: ServiceContext, lecture: LectureRecord): Promise<{ counts: AttendanceCounts; roster: AttendanceRecordFrameBody[] }> {
  const rows = await ctx.db
    .select({ userId: users.id, name: users.name, status: attendance.status, method: attendance.method, markedAt: attendance.markedAt, device: attendance.device })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(attendance, and(eq(attendance.lectureId, lecture.id), eq(attendance.userId, memberships.userId)))
    .where(and(eq(memberships.groupId, lecture.groupId), inArray(memberships.status, [...MEMBER_STATUSES])))
    .orderBy(users.name);
  const devices = new Map<string, number>();
  for (const r of rows) if (r.device) devices.set(r.device, (devices.get(r.device) ?? 0) + 1);
  const counts: AttendanceCounts = { present: 0, late: 0, excused: 0, absent: 0, members: rows.length };
  for (const r of rows) {
    if (r.status === "present" || r.status === "late" || r.status === "excused") counts[r.status]++;
    else counts.absent++;
  }
  return {
    counts,
    roster: rows.map((r) => ({
      user: { _id: r.userId, name: r.name },
      status: r.status ?? null,
      method: r.method ?? null,
      markedAt: r.markedAt ? r.markedAt.toISOString() : null,
      flagged: !!r.device && (devices.get(r.device) ?? 0) > 1,
    })),
  };
}

/** GET /api/lectures/{id}/attendance (staff): the session with its current code, the counts and the roster. */
export async function getAttendanceState(ctx: ServiceContext, viewer: Actor, lectureIdOrSlug: string, now = Date.now()): Promise<AttendanceStateDto> {
  const lecture = await requireManagedLecture(ctx, viewer, lectureIdOrSlug);
  return stateOf(ctx, lecture, now);
}

async function stateOf(ctx: ServiceContext, lecture: LectureRecord, now: number): Promise<AttendanceStateDto> {
  const [session, people] = await Promise.all([latestSession(ctx, lecture.id), roster(ctx, lecture)]);
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

/** POST /api/lectures/{id}/attendance/open: a new session (an open one is closed first), announced to the room. */
export async function openAttendance(ctx: ServiceContext, viewer: Viewer, lectureIdOrSlug: string, input: OpenAttendanceInput, now = Date.now()): Promise<AttendanceStateDto> {
  const lecture = await requireManagedLecture(ctx, viewer, lectureIdOrSlug);
  const row = {
    id: newId(),
    lectureId: lecture.id,
    opensAt: new Date(now),
    closesAt: new Date(now + input.durationMinutes * 60_000),
    rotateSeconds: input.rotateSeconds || null,
    lateAfterMinutes: input.lateAfterMinutes,
    createdBy: viewer.userId,
  };
  await ctx.db.batch([
    ctx.db
      .update(attendanceSessions)
      .set({ closesAt: new Date(now) })
      .where(and(eq(attendanceSessions.lectureId, lecture.id), gt(attendanceSessions.closesAt, new Date(now)))),
    ctx.db.insert(attendanceSessions).values(row),
  ]);
  ctx.waitUntil(publishToGroup(ctx.env, lecture.groupId, { type: "attendance.opened", lectureId: lecture.id, session: sessionBody(row, now) }));
  return stateOf(ctx, lecture, now);
}

/** POST /api/lectures/{id}/attendance/close: ends the open session now. */
export async function closeAttendance(ctx: ServiceContext, viewer: Viewer, lectureIdOrSlug: string, now = Date.now()): Promise<AttendanceStateDto> {
  const lecture = await requireManagedLecture(ctx, viewer, lectureIdOrSlug);
  const closed = await ctx.db
    .update(attendanceSessions)
    .set({ closesAt: new Date(now) })
    .where(and(eq(attendanceSessions.lectureId, lecture.id), lte(attendanceSessions.opensAt, new Date(now)), gt(attendanceSessions.closesAt, new Date(now))))
    .returning({ id: attendanceSessions.id });
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
  mark: { status: "present" | "late" | "excused" | "absent"; method: "code" | "manual"; markedAt: Date; markedBy: string | null; device: string | null },
  overwrite: "always" | "only-absent",
) {
  const inserted = await ctx.db
    .insert(attendance)
    .values({ id: newId(), lectureId: lecture.id, userId, ...mark })
    .onConflictDoUpdate({
      target: [attendance.lectureId, attendance.userId],
      set: mark,
      ...(overwrite === "only-absent" ? { setWhere: sql`${attendance.status} = 'absent'` } : {}),
    })
    .returning();
  const [row] = inserted.length
    ? inserted
    : await ctx.db.select().from(attendance).where(and(eq(attendance.lectureId, lecture.id), eq(attendance.userId, userId)));
  const changed = inserted.length > 0;
  if (changed) {
    ctx.waitUntil(
      (async () => {
        const frame = await markFrame(ctx, lecture, userId);
        if (frame) await publishToGroupRoomStaff(ctx.env, lecture.groupId, lecture.instructorId, frame);
      })(),
    );
  }
  return row!;
}

/**
 * The live frame for one mark: that student's record (with its shared-device flag) and the lecture's counts, in
 * one batch of two queries whatever the group's size (a burst of 300 check-ins must not read the roster 300 times).
 */
async function markFrame(ctx: ServiceContext, lecture: LectureRecord, userId: string) {
  const [byStatus, [row]] = await ctx.db.batch([
    ctx.db
      .select({ status: attendance.status, n: sql<number>`count(*)` })
      .from(memberships)
      .leftJoin(attendance, and(eq(attendance.lectureId, lecture.id), eq(attendance.userId, memberships.userId)))
      .where(and(eq(memberships.groupId, lecture.groupId), inArray(memberships.status, [...MEMBER_STATUSES])))
      .groupBy(attendance.status),
    ctx.db
      .select({
        name: users.name,
        status: attendance.status,
        method: attendance.method,
        markedAt: attendance.markedAt,
        sameDevice: sql<number>`(select count(*) from attendance a2 where a2.lecture_id = ${lecture.id} and a2.device = ${attendance.device})`,
      })
      .from(attendance)
      .innerJoin(users, eq(users.id, attendance.userId))
      .where(and(eq(attendance.lectureId, lecture.id), eq(attendance.userId, userId))),
  ]);
  if (!row) return null;
  const counts: AttendanceCounts = { present: 0, late: 0, excused: 0, absent: 0, members: 0 };
  for (const c of byStatus) {
    counts.members += c.n;
    if (c.status === "present" || c.status === "late" || c.status === "excused") counts[c.status] += c.n;
    else counts.absent += c.n;
  }
  return {
    type: "attendance.marked" as const,
    lectureId: lecture.id,
    record: { user: { _id: userId, name: row.name }, status: row.status, method: row.method, markedAt: row.markedAt.toISOString(), flagged: row.sameDevice > 1 },
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
  if (!isMember(lecture)) throw forbidden(ATTEND_MESSAGES.notStudent);
  return lecture;
}

export interface AttendResult {
  status: "present" | "late" | "excused" | "absent";
  markedAt: string;
}

/**
 * POST /api/lectures/attend {slugLec, code}: the caller checks in with the code on the screen. Repeating answers
 * the record already stored; a wrong, expired or closed code is a 400/409 with a clear message.
 */
export async function attend(ctx: ServiceContext, viewer: Viewer, input: AttendInput, now = Date.now()): Promise<AttendResult> {
  await hitRateLimit(ctx, `attend:${viewer.userId}`, ATTEND_LIMIT, "Too many tries. Wait a minute and enter the code on the screen.");
  const lecture = await requireStudentLecture(ctx, viewer, input.slugLec);
  const session = await latestSession(ctx, lecture.id);
  if (!session || !isOpen(session, now)) throw new AppError(409, "attendance_closed", ATTEND_MESSAGES.notOpen);
  const check = await checkCode(ctx.settings, clockOf(session), input.code, now);
  if (check !== "valid") {
    const message = check === "expired" ? ATTEND_MESSAGES.expired : ATTEND_MESSAGES.wrong;
    throw new AppError(400, "invalid_code", message, { code: message });
  }
  const row = await storeMark(
    ctx,
    lecture,
    viewer.userId,
    { status: statusAt(session, now), method: "code", markedAt: new Date(now), markedBy: null, device: await deviceOf(ctx, viewer, input.fingerprint) },
    "only-absent",
  );
  return { status: row.status, markedAt: row.markedAt.toISOString() };
}

/** POST /api/attendance (staff): marks or corrects one member by hand; sent like a check-in. */
export async function markAttendance(ctx: ServiceContext, viewer: Viewer, input: MarkAttendanceInput, now = Date.now()): Promise<AttendanceRecordFrameBody> {
  const lecture = await requireManagedLecture(ctx, viewer, input.lectureId);
  const [member] = await ctx.db
    .select({ id: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.groupId, lecture.groupId), eq(memberships.userId, input.userId), inArray(memberships.status, [...MEMBER_STATUSES])));
  if (!member) throw notFound("That person is not a student of this group.");
  await storeMark(ctx, lecture, input.userId, { status: input.status, method: "manual", markedAt: new Date(now), markedBy: viewer.userId, device: null }, "always");
  const people = await roster(ctx, lecture);
  return people.roster.find((r) => r.user._id === input.userId)!;
}

/** GET /api/lectures/{id}/get-user-attendance-status-in-group: the caller's status (staff: the whole state). */
export async function attendanceStatusFor(ctx: ServiceContext, viewer: Viewer, lectureIdOrSlug: string, now = Date.now()) {
  const lecture = await findLecture(ctx, viewer, lectureIdOrSlug);
  if (!lecture) throw notFound("No such lecture.");
  if (can(viewer, "group.manage", { group: lecture })) return stateOf(ctx, lecture, now);
  if (!can(viewer, "group.viewInside", { group: lecture })) throw forbidden("Only the group's members and staff can see its lectures.");
  if (!lecture.published) throw notFound("No such lecture.");
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
 * QR check-in from a signed-out phone: the code is judged when it is scanned; a signed, 5-minute pending check-in
 * carries that judgement through the login, and is redeemed for whoever signs in (if they are a member).
 * ------------------------------------------------------------------------------------------------------------- */

const pendingClaims = z.object({ lec: z.string(), ses: z.string(), at: z.number(), st: z.enum(["present", "late"]) });
const pendingKey = (settings: Settings) => new TextEncoder().encode(`pending-checkin:${settings.authSecret}`);

/** Judges a scanned code now and, when it is valid, answers a pending check-in token (else the refusal). */
export async function scanCode(ctx: ServiceContext, slugLec: string, code: string, now = Date.now()): Promise<{ token: string; lecture: { slug: string; groupSlug: string } }> {
  const lecture = await findLecture(ctx, { userId: "", role: "user" }, slugLec);
  if (!lecture || !lecture.published) throw notFound("No such lecture.");
  const session = await latestSession(ctx, lecture.id);
  if (!session || !isOpen(session, now)) throw new AppError(409, "attendance_closed", ATTEND_MESSAGES.notOpen);
  const check = await checkCode(ctx.settings, clockOf(session), code, now);
  if (check !== "valid") throw new AppError(400, "invalid_code", check === "expired" ? ATTEND_MESSAGES.expired : ATTEND_MESSAGES.wrong);
  const token = await new SignJWT({ lec: lecture.id, ses: session.id, at: now, st: statusAt(session, now) })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(now / 1000) + PENDING_CHECKIN_SECONDS)
    .sign(pendingKey(ctx.settings));
  return { token, lecture: { slug: lecture.slug, groupSlug: lecture.groupSlug } };
}

/** Redeems a pending check-in for the signed-in viewer, dated at the scan. */
export async function redeemPendingCheckin(ctx: ServiceContext, viewer: Viewer, token: string): Promise<AttendResult & { lecture: { slug: string; groupSlug: string } }> {
  if (!hasAlgorithm(token, "HS256")) throw new AppError(400, "invalid_code", "That check-in link is not valid. Scan the code on the screen again.");
  let claims: z.infer<typeof pendingClaims>;
  try {
    const { payload } = await jwtVerify(token, pendingKey(ctx.settings), { algorithms: ["HS256"] });
    claims = pendingClaims.parse(payload);
  } catch {
    throw new AppError(400, "invalid_code", "That check-in link has expired. Scan the code on the screen again.");
  }
  const lecture = await requireStudentLecture(ctx, viewer, claims.lec);
  const row = await storeMark(
    ctx,
    lecture,
    viewer.userId,
    { status: claims.st, method: "code", markedAt: new Date(claims.at), markedBy: null, device: await deviceOf(ctx, viewer, undefined) },
    "only-absent",
  );
  return { status: row.status, markedAt: row.markedAt.toISOString(), lecture: { slug: lecture.slug, groupSlug: lecture.groupSlug } };
}
