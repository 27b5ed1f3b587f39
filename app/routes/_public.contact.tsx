import type { ActionFunctionArgs, MetaFunction, LinksFunction } from "@remix-run/cloudflare";
import { rawText } from "~/lib/group-actions.server";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { data } from "@remix-run/server-runtime";
import { useEffect, useRef, useState } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ChatIcon, MailIcon, PhoneIcon } from "~/components/icons";
import { ToastRegion, useToasts } from "~/components/toast";
import { useHydrated } from "~/hooks/use-hydrated";
import { useSite } from "~/hooks/use-site";
import type { MessageKey } from "~/i18n/en";
import { useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { CONTACT_LIMITS, contactInput } from "~/lib/schemas";
import { retryHeaders, retryMinutes } from "~/lib/form-errors.server";
import { AppError } from "../../worker/http/errors";
import { createContactMessage } from "../../worker/services/contact";
import { sheets } from "~/styles/sheets";
import { focusRefused } from "~/lib/focus";
import { RefusalText } from "~/components/form-field";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const links: LinksFunction = () => sheets("contact");

/** After a successful send the form stays disabled this long, then is ready again (spec §4, §9). */
export const CONTACT_RESET_MS = 2_000;

type Field = "name" | "email" | "message";
type Values = Record<Field, string>;
type ActionResult =
  | { ok: true }
  | { ok: false; values: Values; errors: Partial<Record<Field, MessageKey>>; formError?: MessageKey; retryMinutes?: number };

export const meta: MetaFunction = ({ matches }) => {
  const t = metaT(matches);
  return pageMeta(matches, t("contact.title"), t("contact.subtitle"));
};

/**
 * The length limits come from the shared schema through the loader, so the browser bundle gets the
 * numbers without pulling zod in.
 */
export function loader() {
  return { limits: CONTACT_LIMITS };
}

/** Which message each field gets for a failed check (the schema's words, translated). */
function errorKey(field: Field, code: string): MessageKey {
  if (field === "name") return code === "too_big" ? "contact.error.nameLength" : "contact.error.name";
  if (field === "email") return code === "too_big" ? "contact.error.emailLength" : "contact.error.email";
  return code === "too_big" ? "contact.error.messageLength" : "contact.error.message";
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const values: Values = {
    name: rawText(form, "name"),
    email: rawText(form, "email"),
    message: rawText(form, "message"),
  };
  const parsed = contactInput.safeParse(values);
  if (!parsed.success) {
    const errors: Partial<Record<Field, MessageKey>> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as Field;
      errors[field] ??= errorKey(field, issue.code);
    }
    return data<ActionResult>({ ok: false, values, errors }, { status: 400 });
  }
  try {
    await createContactMessage(context.svc, parsed.data);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const headers = retryHeaders(err);
    return data<ActionResult>(
      { ok: false, values, errors: {}, formError: err.status === 429 ? "contact.error.rateLimited" : "contact.failure", retryMinutes: retryMinutes(err) },
      { status: err.status, headers },
    );
  }
  return data<ActionResult>({ ok: true }, { status: 200 });
}

const EMPTY: Values = { name: "", email: "", message: "" };

