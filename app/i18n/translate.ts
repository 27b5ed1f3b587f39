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
import type { Messages, MessageKey } from "./en";

export type Params = Record<string, string | number>;

/** The language a dictionary is written in: each names it under `lang.code`. */
export function langOf(messages: Messages): Lang {
  const code = (messages as Record<string, string | undefined>)["lang.code"];
  return isLang(code) ? code : DEFAULT_LANG;
}

const numberFormats = new Map<Lang, Intl.NumberFormat>();
const percentFormats = new Map<Lang, Intl.NumberFormat>();
const pluralRules = new Map<Lang, Intl.PluralRules>();

function numberFormat(lang: Lang): Intl.NumberFormat {
  let f = numberFormats.get(lang);
  if (!f) numberFormats.set(lang, (f = new Intl.NumberFormat(localeOf(lang), { maximumFractionDigits: 2 })));
  return f;
}

function plural(lang: Lang): Intl.PluralRules {
  let r = pluralRules.get(lang);
  if (!r) pluralRules.set(lang, (r = new Intl.PluralRules(localeOf(lang))));
  return r;
}

/** A number as people read it in `lang`: Latin digits, grouped ("12,500"), at most two decimals. */
export function formatNumber(n: number, lang: Lang): string {
  return Number.isFinite(n) ? numberFormat(lang).format(n) : String(n);
}

/**
 * A percentage given from 0 to 100 ("75%"): Latin digits, at most two decimals, and in Arabic the left-to-right
 * marks CLDR puts around the sign, so the number and its sign keep their order in right-to-left text. Messages
 * write "{score}%" and get the same.
 */
export function formatPercent(value: number, lang: Lang): string {
  if (!Number.isFinite(value)) return String(value);
  let f = percentFormats.get(lang);
  if (!f) percentFormats.set(lang, (f = new Intl.NumberFormat(localeOf(lang), { style: "percent", maximumFractionDigits: 2 })));
  return f.format(value / 100);
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

function argument(inner: string, params: Params | undefined, lang: Lang, percent: boolean): string {
  const simple = SIMPLE.exec(inner);
  if (simple) {
    const name = simple[1]!;
    if (!params || !(name in params)) return percent ? `{${name}}%` : `{${name}}`;
    const v = params[name]!;
    if (typeof v !== "number") return percent ? `${v}%` : v;
    return percent ? formatPercent(v, lang) : formatNumber(v, lang);
  }
  const p = PLURAL.exec(inner);
  const forms = p ? branches(inner.slice(p[0].length)) : null;
  if (!p || !forms) return `{${inner}}${percent ? "%" : ""}`;
  const name = p[1]!;
  const raw = params?.[name];
  const n = typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw) : Number.NaN;
  if (Number.isNaN(n)) return `{${name}}`;
  const exact = [...forms.keys()].find((k) => k.startsWith("=") && Number(k.slice(1)) === n);
  const body = forms.get(exact ?? pluralCategory(n, lang)) ?? forms.get("other")!;
  return render(body, params, lang, formatNumber(n, lang)) + (percent ? "%" : "");
}

function render(template: string, params: Params | undefined, lang: Lang, hash: string | null): string {
  let out = "";
  let i = 0;
  while (i < template.length) {
    const c = template[i]!;
    if (c === "#" && hash !== null) {
      out += hash;
      i++;
    } else if (c === "{") {
      const end = closing(template, i);
      if (end < 0) return out + template.slice(i);
      const percent = template[end + 1] === "%";
      out += argument(template.slice(i + 1, end), params, lang, percent);
      i = end + (percent ? 2 : 1);
    } else {
      const next = template.slice(i).search(hash === null ? /\{/ : /[{#]/);
      const stop = next < 0 ? template.length : i + next;
      out += template.slice(i, stop);
      i = stop;
    }
  }
  return out;
}

/** A message template (not from a dictionary, e.g. an e-mail's line) filled in `lang`. */
export function formatMessage(template: string, params: Params | undefined, lang: Lang): string {
  return template.includes("{") ? render(template, params, lang, null) : template;
}

/**
 * `messages[key]` with its placeholders filled, in the dictionary's language. Unknown keys fall back to the key
 * itself, and a missing parameter stays as `{name}`, so a gap is visible, never a crash.
 */
export function format(messages: Messages, key: MessageKey, params?: Params): string {
  const template = messages[key] ?? key;
  return formatMessage(template, params, langOf(messages));
}
