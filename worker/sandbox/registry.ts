/**
 * Where the services find the code runner. The Worker's entry (worker/index.ts) registers the WebAssembly runner
 * when the Worker loads; nothing else imports the engine, so the page build and the Vite config (which loads the
 * development context in Node) never meet a `.wasm` import. Without a registered runner (`npm run dev` under Vite)
 * running code answers 503 with a clear message.
 */
import { AppError } from "../http/errors";
import type { CodeLanguage, CodeTest, RunLimits, RunReport } from "./types";

export type RunCode = (language: CodeLanguage, code: string, tests: CodeTest[], limits: RunLimits) => Promise<RunReport>;

let registered: RunCode | null = null;

export function registerRunner(runner: RunCode): void {
  registered = runner;
}

export const runCode: RunCode = (language, code, tests, limits) => {
  if (!registered) return Promise.reject(new AppError(503, "unavailable", "Code runs only in the Worker (npm start), not in the Vite development server."));
  return registered(language, code, tests, limits);
};
