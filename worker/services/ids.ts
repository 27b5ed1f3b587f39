/** Random URL-safe ids (128 bits) for records that are shown as `_id`. */
export function newId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return base64url(bytes);
}

export function base64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The bytes of a base64url string (no padding needed); throws on one that is not base64url. */
export function fromBase64url(s: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
}

/** The first `n` characters of a string, counted as code points (never half of a surrogate pair). */
const firstChars = (text: string, n: number) => Array.from(text).slice(0, n).join("");

/** Arabic's optional marks (harakat, Quranic signs) and the tatweel, which only stretches a word: not part of a slug. */
const ARABIC_MARKS = /[\u0610-\u061A\u0640\u064B-\u065F\u0670\u06D6-\u06DC\u06DF-\u06E4\u06E7\u06E8\u06EA-\u06ED]/g;

/**
 * A readable slug: letters of any script with their combining marks (a Devanagari vowel sign is part of its word),
 * and digits; Arabic's optional marks and tatweel are dropped (`مُقَدِّمَة` and `مقدمة` give one slug); everything else
 * becomes a hyphen. At most 60 characters, cut between characters, never inside one.
 */
export function slugify(text: string): string {
  const slug = firstChars(
    text
      .normalize("NFKC")
      .toLowerCase()
      .replace(ARABIC_MARKS, "")
      .replace(/[^\p{L}\p{M}\p{N}]+/gu, "-")
      .replace(/^[-\p{M}]+|-+$/gu, ""),
    60,
  ).replace(/-+$/, "");
  return slug || "item";
}

/** The slugs to try for a title, in order: the title's own, then four with a short random suffix. */
export function slugCandidates(title: string): string[] {
  const base = slugify(title);
  return [base, ...Array.from({ length: 4 }, () => `${firstChars(base, 52).replace(/-+$/, "")}-${newId().slice(0, 6).toLowerCase().replace(/[^a-z0-9]/g, "x")}`)];
}

/** Whether a D1 error is a unique constraint's: a slug or key another request took since it was found free. */
export function isUniqueViolation(e: unknown): boolean {
  return /UNIQUE constraint failed/i.test(errorText(e));
}

/** A D1 error's message with its cause (where the binding puts SQLite's own words). */
function errorText(e: unknown): string {
  return e instanceof Error ? `${e.message} ${String((e as { cause?: unknown }).cause ?? "")}` : String(e);
}

/**
 * Whether a D1 error is a foreign key's: the row a write points at (a task, a quiz, an account) was deleted between the
 * request's check and its write. The write did not happen; the request lost a race and is told so (never a 5xx).
 */
export function isForeignKeyViolation(e: unknown): boolean {
  return /FOREIGN KEY constraint failed/i.test(errorText(e));
}

/**
 * Runs a write whose slugs were found free, again (finding them afresh) when another request took one meanwhile and
 * the unique index refused it: two staff creating "Week 1" at the same moment both get theirs, one with a suffix.
 */
export async function withFreshSlugs<T>(write: (attempt: number) => Promise<T>, tries = 3): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write(attempt);
    } catch (e) {
      if (attempt + 1 >= tries || !isUniqueViolation(e)) throw e;
    }
  }
}
