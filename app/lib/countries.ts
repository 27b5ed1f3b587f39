/**
 * The registration form's countries, calling codes and phone digit caps (platform-spec §9), in the spec's
 * order. Client-safe and small: the register and profile forms and their actions all use it.
 */
import type { MessageKey } from "~/i18n/en";
import { toLatinDigits } from "./digits";

export interface Country {
  /** Stored in `users.country`. */
  id: string;
  /** Calling code without "+", or null for "Other" (the person types the whole international number). */
  dial: string | null;
  /** How many digits the phone field accepts for this country. */
  maxDigits: number;
  /**
   * Whether the cap counts a national trunk "0" typed first. Egypt's 11 is the number as Egyptians write it (010...);
   * elsewhere the cap is the number after the calling code (Saudi Arabia's 9: 5XXXXXXXX), and people write it with a
   * 0 in front (05XXXXXXXX), which is dropped rather than allowed to push the last digit out.
   */
  trunkInCap?: true;
  nameKey: MessageKey;
}

export const COUNTRIES: readonly Country[] = [
  { id: "EG", dial: "20", maxDigits: 11, trunkInCap: true, nameKey: "country.EG" },
  { id: "SA", dial: "966", maxDigits: 9, nameKey: "country.SA" },
  { id: "AE", dial: "971", maxDigits: 9, nameKey: "country.AE" },
  { id: "DZ", dial: "213", maxDigits: 9, nameKey: "country.DZ" },
  { id: "TN", dial: "216", maxDigits: 8, nameKey: "country.TN" },
  { id: "OM", dial: "968", maxDigits: 8, nameKey: "country.OM" },
  { id: "LB", dial: "961", maxDigits: 8, nameKey: "country.LB" },
  { id: "SY", dial: "963", maxDigits: 9, nameKey: "country.SY" },
  { id: "MA", dial: "212", maxDigits: 9, nameKey: "country.MA" },
  { id: "IQ", dial: "964", maxDigits: 10, nameKey: "country.IQ" },
  { id: "JO", dial: "962", maxDigits: 9, nameKey: "country.JO" },
  { id: "KW", dial: "965", maxDigits: 8, nameKey: "country.KW" },
  { id: "BH", dial: "973", maxDigits: 8, nameKey: "country.BH" },
  { id: "QA", dial: "974", maxDigits: 8, nameKey: "country.QA" },
  { id: "PS", dial: "970", maxDigits: 9, nameKey: "country.PS" },
  { id: "YE", dial: "967", maxDigits: 9, nameKey: "country.YE" },
  { id: "US", dial: "1", maxDigits: 10, nameKey: "country.US" },
  { id: "OTHER", dial: null, maxDigits: 14, nameKey: "country.OTHER" },
];

export const DEFAULT_COUNTRY: Country = COUNTRIES[0]!;

export function countryById(id: string | null | undefined): Country | null {
  return COUNTRIES.find((c) => c.id === id) ?? null;
}

/**
 * What the phone field keeps of what was typed: digits only (Arabic-Indic ones as 0-9), at most the country's cap,
 * not counting a trunk "0" typed first where the cap leaves it out (`trunkInCap`).
 */
export function phoneDigits(country: Country, raw: string): string {
  // A number pasted whole, with this country's calling code in front ("+20 100 ...", "0020100..."): its national part.
  const international = internationalNumber(raw);
  if (international?.country === country) raw = international.national;
  const all = toLatinDigits(raw).replace(/\D/g, "");
  return all.slice(0, country.maxDigits + (trunkDropped(country) && all.startsWith("0") ? 1 : 0));
}

/**
 * A number written in its international form ("+20 100 111 2223", "00966 5..."), as people paste it or a browser
 * fills it in: the listed country whose calling code it starts with (the longest that matches) and the digits after
 * that code. Null for a number without "+" or "00" in front, or whose code is none of the list's.
 */
export function internationalNumber(raw: string): { country: Country; national: string } | null {
  const written = /^\s*(?:\+|00)(.*)$/s.exec(toLatinDigits(raw));
  if (!written) return null;
  const all = written[1]!.replace(/\D/g, "");
  let found: Country | null = null;
  for (const c of COUNTRIES) if (c.dial && all.startsWith(c.dial) && (!found || c.dial.length > found.dial!.length)) found = c;
  return found ? { country: found, national: all.slice(found.dial!.length) } : null;
}

/** Whether a "0" typed first is a trunk prefix outside the country's cap (it is dropped from the stored number). */
export function trunkDropped(country: Country): boolean {
  return country.dial !== null && !country.trunkInCap;
}

/**
 * The stored phone number: "+" + calling code + digits (platform-spec §3). A national trunk "0" typed first
 * (Egyptians write 010..., which is why Egypt's cap is 11) is dropped, so the number is valid internationally.
 */
export function composePhone(country: Country, digits: string): string {
  const clean = phoneDigits(country, digits);
  return country.dial ? `+${country.dial}${clean.replace(/^0/, "")}` : `+${clean}`;
}

/**
 * Whether a phone number as stored ("+" and digits) is one of `country`'s: its calling code, then at least one and at
 * most its cap of digits (platform-spec §9). "Other" takes any international number. The forms compose the number
 * from the country and its capped digits, so they always fit; the API is held to the same pairing.
 */
export function phoneFits(country: Country, phone: string): boolean {
  if (!country.dial) return true;
  const prefix = `+${country.dial}`;
  if (!phone.startsWith(prefix)) return false;
  const national = phone.length - prefix.length;
  return national >= 1 && national <= country.maxDigits;
}

/** A stored phone number: "+" and 6 to 15 digits, the calling code included (E.164's length). */
export const PHONE_PATTERN = /^\+\d{6,15}$/;

/** The API's refusal of a number that is not the chosen country's. */
export const phoneMismatchMessage = (country: Country) =>
  `Enter a phone number of the chosen country: +${country.dial} and at most ${country.maxDigits} digits after it.`;

/** Splits a stored number back into a country and the digits after its code (for editing a profile). */
export function splitPhone(phone: string | null, countryId: string | null): { country: Country; digits: string } {
  const all = (phone ?? "").replace(/\D/g, "");
  const chosen = countryById(countryId);
  if (chosen?.dial && all.startsWith(chosen.dial)) return { country: chosen, digits: phoneDigits(chosen, all.slice(chosen.dial.length)) };
  const byPrefix = [...COUNTRIES].filter((c) => c.dial && all.startsWith(c.dial)).sort((a, b) => b.dial!.length - a.dial!.length)[0];
  if (byPrefix) return { country: byPrefix, digits: phoneDigits(byPrefix, all.slice(byPrefix.dial!.length)) };
  const other = countryById("OTHER")!;
  return { country: other, digits: phoneDigits(other, all) };
}
