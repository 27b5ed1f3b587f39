import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
// @ts-ignore -- plain Node script: makes the code runner's metered engine when it is missing or stale
import { ensureMeteredWasm } from "./scripts/meter-wasm.mjs";

/**
 * Integration tests run inside workerd (the real runtime) against the real Worker: D1 with the
 * migrations applied, real Durable Objects, real sockets. Storage is isolated per test file.
 */
export default defineConfig(async () => {
  await ensureMeteredWasm();
  const migrations = await readD1Migrations(new URL("./migrations", import.meta.url).pathname);
  return {
    plugins: [
      cloudflareTest({
        main: "./worker/index.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: { ENVIRONMENT: "development", TEST_MIGRATIONS: migrations },
        },
      }),
    ],
    test: {
      include: ["tests/integration/**/*.test.ts"],
      setupFiles: ["./tests/integration/setup.ts"],
      testTimeout: 20_000,
    },
  };
});
