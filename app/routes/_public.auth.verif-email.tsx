import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { rawText } from "~/lib/group-actions.server";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigate, useNavigation } from "@remix-run/react";
import { data } from "@remix-run/server-runtime";
import { useEffect, useRef, useState } from "react";
import { CodeInput } from "~/components/auth/code-input";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FormAlert, TextField } from "~/components/form-field";
import { useHydrated } from "~/hooks/use-hydrated";
import type { MessageKey } from "~/i18n/en";
import { expectedError, fieldErrors, messageKey, retryHeaders, type FieldErrors } from "~/lib/form-errors.server";
import { isolate } from "~/lib/bidi";
import { revealAndFocus, focusRefused } from "~/lib/focus";
import { carriedRedirect, withRedirect } from "~/lib/session-client";
import { useT } from "~/lib/i18n";
import { CODE_MAX_ATTEMPTS, RESEND_COOLDOWN_S } from "~/lib/resend-cooldown";
import { metaT, pageMeta } from "~/lib/meta";
import { CODE_DIGITS, emailOnlyInput, verifyEmailInput } from "~/lib/schemas";
import { resendCode, verifyEmail } from "../../worker/services/accounts";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

/** Spec §4, §9: the login screen follows 2 s after a successful verification. */
export const VERIFY_REDIRECT_MS = 2_000;

type Field = "email" | "code";
type ActionResult =
  | { ok: true; intent: "verify" | "resend"; email: string; choosePassword?: boolean }
  | { ok: false; intent: "verify" | "resend"; errors: FieldErrors<Field>; formError?: MessageKey };

/** A refusal's Retry-After reaches the browser on a form sent without scripts too (a document request). */
export const headers: HeadersFunction = ({ actionHeaders }) => actionHeaders;

export const meta: MetaFunction = ({ matches }) => {
  const t = metaT(matches);
  return pageMeta(matches, t("auth.verify.title"), t("auth.verify.subtitle"));
};

/** The address arrives in navigation state (platform-spec §2) and, so a reload keeps it, as ?email=. */
export function loader({ request }: LoaderFunctionArgs) {
  return { email: new URL(request.url).searchParams.get("email") ?? "", codeDigits: CODE_DIGITS };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const email = rawText(form, "email");
  if (form.get("intent") === "resend") {
    const parsed = emailOnlyInput.safeParse({ email });
    if (!parsed.success) return data<ActionResult>({ ok: false, intent: "resend", errors: fieldErrors<Field>(parsed.error) }, { status: 400 });
    try {
      await resendCode(context.svc, parsed.data);
    } catch (err) {
      const e = expectedError(err);
      return data<ActionResult>({ ok: false, intent: "resend", errors: {}, formError: messageKey(e.message, "auth.verify.error") }, { status: e.status, headers: retryHeaders(e) });
    }
    return data<ActionResult>({ ok: true, intent: "resend", email: parsed.data.email });
  }

  const code = form.getAll("digit").map(String).join("");
  const parsed = verifyEmailInput.safeParse({ email, code });
  if (!parsed.success) return data<ActionResult>({ ok: false, intent: "verify", errors: fieldErrors<Field>(parsed.error) }, { status: 400 });
  try {
    const done = await verifyEmail(context.svc, parsed.data);
    // Signed up twice with different passwords: verified without one; the reset screen takes the code just mailed.
    if (done.choosePassword) return data<ActionResult>({ ok: true, intent: "verify", email: parsed.data.email, choosePassword: true });
  } catch (err) {
    const e = expectedError(err);
    return data<ActionResult>({ ok: false, intent: "verify", errors: {}, formError: messageKey(e.message, "auth.verify.error") }, { status: e.status, headers: retryHeaders(e) });
  }
  return data<ActionResult>({ ok: true, intent: "verify", email: parsed.data.email });
}

