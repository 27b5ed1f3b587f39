import type { LoaderFunctionArgs, MetaFunction, LinksFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { InboxIcon, LogoMark } from "~/components/icons";
import { LanguageSwitcher } from "~/components/language-switcher";
import { localeOf } from "~/i18n/config";
import { useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { notFoundResponse } from "~/lib/not-found.server";
import { mailboxQuery } from "~/lib/schemas";
import { listOutbox } from "../../worker/services/mail";
import { sheets } from "~/styles/sheets";
import { dateTimeFormat } from "~/lib/intl-cache";
import { EmptyState } from "~/components/empty-state";

export const links: LinksFunction = () => sheets("dev");

export const meta: MetaFunction = ({ matches }) => {
  const t = metaT(matches);
  return [...pageMeta(matches, t("mailbox.title"), t("mailbox.subtitle")), { name: "robots", content: "noindex" }];
};

/** The local outbox (PRODUCT.md §6): development only, newest first, optionally for one recipient. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (context.svc.settings.environment !== "development") throw notFoundResponse();
  const raw = new URL(request.url).searchParams.get("to")?.trim() ?? "";
  const query = raw ? mailboxQuery.safeParse({ to: raw }) : null;
  const to = query?.success ? query.data.to : undefined;
  const mails = await listOutbox(context.svc, to);
  return {
    to: raw,
    invalid: query ? !query.success : false,
    mails: mails.map((m) => ({ id: m.id, to: m.to, subject: m.subject, text: m.text, createdAt: m.createdAt.toISOString() })),
  };
}

export default function DevMailbox() {
  const { to, invalid, mails } = useLoaderData<typeof loader>();
  const { t, lang } = useT();
  const time = dateTimeFormat(localeOf(lang), { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
  return (
    <div className="dev-shell">
      <header className="dev-header">
        <div className="container dev-header-inner">
          <Link to="/" className="brand">
            <LogoMark size={28} />
            <span className="brand-name">{t("app.name")}</span>
          </Link>
          <span className="badge badge-amber">{t("mailbox.devBadge")}</span>
          <LanguageSwitcher className="dev-lang" />
        </div>
      </header>
      <main id="main" tabIndex={-1} className="container dev-main">
        <h1 className="page-title">{t("mailbox.title")}</h1>
        <p className="page-lead">{t("mailbox.subtitle")}</p>

        <Form method="get" className="mailbox-filter" role="search">
          <div className="field">
            <label htmlFor="mailbox-to">{t("mailbox.filter")}</label>
            <input id="mailbox-to" name="to" type="email" dir="ltr" defaultValue={to} placeholder="student@example.com" aria-invalid={invalid || undefined} aria-describedby={invalid ? "mailbox-to-error" : undefined} />
          </div>
          <button type="submit" className="btn btn-primary">{t("mailbox.show")}</button>
          {to ? <Link to="/dev/mailbox" className="btn btn-ghost">{t("mailbox.all")}</Link> : null}
        </Form>
        {invalid ? <p id="mailbox-to-error" className="field-error" role="alert">{t("mailbox.invalid")}</p> : null}

        <p className="muted mailbox-count" aria-live="polite">{t("mailbox.count", { count: mails.length })}</p>
        {mails.length === 0 ? (
          <EmptyState icon={<InboxIcon />} title={t("mailbox.empty")} />
        ) : (
          <ol className="mail-list" role="list">
            {mails.map((m) => (
              <li key={m.id} className="card mail-card">
                <article aria-labelledby={`mail-${m.id}`}>
                  <header className="mail-head">
                    <h2 id={`mail-${m.id}`} className="mail-subject">{m.subject}</h2>
                    <time dateTime={m.createdAt} className="muted">{time.format(new Date(m.createdAt))}</time>
                  </header>
                  <p className="mail-to"><span className="muted">{t("mailbox.to")}: </span><span dir="ltr">{m.to}</span></p>
                  <pre className="mail-text" dir="auto">{m.text}</pre>
                </article>
              </li>
            ))}
          </ol>
        )}
      </main>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
