import { defineConfig, type UserConfig } from "vitest/config";
import base from "../vitest.config";

/**
 * Benches that must run inside workerd with the real D1 (they count the statements a service prepares): the
 * integration tests' setup, their own files, and no time limit that a slow machine could hit. They assert nothing.
 */
export default defineConfig(async (env) => {
  const config = (await (base as unknown as (e: typeof env) => Promise<UserConfig>)(env)) as UserConfig;
  return {
    ...config,
    root: process.cwd(),
    test: { ...config.test, include: ["bench/**/*.workerd.ts"], testTimeout: 600_000 },
  };
});
