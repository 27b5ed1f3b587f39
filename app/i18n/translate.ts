/**
 * Filling a message's placeholders, in the message's own language. Client-safe.
 *
 * A message holds plain text with `{name}` placeholders and, where a number counts something, an ICU-style plural:
 *
 *     "{n, plural, =0 {No questions yet} one {# question} other {# questions}}"
 *
 * The branch is chosen by an exact match (`=0`, `=1`, ...) first, then by the language's plural category from
 * `Intl.PluralRules` (English: one, other; Arabic: zero, one, two, few, many, other), then `other`. Inside a
 * branch `#` is the number and `{name}` placeholders work as anywhere else; plurals may nest (`#` is then the
 * innermost number). Every number, in a plural or a plain placeholder, is written by the language's
 * `Intl.NumberFormat` with Latin digits in both languages (config.ts `LOCALES`); strings are left as they are, so
 * codes, years and ids are passed as strings. A number placeholder followed by `%` ("{score}%", a value from 0 to
 * 100) is written as a percentage by the same `Intl.NumberFormat` (in Arabic with the marks that keep "25%" reading
 * as on the projector, not "%25", wherever it falls in the sentence). Only this subset of ICU is read: no
 * `select`, no quoting with `'`.
 */
import { DEFAULT_LANG, isLang, localeOf, type Lang } from "./config";
import { numberFormat, remembered } from "../lib/intl-cache";
import type { Messages, MessageKey } from "./en";

export type Params = Record<string, string | number>;

/** The language a dictionary is written in: each names it under `lang.code`. */
export function langOf(messages: Messages): Lang {
  const code = (messages as Record<string, string | undefined>)["lang.code"];
  return isLang(code) ? code : DEFAULT_LANG;
}

const pluralRules = new Map<Lang, Intl.PluralRules>();

function plural(lang: Lang): Intl.PluralRules {
  let r = pluralRules.get(lang);
  if (!r) pluralRules.set(lang, (r = new Intl.PluralRules(localeOf(lang))));
  return r;
}

/** A number as people read it in `lang`: Latin digits, grouped ("12,500"), at most two decimals. */
export function formatNumber(n: number, lang: Lang): string {
  if (!Number.isFinite(n)) return String(n);
  return written(numbersWritten, lang, n, () => numberFormat(localeOf(lang), { maximumFractionDigits: 2 }).format(n));
}

/**
 * Numbers already written, per language. `Intl.NumberFormat#format` is the costliest step of filling a message, and
 * a page writes the same small numbers over and over (counts, scores, percentages). Bounded: past its size the
 * oldest number is written again when next asked.
 */
const MAX_WRITTEN = 2048;
const numbersWritten = new Map<string, string>();
const percentsWritten = new Map<string, string>();

function written(cache: Map<string, string>, lang: Lang, n: number, write: () => string): string {
  if (Object.is(n, -0)) return write(); // "-0", which a key made with String(n) would confuse with 0
  return remembered(cache, MAX_WRITTEN, lang + n, write);
}

/**
 * A percentage given from 0 to 100 ("75%"): Latin digits, at most two decimals, and in Arabic the left-to-right
 * marks CLDR puts around the sign, so the number and its sign keep their order in right-to-left text. Messages
 * write "{score}%" and get the same.
 */
export function formatPercent(value: number, lang: Lang): string {
  if (!Number.isFinite(value)) return String(value);
  return written(percentsWritten, lang, value, () => numberFormat(localeOf(lang), { style: "percent", maximumFractionDigits: 2 }).format(value / 100));
}

/** The plural category of `n` in `lang` ("one", "few", ...). */
export function pluralCategory(n: number, lang: Lang): Intl.LDMLPluralRule {
  return plural(lang).select(n);
}

/** Index of the `}` closing the `{` at `open`, or -1. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return i;
  }
  return -1;
}

const SIMPLE = /^\s*(\w+)\s*$/;
const PLURAL = /^\s*(\w+)\s*,\s*plural\s*,/;
const SELECTOR = /\s*(=\d+(?:\.\d+)?|zero|one|two|few|many|other)\s*\{/y;

/**
 * A template read once into its parts, so that filling it is a walk over a short list: a page fills hundreds of
 * messages, and every one used to be scanned, its plurals split into branches, at each call.
 */
type Part =
  | string
  | { kind: "hash" }
  | { kind: "value"; name: string; percent: boolean }
  | { kind: "plural"; name: string; percent: boolean; exact: [number, Part[]][]; forms: Map<string, Part[]> };

