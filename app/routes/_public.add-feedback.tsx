import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction, LinksFunction } from "@remix-run/cloudflare";
import { rawText } from "~/lib/group-actions.server";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { data } from "@remix-run/server-runtime";
import { useEffect, useRef, useState } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { StarRating } from "~/components/feedback/star-rating";
import { ArrowIcon, BookIcon, CheckIcon, QuoteIcon } from "~/components/icons";
import { ToastRegion, useToasts } from "~/components/toast";
import type { MessageKey } from "~/i18n/en";
import { formatDate, useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { FEEDBACK_MAX_LENGTH, shareFeedbackInput } from "~/lib/schemas";
import { getViewer, requireViewer } from "../../worker/auth/viewer";
import { AppError } from "../../worker/http/errors";
import { listMyFeedback, shareFeedback } from "../../worker/services/feedback";
import { listMyGroups } from "../../worker/services/my-groups";
import { sheets } from "~/styles/sheets";
import { EmptyState } from "~/components/empty-state";
import { focusRefused } from "~/lib/focus";
import { RefusalText } from "~/components/form-field";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const links: LinksFunction = () => sheets("feedbackForm");

export const meta: MetaFunction = ({ matches }) => {
  const t = metaT(matches);
  return pageMeta(matches, t("shareFeedback.title"), t("shareFeedback.lead"));
};

type Field = "groupSlug" | "userFeedback" | "rating";
type Values = { groupSlug: string; userFeedback: string; rating: string };
type ActionResult =
  | { ok: true; created: boolean; groupSlug: string }
  | { ok: false; values: Values; errors: Partial<Record<Field, MessageKey>>; formError?: MessageKey };

/**
 * /add-feedback (platform-spec §2): a signed-in student picks one of their groups (approved or special), rates
 * it 0-5 and writes up to 1000 characters; feedback they already left for that group is loaded for editing.
 * Visitors see what it is and a way to log in and come back; staff and students without a group get an explanation.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  // Public in the spec: a visitor learns what this is and how to take part (log in, then come back here).
  const viewer = await getViewer(context.svc, request);
  if (!viewer) return { kind: "visitor" as const };
  if (viewer.role !== "user") return { kind: "staff" as const, role: viewer.role };
  const [groups, mine] = await Promise.all([listMyGroups(context.svc, viewer), listMyFeedback(context.svc, viewer)]);
  if (groups.length === 0) return { kind: "no-group" as const };
  const wanted = new URL(request.url).searchParams.get("group");
  return {
    kind: "form" as const,
    groups: groups.map((g) => ({ slug: g.slug, title: g.title })),
    mine: mine.map((f) => ({ groupSlug: f.groupSlug, rating: f.rating, userFeedback: f.userFeedback, hidden: f.hidden, createdAt: f.createdAt })),
    selected: groups.some((g) => g.slug === wanted) ? wanted! : groups[0]!.slug,
    maxLength: FEEDBACK_MAX_LENGTH,
  };
}

function errorKey(field: Field, code: string): MessageKey {
  if (field === "groupSlug") return "shareFeedback.error.group";
  if (field === "rating") return "shareFeedback.error.rating";
  return code === "too_big" ? "shareFeedback.error.textLength" : "shareFeedback.error.text";
}

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(context.svc, request);
  const form = await request.formData();
  const values: Values = {
    groupSlug: rawText(form, "groupSlug"),
    userFeedback: rawText(form, "userFeedback"),
    rating: rawText(form, "rating"),
  };
  const parsed = shareFeedbackInput.safeParse(values);
  if (!parsed.success) {
    const errors: Partial<Record<Field, MessageKey>> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as Field;
      errors[field] ??= errorKey(field, issue.code);
    }
    return data<ActionResult>({ ok: false, values, errors }, { status: 400 });
  }
  try {
    const { feedback, created } = await shareFeedback(context.svc, viewer, parsed.data);
    return data<ActionResult>({ ok: true, created, groupSlug: feedback.groupSlug }, { status: created ? 201 : 200 });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const formError: MessageKey = err.status === 403 ? "shareFeedback.error.forbidden" : err.status === 404 ? "shareFeedback.error.group" : "shareFeedback.failed";
    return data<ActionResult>({ ok: false, values, errors: {}, formError }, { status: err.status });
  }
}

export default function AddFeedbackPage() {
  const { t } = useT();
  const loaded = useLoaderData<typeof loader>();
  return (
    <main id="main" tabIndex={-1} className="page page-add-feedback">
      <div className="page-band">
        <div className="container">
          <h1 className="page-title">{t("shareFeedback.title")}</h1>
          <p className="page-lead">{t("shareFeedback.lead")}</p>
        </div>
      </div>
      <div className="container add-feedback-layout" data-form={loaded.kind === "form" || undefined}>
        {loaded.kind === "form" ? (
          <>
            <FeedbackForm {...loaded} />
            <aside className="add-feedback-aside" aria-labelledby="feedback-aside-title">
              <h2 id="feedback-aside-title" className="block-title">
                {t("shareFeedback.aside.title")}
              </h2>
              <ul className="check-list" role="list">
                {(["public", "private", "edit", "moderation"] as const).map((k) => (
                  <li key={k}>
                    <CheckIcon />
                    <span>{t(`shareFeedback.aside.${k}`)}</span>
                  </li>
                ))}
              </ul>
            </aside>
          </>
        ) : loaded.kind === "visitor" ? (
          <EmptyState icon={<QuoteIcon />} title={t("shareFeedback.visitor.title")} body={t("shareFeedback.visitor.body")}>
            <div className="empty-actions">
              <Link to={`/auth/login?${new URLSearchParams({ redirectTo: "/add-feedback" })}`} className="btn btn-primary">
                {t("shareFeedback.visitor.login")}
                <ArrowIcon />
              </Link>
              <Link to="/#feedback" className="btn btn-ghost">
                {t("shareFeedback.visitor.read")}
              </Link>
            </div>
          </EmptyState>
        ) : loaded.kind === "no-group" ? (
          <EmptyState icon={<BookIcon />} title={t("shareFeedback.noGroup.title")} body={t("shareFeedback.noGroup.body")}>
            <Link to="/courses" className="btn btn-primary">
              {t("shareFeedback.noGroup.cta")}
              <ArrowIcon />
            </Link>
          </EmptyState>
        ) : (
          <EmptyState icon={<QuoteIcon />} title={t("shareFeedback.staff.title")} body={t("shareFeedback.staff.body")}>
            {loaded.role === "admin" ? (
              <Link to="/dashboard/admin/get-all-feedback-by-admin" className="btn btn-primary">
                {t("shareFeedback.staff.admin")}
                <ArrowIcon />
              </Link>
            ) : (
              <Link to="/instructor" className="btn btn-primary">
                {t("shareFeedback.staff.instructor")}
                <ArrowIcon />
              </Link>
            )}
          </EmptyState>
        )}
      </div>
    </main>
  );
}

type FeedbackFormProps = Extract<Awaited<ReturnType<typeof loader>>, { kind: "form" }>;

function FeedbackForm({ groups, mine, selected, maxLength }: FeedbackFormProps) {
  const { t, lang } = useT();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { toasts, show, dismiss } = useToasts();
  const previous = (slug: string) => mine.find((f) => f.groupSlug === slug);
  const initialValues = (slug: string): Values => {
    const p = previous(slug);
    return { groupSlug: slug, rating: p ? String(p.rating) : "", userFeedback: p?.userFeedback ?? "" };
  };
  const [values, setValues] = useState<Values>(() => (result && !result.ok ? result.values : initialValues(selected)));
  const handled = useRef<unknown>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const sending = navigation.state === "submitting" && navigation.formAction?.startsWith("/add-feedback") === true;
  const errors = result && !result.ok ? result.errors : {};
  const existing = previous(values.groupSlug);

  useEffect(() => {
    if (!result || handled.current === result) return;
    handled.current = result;
    if (result.ok) {
      show("success", t(result.created ? "shareFeedback.created" : "shareFeedback.updated"));
      return;
    }
    show("error", t(result.formError ?? "shareFeedback.failed"));
    const first = (["groupSlug", "rating", "userFeedback"] as const).find((f) => result.errors[f]);
    if (first) focusRefused(formRef.current?.querySelector<HTMLElement>(first === "rating" ? "[name=rating]" : `[name="${first}"]`));
  }, [result, show, t]);

  const pickGroup = (slug: string) => setValues(initialValues(slug));
  const describe = (field: Field, extra?: string) => [extra, errors[field] ? `${field}-error` : undefined].filter(Boolean).join(" ") || undefined;

  return (
    <>
      <ToastRegion toasts={toasts} onDismiss={dismiss} />
      {/* Checked by the page, in the reader's language (not the browser's bubbles). */}
      <Form method="post" ref={formRef} className="card form-card add-feedback-card" aria-labelledby="feedback-form-title" noValidate>
        <h2 id="feedback-form-title" className="block-title">
          {t("shareFeedback.formTitle")}
        </h2>
        {result?.ok ? (
          <div className="form-success feedback-success" role="status">
            <CheckIcon />
            <p>{t(result.created ? "shareFeedback.created" : "shareFeedback.updated")}</p>
            <Link to="/#feedback">
              {t("shareFeedback.seeIt")}
              <ArrowIcon />
            </Link>
          </div>
        ) : null}
        <fieldset className="form-fields" disabled={sending}>
          <div className="field">
            <label htmlFor="feedback-group">{t("shareFeedback.group")}</label>
            <select
              id="feedback-group"
              dir="auto"
              name="groupSlug"
              value={values.groupSlug}
              onChange={(e) => pickGroup(e.target.value)}
              aria-invalid={errors.groupSlug ? true : undefined}
              aria-describedby={describe("groupSlug")}
            >
              {groups.map((g) => (
                <option key={g.slug} value={g.slug} dir="auto">
                  {g.title}
                </option>
              ))}
            </select>
            {errors.groupSlug ? (
              <p id="groupSlug-error" className="field-error">
                {t(errors.groupSlug)}
              </p>
            ) : null}
          </div>
          {existing ? (
            <div className="feedback-existing">
              <p>{t("shareFeedback.editing", { date: formatDate(existing.createdAt, lang) })}</p>
              {existing.hidden ? <p>{t("shareFeedback.hiddenNote")}</p> : null}
            </div>
          ) : null}
          <StarRating
            name="rating"
            value={values.rating === "" ? null : Number(values.rating)}
            onChange={(n) => setValues((v) => ({ ...v, rating: String(n) }))}
            error={errors.rating ? t(errors.rating) : undefined}
          />
          <div className="field">
            <label htmlFor="feedback-text">{t("shareFeedback.text")}</label>
            <textarea
              id="feedback-text"
              name="userFeedback"
              rows={6}
              dir="auto"
              required
              maxLength={maxLength}
              placeholder={t("shareFeedback.placeholder")}
              value={values.userFeedback}
              onChange={(e) => setValues((v) => ({ ...v, userFeedback: e.target.value }))}
              aria-invalid={errors.userFeedback ? true : undefined}
              aria-describedby={describe("userFeedback", "feedback-count")}
            />
            <div className="field-foot">
              {errors.userFeedback ? (
                <p id="userFeedback-error" className="field-error">
                  {t(errors.userFeedback)}
                </p>
              ) : (
                <span />
              )}
              <span id="feedback-count" className="field-hint">
                {t("shareFeedback.count", { count: values.userFeedback.length, max: maxLength })}
              </span>
            </div>
          </div>
          {result && !result.ok && result.formError ? (
            <RefusalText className="form-error" attempt={result}>
              {t(result.formError)}
            </RefusalText>
          ) : null}
          <button type="submit" className="btn btn-primary btn-lg">
            {sending ? <span className="spinner spinner-sm" aria-hidden="true" /> : null}
            {sending ? t("shareFeedback.submitting") : existing ? t("shareFeedback.update") : t("shareFeedback.submit")}
          </button>
        </fieldset>
      </Form>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
