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

/** The first `n` characters of a string, counted as code points (never half of a surrogate pair). */
const firstChars = (text: string, n: number) => Array.from(text).slice(0, n).join("");

/**
 * A readable slug; Arabic and other letters are kept, their combining marks (harakat, vowel signs) dropped rather than
 * splitting the word, everything else becomes a hyphen (the characters every id-or-slug parameter accepts). At most
 * 60 characters, cut between characters, never inside one.
 */
export function slugify(text: string): string {
  const slug = firstChars(
    text
      .normalize("NFKC")
      .toLowerCase()
      .replace(/\p{M}+/gu, "")
      .replace(/[^\p{L}\p{N}]+/gu, "-")
      .replace(/^-+|-+$/g, ""),
    60,
  ).replace(/-+$/, "");
  return slug || "item";
}

/** The slugs to try for a title, in order: the title's own, then four with a short random suffix. */
export function slugCandidates(title: string): string[] {
  const base = slugify(title);
  return [base, ...Array.from({ length: 4 }, () => `${firstChars(base, 52).replace(/-+$/, "")}-${newId().slice(0, 6).toLowerCase().replace(/[^a-z0-9]/g, "x")}`)];
}
