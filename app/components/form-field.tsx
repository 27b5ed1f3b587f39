import { forwardRef, useRef, useState, type InputHTMLAttributes, type ReactNode } from "react";
import { useT } from "~/lib/i18n";

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id"> & {
  id: string;
  label: string;
  /** Already translated. Shown under the field and tied to it with aria-describedby. */
  error?: string | null;
  hint?: string;
  /** Extra ids the field is described by (a form-level message that names this field). */
  describedBy?: string;
  /** Something before the input on the same line (a calling code). */
  prefix?: ReactNode;
  /** Marks the field invalid without its own message (the message is elsewhere, see `describedBy`). */
  invalid?: boolean;
};

function ids(id: string, error?: string | null, hint?: string, describedBy?: string) {
  const list = [hint ? `${id}-hint` : null, error ? `${id}-error` : null, describedBy ?? null].filter(Boolean);
  return list.length > 0 ? list.join(" ") : undefined;
}

/** A labelled input with its hint and error, wired for screen readers (aria-invalid, aria-describedby). */
export const TextField = forwardRef<HTMLInputElement, InputProps>(function TextField(
  { id, label, error, hint, describedBy, prefix, invalid, className, ...input },
  ref,
) {
  const field = (
    <input ref={ref} id={id} aria-invalid={error || invalid ? true : undefined} aria-describedby={ids(id, error, hint, describedBy)} {...input} />
  );
  return (
    <div className={["field", className ?? ""].join(" ").trim()}>
      <label htmlFor={id}>{label}</label>
      {prefix ? (
        <div className="input-group" dir="ltr">
          <span className="input-prefix">{prefix}</span>
          {field}
        </div>
      ) : (
        field
      )}
      {hint ? (
        <p id={`${id}-hint`} className="field-hint field-hint-block">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
});

/** A password input with a Show/Hide button named with the field's label ("Show Password", "Hide Password"). */
export const PasswordField = forwardRef<HTMLInputElement, Omit<InputProps, "type" | "prefix">>(function PasswordField(
  { id, label, error, hint, describedBy, invalid, className, ...input },
  ref,
) {
  const { t } = useT();
  const [shown, setShown] = useState(false);
  return (
    <div className={["field", className ?? ""].join(" ").trim()}>
      <label htmlFor={id}>{label}</label>
      <div className="password-wrap">
        <input
          ref={ref}
          id={id}
          type={shown ? "text" : "password"}
          aria-invalid={error || invalid ? true : undefined}
          aria-describedby={ids(id, error, hint, describedBy)}
          {...input}
        />
        {/* Named with its field ("Show Confirm password"): two on one page are told apart; the visible word starts it. */}
        <button type="button" className="password-toggle" aria-controls={id} onClick={() => setShown((v) => !v)}>
          {shown ? t("form.hidePassword") : t("form.showPassword")}
          <span className="visually-hidden"> {label}</span>
        </button>
      </div>
      {hint ? (
        <p id={`${id}-hint`} className="field-hint field-hint-block">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
});

/**
 * A number that changes with each new `attempt` (the action's answer, the form's own check...): the key of an alert,
 * so that a new failure redraws it even when its words are the same. An alert whose text does not change is not read
 * again; one added to the page is.
 */
function useAttemptKey(attempt: unknown): number {
  const seen = useRef({ attempt, count: 0 });
  if (seen.current.attempt !== attempt) seen.current = { attempt, count: seen.current.count + 1 };
  return seen.current.count;
}

/**
 * A form-level failure, announced at once. `attempt` names the failure: a new one is said again, so the second "The
 * email or password is incorrect" is heard like the first.
 */
export function FormAlert({ id, children, attempt }: { id?: string; children: ReactNode; attempt?: unknown }) {
  return (
    <RefusalText as="div" id={id} attempt={attempt}>
      {children}
    </RefusalText>
  );
}

/** A refusal (`role="alert"`), a sentence or a block, said again for each new `attempt` (`useAttemptKey`). */
export function RefusalText({ as: Tag = "p", id, className = "form-error", attempt, children }: { as?: "p" | "span" | "div"; id?: string; className?: string; attempt: unknown; children: ReactNode }) {
  const key = useAttemptKey(attempt);
  return (
    <Tag key={key} id={id} className={className} role="alert">
      {children}
    </Tag>
  );
}
