import type { AttendanceCounts, AttendanceRecordFrameBody } from "./realtime-protocol";

/**
 * A lecture's attendance counts, from its roster of members (one definition for the server's answer, its live frames
 * and the staff screen): present, late and excused by their status, everyone else (not marked, or marked absent)
 * absent. A member who joined after the lecture took place and has no record of it is not counted at all, as
 * Progress counts nothing of a lecture from before joining. `n`: how many members a row stands for (1 if absent).
 */
export function countAttendance(roster: readonly { status: AttendanceRecordFrameBody["status"]; joinedAfter: boolean | number; n?: number }[]): AttendanceCounts {
  const counts: AttendanceCounts = { present: 0, late: 0, excused: 0, absent: 0, members: 0 };
  for (const r of roster) {
    const n = r.n ?? 1;
    if (!r.status && r.joinedAfter) continue;
    counts.members += n;
    if (r.status === "present" || r.status === "late" || r.status === "excused") counts[r.status] += n;
    else counts.absent += n;
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
