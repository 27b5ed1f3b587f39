// `npm test`: typecheck, build, integration tests inside workerd, browser tests in Chromium.
// Prints one closing line `N passed, N failed` and exits non-zero on any failure.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { bin, build, env, root, run } from "./lib.mjs";

const out = mkdtempSync(join(tmpdir(), "cohort-test-"));
let passed = 0;
let failed = 0;

function step(name, fn) {
  console.log(`\n== ${name}`);
  try {
    fn();
    passed++;
  } catch (e) {
    console.error(String(e?.message ?? e));
    failed++;
  }
}

/** Runs one vitest project and adds its test counts (a suite that fails to load counts as a failure). */
function vitest(name, config) {
  console.log(`\n== ${name}`);
  const report = join(out, `${name.replace(/\W+/g, "-")}.json`);
  const res = spawnSync(bin("vitest"), ["run", "--config", config, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`], { cwd: root, env, stdio: "inherit" });
  if (!existsSync(report)) {
    failed++;
    return;
  }
  const r = JSON.parse(readFileSync(report, "utf8"));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  // A test file that failed to load has no tests to count: count the file.
  failed += r.testResults.filter((f) => f.status === "failed" && f.assertionResults.length === 0).length;
  if (res.status !== 0 && failed === 0) failed++;
}

step("typecheck", () => run(bin("tsc"), ["--noEmit"]));
step("build", () => build());
vitest("integration (workerd)", "vitest.config.ts");
vitest("browser (chromium)", "vitest.e2e.config.ts");

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
