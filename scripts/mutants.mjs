// `npm run mutants`: how many plausible mistakes in the teaching services the tests catch (a scripted mutation test).
// StrykerJS cannot drive the workerd test pool (each test file runs inside workerd, started by the vitest plugin), so
// this script does what it would: for each mistake below it edits one place of the source, runs the teaching tests
// that cover that area inside workerd, notes whether any test failed (killed) or none did (survived), and puts the
// source back, whatever happens. It prints every mutant and the score; the goal is 90 % or more.
//
//   npm run mutants                 every mutant
//   npm run mutants -- quiz runner  only the areas named (or numbers: the mistakes of those lines)
//
// The mistakes are the kind a tired developer makes: a flipped comparison, a changed constant, a dropped check.
// The first eleven are those of the issue "Tests that pin every teaching rule". Integration tests reach the services
// from source, so no rebuild is needed except for mutants whose tests read a page (`build: true`).
import { readFileSync, writeFileSync, mkdtempSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { bin, build, env, root } from "./lib.mjs";

const QUIZ = ["tests/integration/quizzes.test.ts", "tests/integration/quizzes-clock.test.ts", "tests/integration/quiz-integrity.test.ts", "tests/integration/teaching-rules.test.ts"];
const QUIZ_CODE = ["tests/integration/quiz-code.test.ts", "tests/integration/quiz-integrity.test.ts"];
const ATTENDANCE = ["tests/integration/attendance.test.ts", "tests/integration/attendance-integrity.test.ts", "tests/integration/teaching-rules.test.ts"];
const PROGRESS = ["tests/integration/progress.test.ts", "tests/integration/teaching-rules.test.ts"];
const RUNNER = ["tests/integration/sandbox-hostile.test.ts", "tests/integration/code-runner.test.ts"];
const EXERCISES = ["tests/integration/exercises.test.ts", "tests/integration/exercise-pages.test.ts", "tests/integration/teaching-rules.test.ts"];
const ACCESS = ["tests/integration/access-matrix.test.ts", "tests/integration/teaching-rules.test.ts", "tests/integration/progress.test.ts"];
const CSV = ["tests/integration/progress.test.ts"];

/** [area, file, what the mistake is, the text as it is, the text with the mistake, tests, needs a rebuild] */
export const MUTANTS = [
  // The issue's eleven.
  ["quiz", "worker/services/quiz-grading.ts", "short-text answers no longer Unicode-normalised", 's.normalize("NFC").trim()', "s.trim()", QUIZ],
  ["quiz", "worker/services/quiz-grading.ts", "an option index equal to the option count accepted", "i >= 0 && i < q!.options.length", "i >= 0 && i <= q!.options.length", QUIZ],
  ["attendance", "worker/services/attendance-codes.ts", "the code's grace after rotation grows from 2 s to 5 s", "CODE_GRACE_MS = 2_000", "CODE_GRACE_MS = 5_000", ATTENDANCE],
  ["attendance", "worker/services/attendance-codes.ts", "nextCodeAt off by one rotation window", "(windowAt(clock, at) + 1) * clock.rotateSeconds * 1000", "(windowAt(clock, at) + 2) * clock.rotateSeconds * 1000", ATTENDANCE],
  ["attendance", "worker/services/attendance.ts", "the live frame counts an excused student as absent", 'if (c.status === "present" || c.status === "late" || c.status === "excused") counts[c.status] += c.n;', 'if (c.status === "present" || c.status === "late") counts[c.status] += c.n;', ATTENDANCE],
  ["progress", "worker/services/progress.ts", "a quiz with no opening time never counts as opened", "(${quizzes.opensAt} is null or ${quizzes.opensAt} <= ${now})", "(${quizzes.opensAt} is not null and ${quizzes.opensAt} <= ${now})", PROGRESS],
  ["access", "worker/services/progress.ts", "an instructor sees a student's progress in groups they do not run", 'viewer.role === "admin" ? undefined : eq(groups.instructorId, viewer.userId)', "undefined", ACCESS, true],
  ["exercises", "worker/services/exercises.ts", "a code hand-in past the due date accepted without late work", "if (late && !task.allowLate)", "if (late && task.allowLate && !late)", EXERCISES],
  ["exercises", "worker/services/exercises.ts", "a new hand-in refused after staff asked for a new version", "or(isNull(submissions.gradedBy), isNotNull(submissions.resubmitRequestedAt))", "isNull(submissions.gradedBy)", EXERCISES],
  ["runner", "worker/sandbox/quickjs-runner.ts", "the last test may run its full limit past the hand-in's budget", "const fuel = Math.min(limits.timeMs * FUEL_PER_MS, left);", "const fuel = limits.timeMs * FUEL_PER_MS;", RUNNER],
  ["quiz", "worker/services/quizzes.ts", "a published quiz on a draft lecture open to students", "if ((!quiz.published || !quiz.lecturePublished) && !isStaffOf(viewer, quiz))", "if (!quiz.published && !isStaffOf(viewer, quiz))", QUIZ],
  // Quizzes.
  ["quiz", "worker/services/quiz-grading.ts", "short-text answers compared with case", '.toLocaleLowerCase("en")', "", QUIZ],
  ["quiz", "app/lib/quiz-schemas.ts", "the 60 s hand-in grace becomes 90 s", "QUIZ_GRACE_MS = 60_000", "QUIZ_GRACE_MS = 90_000", QUIZ],
  ["quiz", "app/lib/quiz-schemas.ts", "answers count 10 s after the deadline instead of 5 s", "QUIZ_NETWORK_MS = 5_000", "QUIZ_NETWORK_MS = 10_000", QUIZ],
  ["quiz", "worker/services/quizzes.ts", "maxAttempts off by one", "if (used >= quiz.maxAttempts)", "if (used > quiz.maxAttempts)", QUIZ],
  ["quiz", "worker/services/quizzes.ts", "the after-close review ignores classmates still in their grace", "const closed = quizOver(quiz, now) && !othersCanHandIn;", "const closed = quizOver(quiz, now);", QUIZ],
  ["quiz", "worker/services/quizzes.ts", "the quiz is over at the closing time, grace forgotten", "now >= quiz.closesAt.getTime() + QUIZ_GRACE_MS", "now >= quiz.closesAt.getTime()", QUIZ],
  ["quiz", "worker/services/quizzes.ts", "after-submit reviews open while attempts remain", "(closed || mine.length >= quiz.maxAttempts)", "(closed || mine.length >= 1)", QUIZ],
  ["quiz", "worker/services/quiz-grading.ts", "a multiple-choice answer ticking every option counts as right", "chosen.size === q.correct.length && ", "", QUIZ],
  // Progress arithmetic.
  ["progress", "app/lib/progress.ts", "the needs-support threshold moves from 70 % to 60 %", "AT_RISK_BELOW_PERCENT = 70", "AT_RISK_BELOW_PERCENT = 60", PROGRESS],
  ["progress", "app/lib/progress.ts", "excused lectures count as held", "c.groupHeld - c.excusedHeld + c.extraHeld", "c.groupHeld + c.extraHeld", PROGRESS],
  ["progress", "app/lib/progress.ts", "missing work no longer counts against the task rate", "const tasksCounted = c.graded + missing;", "const tasksCounted = c.graded;", PROGRESS],
  ["progress", "app/lib/progress.ts", "overall leaves out the quiz rate", "[lectureRate, taskRate, quizRate].filter", "[lectureRate, taskRate].filter", PROGRESS],
  ["progress", "worker/services/progress.ts", "a task counts as due before its due time", "${tasks.dueAt} <= ${now})`", "${tasks.dueAt} >= ${now})`", PROGRESS],
  // Permissions.
  ["access", "app/lib/permissions.ts", "any instructor manages every group", 'actor.role === "admin" || (actor.role === "instructor" && group.instructorId === actor.userId)', 'actor.role === "admin" || actor.role === "instructor"', ACCESS],
  ["access", "app/lib/permissions.ts", "pending members see a group's inside", 'MEMBER.has(resource.group.membershipStatus ?? "")', '!!resource.group.membershipStatus', ACCESS],
  // CSV.
  ["csv", "worker/http/csv.ts", "formula cells no longer escaped", "const FORMULA_START = /^[=+\\-@\\t\\r]/;", "const FORMULA_START = /^[=]/;", CSV],
  ["csv", "worker/http/csv.ts", "quotes inside a cell not doubled", 'text.replace(/"/g, \'""\')', "text", CSV],
  // The code runner.
  ["runner", "worker/sandbox/quickjs-runner.ts", "console output no longer cut per line", "if (line.length > LINE_LIMIT) line = `${line.slice(0, LINE_LIMIT)}…`;", "", RUNNER],
  ["runner", "worker/sandbox/report.ts", "a hidden test's time reaches the student", "{ name: r.name, points: r.points, hidden: true, passed: r.passed }", "{ name: r.name, points: r.points, hidden: true, passed: r.passed, ms: r.ms }", RUNNER],
  ["runner", "worker/sandbox/quickjs-runner.ts", "the host's console calls cost nothing", "Number(meter.value) - HOST_CALL_STEPS * (1 + args.length)", "Number(meter.value)", RUNNER],
  ["runner", "worker/sandbox/quickjs-runner.ts", "the engine's memory may grow to 2 GB", "maximum: ENGINE_MEMORY_MB * 16", "maximum: 32768", RUNNER],
  ["runner", "worker/sandbox/quickjs-runner.ts", "a too-large result copied out anyway", "if (size > RESULT_LIMIT) {", "if (size > RESULT_LIMIT * 1000) {", RUNNER],
  ["exercises", "worker/services/exercises.ts", "a hand-in's score not scaled to the task's maximum", "Math.round((report.score / report.maxScore) * task.maxScore)", "report.score", EXERCISES],
];

// Areas by name, or mistakes by their number in the list (`npm run mutants -- 26 31`).
const only = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const chosen = MUTANTS.filter(([area], i) => only.length === 0 || only.includes(area) || only.includes(String(i + 1)));
const out = mkdtempSync(join(tmpdir(), "cohort-mutants-"));
const originals = new Map();
const restore = () => {
  for (const [file, text] of originals) writeFileSync(join(root, file), text);
  originals.clear();
};
let child = null;
/** The lock the project's scripts take around builds (exclusive) and test runs (shared), where flock exists. */
const LOCK = spawnSync("flock", ["--version"], { stdio: "ignore" }).status === 0 ? "/tmp/cohort-build.lock" : null;
const rebuild = () => (LOCK ? spawnSync("flock", [LOCK, bin("remix"), "vite:build", "--logLevel", "warn"], { cwd: root, env, stdio: "inherit" }) : build());
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    child?.kill("SIGKILL");
    restore();
    console.log("\nStopped; every file is as it was.");
    process.exit(130);
  });
}

