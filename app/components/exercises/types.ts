import type { RunReport } from "../../../worker/sandbox/types";

export interface VisibleTest {
  name: string;
  call: string;
  expected: string;
  points: number;
}

/** What a student's page gets of an exercise (hidden tests: names and points only). */
export interface StudentExercise {
  language: string;
  starterCode: string;
  timeMs: number;
  memoryMb: number;
  visibleTests: VisibleTest[];
  hiddenTests: { name: string; points: number }[];
  draft: { code: string; savedAt: string } | null;
  submission: {
    code: string | null;
    score: number | null;
    submittedAt: string;
    late: boolean;
    gradedByStaff: boolean;
    feedback: string | null;
    report: RunReport | null;
  } | null;
}
