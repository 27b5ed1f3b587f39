import type { Messages } from "./en";

/**
 * The name of the dictionaries' files (`/i18n/en.<version>.json`): FNV-1a over both dictionaries as JSON, so a new
 * text is a new file name. The build writes the files under this name (vite.config.ts) and the server computes the
 * same name from the dictionaries it holds (index.server.ts), once per isolate.
 */
export function dictionariesVersion(en: Messages, ar: Messages): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ 0x5bd1e995;
  const text = `${JSON.stringify(en)}\u0000${JSON.stringify(ar)}`;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
  }
  return (h1 >>> 0).toString(16).padStart(8, "0") + (h2 >>> 0).toString(16).padStart(8, "0");
}
