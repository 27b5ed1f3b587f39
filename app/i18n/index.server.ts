import { ar } from "./ar";
import type { Lang } from "./config";
import { en, type Messages } from "./en";
import { provideMessages } from "./store";

// The server renders every page in either language from memory; browsers load theirs as a static file (store.ts).
provideMessages("en", en);
provideMessages("ar", ar);

export function dictionary(lang: Lang): Messages {
  return lang === "ar" ? ar : en;
}
