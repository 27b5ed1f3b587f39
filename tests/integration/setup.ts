import { applyD1Migrations, env } from "cloudflare:test";
import { afterEach, beforeEach, vi } from "vitest";


await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

// A console.error during a test is a bug that the test would otherwise hide.
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  if (errors.length > 0) throw new Error(`console.error was called: ${JSON.stringify(errors.map((e) => e.map(String)))}`);
});
