import { useRef } from "react";
import { toLatinDigits } from "~/lib/digits";
import { useT } from "~/lib/i18n";

/**
 * Six single-digit boxes for a one-time code (platform-spec §2 "Verify e-mail"): typing moves to the next
 * box, Backspace in an empty box goes back, arrow keys move, and pasting (or the phone's one-time-code
 * autofill) fills every box at once. Each box posts as `digit`, so the form also works without JavaScript.
 * The boxes always run left to right, also on Arabic pages, like the code in the e-mail.
 */
export function CodeInput({
  digits,
  onChange,
  legend,
  invalid,
  describedBy,
  disabled,
}: {
  digits: string[];
  onChange: (next: string[]) => void;
  legend: string;
  invalid?: boolean;
  describedBy?: string;
  disabled?: boolean;
}) {
  const { t } = useT();
  const refs = useRef<(HTMLInputElement | null)[]>([]);
  const length = digits.length;
  const focus = (i: number) => {
    const box = refs.current[Math.max(0, Math.min(length - 1, i))];
    box?.focus();
    box?.select();
  };

  /** Writes `text` (digits only) into the boxes from `start`, then focuses the box after the last one written. */
  function fill(start: number, text: string) {
    const incoming = toLatinDigits(text).replace(/\D/g, "");
    if (!incoming) return;
    const from = incoming.length >= length ? 0 : start;
    const next = [...digits];
    let i = from;
    for (const d of incoming.slice(0, length - from)) next[i++] = d;
    onChange(next);
    focus(Math.min(i, length - 1));
  }

  return (
    <fieldset className="code-input" aria-describedby={describedBy} disabled={disabled}>
      <legend>{legend}</legend>
      <div className="code-boxes" dir="ltr">
        {digits.map((d, i) => (
          <input
            key={i}
            ref={(el) => {
              refs.current[i] = el;
            }}
            name="digit"
            type="text"
            inputMode="numeric"
            pattern="[0-9]*"
            autoComplete={i === 0 ? "one-time-code" : "off"}
            maxLength={length}
            aria-label={t("auth.verify.digit", { n: i + 1, total: length })}
            aria-invalid={invalid ? true : undefined}
            // Each box, not only the group, names the error: the focus comes back to the first box after a refused
            // code, and a screen reader reads the box, not its fieldset.
            aria-describedby={describedBy}
            value={d}
            onFocus={(e) => e.currentTarget.select()}
            onChange={(e) => {
              let value = toLatinDigits(e.currentTarget.value).replace(/\D/g, "");
              // A key typed into a filled box: keep the new digit, not both.
              if (value.length === 2 && digits[i] && value.includes(digits[i]!)) value = value.replace(digits[i]!, "");
              if (value.length > 1) {
                fill(i, value);
                return;
              }
              const next = [...digits];
              next[i] = value;
              onChange(next);
              if (value) focus(i + 1);
            }}
            onKeyDown={(e) => {
              if (e.key === "Backspace" && !digits[i] && i > 0) {
                e.preventDefault();
                const next = [...digits];
                next[i - 1] = "";
                onChange(next);
                focus(i - 1);
              } else if (e.key === "ArrowLeft") {
                e.preventDefault();
                focus(i - 1);
              } else if (e.key === "ArrowRight") {
                e.preventDefault();
                focus(i + 1);
              } else if (e.key === "Home") {
                e.preventDefault();
                focus(0);
              } else if (e.key === "End") {
                e.preventDefault();
                focus(length - 1);
              }
            }}
            onPaste={(e) => {
              const text = e.clipboardData.getData("text");
              if (!/\d/.test(toLatinDigits(text))) return;
              e.preventDefault();
              fill(i, text);
            }}
          />
        ))}
      </div>
    </fieldset>
  );
}
