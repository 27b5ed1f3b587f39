import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";
// @ts-ignore -- plain Node script: makes the code runner's metered engine when it is missing or stale
import { ensureMeteredWasm } from "./scripts/meter-wasm.mjs";

/**
 * Integration tests run inside workerd (the real runtime) against the real Worker: D1 with the
 * migrations applied, real Durable Objects, real sockets. Storage is isolated per test file.
 */
export default defineConfig(async () => {
  await ensureMeteredWasm();
  // The code runner Worker (wrangler.runner.toml), bundled as wrangler would deploy it, beside the Worker under test:
  // the RUNNER service binding is the real RPC path, as in production.
  const runnerDir = mkdtempSync(join(tmpdir(), "cohort-runner-"));
  execFileSync(new URL("./node_modules/.bin/wrangler", import.meta.url).pathname, ["deploy", "--dry-run", "-c", "wrangler.runner.toml", "--outdir", runnerDir], { stdio: "ignore" });
  const migrations = await readD1Migrations(new URL("./migrations", import.meta.url).pathname);
  return {
    plugins: [
      cloudflareTest({
        main: "./worker/index.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: { ENVIRONMENT: "development", TEST_MIGRATIONS: migrations },
          workers: [
            {
              name: "cohort-runner",
              modulesRoot: runnerDir,
              modules: [
                { type: "ESModule", path: `${runnerDir}/runner.js` },
                ...readdirSync(runnerDir).filter((f) => f.endsWith(".wasm")).map((f) => ({ type: "CompiledWasm" as const, path: `${runnerDir}/${f}` })),
              ],
              compatibilityDate: "2025-11-01",
              compatibilityFlags: ["nodejs_compat"],
            },
          ],
        },
      }),
    ],
    // The app's own `~/` imports (tsconfig paths), for tests that call its client-safe helpers directly.
    resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
    test: {
      include: ["tests/integration/**/*.test.ts"],
      setupFiles: ["./tests/integration/setup.ts"],
      testTimeout: 20_000,
    },
  };
});
