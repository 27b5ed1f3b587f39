/**
 * The code runner by language. The ServiceContext carries it (`ctx.runCode`), so the services that grade code never
 * import the WebAssembly engine themselves: it is bundled into the Worker by wrangler, not into the page build.
 */
import { runJavaScript } from "./javascript";
import type { CodeLanguage, CodeTest, RunLimits, RunReport } from "./types";

export type RunCode = (language: CodeLanguage, code: string, tests: CodeTest[], limits: RunLimits) => Promise<RunReport>;

export const runCode: RunCode = (language, code, tests, limits) => {
  switch (language) {
    case "javascript":
      return runJavaScript(code, tests, limits);
  }
};
