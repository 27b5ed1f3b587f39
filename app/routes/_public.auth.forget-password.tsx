import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigate, useNavigation, useSubmit } from "@remix-run/react";
import { data } from "@remix-run/server-runtime";
import { useEffect, useRef, useState } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FormAlert, PasswordField, TextField } from "~/components/form-field";
import { useHydrated } from "~/hooks/use-hydrated";
import type { MessageKey } from "~/i18n/en";
import { expectedError, fieldErrors, formValues, messageKey, retryHeaders, type FieldErrors } from "~/lib/form-errors.server";
import { revealAndFocus } from "~/lib/focus";
import { toLatinDigits } from "~/lib/digits";
import { useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { CODE_DIGITS, PASSWORD_MIN_LENGTH, resetPasswordInput } from "~/lib/schemas";
import { reset } from "../../worker/services/accounts";

/** Spec §4, §9: the login screen follows 2.5 s after a successful reset. */
export const RESET_REDIRECT_MS = 2_500;

type Field = "email" | "resetCode" | "newPassword";
type ActionResult = { ok: true; email: string } | { ok: false; errors: FieldErrors<Field>; formError?: MessageKey; email: string };

export const meta: MetaFunction = ({ matches }) => {
  const t = metaT(matches);
  return pageMeta(matches, t("auth.reset.title"), t("auth.reset.subtitle"));
};

export function loader({ request }: LoaderFunctionArgs) {
  return { email: new URL(request.url).searchParams.get("email") ?? "", minPassword: PASSWORD_MIN_LENGTH, codeDigits: CODE_DIGITS };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const values = formValues(await request.formData(), ["email", "resetCode", "newPassword"] as const);
  const parsed = resetPasswordInput.safeParse(values);
  if (!parsed.success) return data<ActionResult>({ ok: false, errors: fieldErrors<Field>(parsed.error), email: values.email }, { status: 400 });
  try {
    await reset(context.svc, parsed.data);
  } catch (err) {
    const e = expectedError(err);
    return data<ActionResult>({ ok: false, errors: {}, formError: messageKey(e.message, "auth.reset.badCode"), email: values.email }, { status: e.status, headers: retryHeaders(e) });
  }
  return data<ActionResult>({ ok: true, email: parsed.data.email });
}

/** The code as shown: digits with a space between each ("1 2 3 4 5 6"). */
const spaced = (digits: string) => digits.split("").join(" ");

export default function ResetPasswordPage() {
  const { t } = useT();
  const loaderData = useLoaderData<typeof loader>();
  const location = useLocation();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const submit = useSubmit();
  const hydrated = useHydrated();
  const stateEmail = (location.state as { email?: unknown } | null)?.email;
  const [email, setEmail] = useState(() => result?.email ?? (typeof stateEmail === "string" ? stateEmail : loaderData.email));
  const [code, setCode] = useState("");
  const [password, setPassword] = useState("");
  const [clientErrors, setClientErrors] = useState<FieldErrors<Field> | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const successRef = useRef<HTMLDivElement>(null);
  const handled = useRef<unknown>(null);

  const submitting = navigation.state === "submitting" && navigation.formAction?.startsWith("/auth/forget-password") === true;

  useEffect(() => {
    if (!result || handled.current === result) return;
    handled.current = result;
    setClientErrors(null);
    if (!result.ok) {
      const first = (["email", "resetCode", "newPassword"] as const).find((f) => result.errors[f]) ?? (result.formError ? "resetCode" : undefined);
      if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    revealAndFocus(successRef.current);
    const timer = window.setTimeout(() => navigate(`/auth/login?${new URLSearchParams({ email: result.email })}`), RESET_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [result, navigate]);

  /** Checks by hand, then sends the code without its spaces (spec §5). */
  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const errors: FieldErrors<Field> = {};
    if (!email.trim()) errors.email = "form.fillAll";
    if (code.length !== loaderData.codeDigits) errors.resetCode = "form.codeDigits";
    if (!password) errors.newPassword = "form.fillAll";
    else if (password.length < loaderData.minPassword) errors.newPassword = "form.passwordMin";
    setClientErrors(errors);
    const first = (["email", "resetCode", "newPassword"] as const).find((f) => errors[f]);
    if (first) {
      formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    submit({ email, resetCode: code, newPassword: password }, { method: "post" });
  }

  if (result?.ok) {
    return (
      <main id="main" tabIndex={-1} className="auth-card card">
        <div ref={successRef} tabIndex={-1} role="status" className="auth-success">
          <h1 className="auth-title">{t("auth.reset.success")}</h1>
        </div>
        <Link to={`/auth/login?${new URLSearchParams({ email: result.email })}`} className="btn btn-primary btn-block">
          {t("auth.register.logIn")}
        </Link>
      </main>
    );
  }

  const errors: FieldErrors<Field> = clientErrors ?? (result && !result.ok ? result.errors : {});
  const formError = !clientErrors && result && !result.ok ? result.formError : undefined;

  return (
    <main id="main" tabIndex={-1} className="auth-card card">
      <h1 className="auth-title">{t("auth.reset.title")}</h1>
      <p className="auth-subtitle">{t("auth.reset.subtitle")}</p>
      <Form method="post" noValidate ref={formRef} onSubmit={onSubmit} className="form-fields">
        <TextField
          id="reset-email"
          name="email"
          type="email"
          dir="ltr"
          label={t("auth.field.email")}
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={errors.email ? t(errors.email) : null}
        />
        <TextField
          id="reset-code"
          name="resetCode"
          type="text"
          dir="ltr"
          className="field-code"
          label={t("auth.reset.code")}
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          value={spaced(code)}
          // Digits only, at most six; the spaces are only for reading.
          onChange={(e) => setCode(toLatinDigits(e.target.value).replace(/\D/g, "").slice(0, loaderData.codeDigits))}
          hint={t("auth.reset.codeHint")}
          error={errors.resetCode ? t(errors.resetCode) : null}
          describedBy={formError ? "reset-form-error" : undefined}
        />
        <PasswordField
          id="reset-password"
          name="newPassword"
          label={t("auth.reset.newPassword")}
          autoComplete="new-password"
          required
          minLength={loaderData.minPassword}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          hint={t("auth.field.passwordHint", { min: loaderData.minPassword })}
          error={errors.newPassword ? t(errors.newPassword) : null}
        />
        {formError ? (
          <FormAlert id="reset-form-error">
            <p>{t(formError)}</p>
          </FormAlert>
        ) : null}
        <button type="submit" className="btn btn-primary btn-lg btn-block" disabled={hydrated && submitting}>
          {submitting ? <span className="spinner spinner-sm" aria-hidden="true" /> : null}
          {submitting ? t("auth.reset.submitting") : t("auth.reset.submit")}
        </button>
      </Form>
      <p className="auth-switch">
        <Link to="/auth/login">{t("auth.reset.back")}</Link>
      </p>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
