/**
 * The code runner by language, registered by the Worker's entry (see registry.ts). Another language is another
 * module with runJavaScript's signature, added here.
 */
import { runJavaScript } from "./javascript";
import type { RunCode } from "./registry";

export const runInSandbox: RunCode = (language, code, tests, limits) => {
  switch (language) {
    case "javascript":
      return runJavaScript(code, tests, limits);
  }
};
