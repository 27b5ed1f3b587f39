/**
 * Intl formatters are costly to build (each loads locale data) and cheap to reuse; a page of lectures would build
 * one per date. These return one shared formatter per locale and options, for the server's renders (an isolate
 * serves many requests) and the browser alike. Bounded: the time zones are the readers', so the key set is open.
 */
const MAX_FORMATTERS = 256;
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const relativeTimeFormats = new Map<string, Intl.RelativeTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();

function cached<F>(cache: Map<string, F>, key: string, make: () => F): F {
  let f = cache.get(key);
  if (!f) {
    if (cache.size >= MAX_FORMATTERS) cache.delete(cache.keys().next().value as string);
    f = make();
    cache.set(key, f);
  }
  return f;
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
