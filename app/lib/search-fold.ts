/**
 * What a name search treats as the same letter: a person types "احمد" for أحمد, "فاطمه" for فاطمة, "emile" for Émile,
 * "o’brien" on a phone for O'Brien. One table, applied the same way to the term (in JS, `foldForSearch`) and to the
 * column (in SQL, by nested `replace`, worker/services/group-access.ts `matchesAny`): the two must fold a string alike,
 * so the table holds only single characters mapped to at most one character, and case is folded for ASCII letters only
 * afterwards (what SQLite's `lower` does). Nothing here is stored: a name is kept as it was written.
 */
const PAIRS: readonly (readonly [string, string])[] = [
  // Arabic: the alef's hamza and madda forms, taa marbuta, alef maqsura, hamza on waw and yaa.
  ...[..."أإآٱ"].map((c) => [c, "ا"] as const),
  ["ة", "ه"],
  ["ى", "ي"],
  ["ؤ", "و"],
  ["ئ", "ي"],
  // Arabic: the short vowels and other marks (tashkeel), the superscript alef and the tatweel are left out.
  ...[..."\u064B\u064C\u064D\u064E\u064F\u0650\u0651\u0652\u0670\u0640"].map((c) => [c, ""] as const),
  // Latin letters with accents, both cases (SQLite's lower folds only A to Z).
  ...[..."áàâäãåÁÀÂÄÃÅ"].map((c) => [c, "a"] as const),
  ...[..."éèêëÉÈÊË"].map((c) => [c, "e"] as const),
  ...[..."íìîïÍÌÎÏ"].map((c) => [c, "i"] as const),
  ...[..."óòôöõÓÒÔÖÕ"].map((c) => [c, "o"] as const),
  ...[..."úùûüÚÙÛÜ"].map((c) => [c, "u"] as const),
  ...[..."çÇ"].map((c) => [c, "c"] as const),
  ...[..."ñÑ"].map((c) => [c, "n"] as const),
  ...[..."ýÿÝ"].map((c) => [c, "y"] as const),
  // Typographic apostrophes (a phone's keyboard types ’).
  ...[..."’‘ʼ`"].map((c) => [c, "'"] as const),
];

export const SEARCH_FOLDS: ReadonlyMap<string, string> = new Map(PAIRS);

const ASCII_UPPER = /[A-Z]/g;

/** The term as the search compares it: folded as the table says, ASCII letters lower-cased, runs of spaces as one. */
export function foldForSearch(text: string): string {
  let out = "";
  for (const c of text) out += SEARCH_FOLDS.get(c) ?? c;
  return out.replace(ASCII_UPPER, (c) => c.toLowerCase()).replace(/\s+/g, " ").trim();
}
