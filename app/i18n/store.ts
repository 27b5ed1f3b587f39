/**
 * The dictionaries, outside the page's data (issue 23): each language's is a static JSON file named by its content's
 * hash (`/i18n/en.<hash>.json`, written by the build, vite.config.ts), cached by browsers and the edge for a year, so
 * no page carries the ~100 kB of its language's messages in its HTML and the server never serialises them. The
 * server has both in memory (index.server.ts provides them); the browser loads its language's before hydrating
 * (entry.client.tsx) and the other one when the language changes (the root's clientLoader). Client-safe.
 */
import type { Lang } from "./config";
import type { Messages } from "./en";

declare const __I18N_VERSION__: string;

const provided: Partial<Record<Lang, Messages>> = {};
const loading = new Map<Lang, Promise<Messages>>();

/** The hash of the dictionaries this build was made with (the file names' middle part). */
export const I18N_VERSION: string = typeof __I18N_VERSION__ === "string" ? __I18N_VERSION__ : "dev";

export function dictionaryUrl(lang: Lang): string {
  return `/i18n/${lang}.${I18N_VERSION}.json`;
}

export function provideMessages(lang: Lang, messages: Messages): void {
  provided[lang] = messages;
}

/** The language's messages if they are here (always on the server; in the browser once loaded). */
export function messagesFor(lang: Lang): Messages | undefined {
  return provided[lang];
}

/** Loads the language's messages once (the browser); resolves at once when they are here. */
export function loadMessages(lang: Lang): Promise<Messages> {
  const have = provided[lang];
  if (have) return Promise.resolve(have);
  let pending = loading.get(lang);
  if (!pending) {
    pending = fetch(dictionaryUrl(lang), { credentials: "same-origin" })
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
