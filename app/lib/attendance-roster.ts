import type { AttendanceCounts, AttendanceRecordFrameBody } from "./realtime-protocol";

/**
 * A lecture's attendance counts, from its roster of members (one definition for the server's answer and the staff
 * screen): present, late and excused by their status, everyone else (not marked, or marked absent) absent.
 */
export function countAttendance(roster: readonly { status: AttendanceRecordFrameBody["status"] }[]): AttendanceCounts {
  const counts: AttendanceCounts = { present: 0, late: 0, excused: 0, absent: 0, members: roster.length };
  for (const r of roster) {
    if (r.status === "present" || r.status === "late" || r.status === "excused") counts[r.status]++;
    else counts.absent++;
  }
  return counts;
}

/**
 * A live mark applied to the staff screen's roster. Marks of one burst are read and sent by different requests, so
 * their frames may arrive out of order: the screen keeps each student's newest record (by `markedAt`; an older
 * frame changes nothing) and counts its own roster rather than taking the last frame's counts, which were read
 * at that frame's moment. Returns null when the student is not on the roster (read the whole state again).
 */
export function applyMark<T extends { counts: AttendanceCounts; roster: AttendanceRecordFrameBody[] }>(state: T, record: AttendanceRecordFrameBody): T | null {
  const at = (r: AttendanceRecordFrameBody) => (r.markedAt ? Date.parse(r.markedAt) : Number.NEGATIVE_INFINITY);
  let found = false;
  const roster = state.roster.map((r) => {
    if (r.user._id !== record.user._id) return r;
    found = true;
    return at(record) >= at(r) ? record : r;
  });
  if (!found) return null;
  return { ...state, roster, counts: countAttendance(roster) };
}
