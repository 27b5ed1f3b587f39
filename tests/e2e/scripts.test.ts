/**
 * The project's own commands, as a newcomer runs them: `npm start` on a taken port says so and exits non-zero
 * (it used to print "Cohort is running" while another server answered), and `npm run cleanup` runs the daily
 * Cron Trigger against a running server; `npm run attack` replays the hardening findings. And the Worker as
 * `wrangler deploy` bundles it carries the library patches that `npm install` applies (patches/, ADR 0027).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { baseURL } from "./browser";
import { freePort, migrate, servedVars, startWorker } from "../../scripts/lib.mjs";

const root = join(import.meta.dirname, "..", "..");

function runScript(script: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, "scripts", script)], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 50_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe("project scripts", () => {
  it("npm start on a port that is taken says so and exits non-zero, before building anything", async () => {
    const other = createServer((_req, res) => res.end("someone else"));
    await new Promise<void>((r) => other.listen(0, "127.0.0.1", r));
    const { port } = other.address() as { port: number };
    try {
      const { code, output } = await runScript("serve.mjs", { PORT: String(port) });
      expect(code).toBe(1);
      expect(output).toContain(`Port ${port} is already in use`);
      expect(output).not.toContain("Cohort is running");
      expect(output).not.toContain("Building");
    } finally {
      other.close();
    }
  });

  it("npm start serves the site's links on its own port: PUBLIC_ORIGIN follows PORT unless set", async () => {
    expect(servedVars(9000, {})).toEqual({ PUBLIC_ORIGIN: "http://localhost:9000" });
    expect(servedVars(9000, { PUBLIC_ORIGIN: "https://cohort.example" })).toEqual({ PUBLIC_ORIGIN: "https://cohort.example" });
    // The Worker started as `npm start` starts it (fresh database, no code runner) writes its links on that port.
    const port = await freePort();
    const persistTo = mkdtempSync(join(tmpdir(), "cohort-origin-"));
    try {
      migrate(persistTo);
      const worker = await startWorker({ port, persistTo, vars: servedVars(port, {}), runner: false });
      try {
        const issuer = (await (await fetch(`${worker.origin}/api/certificates/issuer`)).json()) as { url: string; id: string };
        expect(issuer.url).toBe(`http://localhost:${port}`);
        expect(issuer.id).toBe(`http://localhost:${port}/api/certificates/issuer`);
      } finally {
        worker.stop();
      }
    } finally {
      rmSync(persistTo, { recursive: true, force: true });
    }
  }, 90_000);

  it("npm run attack replays every hardening finding against the running server and each is refused", async () => {
    const port = new URL(baseURL()).port;
    const { code, output } = await runScript("attack.mjs", { PORT: port });
    expect(output).toMatch(/\n(\d+) passed, 0 failed/);
    expect(code).toBe(0);
  }, 60_000);

  it("npm run cleanup runs the Cron Trigger on the running server", async () => {
    const port = new URL(baseURL()).port;
    const { code, output } = await runScript("cleanup.mjs", { PORT: port });
    expect(output).toContain("Cleanup ran");
    expect(code).toBe(0);
  });

  it("the Worker that deploys carries the library patches: one route matcher, the patched one, the render's route caches, Drizzle's is() and row plans, loader requests handed over as they are, absolute paths resolved once, React's one encoding per flush", () => {
    // The server runtime loads React Router's CommonJS build and the pages its ES module build: a patch of only one
    // of them once left every page ranking all routes per request. What counts is what wrangler bundles.
    const out = mkdtempSync(join(tmpdir(), "cohort-bundle-"));
    try {
      const res = spawnSync(join(root, "node_modules", ".bin", "wrangler"), ["deploy", "--dry-run", "--outdir", out], {
        cwd: root,
        env: { ...process.env, NODE_ENV: "production" },
        encoding: "utf8",
        timeout: 120_000,
      });
      expect(res.status, res.stderr).toBe(0);
      const bundle = readFileSync(join(out, "index.js"), "utf8");
      expect(bundle).toContain("rankedBranchesCache");
      expect(bundle).toContain("compiledPaths");
      expect(bundle).toContain("kindsOfClass");
      expect(bundle).toContain("rowPlanOf");
      // Loaders and actions get the request itself unless its query string may hold Remix's own parameters.
      expect(bundle).toContain("mayHoldOwnParams");
      // Links, forms and nav links resolve an absolute path once per string (React Router's minified build).
      expect(bundle).toContain("cohortAbsolutePath");
      // The render side: server routes made once per build, their data routes once per route array.
      expect(bundle).toContain("serverRoutesOf");
      expect(bundle).toContain("staticDataRoutes");
      // Remix's Link renders its anchor on the server without the browser's hooks (ADR 68): its own destructuring.
      expect(bundle).toMatch(/state(?::\s*\w+)?,\s*target(?::\s*\w+)?,\s*preventScrollReset(?::\s*\w+)?,\s*viewTransition(?::\s*\w+)?,\s*\.\.\.\w+\s*\}\s*=\s*\w+;/);
      // Upstream's matcher flattens and ranks the routes on every call; no copy of it may be left in the bundle.
      expect(bundle).not.toMatch(/let branches\d* = flattenRoutes\(routes\d*\);\s*rankRouteBranches\(branches\d*\);\s*let matches\d* = null;/);
      // React's streaming renderer encodes a flush's markup once; upstream's per-string encoders must be gone.
      expect(bundle).toContain("encodeFlushOnce");
      expect(bundle).not.toMatch(/function [uw]\(a\d*\) \{\s*return ca\d*\.encode\(a\d*\);/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 150_000);
});