export default function VerifyEmailPage() {
  const { t } = useT();
  const loaderData = useLoaderData<typeof loader>();
  const location = useLocation();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const stateEmail = (location.state as { email?: unknown } | null)?.email;
  const [email, setEmail] = useState(() => (typeof stateEmail === "string" ? stateEmail : loaderData.email));
  const [digits, setDigits] = useState<string[]>(() => Array.from({ length: loaderData.codeDigits }, () => ""));
  const [cooldown, setCooldown] = useState(0);
  const [wrongTries, setWrongTries] = useState(0);
  const [clientError, setClientError] = useState<FieldErrors<Field>>({});
  const noticeRef = useRef<HTMLDivElement>(null);
  const codeRef = useRef<HTMLDivElement>(null);
  const handled = useRef<unknown>(null);

  const verified = result?.ok === true && result.intent === "verify";
  const complete = digits.every((d) => d !== "");
  const busy = navigation.state === "submitting" && navigation.formAction?.startsWith("/auth/verif-email") === true;
  const verifying = busy && navigation.formData?.get("intent") === "verify";
  const resending = busy && navigation.formData?.get("intent") === "resend";

  useEffect(() => {
    if (!result || handled.current === result) return;
    handled.current = result;
    setClientError({});
    if (result.ok && result.intent === "resend") {
      setCooldown(RESEND_COOLDOWN_S);
      // A new code replaces the old one: the boxes start empty, the keyboard on the first (the button is disabled now),
      // and the count of wrong tries starts again.
      setDigits((d) => d.map(() => ""));
      setWrongTries(0);
      codeRef.current?.querySelector<HTMLInputElement>("input")?.focus();
    }
    if (result.ok && result.intent === "verify") {
      revealAndFocus(noticeRef.current);
      const next = result.choosePassword ? "/auth/forget-password" : "/auth/login";
      // The sign-in page says the address is confirmed (it would otherwise greet a new member with "Welcome back").
      const query = new URLSearchParams(result.choosePassword ? { email: result.email } : { email: result.email, verified: "1" });
      // The page the visitor set out for (a course's seat) comes along to Log in.
      const back = carriedRedirect();
      const timer = window.setTimeout(() => navigate(withRedirect(`${next}?${query}`, back)), VERIFY_REDIRECT_MS);
      return () => window.clearTimeout(timer);
    }
    if (!result.ok && result.intent === "verify") {
      if (result.formError === "auth.verify.failed") setWrongTries((n) => n + 1);
      // A wrong code: empty the boxes and start again from the first one.
      setDigits((d) => d.map(() => ""));
      focusRefused(codeRef.current?.querySelector<HTMLInputElement>("input"));
    }
  }, [result, navigate]);

  // Opened with the page to come back to (from sign-up, perhaps in another tab): kept as Log in keeps it.
  useEffect(() => void carriedRedirect(), []);

  useEffect(() => {
    if (cooldown <= 0) return;
    const timer = window.setTimeout(() => setCooldown((s) => s - 1), 1_000);
    return () => window.clearTimeout(timer);
  }, [cooldown]);

  function check(e: React.FormEvent<HTMLFormElement>) {
    const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const errors: FieldErrors<Field> = {};
    if (!email.trim()) errors.email = submitter?.value === "resend" ? "form.emailRequired" : "form.fillAll";
    if (submitter?.value !== "resend" && !complete) errors.code = "form.codeIncomplete";
    setClientError(errors);
    if (Object.keys(errors).length > 0) e.preventDefault();
  }

  const errors: FieldErrors<Field> = { ...(result && !result.ok ? result.errors : {}), ...clientError };
  const formError = result && !result.ok && !clientError.email && !clientError.code ? result.formError : undefined;

  if (verified) {
    return (
      <main id="main" tabIndex={-1} className="auth-card card">
        <div ref={noticeRef} tabIndex={-1} role="status" className="auth-success">
          <h1 className="auth-title">{t("auth.verify.successTitle")}</h1>
          <p>{t(result.choosePassword ? "auth.verify.choosePassword" : "auth.verify.success")}</p>
        </div>
        {result.choosePassword ? (
          <Link to={`/auth/forget-password?${new URLSearchParams({ email: result.email })}`} className="btn btn-primary btn-block">
            {t("auth.verify.choosePasswordLink")}
          </Link>
        ) : (
          <Link to={`/auth/login?${new URLSearchParams({ email: result.email })}`} className="btn btn-primary btn-block">
            {t("auth.register.logIn")}
          </Link>
        )}
      </main>
    );
  }

  return (
    <main id="main" tabIndex={-1} className="auth-card card">
      <h1 className="auth-title">{t("auth.verify.title")}</h1>
      <p className="auth-subtitle">{email ? t("auth.verify.sentTo", { email: isolate(email) }) : t("auth.verify.subtitle")}</p>
      <Form method="post" noValidate onSubmit={check} className="form-fields">
        <TextField
          id="verify-email"
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
        <div ref={codeRef}>
          <CodeInput
            digits={digits}
            onChange={setDigits}
            legend={t("auth.verify.codeLabel")}
            invalid={Boolean(errors.code || formError)}
            describedBy={errors.code ? "verify-code-error" : formError ? "verify-form-error" : undefined}
          />
          {errors.code ? (
            <p id="verify-code-error" className="field-error">
              {t(errors.code)}
            </p>
          ) : hydrated && !complete && !formError ? (
            <p className="field-hint field-hint-block">{t("form.codeIncomplete")}</p>
          ) : null}
        </div>
        {formError ? (
          <FormAlert id="verify-form-error" attempt={result}>
            <p>{t(formError)}</p>
            {/* The boxes were emptied for a new try: say why the code did not work and what to do. */}
            {formError === "auth.verify.failed" ? <p>{t(wrongTries >= CODE_MAX_ATTEMPTS ? "auth.verify.failedSpent" : "auth.verify.failedHint", { tries: CODE_MAX_ATTEMPTS })}</p> : null}
          </FormAlert>
        ) : null}
        <div role="status" className="auth-notice-slot">
          {result?.ok && result.intent === "resend" ? <p className="form-success">{t("auth.verify.resent")}</p> : null}
        </div>
        <button type="submit" name="intent" value="verify" className="btn btn-primary btn-lg btn-block" disabled={hydrated && (!complete || busy)}>
          {verifying ? <span className="spinner spinner-sm" aria-hidden="true" /> : null}
          {verifying ? t("auth.verify.submitting") : t("auth.verify.submit")}
        </button>
        <button type="submit" name="intent" value="resend" className="btn btn-ghost btn-block" formNoValidate disabled={hydrated && (busy || cooldown > 0)}>
          {resending ? t("common.sending") : cooldown > 0 ? t("auth.verify.resendIn", { seconds: cooldown }) : t("auth.verify.resend")}
        </button>
      </Form>
      <p className="auth-switch">
        {t("auth.register.haveAccount")} <Link to="/auth/login">{t("auth.register.logIn")}</Link>
      </p>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
