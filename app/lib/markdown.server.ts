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

// The languages a web bootcamp writes about; other fences stay plain (escaped) text.
for (const [name, lang] of Object.entries({ bash, css, javascript, json, python, sql, typescript, xml })) hljs.registerLanguage(name, lang);
const ALIASES: Record<string, string> = { js: "javascript", jsx: "javascript", ts: "typescript", tsx: "typescript", html: "xml", sh: "bash", shell: "bash" };

const ENTITIES: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&quot;": '"', "&amp;": "&", "&#x27;": "'", "&#39;": "'" };
const unescape = (html: string) => html.replace(/&(lt|gt|quot|amp|#x27|#39);/g, (e) => ENTITIES[e] ?? e);

/**
 * Course Markdown to HTML, on the server. micromark follows CommonMark and escapes raw HTML by default
 * (no `allowDangerousHtml`), so author text can never inject markup or scripts into the page. Fenced code with a
 * known language is highlighted by highlight.js, whose output escapes the code again and adds only `<span class>`.
 */
export function renderMarkdown(source: string): string {
  return micromark(source).replace(/<pre><code class="language-([\w+-]+)">([\s\S]*?)<\/code><\/pre>/g, (whole, lang: string, code: string) => {
    const name = ALIASES[lang.toLowerCase()] ?? lang.toLowerCase();
    if (!hljs.getLanguage(name)) return whole;
    const highlighted = hljs.highlight(unescape(code), { language: name, ignoreIllegals: true }).value;
    return `<pre><code class="hljs language-${name}" dir="ltr">${highlighted}</code></pre>`;
  });
}
