import { ar } from "./ar";
import type { Lang } from "./config";
import { en, type Messages } from "./en";

/** Only the active language's dictionary is sent to the browser (through the root loader). */
export function dictionary(lang: Lang): Messages {
  return lang === "ar" ? ar : en;
}
