import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigate, useNavigation, useSubmit } from "@remix-run/react";
import { data } from "@remix-run/server-runtime";
import { useEffect, useRef, useState } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FormAlert, PasswordField, TextField } from "~/components/form-field";
import { useHydrated } from "~/hooks/use-hydrated";
import type { MessageKey } from "~/i18n/en";
import { expectedError, fieldErrors, formValues, messageKey, retryHeaders, retryMinutes, type FieldErrors } from "~/lib/form-errors.server";
import { revealAndFocus, focusRefused } from "~/lib/focus";
import { toLatinDigits } from "~/lib/digits";
import { useT } from "~/lib/i18n";
import { RESEND_COOLDOWN_S } from "~/lib/resend-cooldown";
import { metaT, pageMeta } from "~/lib/meta";
import { CODE_DIGITS, emailOnlyInput, PASSWORD_MIN_LENGTH, resetPasswordInput } from "~/lib/schemas";
import { forgot, reset } from "../../worker/services/accounts";
import { statedLang } from "~/i18n/config";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

/** Spec §4, §9: the login screen follows 2.5 s after a successful reset. */
export const RESET_REDIRECT_MS = 2_500;

type Field = "email" | "resetCode" | "newPassword";
/** "reset" sets the new password; "send-code" mails a new code to a visitor who has none or whose code expired. */
type Intent = "reset" | "send-code";
type ActionResult =
  | { ok: true; intent: Intent; email: string }
  | { ok: false; intent: Intent; errors: FieldErrors<Field>; formError?: MessageKey; email: string; retryMinutes?: number };

/** A refusal's Retry-After reaches the browser on a form sent without scripts too (a document request). */
export const headers: HeadersFunction = ({ actionHeaders }) => actionHeaders;

export const meta: MetaFunction = ({ matches }) => {
  const t = metaT(matches);
  return pageMeta(matches, t("auth.reset.title"), t("auth.reset.subtitle"));
};

