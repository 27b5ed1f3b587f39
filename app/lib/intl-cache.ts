/**
 * Intl formatters are costly to build (each loads locale data) and cheap to reuse; a page of lectures would build
 * one per date. These return one shared formatter per locale and options, for the server's renders (an isolate
 * serves many requests) and the browser alike. Bounded: the time zones are the readers', so the key set is open.
 */
const MAX_FORMATTERS = 256;
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const relativeTimeFormats = new Map<string, Intl.RelativeTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();
const listFormats = new Map<string, Intl.ListFormat>();

function cached<F>(cache: Map<string, F>, key: string, make: () => F): F {
  return remembered(cache, MAX_FORMATTERS, key, make);
}

/**
 * `cache`'s value for `key`, made by `make` the first time. For formatters, and for what they write: a page writes
 * the same dates and numbers many times, and an isolate serves many pages that share them (a group's lecture
 * dates, its due dates), while ICU's formatting is among the costliest steps of a render. Only for values that
 * depend on the key alone. Bounded: past `limit` entries the oldest is dropped, and made again when next asked.
 */
export function remembered<V>(cache: Map<string, V>, limit: number, key: string, make: () => V): V {
  let value = cache.get(key);
  if (value === undefined) {
    if (cache.size >= limit) cache.delete(cache.keys().next().value as string);
    value = make();
    cache.set(key, value);
  }
  return value;
}

/** `new Intl.DateTimeFormat(locale, options)`, built once per locale and options. */
export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return cached(dateTimeFormats, `${locale}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));
}

/** `new Intl.RelativeTimeFormat(locale, options)`, built once per locale and options. */
export function relativeTimeFormat(locale: string, options: Intl.RelativeTimeFormatOptions): Intl.RelativeTimeFormat {
  return cached(relativeTimeFormats, `${locale}|${JSON.stringify(options)}`, () => new Intl.RelativeTimeFormat(locale, options));
}

/** `new Intl.NumberFormat(locale, options)`, built once per locale and options. */
export function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  return cached(numberFormats, `${locale}|${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options));
}

/** Names joined as a sentence says them in `locale` ("A, B and C" / "A وB وC"), with one formatter per locale. */
export function formatList(locale: string, items: readonly string[]): string {
  return cached(listFormats, locale, () => new Intl.ListFormat(locale, { type: "conjunction" })).format(items);
}