/** Runs test files inside workerd; true when every test passed. Asynchronous, so Ctrl+C puts the source back. */
async function passes(files, label) {
  const report = join(out, `${label}.json`);
  const status = await new Promise((resolve) => {
    const args = ["run", "--config", "vitest.config.ts", "--reporter=json", `--outputFile.json=${report}`, ...files];
    // Under a shared lock where flock exists: a build by someone else must not change build/ under the tests.
    child = LOCK ? spawn("flock", ["-s", LOCK, bin("vitest"), ...args], { cwd: root, env, stdio: "ignore" }) : spawn(bin("vitest"), args, { cwd: root, env, stdio: "ignore" });
    const timer = setTimeout(() => child.kill("SIGKILL"), 8 * 60_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      child = null;
      resolve(code);
    });
  });
  if (!existsSync(report)) return false;
  const r = JSON.parse(readFileSync(report, "utf8"));
  return status === 0 && r.numFailedTests === 0 && r.numPassedTests > 0;
}

const results = [];
try {
  for (const mutant of chosen) {
    const i = MUTANTS.indexOf(mutant);
    const [area, file, what, from, to, tests, needsBuild, near] = mutant;
    const path = join(root, file);
    const text = readFileSync(path, "utf8");
    // `near`: the mutated text is the first occurrence after this anchor (for short, repeated texts).
    const start = near ? text.indexOf(near) : 0;
    const at = text.indexOf(from, Math.max(0, start));
    const again = near ? -1 : text.indexOf(from, at + 1);
    if (at < 0 || again >= 0) {
      results.push({ area, what, status: at < 0 ? "not found" : "ambiguous" });
      console.log(`${String(i + 1).padStart(2)}  ${"?".padEnd(8)}  [${area}] ${what}: the text to change is ${at < 0 ? "not in" : "more than once in"} ${file}`);
      continue;
    }
    originals.set(file, text);
    writeFileSync(path, text.slice(0, at) + to + text.slice(at + from.length));
    try {
      if (needsBuild) rebuild();
      const killed = !(await passes(tests, `mutant-${i + 1}`));
      results.push({ area, what, status: killed ? "killed" : "survived" });
      console.log(`${String(i + 1).padStart(2)}  ${(killed ? "killed" : "SURVIVED").padEnd(8)}  [${area}] ${what}`);
    } finally {
      restore();
      // The build must not keep the mistake: other test runs may read it.
      if (needsBuild) rebuild();
    }
  }
} finally {
  restore();
}

const judged = results.filter((r) => r.status === "killed" || r.status === "survived");
const killed = judged.filter((r) => r.status === "killed").length;
const score = judged.length ? Math.round((killed / judged.length) * 1000) / 10 : 0;
console.log(`\nMutation score of the teaching services: ${score} % (${killed} of ${judged.length} mistakes caught${results.length > judged.length ? `; ${results.length - judged.length} could not be applied` : ""})`);
process.exitCode = results.length > judged.length ? 1 : 0;
