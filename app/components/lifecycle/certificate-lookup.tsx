import { Form } from "@remix-run/react";
import { useId } from "react";
import { useT } from "~/lib/i18n";

/**
 * "Check a certificate": its ID, typed or pasted as it is (any case, with or without dashes), opens its page. A plain
 * GET form, so it works before the page's script has loaded.
 */
export function CertificateLookup({ value = "", error = null }: { value?: string; error?: string | null }) {
  const { t } = useT();
  const id = useId();
  return (
    <Form method="get" action="/certificates" className="certificate-lookup" role="search" aria-label={t("certificate.lookup.title")}>
      <div className="field">
        <label htmlFor={`${id}-code`}>{t("certificate.lookup.label")}</label>
        <input
          id={`${id}-code`}
          name="code"
          defaultValue={value}
          required
          maxLength={40}
          dir="ltr"
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          placeholder="ABCD-EFGH-JKLM-NPQR"
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
          aria-invalid={error ? true : undefined}
        />
        <p id={`${id}-hint`} className="field-hint field-hint-block">
          {t("certificate.lookup.hint")}
        </p>
        {error ? (
          <p id={`${id}-error`} className="field-error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
      <button type="submit" className="btn btn-primary">
        {t("certificate.lookup.submit")}
      </button>
    </Form>
  );
}