export default function ContactPage() {
  const { t } = useT();
  const site = useSite();
  const { limits } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const { toasts, show, dismiss } = useToasts();
  const [values, setValues] = useState<Values>(() => (result && !result.ok ? result.values : EMPTY));
  const [coolingDown, setCoolingDown] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const handled = useRef<unknown>(null);

  const sending = navigation.state === "submitting" && navigation.formAction?.startsWith("/contact") === true;
  const errors = result && !result.ok ? result.errors : {};

  useEffect(() => {
    // Each submission yields a new result object; react to it once (not again when `t` changes language).
    if (!result || handled.current === result) return;
    handled.current = result;
    if (result.ok) {
      show("success", t("contact.success"));
      setValues(EMPTY);
      setCoolingDown(true);
      window.setTimeout(() => setCoolingDown(false), CONTACT_RESET_MS);
      return;
    }
    // The spec's failure toast for any refusal (platform-spec, Contact); a field to correct also says so beside it.
    show("error", t("contact.failure"));
    const firstInvalid = (["name", "email", "message"] as const).find((f) => result.errors[f]);
    if (firstInvalid) focusRefused(formRef.current?.querySelector<HTMLElement>(`[name="${firstInvalid}"]`));
  }, [result, show, t]);

  const busy = sending || coolingDown;
  // Before hydration the button stays enabled so the form also works without JavaScript (the server validates).
  const emptyMessage = values.message.trim() === "";
  const submitDisabled = hydrated && (busy || emptyMessage);
  // A button that does nothing says why: here, an empty message (the spec's rule), said beside it.
  const waitingForMessage = hydrated && !busy && emptyMessage;
  const set = (field: Field) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setValues((v) => ({ ...v, [field]: e.target.value }));
  const describe = (field: Field) => (errors[field] ? `${field}-error` : undefined);

  return (
    <main id="main" tabIndex={-1} className="page page-contact">
      <ToastRegion toasts={toasts} onDismiss={dismiss} />
      <div className="page-band">
        <div className="container">
          <h1 className="page-title">{t("contact.title")}</h1>
          <p className="page-lead">{t("contact.subtitle")}</p>
        </div>
      </div>

      <div className="container contact-layout">
        {/* The page checks the fields and says what is wrong in the reader's language, not the browser's. */}
        <Form method="post" ref={formRef} className="card form-card" aria-labelledby="contact-form-title" noValidate>
          <h2 id="contact-form-title" className="block-title">{t("contact.formTitle")}</h2>
          <fieldset disabled={busy} className="form-fields">
            <div className="field">
              <label htmlFor="contact-name">{t("contact.name")}</label>
              <input id="contact-name" name="name" type="text" autoComplete="name" required maxLength={limits.name} value={values.name} onChange={set("name")} aria-invalid={errors.name ? true : undefined} aria-describedby={describe("name")} />
              {errors.name ? <p id="name-error" className="field-error">{t(errors.name)}</p> : null}
            </div>
            <div className="field">
              <label htmlFor="contact-email">{t("contact.email")}</label>
              <input id="contact-email" name="email" type="email" autoComplete="email" dir="ltr" required maxLength={limits.email} value={values.email} onChange={set("email")} aria-invalid={errors.email ? true : undefined} aria-describedby={describe("email")} />
              {errors.email ? <p id="email-error" className="field-error">{t(errors.email)}</p> : null}
            </div>
            <div className="field">
              <label htmlFor="contact-message">{t("contact.message")}</label>
              <textarea id="contact-message" name="message" rows={6} required maxLength={limits.message} value={values.message} onChange={set("message")} aria-invalid={errors.message ? true : undefined} aria-describedby={["message-count", describe("message"), waitingForMessage ? "contact-send-hint" : undefined].filter(Boolean).join(" ")} />
              <div className="field-foot">
                {errors.message ? <p id="message-error" className="field-error">{t(errors.message)}</p> : <span />}
                <span id="message-count" className="field-hint">{t("contact.count", { count: values.message.length, max: limits.message })}</span>
              </div>
            </div>
            {result && !result.ok && result.formError ? (
              <RefusalText attempt={result}>{t(result.formError, { minutes: result.retryMinutes ?? 10 })}</RefusalText>
            ) : null}
            <div className="contact-send">
              <button type="submit" className="btn btn-primary btn-lg" disabled={submitDisabled} aria-describedby={waitingForMessage ? "contact-send-hint" : undefined}>
                {sending ? <span className="spinner spinner-sm" aria-hidden="true" /> : null}
                {sending ? t("common.sending") : t("contact.submit")}
              </button>
              {waitingForMessage ? (
                <p id="contact-send-hint" className="field-hint">
                  {t("contact.sendHint")}
                </p>
              ) : null}
            </div>
          </fieldset>
        </Form>

        <aside className="contact-aside" aria-labelledby="reach-title">
          <h2 id="reach-title" className="block-title">{t("contact.reach")}</h2>
          <ul className="reach-list" role="list">
            <li>
              <span className="reach-icon" aria-hidden="true"><MailIcon /></span>
              <span>
                <span className="reach-label">{t("contact.emailUs")}</span>
                <a href={`mailto:${site.contactEmail}`} dir="ltr">{site.contactEmail}</a>
              </span>
            </li>
            <li>
              <span className="reach-icon" aria-hidden="true"><PhoneIcon /></span>
              <span>
                <span className="reach-label">{t("contact.callUs")}</span>
                <a href={`tel:${site.contactPhone.replace(/[^\d+]/g, "")}`} dir="ltr">{site.contactPhone}</a>
              </span>
            </li>
            <li>
              <span className="reach-icon" aria-hidden="true"><ChatIcon /></span>
              <span>
                <span className="reach-label">{t("contact.chat")}</span>
                <a href={`https://wa.me/${site.whatsappNumber}`} target="_blank" rel="noopener noreferrer">
                  {t("contact.chatLink")}
                  <span className="visually-hidden"> {t("common.newTab")}</span>
                </a>
              </span>
            </li>
          </ul>
          <p className="muted">{t("contact.hours")}</p>
        </aside>
      </div>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
