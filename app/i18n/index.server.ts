import { ar } from "./ar";
import type { Lang } from "./config";
import { en, type Messages } from "./en";
import { provideMessages } from "./store";
import { dictionariesVersion } from "./version";

// The server renders every page in either language from memory; browsers load theirs as a static file (store.ts).
provideMessages("en", en);
provideMessages("ar", ar);

export function dictionary(lang: Lang): Messages {
  return lang === "ar" ? ar : en;
}

let version: string | null = null;

/** The static file with the language's messages, as the build named it (computed on first use, not at startup). */
export function dictionaryUrl(lang: Lang): string {
  version ??= dictionariesVersion(en, ar);
  return `/i18n/${lang}.${version}.json`;
}
