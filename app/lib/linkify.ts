/**
 * Finds http(s) links in plain text (chat messages) so they can be shown as links. Only http and https are links;
 * punctuation that usually ends a sentence ("see https://x.dev." or "(https://x.dev)") stays outside the link.
 * Client-safe; the caller renders each part (text as text, links as <a> with rel="noopener noreferrer nofollow").
 */
export type TextPart = { kind: "text"; text: string } | { kind: "link"; text: string; href: string };

const URL_RE = /\bhttps?:\/\/[^\s<>"'`]+/gi;
const TRAILING = /[.,;:!?؟،)\]}'"]+$/;

export function linkify(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_RE)) {
    let url = match[0];
    const trailing = TRAILING.exec(url)?.[0] ?? "";
    // Keep a closing bracket that belongs to the link itself (a Wikipedia-style "(...)" inside the URL).
    const keep = trailing.startsWith(")") && url.includes("(") ? 1 : 0;
    url = url.slice(0, url.length - trailing.length + keep);
    const start = match.index!;
    let href: string | null = null;
    try {
      const parsed = new URL(url);
      if (parsed.protocol === "http:" || parsed.protocol === "https:") href = parsed.href;
    } catch {
      href = null;
    }
    if (!href) continue;
    if (start > last) parts.push({ kind: "text", text: text.slice(last, start) });
    parts.push({ kind: "link", text: url, href });
    last = start + url.length;
  }
  if (last < text.length) parts.push({ kind: "text", text: text.slice(last) });
  return parts;
}
