import { useId, useState } from "react";
import { StarIcon } from "~/components/icons";
import { useT } from "~/lib/i18n";

const VALUES = [0, 1, 2, 3, 4, 5] as const;

/**
 * A 0-5 rating as a native radio group drawn as stars: Tab reaches the group, the arrow keys move between
 * values (in the page's direction), each radio has a spoken name ("4 out of 5 stars"), and the form posts
 * `name` without any script. Hovering previews a value.
 */
export function StarRating({ name, value, onChange, error }: { name: string; value: number | null; onChange: (n: number) => void; error?: string }) {
  const { t } = useT();
  const id = useId();
  const [preview, setPreview] = useState<number | null>(null);
  const lit = preview ?? value ?? 0;
  return (
    <fieldset className="star-field" aria-describedby={[`${id}-hint`, error ? `${id}-error` : ""].filter(Boolean).join(" ")}>
      <legend className="star-legend">{t("shareFeedback.rating")}</legend>
      <p id={`${id}-hint`} className="field-hint star-hint">
        {t("shareFeedback.ratingHint")}
      </p>
      <div className="star-options" onMouseLeave={() => setPreview(null)}>
        {VALUES.map((n) => (
          <label key={n} className="star-option" data-zero={n === 0 || undefined} data-lit={(n > 0 && n <= lit) || undefined} onMouseEnter={() => setPreview(n)}>
            <input type="radio" name={name} value={n} checked={value === n} onChange={() => onChange(n)} className="star-input" />
            {n === 0 ? (
              <span className="star-zero" aria-hidden="true">
                0
              </span>
            ) : (
              <StarIcon filled={n <= lit} className="star-glyph" />
            )}
            <span className="visually-hidden">{t("shareFeedback.stars", { count: n })}</span>
          </label>
        ))}
        <span className="star-readout" aria-hidden="true">
          {t("feedback.rating", { rating: value ?? "–" })}
        </span>
      </div>
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
