/** Languages the product speaks. English is the default; Arabic is right to left. Client-safe. */
export const LANGUAGES = ["en", "ar"] as const;
export type Lang = (typeof LANGUAGES)[number];
export const DEFAULT_LANG: Lang = "en";
export const LANG_COOKIE = "lang";
const LANG_COOKIE_SECONDS = 31_536_000;

/** The Set-Cookie value that remembers a language on this browser for a year. */
export function langCookie(lang: Lang): string {
  return `${LANG_COOKIE}=${lang}; Path=/; Max-Age=${LANG_COOKIE_SECONDS}; SameSite=Lax`;
}

/**
 * The locale every number, percentage, date and time is formatted with (ADR "Western digits in both languages"):
 * Arabic is Egyptian Arabic with Latin digits (`-u-nu-latn`), so a page shows the same digits the instructor
 * projects, the codes students type and the CSVs hold; English is British English (day before month).
 */
export const LOCALES: Record<Lang, string> = { en: "en-GB", ar: "ar-EG-u-nu-latn" };

export function localeOf(lang: Lang): string {
  return LOCALES[lang];
}

export function dirOf(lang: Lang): "ltr" | "rtl" {
  return lang === "ar" ? "rtl" : "ltr";
}

export function isLang(v: unknown): v is Lang {
  return typeof v === "string" && (LANGUAGES as readonly string[]).includes(v);
}

/** The visitor's choice (cookie) wins; otherwise the first supported Accept-Language; otherwise English. */
export function detectLang(request: Request): Lang {
  return statedLang(request) ?? DEFAULT_LANG;
}

/** The language chosen on this browser with the language switch (the `lang` cookie), or null. */
export function chosenLang(request: Request): Lang | null {
  const m = (request.headers.get("cookie") ?? "").match(/(?:^|;\s*)lang=([a-z]{2})/);
  return m && isLang(m[1]) ? m[1] : null;
}

/** The language a request asks for by its `lang` cookie or its Accept-Language, or null when it names none of ours. */
export function statedLang(request: Request): Lang | null {
  const chosen = chosenLang(request);
  if (chosen) return chosen;
  const accept = request.headers.get("accept-language") ?? "";
  const ranked = accept
    .split(",")
    .map((part) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.find((p) => p.trim().startsWith("q="));
      return { lang: (tag ?? "").slice(0, 2).toLowerCase(), q: q ? Number(q.trim().slice(2)) || 0 : 1 };
    })
    .filter((x) => x.q > 0)
    .sort((a, b) => b.q - a.q);
  return (ranked.find((x) => isLang(x.lang))?.lang as Lang | undefined) ?? null;
}