/** The branches of a plural (`=0 {...} one {...} other {...}`), or null if they do not parse. */
function branches(spec: string): Map<string, string> | null {
  const found = new Map<string, string>();
  let i = 0;
  while (i < spec.length) {
    if (/^\s*$/.test(spec.slice(i))) break;
    SELECTOR.lastIndex = i;
    const m = SELECTOR.exec(spec);
    if (!m) return null;
    const open = SELECTOR.lastIndex - 1;
    const end = closing(spec, open);
    if (end < 0) return null;
    found.set(m[1]!, spec.slice(open + 1, end));
    i = end + 1;
  }
  return found.has("other") ? found : null;
}

/** One `{...}` (its inside), `%` after it or not: a value, a plural, or (neither) its own text. */
function argumentPart(inner: string, percent: boolean): Part {
  const simple = SIMPLE.exec(inner);
  if (simple) return { kind: "value", name: simple[1]!, percent };
  const p = PLURAL.exec(inner);
  const found = p ? branches(inner.slice(p[0].length)) : null;
  if (!p || !found) return `{${inner}}${percent ? "%" : ""}`;
  const forms = new Map<string, Part[]>();
  const exact: [number, Part[]][] = [];
  for (const [selector, body] of found) {
    const parts = parse(body, true);
    forms.set(selector, parts);
    if (selector.startsWith("=")) exact.push([Number(selector.slice(1)), parts]);
  }
  return { kind: "plural", name: p[1]!, percent, exact, forms };
}

/** A template's parts; `#` is a part only inside a plural's branch (`inBranch`), elsewhere it is text. */
function parse(template: string, inBranch: boolean): Part[] {
  const parts: Part[] = [];
  let i = 0;
  while (i < template.length) {
    const c = template[i]!;
    if (c === "#" && inBranch) {
      parts.push({ kind: "hash" });
      i++;
    } else if (c === "{") {
      const end = closing(template, i);
      if (end < 0) {
        parts.push(template.slice(i));
        break;
      }
      const percent = template[end + 1] === "%";
      parts.push(argumentPart(template.slice(i + 1, end), percent));
      i = end + (percent ? 2 : 1);
    } else {
      const next = template.slice(i).search(inBranch ? /[{#]/ : /\{/);
      const stop = next < 0 ? template.length : i + next;
      parts.push(template.slice(i, stop));
      i = stop;
    }
  }
  return parts;
}

/**
 * Templates already read. The dictionaries' templates are a fixed set; others (an e-mail's lines) are few, and the
 * map is bounded all the same: past its size the oldest template is read again when next used.
 */
const MAX_TEMPLATES = 4096;
const parsed = new Map<string, Part[]>();

function partsOf(template: string): Part[] {
  return remembered(parsed, MAX_TEMPLATES, template, () => parse(template, false));
}

function fill(parts: Part[], params: Params | undefined, lang: Lang, hash: string): string {
  let out = "";
  for (const part of parts) {
    if (typeof part === "string") out += part;
    else if (part.kind === "hash") out += hash;
    else if (part.kind === "value") {
      const { name, percent } = part;
      if (!params || !(name in params)) out += percent ? `{${name}}%` : `{${name}}`;
      else {
        const v = params[name]!;
        if (typeof v !== "number") out += percent ? `${v}%` : v;
        else out += percent ? formatPercent(v, lang) : formatNumber(v, lang);
      }
    } else {
      const raw = params?.[part.name];
      const n = typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw) : Number.NaN;
      if (Number.isNaN(n)) {
        out += `{${part.name}}`;
        continue;
      }
      const body = part.exact.find(([value]) => value === n)?.[1] ?? part.forms.get(pluralCategory(n, lang)) ?? part.forms.get("other")!;
      out += fill(body, params, lang, formatNumber(n, lang)) + (part.percent ? "%" : "");
    }
  }
  return out;
}

/** A message template (not from a dictionary, e.g. an e-mail's line) filled in `lang`. */
export function formatMessage(template: string, params: Params | undefined, lang: Lang): string {
  return template.includes("{") ? fill(partsOf(template), params, lang, "#") : template;
}

/**
 * `messages[key]` with its placeholders filled, in the dictionary's language. Unknown keys fall back to the key
 * itself, and a missing parameter stays as `{name}`, so a gap is visible, never a crash.
 */
export function format(messages: Messages, key: MessageKey, params?: Params): string {
  const template = messages[key] ?? key;
  return formatMessage(template, params, langOf(messages));
}
