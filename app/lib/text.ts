/**
 * Free text from people (names, titles, messages, feedback): what is stored and what counts as "empty".
 * Client-safe and zod-free, so forms can use the same rules as the server.
 *
 * - Control characters other than tab and line breaks (NUL, BEL, ...) are removed from every free text, and a lone
 *   half of a surrogate pair (not text in any encoding: D1 would store it as replacement characters of its own) becomes
 *   one U+FFFD, so what is answered at once is what is stored and read back later.
 * - A line break is one "\n": browsers send a textarea's breaks as CRLF but count each as one character against its
 *   maxLength, so a length limit counts them as the form did.
 * - A text is empty when nothing is left once controls, format characters (zero-width spaces, joiners, bidi
 *   controls, BOM) and whitespace are removed: `"\u200b"` or `"\u202e "` is not a name.
 * - Names additionally lose bidi embedding, override and isolate controls, so a name cannot reverse the text
 *   around it in a list (`U+202E` makes "evil" read as someone else's name).
 */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
// Also the blank-looking letters and marks (Hangul fillers, the braille blank, the combining grapheme joiner).
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Z}\s\u3164\u115f\u1160\uffa0\u2800\u034f]/gu;
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

// Code units, not code points (no `u` flag): a high surrogate not followed by a low one, or a low one not after a high.
const LONE_SURROGATES = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The text with each lone surrogate replaced by U+FFFD (String.prototype.toWellFormed, where it is missing). */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATES, "\ufffd");
}

/** A parsed JSON value with every string in it (keys too) well formed: what D1 will store is what was received. */
export function wellFormedDeep(value: unknown): unknown {
  if (typeof value === "string") return wellFormed(value);
  if (Array.isArray(value)) return value.map(wellFormedDeep);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [wellFormed(k), wellFormedDeep(v)]));
  return value;
}

export function withoutControls(text: string): string {
  return wellFormed(text.replace(/\r\n?/g, "\n").replace(CONTROLS, ""));
}

export function hasVisibleText(text: string): boolean {
  return text.replace(INVISIBLE, "").length > 0;
}

/** A person's name as stored: no controls, no bidi controls, no line breaks. */
export function cleanName(text: string): string {
  return withoutControls(text).replace(BIDI_CONTROLS, "").replace(/[\r\n\t]+/g, " ");
}

// In a file's name: controls, path separators, and every format character: bidi overrides make "invoice\u202efdp.bat"
// read as "invoicetab.pdf", zero-width characters make two names look alike.
const NOT_IN_A_FILE_NAME = /[\p{Cc}/\\]/gu;
const FORMAT = /\p{Cf}/gu;

/**
 * A handed-in file's name as it is stored and shown: controls and slashes become "_", format characters (bidi
 * controls, zero-width characters) go, the last 200 characters are kept (the extension is at the end), and a name
 * with nothing visible left is "file".
 */
export function fileNameAsStored(name: string): string {
  const clean = [...wellFormed(name).replace(FORMAT, "").replace(NOT_IN_A_FILE_NAME, "_")].slice(-200).join("");
  return hasVisibleText(clean.replace(/_/g, "")) ? clean : "file";
}

// Inside a link: any whitespace, control or format character (bidi overrides make "gnp.exe" read as "exe.png").
const NOT_IN_A_LINK = /[\s\p{Cc}\p{Cf}]/u;

/**
 * Whether `value` is an http(s) link as a person would share it: "http://" or "https://" written out, nothing
 * invisible in it, and no user name or password (`https://user:pass@host` shows one site and logs in to it).
 * `dotted`: the host has a dot (work handed in lives on the web, not on "localhost"). `secure`: https only.
 */
export function isWebLink(value: string, { dotted = false, secure = false } = {}): boolean {
  if (!(secure ? /^https:\/\//i : /^https?:\/\//i).test(value) || NOT_IN_A_LINK.test(value)) return false;
  // Any "@" before the path is a login part, even an empty one ("https://@example.com").
  if (value.slice(value.indexOf("//") + 2).split(/[/?#]/, 1)[0]!.includes("@")) return false;
  try {
    const u = new URL(value);
    return (u.protocol === "https:" || u.protocol === "http:") && (!dotted || u.hostname.includes("."));
  } catch {
    return false;
  }
}
