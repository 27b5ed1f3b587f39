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
  },
});
