import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import css from "highlight.js/lib/languages/css";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import python from "highlight.js/lib/languages/python";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import { micromark } from "micromark";
import { gfm, gfmHtml, type Extension } from "micromark-extension-gfm";
import { remembered } from "./intl-cache";
import { sanitiseMarkdownHtml } from "./sanitise-html.server";

const ALIASES: Record<string, string> = { js: "javascript", jsx: "javascript", ts: "typescript", tsx: "typescript", html: "xml", sh: "bash", shell: "bash" };

const ENTITIES: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&quot;": '"', "&amp;": "&", "&#x27;": "'", "&#39;": "'" };
const unescape = (html: string) => html.replace(/&(lt|gt|quot|amp|#x27|#39);/g, (e) => ENTITIES[e] ?? e);

/**
 * GitHub-flavoured Markdown without footnotes: tables, task lists, ~~strikethrough~~ (two tildes; one tilde stays
 * text, so "~5 to ~10 minutes" reads as written) and www./http(s) autolinks. Footnotes are left out because they
 * bring ids, `<section>` and `<sup>` that nothing here needs; `[^1]` stays text. The footnote constructs are the ones
 * micromark-extension-gfm names `gfmFootnote*` and `gfmPotentialFootnote*` (tests/integration/markdown-gfm.test.ts
 * notices if that changes).
 */
function withoutFootnotes(extension: Extension): Extension {
  const isFootnote = (construct: unknown) => /^gfm(Potential)?Footnote/.test((construct as { name?: string }).name ?? "");
  const out: Record<string, unknown> = {};
  for (const [field, byCode] of Object.entries(extension)) {
    if (!byCode || typeof byCode !== "object") {
      out[field] = byCode;
      continue;
    }
    const kept: Record<string, unknown> = {};
    for (const [code, constructs] of Object.entries(byCode as Record<string, unknown>)) {
      const list = (Array.isArray(constructs) ? constructs : [constructs]).filter((c) => !isFootnote(c));
      if (list.length > 0) kept[code] = list;
    }
    out[field] = kept;
  }
  return out as Extension;
}

/**
 * The highlighter's languages and the GFM extensions, set up by the first render rather than when the Worker loads
 * this module (every page and most API routes import it; docs/decisions/0025-lean-cold-start.md).
 */
let GFM: { extensions: Extension[]; htmlExtensions: ReturnType<typeof gfmHtml>[] } | null = null;
function setUp() {
  if (GFM) return GFM;
  // The languages a web bootcamp writes about; other fences stay plain (escaped) text.
  for (const [name, lang] of Object.entries({ bash, css, javascript, json, python, sql, typescript, xml })) hljs.registerLanguage(name, lang);
  GFM = { extensions: [withoutFootnotes(gfm({ singleTilde: false }))], htmlExtensions: [gfmHtml()] };
  return GFM;
}

/**
 * What emphasis costs to parse. micromark pairs `*`, `_` and `~~` runs within a paragraph in time that grows with the
 * square of their number there ("a*_" written 6,666 times, 20,000 characters, took 3.4 s of one request's CPU). The
 * sum of the squares of each paragraph's count bounds that work; real text stays far below the budget (300 paragraphs
 * with a bold word, an italic one and a snake_case name each: under 20,000).
 */
function emphasisCost(source: string): number {
  let sum = 0;
  for (const block of source.split(/\n[ \t]*\n/)) {
    let n = 0;
    for (let i = 0; i < block.length; i++) {
      const c = block.charCodeAt(i);
      if (c === 42 || c === 95 || c === 126) n++; // * _ ~
    }
    sum += n * n;
  }
  return sum;
}

/** About 20 ms of parsing at most; past it, emphasis and strikethrough are left as the characters written. */
export const EMPHASIS_BUDGET = 300_000;
const PLAIN_EMPHASIS: Extension = { disable: { null: ["attention", "strikethrough"] } };

/**
 * Course Markdown to HTML, on the server: the one renderer for lecture and task bodies, quiz text, course outline
 * and feedback. micromark follows CommonMark (plus the GFM above) and escapes raw HTML by default (no
 * `allowDangerousHtml`), so author text cannot inject markup or scripts. Fenced code with a known language is
 * highlighted by highlight.js, whose output escapes the code again and adds only `<span class>`. Last, everything
 * goes through the allowlist in `sanitise-html.server.ts` (links get rel="nofollow noopener", task-list boxes stay
 * disabled, tables are wrapped in a box that scrolls sideways).
 */
export function renderMarkdown(source: string): string {
  // Short texts read again and again (a quiz's questions and options at every attempt's page) are rendered once per
  // isolate: the HTML is a function of the text alone, the same for every reader.
  return source.length <= REMEMBERED_LENGTH ? remembered(rendered, REMEMBERED_TEXTS, source, () => render(source)) : render(source);
}

/** Texts up to this length are remembered, at most this many (about 4 MB at worst). */
const REMEMBERED_LENGTH = 5_000;
const REMEMBERED_TEXTS = 256;
const rendered = new Map<string, string>();

function render(source: string): string {
  const gfmSetUp = setUp();
  const options = emphasisCost(source) > EMPHASIS_BUDGET ? { ...gfmSetUp, extensions: [...gfmSetUp.extensions, PLAIN_EMPHASIS] } : gfmSetUp;
  const html = micromark(source, options).replace(/<pre><code class="language-([\w+-]+)">([\s\S]*?)<\/code><\/pre>/g, (whole, lang: string, code: string) => {
    const name = ALIASES[lang.toLowerCase()] ?? lang.toLowerCase();
    if (!hljs.getLanguage(name)) return whole;
    const highlighted = hljs.highlight(unescape(code), { language: name, ignoreIllegals: true }).value;
    return `<pre><code class="hljs language-${name}" dir="ltr">${highlighted}</code></pre>`;
  });
  return sanitiseMarkdownHtml(html);
}