export function loader({ request }: LoaderFunctionArgs) {
  return { email: new URL(request.url).searchParams.get("email") ?? "", minPassword: PASSWORD_MIN_LENGTH, codeDigits: CODE_DIGITS };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const values = formValues(await request.formData(), ["email", "resetCode", "newPassword", "intent"] as const);
  if (values.intent === "send-code") {
    // The login page's "Forgot your password?", for whoever lands here without a code: the same service, limits and answer.
    const parsed = emailOnlyInput.safeParse({ email: values.email });
    if (!parsed.success) return data<ActionResult>({ ok: false, intent: "send-code", errors: fieldErrors<Field>(parsed.error), email: values.email }, { status: 400 });
    try {
      await forgot(context.svc, parsed.data, statedLang(request));
    } catch (err) {
      const e = expectedError(err);
      // Limited: say how long to wait (the limit is an hour's), as sign-up does.
      const wait = e.status === 429 ? retryMinutes(e) : undefined;
      const formError = wait ? "auth.reset.tooManyCodes" : messageKey(e.message, "auth.forgot.failed");
      return data<ActionResult>({ ok: false, intent: "send-code", errors: {}, formError, email: values.email, retryMinutes: wait }, { status: e.status, headers: retryHeaders(e) });
    }
    return data<ActionResult>({ ok: true, intent: "send-code", email: parsed.data.email });
  }
  const parsed = resetPasswordInput.safeParse(values);
  if (!parsed.success) return data<ActionResult>({ ok: false, intent: "reset", errors: fieldErrors<Field>(parsed.error), email: values.email }, { status: 400 });
  try {
    await reset(context.svc, parsed.data);
  } catch (err) {
    const e = expectedError(err);
    return data<ActionResult>({ ok: false, intent: "reset", errors: {}, formError: messageKey(e.message, "auth.reset.badCode"), email: values.email }, { status: e.status, headers: retryHeaders(e) });
  }
  return data<ActionResult>({ ok: true, intent: "reset", email: parsed.data.email });
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
  const [cooldown, setCooldown] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const successRef = useRef<HTMLDivElement>(null);
  const handled = useRef<unknown>(null);

  const busy = navigation.state === "submitting" && navigation.formAction?.startsWith("/auth/forget-password") === true;
  const sendingCode = busy && navigation.formData?.get("intent") === "send-code";
  const submitting = busy && !sendingCode;
  const resetDone = result?.ok && result.intent === "reset" ? result : null;
  const codeSent = result?.ok === true && result.intent === "send-code";

  useEffect(() => {
    if (!result || handled.current === result) return;
    handled.current = result;
    setClientErrors(null);
    if (!result.ok) {
      const first = (["email", "resetCode", "newPassword"] as const).find((f) => result.errors[f]) ?? (result.formError ? (result.intent === "send-code" ? "email" : "resetCode") : undefined);
      if (first) focusRefused(formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`));
      return;
    }
    if (result.intent === "send-code") {
      setCooldown(RESEND_COOLDOWN_S);
      // A code typed before belongs to the code this one replaces.
      setCode("");
      formRef.current?.querySelector<HTMLElement>('[name="resetCode"]')?.focus();
      return;
    }
    revealAndFocus(successRef.current);
    const timer = window.setTimeout(() => navigate(`/auth/login?${new URLSearchParams({ email: result.email })}`), RESET_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [result, navigate]);

  useEffect(() => {
    if (cooldown <= 0) return;
    const timer = window.setTimeout(() => setCooldown((s) => s - 1), 1_000);
    return () => window.clearTimeout(timer);
  }, [cooldown]);

  /** Checks by hand, then sends the code without its spaces (spec §5). */
  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter?.value === "send-code") {
      const emailError: FieldErrors<Field> = email.trim() ? {} : { email: "form.emailRequired" };
      setClientErrors(emailError);
      if (emailError.email) focusRefused(formRef.current?.querySelector<HTMLElement>('[name="email"]'));
      else submit({ intent: "send-code", email }, { method: "post" });
      return;
    }
    const errors: FieldErrors<Field> = {};
    if (!email.trim()) errors.email = "form.fillAll";
    if (code.length !== loaderData.codeDigits) errors.resetCode = "form.codeDigits";
    if (!password) errors.newPassword = "form.fillAll";
    else if (password.length < loaderData.minPassword) errors.newPassword = "form.passwordMin";
    setClientErrors(errors);
    const first = (["email", "resetCode", "newPassword"] as const).find((f) => errors[f]);
    if (first) {
      focusRefused(formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`));
      return;
    }
    submit({ intent: "reset", email, resetCode: code, newPassword: password }, { method: "post" });
  }

  if (resetDone) {
    return (
      <main id="main" tabIndex={-1} className="auth-card card">
        <div ref={successRef} tabIndex={-1} role="status" className="auth-success">
          <h1 className="auth-title">{t("auth.reset.success")}</h1>
        </div>
        <Link to={`/auth/login?${new URLSearchParams({ email: resetDone.email })}`} className="btn btn-primary btn-block">
          {t("auth.register.logIn")}
        </Link>
      </main>
    );
  }

  const errors: FieldErrors<Field> = clientErrors ?? (result && !result.ok ? result.errors : {});
  const formError = !clientErrors && result && !result.ok ? result.formError : undefined;
  // A refused "Send a new code" is said by that button, and belongs to the e-mail; a refused reset to the code.
  const sendError = formError && result && !result.ok && result.intent === "send-code" ? t(formError, { minutes: result.retryMinutes ?? 60 }) : null;
  const resetError = sendError ? undefined : formError;

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
          describedBy={sendError ? "reset-send-error" : undefined}
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
          describedBy={resetError ? "reset-form-error" : undefined}
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
        {resetError ? (
          <FormAlert id="reset-form-error" attempt={result}>
            <p>{t(resetError)}</p>
          </FormAlert>
        ) : null}
        {/* First, so that Enter in a field resets the password rather than asking for another code. */}
        <button type="submit" name="intent" value="reset" className="btn btn-primary btn-lg btn-block" disabled={hydrated && busy}>
          {submitting ? <span className="spinner spinner-sm" aria-hidden="true" /> : null}
          {submitting ? t("auth.reset.submitting") : t("auth.reset.submit")}
        </button>
        <div role="status" className="auth-notice-slot">
          {codeSent ? <p className="form-success">{t("auth.forgot.sent")}</p> : null}
        </div>
        {sendError ? (
          <FormAlert id="reset-send-error" attempt={result}>
            <p>{sendError}</p>
          </FormAlert>
        ) : null}
        <p className="auth-switch" id="reset-no-code">{t("auth.reset.noCode")}</p>
        <button type="submit" name="intent" value="send-code" className="btn btn-ghost btn-block" formNoValidate aria-describedby="reset-no-code" disabled={hydrated && (busy || cooldown > 0)}>
          {sendingCode ? t("common.sending") : cooldown > 0 ? t("auth.verify.resendIn", { seconds: cooldown }) : t("auth.verify.resend")}
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
