/**
 * The dictionaries, outside the page's data (issue 23): each language's is a static JSON file named by its content's
 * hash (`/i18n/en.<version>.json`, written by the build, vite.config.ts; named by version.ts), cached by browsers and the edge for a year, so
 * no page carries the ~100 kB of its language's messages in its HTML and the server never serialises them. The
 * server has both in memory (index.server.ts provides them and names the files); the root's data carries the file of
 * the page's language, the page's head preloads it, and the browser loads it before hydrating (entry.client.tsx) and
 * the other one when the language changes (the root's clientLoader). Client-safe.
 */
import type { Lang } from "./config";
import type { Messages } from "./en";

const provided: Partial<Record<Lang, Messages>> = {};
const loading = new Map<Lang, Promise<Messages>>();

export function provideMessages(lang: Lang, messages: Messages): void {
  provided[lang] = messages;
}

/** The language's messages if they are here (always on the server; in the browser once loaded). */
export function messagesFor(lang: Lang): Messages | undefined {
  return provided[lang];
}

/** Loads the language's messages once from `url` (the browser); resolves at once when they are here. */
export function loadMessages(lang: Lang, url: string): Promise<Messages> {
  const have = provided[lang];
  if (have) return Promise.resolve(have);
  let pending = loading.get(lang);
  if (!pending) {
    pending = fetch(url, { credentials: "same-origin" })
      .then((res) => {
        if (!res.ok) throw new Error(`The ${lang} dictionary answered ${res.status}`);
        return res.json() as Promise<Messages>;
      })
      .then((messages) => {
        provided[lang] = messages;
        return messages;
      })
      .finally(() => loading.delete(lang));
    loading.set(lang, pending);
  }
  return pending;
}
