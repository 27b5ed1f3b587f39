import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigate, useNavigation } from "@remix-run/react";
import { data, redirect } from "@remix-run/server-runtime";
import { useEffect, useRef, useState } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FormAlert, PasswordField, TextField } from "~/components/form-field";
import { PhoneField } from "~/components/phone-field";
import { useHydrated } from "~/hooks/use-hydrated";
import type { MessageKey } from "~/i18n/en";
import { detectLang } from "~/i18n/config";
import { composePhone, countryById, PHONE_PATTERN, phoneDigits } from "~/lib/countries";
import { expectedError, fieldErrors, formValues, retryHeaders, type FieldErrors } from "~/lib/form-errors.server";
import { isolate } from "~/lib/bidi";
import { revealAndFocus, focusRefused } from "~/lib/focus";
import { useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { PASSWORD_MIN_LENGTH, registerFormInput } from "~/lib/schemas";
import { carriedRedirect, deviceFingerprint, roleHome, withRedirect } from "~/lib/session-client";
import { getViewer } from "../../worker/auth/viewer";
import { register } from "../../worker/services/accounts";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

/** Spec §4, §9: the verification screen follows 2.5 s after a successful registration. */
export const REGISTER_REDIRECT_MS = 2_500;
/** Spec §8: "please try again after 10 minutes": every limit on registering lasts 10 minutes (worker/services/codes.ts). */
const REGISTER_RETRY_MINUTES = 10;

const FIELDS = ["name", "email", "password", "confirmPassword", "country", "phone"] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string>;
type ActionResult =
  | { ok: false; errors: FieldErrors<Field | "phone_number">; formError: MessageKey; values: Omit<Values, "password" | "confirmPassword"> }
  | { ok: true; name: string; email: string };

/** A refused sign-up says how long to wait in its header too (Retry-After), as the API does. */
export const headers: HeadersFunction = ({ actionHeaders }) => actionHeaders;

export const meta: MetaFunction = ({ matches }) => {
  const t = metaT(matches);
  return pageMeta(matches, t("auth.register.title"), t("auth.register.subtitle"));
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await getViewer(context.svc, request);
  if (viewer) throw redirect(roleHome(viewer.role));
  return { minPassword: PASSWORD_MIN_LENGTH };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const values: Values = formValues(form, FIELDS);
  const country = countryById(values.country);
  const keep = { name: values.name, email: values.email, country: values.country, phone: values.phone };
  const parsed = registerFormInput.safeParse({
    name: values.name,
    email: values.email,
    password: values.password,
    confirmPassword: values.confirmPassword,
    // An empty number stays empty, so it reads as a missing field rather than a malformed one.
    phone_number: country && phoneDigits(country, values.phone) ? composePhone(country, values.phone) : "",
    country: country?.id ?? "",
    fingerprint: String(form.get("fingerprint") ?? "") || undefined,
  });
  if (!parsed.success) {
    const errors = fieldErrors<Field | "phone_number">(parsed.error);
    const formError: MessageKey = Object.values(errors).includes("form.fillAll") ? "form.fillAll" : "auth.register.errorInForm";
    return data<ActionResult>({ ok: false, errors, formError, values: keep }, { status: 400 });
  }
  try {
    await register(context.svc, parsed.data, detectLang(request));
  } catch (err) {
    const e = expectedError(err);
    // The spec's sentence; a rate limit's exact wait (never over 10 minutes) goes in Retry-After.
    return data<ActionResult>({ ok: false, errors: {}, formError: "auth.register.failed", values: keep }, { status: e.status, headers: retryHeaders(e) });
  }
  return data<ActionResult>({ ok: true, name: parsed.data.name, email: parsed.data.email });
}

const verifyPath = (email: string, next: string) => withRedirect(`/auth/verif-email?${new URLSearchParams({ email })}`, next);

export default function RegisterPage() {
  const { t } = useT();
  const { minPassword } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  const successRef = useRef<HTMLDivElement>(null);
  const handled = useRef<unknown>(null);
  const [clientErrors, setClientErrors] = useState<{ fields: FieldErrors<Field>; form?: MessageKey } | null>(null);
  const [fingerprint, setFingerprint] = useState("");
  const kept = result && !result.ok ? result.values : null;
  // Sent here from a page that asked to sign in (Log in's sign-up link carries it), perhaps in a new tab: where to
  // go after the first login, kept as Log in keeps it (session storage).
  const [next, setNext] = useState("");
  useEffect(() => {
    setNext(carriedRedirect());
  }, []);

  useEffect(() => setFingerprint(deviceFingerprint()), []);

  useEffect(() => {
    if (!result || handled.current === result) return;
    handled.current = result;
    setClientErrors(null);
    if (!result.ok) {
      focusFirstInvalid(result.errors);
      return;
    }
    revealAndFocus(successRef.current);
    const timer = window.setTimeout(() => navigate(verifyPath(result.email, next), { state: { email: result.email } }), REGISTER_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [result, navigate, next]);

  function focusFirstInvalid(errors: Partial<Record<string, unknown>>) {
    const first = (["name", "email", "password", "confirmPassword", "country", "phone"] as const).find((f) => errors[f] || (f === "phone" && errors.phone_number));
    if (first) focusRefused(formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`));
  }

  /** Light checks by hand (the server checks everything again with the shared schema). */
  function check(e: React.FormEvent<HTMLFormElement>) {
    const form = new FormData(e.currentTarget);
    const get = (f: Field) => String(form.get(f) ?? "");
    const fields: FieldErrors<Field> = {};
    for (const f of ["name", "email", "password", "confirmPassword", "phone"] as const) if (!get(f).trim()) fields[f] = "form.fillAll";
    if (!fields.password && get("password").length < minPassword) fields.password = "form.passwordMin";
    if (!fields.confirmPassword && !fields.password && get("password") !== get("confirmPassword")) fields.confirmPassword = "form.passwordMismatch";
    // The address's shape (its ending two letters at least, as the server's check asks) and the number's length too,
    // so that every field's problem shows in one round.
    if (!fields.email && !/^[^\s@]+@[^\s@]+\.[^\s@.]{2,}$/.test(get("email").trim())) fields.email = "form.emailInvalid";
    const country = countryById(get("country"));
    if (!fields.phone && country && !PHONE_PATTERN.test(composePhone(country, get("phone")))) fields.phone = "form.phoneInvalid";
    if (Object.keys(fields).length === 0) {
      setClientErrors(null);
      return;
    }
    e.preventDefault();
    const missing = Object.values(fields).includes("form.fillAll");
    setClientErrors({ fields, form: missing ? "form.fillAll" : undefined });
    focusFirstInvalid(fields);
  }

  if (result?.ok) {
    return (
      <main id="main" tabIndex={-1} className="auth-card card">
        <div ref={successRef} tabIndex={-1} role="status" className="auth-success">
          <h1 className="auth-title">{t("auth.register.successTitle", { name: result.name })}</h1>
          <p>{t("auth.register.success", { email: isolate(result.email) })}</p>
        </div>
        <Link to={verifyPath(result.email, next)} state={{ email: result.email }} className="btn btn-primary btn-block">
          {t("auth.register.enterCode")}
        </Link>
      </main>
    );
  }

  const fields: FieldErrors<Field | "phone_number"> = clientErrors ? clientErrors.fields : result && !result.ok ? result.errors : {};
  const formError = clientErrors ? clientErrors.form : result && !result.ok ? result.formError : undefined;
  const fillAll = formError === "form.fillAll";
  // "Please fill out all fields." is said once, for the whole form; each empty field points to it.
  const fieldError = (f: Field | "phone_number") => (fields[f] && !(fillAll && fields[f] === "form.fillAll") ? t(fields[f]!) : null);
  const missing = (f: Field) => fillAll && fields[f] === "form.fillAll";
  const submitting = navigation.state === "submitting" && navigation.formAction?.startsWith("/auth/register") === true;

  return (
    <main id="main" tabIndex={-1} className="auth-card auth-card-wide card">
      <h1 className="auth-title">{t("auth.register.title")}</h1>
      <p className="auth-subtitle">{t("auth.register.subtitle")}</p>
      <Form method="post" noValidate ref={formRef} onSubmit={check} className="form-fields">
        <input type="hidden" name="fingerprint" value={fingerprint} />
        <TextField id="register-name" name="name" label={t("auth.field.name")} autoComplete="name" required defaultValue={kept?.name} error={fieldError("name")} invalid={missing("name")} describedBy={missing("name") ? "register-form-error" : undefined} />
        <TextField id="register-email" name="email" type="email" dir="ltr" label={t("auth.field.email")} autoComplete="email" required defaultValue={kept?.email} error={fieldError("email")} invalid={missing("email")} describedBy={missing("email") ? "register-form-error" : undefined} />
        <div className="field-pair">
          <PasswordField id="register-password" name="password" label={t("auth.field.password")} autoComplete="new-password" required minLength={minPassword} hint={t("auth.field.passwordHint", { min: minPassword })} error={fieldError("password")} invalid={missing("password")} describedBy={missing("password") ? "register-form-error" : undefined} />
          <PasswordField id="register-confirm" name="confirmPassword" label={t("auth.field.confirmPassword")} autoComplete="new-password" required error={fieldError("confirmPassword")} invalid={missing("confirmPassword")} describedBy={missing("confirmPassword") ? "register-form-error" : undefined} />
        </div>
        <PhoneField
          idPrefix="register"
          initialCountry={kept?.country}
          initialDigits={kept?.phone}
          error={fieldError("phone") ?? fieldError("phone_number")}
          countryError={fieldError("country")}
          invalid={missing("phone")}
          describedBy={missing("phone") ? "register-form-error" : undefined}
        />
        {formError ? (
          <FormAlert id="register-form-error" attempt={clientErrors ?? result}>
            <p>{t(formError, { minutes: REGISTER_RETRY_MINUTES })}</p>
          </FormAlert>
        ) : null}
        <button type="submit" className="btn btn-primary btn-lg btn-block" disabled={hydrated && submitting}>
          {submitting ? <span className="spinner spinner-sm" aria-hidden="true" /> : null}
          {submitting ? t("auth.register.submitting") : t("auth.register.submit")}
        </button>
      </Form>
      <p className="auth-switch">
        {t("auth.register.haveAccount")} <Link to={withRedirect("/auth/login", next)}>{t("auth.register.logIn")}</Link>
      </p>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
