// The staff screen's live roster (app/lib/attendance-roster.ts): marks of one burst are read and sent by different
// requests, so their frames can arrive in any order; the screen must end where the database is.
import { describe, expect, it } from "vitest";
import { applyMark, countAttendance } from "../../app/lib/attendance-roster";
import type { AttendanceRecordFrameBody } from "../../app/lib/realtime-protocol";

const at = (s: number) => new Date(Date.UTC(2026, 10, 30, 18, 0, s)).toISOString();

function record(id: string, status: AttendanceRecordFrameBody["status"], markedAt: string | null, joinedAfter = false): AttendanceRecordFrameBody {
  return { user: { _id: id, name: id }, status, method: status ? "code" : null, markedAt, flagged: false, flags: [], joinedAfter };
}

function screen(ids: string[]) {
  const roster = ids.map((id) => record(id, null, null));
  return { counts: countAttendance(roster), roster, other: "kept" };
}

describe("countAttendance", () => {
  it("counts present, late and excused by status, and everyone else (unmarked or absent) as absent", () => {
    expect(countAttendance([record("a", "present", at(1)), record("b", "late", at(2)), record("c", "excused", at(3)), record("d", "absent", at(4)), record("e", null, null)])).toEqual({
      present: 1,
      late: 1,
      excused: 1,
      absent: 2,
      members: 5,
    });
  });

  it("leaves out a member who joined after the lecture and has no record, and counts them once they check in", () => {
    expect(countAttendance([record("a", "present", at(1)), record("b", null, null), record("late-joiner", null, null, true)])).toEqual({
      present: 1,
      late: 0,
      excused: 0,
      absent: 1,
      members: 2,
    });
    expect(countAttendance([record("a", "present", at(1)), record("b", null, null), record("late-joiner", "present", at(2), true)])).toEqual({
      present: 2,
      late: 0,
      excused: 0,
      absent: 1,
      members: 3,
    });
  });
});

describe("applyMark", () => {
  it("ends with every check-in counted whatever order the frames of a burst arrive in", () => {
    const marks = ["a", "b", "c", "d"].map((id, i) => record(id, i === 3 ? "late" : "present", at(i)));
    for (const order of [marks, [...marks].reverse(), [marks[2]!, marks[0]!, marks[3]!, marks[1]!]]) {
      const end = order.reduce((s, m) => applyMark(s, m)!, screen(["a", "b", "c", "d", "e"]));
      expect(end.counts).toEqual({ present: 3, late: 1, excused: 0, absent: 1, members: 5 });
      expect(end.other).toBe("kept");
    }
  });

  it("keeps a student's newer record when an older frame about them arrives after it", () => {
    const checkedIn = record("a", "present", at(1));
    const excusedByStaff = { ...record("a", "excused", at(9)), method: "manual" as const };
    const end = applyMark(applyMark(screen(["a", "b"]), excusedByStaff)!, checkedIn)!;
    expect(end.roster.find((r) => r.user._id === "a")).toEqual(excusedByStaff);
    expect(end.counts).toMatchObject({ present: 0, excused: 1, absent: 1 });
  });

  it("answers null for a student the roster does not hold (the screen reads the state again)", () => {
    expect(applyMark(screen(["a"]), record("newcomer", "present", at(1)))).toBeNull();
  });
});
