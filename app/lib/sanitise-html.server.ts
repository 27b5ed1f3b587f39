/**
 * The allowlist that stands between the Markdown renderer and the page. Its input is HTML written by micromark
 * (raw HTML in the source is escaped, never passed through) and highlight.js, so every `<` in it opens a tag one of
 * them wrote; this is the second fence. Every tag is rebuilt: tags not listed are dropped (their text stays, already
 * escaped), attributes not listed are dropped, URLs keep only http(s), mailto or a relative address, a task-list box
 * is always a disabled checkbox, and a `<` that does not open a well-formed tag becomes `&lt;`. Fails closed.
 */

type AttrRule = (value: string) => boolean;

const URL_SCHEMES = /^(https?|mailto):/i;
const IMAGE_SCHEMES = /^https?:/i;

/** A URL attribute: no scheme (relative, `#fragment`), or one of the allowed schemes. */
const url =
  (schemes: RegExp): AttrRule =>
  (value) => {
    const decoded = decodeAttr(value);
    if (decoded === null) return false;
    // Browsers ignore tabs and newlines inside a scheme and strip leading controls and spaces.
    const plain = decoded.replace(/[\u0000-\u0020\u007f-\u009f]/g, "");
    const hasScheme = /^[^/?#]*:/.test(plain);
    return !hasScheme || schemes.test(plain);
  };
const text: AttrRule = (value) => decodeAttr(value) !== null;
const oneOf =
  (...allowed: string[]): AttrRule =>
  (value) =>
    allowed.includes(value);

/** Per tag, the attributes it may keep. Tags missing here are dropped. */
const TAGS: Record<string, Record<string, AttrRule>> = {
  // CommonMark
  p: {},
  h1: {},
  h2: {},
  h3: {},
  h4: {},
  h5: {},
  h6: {},
  ul: {},
  ol: { start: (v) => /^\d{1,9}$/.test(v) },
  li: {},
  blockquote: {},
  pre: {},
  code: { class: (v) => /^(hljs )?language-[\w+-]+$/.test(v), dir: oneOf("ltr") },
  em: {},
  strong: {},
  hr: {},
  br: {},
  a: { href: url(URL_SCHEMES), title: text },
  img: { src: url(IMAGE_SCHEMES), alt: text, title: text },
  // highlight.js
  span: { class: (v) => /^(hljs|language)-[\w-]+(?: [\w-]+)*$/.test(v) },
  // GFM: tables, strikethrough, task lists (the checkbox is rebuilt below, never taken from the input)
  table: {},
  thead: {},
  tbody: {},
  tr: {},
  th: { align: oneOf("left", "center", "right") },
  td: { align: oneOf("left", "center", "right") },
  del: {},
  input: { type: oneOf("checkbox"), checked: oneOf("") },
};
const VOID = new Set(["br", "hr", "img", "input"]);

/** What every link in rendered Markdown carries: authors' links are not endorsed and get no handle on our page. */
export const MARKDOWN_LINK_REL = "nofollow noopener";

// A whole tag as micromark writes it: lowercase-ish name, double-quoted (encoded) values or bare attributes.
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[a-zA-Z][\w:.-]*(?:="[^"<>]*")?)*)\s*\/?>|</g;
const ATTR = /([a-zA-Z][\w:.-]*)(?:="([^"<>]*)")?/g;

const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos));|&/g;
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** An encoded attribute value decoded, or null when it holds an entity we do not read (then it is dropped). */
function decodeAttr(value: string): string | null {
  let unknown = false;
  const decoded = value.replace(ENTITY, (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (dec !== undefined || hex !== undefined) {
      const code = dec !== undefined ? Number(dec) : parseInt(hex!, 16);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ((unknown = true), "");
    }
    if (name !== undefined) return NAMED[name]!;
    unknown = true;
    return whole;
  });
  return unknown ? null : decoded;
}

/**
 * Rendered Markdown through the allowlist. Tables come out wrapped in a box that scrolls sideways on its own, and code
 * blocks (which scroll sideways too) can take the keyboard's focus.
 */
export function sanitiseMarkdownHtml(html: string): string {
  return html.replace(TAG, (whole, closing: string, rawName: string | undefined, attrs: string | undefined) => {
    if (rawName === undefined) return "&lt;";
    const name = rawName.toLowerCase();
    const rules = TAGS[name];
    if (!rules) return "";
    if (closing) {
      if (VOID.has(name)) return "";
      return name === "table" ? "</table></div>" : `</${name}>`;
    }
    const kept: [string, string][] = [];
    for (const [, attrName, value] of (attrs ?? "").matchAll(ATTR)) {
      const key = attrName!.toLowerCase();
      const rule = rules[key];
      if (rule && !kept.some(([k]) => k === key) && rule(value ?? "")) kept.push([key, value ?? ""]);
    }
    switch (name) {
      case "input":
        // Only a task-list box survives, and it is always read-only.
        if (!kept.some(([k]) => k === "type")) return "";
        return `<input type="checkbox" disabled=""${kept.some(([k]) => k === "checked") ? ' checked=""' : ""} />`;
      case "a":
        kept.push(["rel", MARKDOWN_LINK_REL]);
        break;
      case "table":
        return '<div class="md-table" tabindex="0"><table>';
      case "pre":
        // A code block scrolls sideways on a phone: a keyboard reaches it to scroll it (WCAG 2.1.1).
        return '<pre tabindex="0">';
    }
    const attrText = kept.map(([k, v]) => ` ${k}="${v}"`).join("");
    return VOID.has(name) ? `<${name}${attrText} />` : `<${name}${attrText}>`;
  });
}
