import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigate, useNavigation, useSearchParams } from "@remix-run/react";
import { data, redirect } from "@remix-run/server-runtime";
import { useEffect, useRef, useState } from "react";
import { GoogleSignIn } from "~/components/auth/google-sign-in";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FormAlert, PasswordField, TextField } from "~/components/form-field";
import { useHydrated } from "~/hooks/use-hydrated";
import type { MessageKey } from "~/i18n/en";
import { expectedError, fieldErrors, formValues, messageKey, retryHeaders, type FieldErrors } from "~/lib/form-errors.server";
import { revealAndFocus, focusRefused } from "~/lib/focus";
import { useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { afterLogin, isPendingCheckIn } from "~/lib/after-login.server";
import { emailOnlyInput, loginInput, PASSWORD_MIN_LENGTH } from "~/lib/schemas";
import { AppError } from "../../worker/http/errors";
import { deviceFingerprint, peekRedirect, rememberRedirect } from "~/lib/session-client";
import { clientInfo } from "../../worker/auth/cookies";
import { getViewer, safeRedirectPath } from "../../worker/auth/viewer";
import { forgot, login } from "../../worker/services/accounts";
import { chosenLang, detectLang, langCookie, statedLang } from "~/i18n/config";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

/** Spec §2, §4: after "forgot password" the page moves to the reset screen after 2.5 s. */
export const FORGOT_REDIRECT_MS = 2_500;

type Field = "email" | "password";
type ActionResult =
  | { ok: false; intent: "login" | "forgot"; errors: FieldErrors<Field>; formError?: MessageKey; email: string }
  | { ok: true; intent: "forgot"; email: string };

/** A refusal's Retry-After reaches the browser on a form sent without scripts too (a document request). */
export const headers: HeadersFunction = ({ actionHeaders }) => actionHeaders;

export const meta: MetaFunction = ({ matches }) => {
  const t = metaT(matches);
  return pageMeta(matches, t("auth.login.title"), t("auth.login.subtitle"));
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"), "");
  const viewer = await getViewer(context.svc, request);
  // Where to go is decided in one place (app/lib/after-login.server.ts), for the form, Google and a second visit.
  if (viewer) throw redirect(await afterLogin(context.svc, viewer, redirectTo));
  // The limit travels through the loader so the browser bundle gets the number without zod.
  return { googleEnabled: context.svc.settings.google !== null, redirectTo, minPassword: PASSWORD_MIN_LENGTH, checkIn: isPendingCheckIn(redirectTo) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const values = formValues(form, ["email", "password", "fingerprint", "redirectTo", "intent"] as const);
  if (values.intent === "forgot") {
    const parsed = emailOnlyInput.safeParse({ email: values.email });
    if (!parsed.success) {
      return data<ActionResult>({ ok: false, intent: "forgot", errors: fieldErrors<Field>(parsed.error), email: values.email }, { status: 400 });
    }
    try {
      await forgot(context.svc, parsed.data, statedLang(request));
    } catch (err) {
      const e = expectedError(err);
      const formError = messageKey(e.message, "auth.forgot.failed");
      return data<ActionResult>({ ok: false, intent: "forgot", errors: {}, formError, email: values.email }, { status: e.status, headers: retryHeaders(e) });
    }
    return data<ActionResult>({ ok: true, intent: "forgot", email: parsed.data.email });
  }

  const parsed = loginInput.safeParse({ email: values.email, password: values.password, fingerprint: values.fingerprint || undefined });
  if (!parsed.success) {
    return data<ActionResult>({ ok: false, intent: "login", errors: fieldErrors<Field>(parsed.error), email: values.email }, { status: 400 });
  }
  try {
    const session = await login(context.svc, parsed.data, clientInfo(request));
    const to = await afterLogin(context.svc, { userId: session.user._id, role: session.role }, values.redirectTo);
    const headers = new Headers({ "Set-Cookie": session.setCookie });
    // The language the account chose comes with it to a browser where none was chosen (a new phone whose browser asks
    // for English: Arabic stays Arabic); a choice made on this browser with the switch stays.
    if (session.locale && !chosenLang(request) && session.locale !== detectLang(request)) headers.append("Set-Cookie", langCookie(session.locale));
    return redirect(to, { headers });
  } catch (e) {
    if (!(e instanceof AppError)) {
      // Spec §8: a server failure gets its own words instead of the error screen; it is still logged as a bug.
      console.error("login failed", e);
      return data<ActionResult>({ ok: false, intent: "login", errors: {}, formError: "auth.login.serverError", email: values.email }, { status: 500 });
    }
    const formError = e.status === 401 || e.status === 400 ? "auth.login.failed" : messageKey(e.message, "auth.login.serverError");
    return data<ActionResult>({ ok: false, intent: "login", errors: {}, formError, email: values.email }, { status: e.status === 401 ? 400 : e.status, headers: retryHeaders(e) });
  }
}

export default function LoginPage() {
  const { t } = useT();
  const { googleEnabled, redirectTo, minPassword, checkIn } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const [params] = useSearchParams();
  // Arrived from confirming a new account's e-mail (the code page sends `verified=1`).
  const justVerified = params.get("verified") === "1";
  const [email, setEmail] = useState(() => result?.email ?? params.get("email") ?? "");
  const [password, setPassword] = useState("");
  const [clientErrors, setClientErrors] = useState<FieldErrors<Field> & { form?: MessageKey }>({});
  const [storedRedirect, setStoredRedirect] = useState(redirectTo);
  const [fingerprint, setFingerprint] = useState("");
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const handled = useRef<unknown>(null);

  // A guard sent the visitor here: remember the page in sessionStorage too, so it survives a detour through
  // registration. Without a parameter, a page remembered earlier is used.
  useEffect(() => {
    if (redirectTo) rememberRedirect(redirectTo);
    setStoredRedirect(redirectTo || peekRedirect() || "");
    setFingerprint(deviceFingerprint());
  }, [redirectTo]);

  const submitting = navigation.state !== "idle" && navigation.formAction?.startsWith("/auth/login") === true;
  const intent = navigation.formData?.get("intent");
  const signingIn = submitting && intent === "login";
  // After a successful login the action redirects elsewhere; while that page loads, say so (spec §8
  // 'Login Successfully'). A failed login also passes through "loading" (revalidation), but stays on this path.
  const succeeded =
    navigation.state === "loading" && navigation.formMethod != null && intent === "login" && navigation.location.pathname !== "/auth/login";
  const forgotDone = result?.ok === true;

  useEffect(() => {
    if (!result || handled.current === result) return;
    handled.current = result;
    setClientErrors({});
    if (result.ok) {
      revealAndFocus(noticeRef.current);
      const timer = window.setTimeout(() => {
        navigate(`/auth/forget-password?${new URLSearchParams({ email: result.email })}`, { state: { email: result.email } });
      }, FORGOT_REDIRECT_MS);
      return () => window.clearTimeout(timer);
    }
    if (result.errors.email) focusRefused(emailRef.current);
    else if (result.errors.password) focusRefused(passwordRef.current);
  }, [result, navigate]);

  const serverErrors = result && !result.ok ? result.errors : {};
  const errors: FieldErrors<Field> = { ...serverErrors, ...clientErrors };
  // "Please fill out all fields." is said once, above the button, not again under each empty field.
  const fillAll = clientErrors.form === "form.fillAll" || (errors.email === "form.fillAll" && errors.password === "form.fillAll");
  const formError = fillAll ? "form.fillAll" : (clientErrors.form ?? (result && !result.ok ? result.formError : undefined));
  const fieldError = (f: Field) => (errors[f] && !(fillAll && errors[f] === "form.fillAll") ? t(errors[f]!) : null);

  function check(e: React.FormEvent<HTMLFormElement>) {
    const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const next: FieldErrors<Field> & { form?: MessageKey } = {};
    if (submitter?.value === "forgot") {
      if (!email.trim()) next.email = "form.emailRequired";
    } else {
      if (!email.trim() || !password) next.form = "form.fillAll";
      if (!email.trim()) next.email = "form.fillAll";
      if (!password) next.password = "form.fillAll";
      else if (password.length < minPassword) next.password = "form.passwordMin";
    }
    setClientErrors(next);
    if (Object.keys(next).length > 0) {
      e.preventDefault();
      focusRefused((next.email ? emailRef : passwordRef).current);
    }
  }

  return (
    <main id="main" tabIndex={-1} className="auth-card card">
      <h1 className="auth-title">{t("auth.login.title")}</h1>
      <p className="auth-subtitle">{t(justVerified ? "auth.login.subtitleVerified" : "auth.login.subtitle")}</p>
      {checkIn ? (
        <p className="auth-check-in" id="login-check-in">
          {t("auth.login.checkIn")}
        </p>
      ) : null}

      <div ref={noticeRef} tabIndex={-1} className="auth-notice-slot" role="status">
        {justVerified && !result && !succeeded ? <p className="form-success">{t("auth.login.verified")}</p> : null}
        {forgotDone ? <p className="form-success">{t("auth.forgot.sent")}</p> : null}
        {succeeded ? <p className="form-success">{t("auth.login.success")}</p> : null}
      </div>
      {forgotDone ? (
        <p className="auth-continue">
          <Link to={`/auth/forget-password?${new URLSearchParams({ email: result.email })}`} state={{ email: result.email }}>
            {t("auth.forgot.continue")}
          </Link>
        </p>
      ) : null}

      <Form method="post" noValidate onSubmit={check} className="form-fields" aria-describedby={[checkIn ? "login-check-in" : "", formError ? "login-form-error" : ""].join(" ").trim() || undefined}>
        {/* Enter in a field submits with the form's first submit button: make that "log in", not "forgot password". */}
        <button type="submit" name="intent" value="login" className="visually-hidden" tabIndex={-1} aria-hidden="true" disabled={hydrated && submitting} />
        <input type="hidden" name="redirectTo" value={storedRedirect} />
        <input type="hidden" name="fingerprint" value={fingerprint} />
        <TextField
          ref={emailRef}
          id="login-email"
          name="email"
          type="email"
          label={t("auth.field.email")}
          autoComplete="email"
          dir="ltr"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={fieldError("email")}
          invalid={!!errors.email}
        />
        <PasswordField
          ref={passwordRef}
          id="login-password"
          name="password"
          label={t("auth.field.password")}
          autoComplete="current-password"
          required
          minLength={minPassword}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={fieldError("password")}
          invalid={!!errors.password}
        />
        <div className="auth-row">
          <button type="submit" name="intent" value="forgot" className="link-button" formNoValidate disabled={hydrated && submitting}>
            {t("auth.login.forgot")}
          </button>
        </div>
        {formError ? (
          <FormAlert id="login-form-error" attempt={clientErrors.form ? clientErrors : result}>
            <p>{t(formError)}</p>
            {formError === "auth.login.notVerified" ? (
              <p>
                <Link to={`/auth/verif-email?${new URLSearchParams({ email })}`} state={{ email }}>
                  {t("auth.login.verifyNow")}
                </Link>
              </p>
            ) : null}
          </FormAlert>
        ) : null}
        <button type="submit" name="intent" value="login" className="btn btn-primary btn-lg btn-block" disabled={hydrated && submitting}>
          {signingIn ? <span className="spinner spinner-sm" aria-hidden="true" /> : null}
          {signingIn ? t("auth.login.submitting") : t("auth.login.submit")}
        </button>
      </Form>

      <div className="auth-divider" role="separator">
        <span>{t("auth.or")}</span>
      </div>
      <GoogleSignIn enabled={googleEnabled} />

      <p className="auth-switch">
        {t("auth.login.noAccount")} <Link to={storedRedirect ? `/auth/register?redirectTo=${encodeURIComponent(storedRedirect)}` : "/auth/register"}>{t("auth.login.signUp")}</Link>
      </p>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
