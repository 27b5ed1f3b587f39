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

/** A readable slug; Arabic and other letters are kept, everything else becomes a hyphen. */
export function slugify(text: string): string {
  const slug = text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return slug || "item";
}

/** The slugs to try for a title, in order: the title's own, then four with a short random suffix. */
export function slugCandidates(title: string): string[] {
  const base = slugify(title);
  return [base, ...Array.from({ length: 4 }, () => `${base.slice(0, 52)}-${newId().slice(0, 6).toLowerCase().replace(/[^a-z0-9]/g, "x")}`)];
}
