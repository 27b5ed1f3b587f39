import { defineConfig } from "vitest/config";

/**
 * Browser tests: Debian's Chromium (through playwright-core) drives the built Worker served by
 * `wrangler dev` on a free port with a fresh local D1 and the demo data (see tests/e2e/global-setup.ts).
 */
export default defineConfig({
  test: {
    include: ["tests/e2e/**/*.test.ts"],
    globalSetup: ["./tests/e2e/global-setup.ts"],
    environment: "node",
    testTimeout: 45_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    // On CI, a browser test that fails is run once more (as Playwright does by default on CI): a loaded 2-core
    // machine can stretch timings. A test that fails twice fails the run. `npm test` sets CI too (wrangler needs it);
    // running a file directly with vitest retries nothing, so flaky tests show up where they can be fixed.
    retry: process.env.CI ? 1 : 0,
  },
});
