import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserServer } from "playwright-core";
import type { TestProject } from "vitest/node";
import { freePort, migrate, seed, startWorker } from "../../scripts/lib.mjs";
import { startGoogleStandIn } from "./google-stand-in";

declare module "vitest" {
  interface ProvidedContext {
    baseURL: string;
    wsEndpoint: string;
    /** The local Google stand-in (tests/e2e/google-stand-in.ts) the Worker's Google sign-in talks to. */
    googleStandIn: string;
  }
}

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * One fresh database, one Worker and one browser for the whole e2e run, plus a local stand-in for Google's
 * OAuth endpoints that the Worker's Google sign-in is pointed at. The app must already be built.
 */
export default async function setup(project: TestProject) {
  const persistTo = mkdtempSync(join(tmpdir(), "cohort-e2e-"));
  migrate(persistTo);
  const google = await startGoogleStandIn();
  const port = await freePort();
  const worker = await startWorker({ port, persistTo, vars: google.vars }).catch(async (err: unknown) => {
    await google.close();
    throw err;
  });
  await seed(worker.origin);
  const browser: BrowserServer = await chromium.launchServer({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  project.provide("baseURL", worker.origin);
  project.provide("wsEndpoint", browser.wsEndpoint());
  project.provide("googleStandIn", google.origin);
  return async () => {
    await browser.close();
    worker.stop();
    await google.close();
    rmSync(persistTo, { recursive: true, force: true });
  };
}
