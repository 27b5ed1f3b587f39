/**
 * The code runner as its own Worker (wrangler.runner.toml, "cohort-runner"): student code never runs in the isolate
 * that renders pages and answers the API. The main Worker calls it over a service binding (`RUNNER`, RPC); the
 * engine inside is the same metered QuickJS (worker/sandbox), so each test still ends after its steps, and the
 * runner's own CPU limit (wrangler.runner.toml [limits]) is a second bound Cloudflare enforces in production.
 * Without the binding (tests, `npm run dev`) the main Worker runs the same engine itself.
 */
import { WorkerEntrypoint } from "cloudflare:workers";
import { runInSandbox } from "./sandbox";
import type { CodeLanguage, CodeTest, RunLimits, RunReport } from "./sandbox/types";

export class CodeRunner extends WorkerEntrypoint {
  run(language: CodeLanguage, code: string, tests: CodeTest[], limits: RunLimits): Promise<RunReport> {
    return runInSandbox(language, code, tests, limits);
  }
}

export default {
  fetch: () => Response.json({ message: "The code runner answers only its service binding.", code: "not_found" }, { status: 404 }),
} satisfies ExportedHandler;
