/**
 * A short-text answer is right when it says what a key says, as a reader would read it: in either language's digits,
 * in full-width letters, whatever its case or the spaces at its ends; anything else stays wrong.
 */
import { describe, expect, it } from "vitest";
import { isRight, type GradableQuestion } from "../../worker/services/quiz-grading";

const question = (correct: string[]): GradableQuestion => ({ id: "q", type: "short-text", options: [], correct, points: 1 });

describe("a short-text answer", () => {
  it("matches a key in Arabic-Indic or Latin digits alike", () => {
    expect(isRight(question(["4"]), "٤")).toBe(true);
    expect(isRight(question(["١٠"]), "10")).toBe(true);
    expect(isRight(question(["10"]), "۱۰")).toBe(true);
    expect(isRight(question(["10"]), "100")).toBe(false);
    // The Arabic keyboard's decimal and thousands marks.
    expect(isRight(question(["3.5"]), "٣٫٥")).toBe(true);
    expect(isRight(question(["3.5"]), "3٫5")).toBe(true);
    expect(isRight(question(["1,000"]), "١٬٠٠٠")).toBe(true);
    expect(isRight(question(["3.5"]), "35")).toBe(false);
  });

  it("matches full-width letters, any case and spaces at the ends, and nothing else", () => {
    expect(isRight(question(["useState"]), "ｕｓｅＳｔａｔｅ")).toBe(true);
    expect(isRight(question(["useState"]), "  USESTATE ")).toBe(true);
    expect(isRight(question(["القاهرة"]), " القاهرة")).toBe(true);
    expect(isRight(question(["useState"]), "useEffect")).toBe(false);
    expect(isRight(question(["use state"]), "usestate")).toBe(false);
  });
});
