import { useFetcher, useNavigate } from "@remix-run/react";
import { useRef, useState } from "react";
import { FormAlert, PasswordField, TextField } from "~/components/form-field";
import { KeyIcon, UserIcon } from "~/components/icons";
import { PhoneField } from "~/components/phone-field";
import type { MessageKey } from "~/i18n/en";
import { splitPhone } from "~/lib/countries";
import { useT } from "~/lib/i18n";
import type { AccountResult } from "./types";
import { useAccountResult } from "./use-account-result";
import { focusRefused } from "~/lib/focus";

export type Notify = (kind: "success" | "error", text: string) => void;

type Errors = Partial<Record<string, MessageKey>>;

/** The server names the phone number `phone_number` (the API's field); the form's input is `phone`. */
const INPUT_OF: Record<string, string> = { phone_number: "phone" };

function focusFirst(form: HTMLFormElement | null, errors: Errors, order: string[]) {
  const first = order.find((f) => errors[f]);
  if (first) focusRefused(form?.querySelector<HTMLElement>(`[name="${INPUT_OF[first] ?? first}"]`));
}

/** Edit one's own name, country and phone number. */
export function EditProfileForm({ name, phone, country, notify }: { name: string; phone: string | null; country: string | null; notify: Notify }) {
  const { t } = useT();
  const fetcher = useFetcher<AccountResult>({ key: "account-profile" });
  const formRef = useRef<HTMLFormElement>(null);
  const [clientErrors, setClientErrors] = useState<Errors | null>(null);
  const initial = splitPhone(phone, country);

  useAccountResult(fetcher, (result) => {
    setClientErrors(null);
    if (result.ok) notify("success", t("account.profile.saved"));
    else focusFirst(formRef.current, result.errors, ["name", "country", "phone", "phone_number"]);
  });

  const errors: Errors = clientErrors ?? (fetcher.data && !fetcher.data.ok && fetcher.state === "idle" ? fetcher.data.errors : {});
  const formError = !clientErrors && fetcher.data && !fetcher.data.ok ? fetcher.data.formError : undefined;
  const busy = fetcher.state !== "idle";

  function check(e: React.FormEvent<HTMLFormElement>) {
    const form = new FormData(e.currentTarget);
    const next: Errors = {};
    if (!String(form.get("name") ?? "").trim()) next.name = "form.fillAll";
    if (!String(form.get("phone") ?? "").trim()) next.phone = "form.fillAll";
    setClientErrors(Object.keys(next).length > 0 ? next : null);
    if (Object.keys(next).length > 0) {
      e.preventDefault();
      focusFirst(e.currentTarget, next, ["name", "phone"]);
    }
  }

  return (
    <section className="card account-card" aria-labelledby="edit-profile-title">
      <h2 id="edit-profile-title" className="account-card-title">
        <UserIcon />
        {t("account.profile.title")}
      </h2>
      <fetcher.Form method="post" noValidate ref={formRef} onSubmit={check} className="form-fields">
        <input type="hidden" name="intent" value="profile" />
        <TextField id="profile-name" name="name" label={t("auth.field.name")} autoComplete="name" required defaultValue={name} error={errors.name ? t(errors.name) : null} />
        <PhoneField
          idPrefix="profile"
          initialCountry={initial.country.id}
          initialDigits={initial.digits}
          error={errors.phone ? t(errors.phone) : errors.phone_number ? t(errors.phone_number) : null}
          countryError={errors.country ? t(errors.country) : null}
        />
        {formError ? <FormAlert attempt={fetcher.data}>{t(formError)}</FormAlert> : null}
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? <span className="spinner spinner-sm" aria-hidden="true" /> : null}
          {t("account.profile.save")}
        </button>
      </fetcher.Form>
    </section>
  );
}

/** Change one's password (the current one is required); other devices are signed out. */
export function ChangePasswordForm({ hasPassword, minPassword, notify }: { hasPassword: boolean; minPassword: number; notify: Notify }) {
  const { t } = useT();
  const navigate = useNavigate();
  const fetcher = useFetcher<AccountResult>({ key: "account-password" });
  const codeFetcher = useFetcher<AccountResult>({ key: "account-set-password" });
  const formRef = useRef<HTMLFormElement>(null);
  const [clientErrors, setClientErrors] = useState<Errors | null>(null);

  useAccountResult(fetcher, (result) => {
    setClientErrors(null);
    if (result.ok) {
      formRef.current?.reset();
      notify("success", t("account.password.changed"));
    } else focusFirst(formRef.current, result.errors, ["currentPassword", "newPassword"]);
  });
  useAccountResult(codeFetcher, (result) => {
    if (result.ok && result.email) navigate(`/auth/forget-password?${new URLSearchParams({ email: result.email })}`, { state: { email: result.email } });
    else if (result.formError) notify("error", t(result.formError));
  });

  const errors: Errors = clientErrors ?? (fetcher.data && !fetcher.data.ok && fetcher.state === "idle" ? fetcher.data.errors : {});
  const formError = !clientErrors && fetcher.data && !fetcher.data.ok ? fetcher.data.formError : undefined;
  const busy = fetcher.state !== "idle";

  function check(e: React.FormEvent<HTMLFormElement>) {
    const form = new FormData(e.currentTarget);
    const next: Errors = {};
    if (!String(form.get("currentPassword") ?? "")) next.currentPassword = "form.currentPasswordRequired";
    const fresh = String(form.get("newPassword") ?? "");
    if (!fresh) next.newPassword = "form.fillAll";
    else if (fresh.length < minPassword) next.newPassword = "form.passwordMin";
    setClientErrors(Object.keys(next).length > 0 ? next : null);
    if (Object.keys(next).length > 0) {
      e.preventDefault();
      focusFirst(e.currentTarget, next, ["currentPassword", "newPassword"]);
    }
  }

  return (
    <section className="card account-card" aria-labelledby="password-title">
      <h2 id="password-title" className="account-card-title">
        <KeyIcon />
        {t("account.password.title")}
      </h2>
      {hasPassword ? (
        <fetcher.Form method="post" noValidate ref={formRef} onSubmit={check} className="form-fields">
          <input type="hidden" name="intent" value="password" />
          <PasswordField id="password-current" name="currentPassword" label={t("account.password.current")} autoComplete="current-password" required error={errors.currentPassword ? t(errors.currentPassword) : null} />
          <PasswordField
            id="password-new"
            name="newPassword"
            label={t("auth.reset.newPassword")}
            autoComplete="new-password"
            required
            minLength={minPassword}
            hint={t("account.password.hint", { min: minPassword })}
            error={errors.newPassword ? t(errors.newPassword) : null}
          />
          {formError ? <FormAlert attempt={fetcher.data}>{t(formError)}</FormAlert> : null}
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? <span className="spinner spinner-sm" aria-hidden="true" /> : null}
            {t("account.password.submit")}
          </button>
        </fetcher.Form>
      ) : (
        <codeFetcher.Form method="post" className="form-fields">
          <input type="hidden" name="intent" value="setPassword" />
          <p className="muted">{t("account.password.none")}</p>
          <button type="submit" className="btn btn-outline" disabled={codeFetcher.state !== "idle"}>
            {t("account.password.sendCode")}
          </button>
        </codeFetcher.Form>
      )}
    </section>
  );
}
