import { useState } from "react";
import { COUNTRIES, countryById, DEFAULT_COUNTRY, internationalNumber, phoneDigits, trunkDropped, type Country } from "~/lib/countries";
import { isolateLtr } from "~/lib/bidi";
import { useT } from "~/lib/i18n";

/**
 * Country selector plus phone number (platform-spec §2, §5, §9): the calling code is shown before the number,
 * anything but digits is dropped as the person types, and the number is capped at the country's length. A whole
 * international number pasted in ("+20 100 ...") chooses its country and keeps the digits after the calling code.
 * Posts `country` and `phone` (digits); the action composes `phone_number` from both (lib/countries.ts).
 */
export function PhoneField({
  idPrefix,
  initialCountry,
  initialDigits = "",
  error,
  countryError,
  invalid,
  describedBy,
}: {
  idPrefix: string;
  initialCountry?: string | null;
  initialDigits?: string;
  /** Already translated. */
  error?: string | null;
  countryError?: string | null;
  invalid?: boolean;
  describedBy?: string;
}) {
  const { t } = useT();
  const [country, setCountry] = useState<Country>(() => countryById(initialCountry) ?? DEFAULT_COUNTRY);
  const [digits, setDigits] = useState(() => phoneDigits(countryById(initialCountry) ?? DEFAULT_COUNTRY, initialDigits));
  const phoneId = `${idPrefix}-phone`;
  const countryId = `${idPrefix}-country`;
  const describe = [`${phoneId}-hint`, error ? `${phoneId}-error` : null, describedBy ?? null].filter(Boolean).join(" ");

  return (
    <div className="phone-field">
      <div className="field">
        <label htmlFor={countryId}>{t("auth.field.country")}</label>
        <select
          id={countryId}
          name="country"
          value={country.id}
          aria-invalid={countryError ? true : undefined}
          aria-describedby={countryError ? `${countryId}-error` : undefined}
          onChange={(e) => {
            const next = countryById(e.target.value) ?? DEFAULT_COUNTRY;
            setCountry(next);
            setDigits((d) => phoneDigits(next, d));
          }}
        >
          {COUNTRIES.map((c) => (
            <option key={c.id} value={c.id}>
              {c.dial ? `${t(c.nameKey)} (${isolateLtr(`+${c.dial}`)})` : t(c.nameKey)}
            </option>
          ))}
        </select>
        {countryError ? (
          <p id={`${countryId}-error`} className="field-error">
            {countryError}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={phoneId}>{t("auth.field.phone")}</label>
        <div className="input-group" dir="ltr">
          <span className="input-prefix" aria-hidden="true">
            {country.dial ? `+${country.dial}` : "+"}
          </span>
          <input
            id={phoneId}
            name="phone"
            type="tel"
            inputMode="numeric"
            autoComplete="tel-national"
            required
            value={digits}
            onChange={(e) => {
              // phoneDigits keeps what follows the calling code of the country the number names.
              const next = internationalNumber(e.target.value)?.country ?? country;
              if (next !== country) setCountry(next);
              setDigits(phoneDigits(next, e.target.value));
            }}
            aria-invalid={error || invalid ? true : undefined}
            aria-describedby={describe}
          />
        </div>
        <p id={`${phoneId}-hint`} className="field-hint field-hint-block">
          {country.dial
            ? t(trunkDropped(country) ? "auth.field.phoneHintTrunk" : "auth.field.phoneHint", { code: isolateLtr(`+${country.dial}`), max: country.maxDigits })
            : t("auth.field.phoneHintOther", { max: country.maxDigits })}
        </p>
        {error ? (
          <p id={`${phoneId}-error`} className="field-error">
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}
