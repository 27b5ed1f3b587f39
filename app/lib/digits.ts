/**
 * Digits typed on an Arabic or Persian keyboard (٠-٩ U+0660-0669, ۰-۹ U+06F0-06F9) as Western digits (0-9), so a
 * code, a phone number or a score typed in Arabic means the same as one typed in English. JavaScript's `\d` only
 * matches 0-9, so this runs before any digit check (the zod schemas, and the fields that filter what is typed).
 * Client-safe.
 */
export function toLatinDigits(value: string): string {
  return value.replace(/[\u0660-\u0669\u06f0-\u06f9]/g, (c) => String(c.charCodeAt(0) - (c >= "\u06f0" ? 0x06f0 : 0x0660)));
}
