import { isolate } from "~/lib/bidi";
import { formatDate, useT } from "~/lib/i18n";
import type { CertificateView } from "~/lib/certificate-view.server";
import { AlertIcon, CheckIcon } from "../icons";

/** What the page's reader needs to trust the document, in the reader's language (the document keeps its own). */
export interface CertificateCheck {
  name: string;
  course: string;
  issuedAt: string;
  revokedAt: string | null;
}

/**
 * The certificate as a document: its words in the certificate's own language and direction (`lang`, `dir`), the
 * reader's language around it. Printing shows the document alone, on one landscape A4 or Letter page.
 */
export function CertificateDocument({ view, check }: { view: CertificateView; check: CertificateCheck }) {
  const { t, lang } = useT();
  const facts = { name: isolate(check.name), course: isolate(check.course), issued: formatDate(check.issuedAt, lang) };
  return (
    <main id="main" tabIndex={-1} className="page certificate-page">
      <div className="certificate-check" role="note" data-state={check.revokedAt ? "revoked" : "valid"}>
        {check.revokedAt ? <AlertIcon /> : <CheckIcon />}
        <p>
          <strong>{t(check.revokedAt ? "certificate.check.revokedTitle" : "certificate.check.validTitle")}</strong>{" "}
          {check.revokedAt
            ? t("certificate.check.revokedBody", { ...facts, revoked: formatDate(check.revokedAt, lang) })
            : t("certificate.check.validBody", facts)}
        </p>
      </div>
      <article className={`certificate${view.revoked ? " certificate-revoked" : ""}`} lang={view.lang} dir={view.dir} aria-labelledby="certificate-heading">
        {view.revoked ? (
          <div className="certificate-revoked-banner" role="note">
            <strong>{view.revoked.title}</strong>
            <span className="user-text">{view.revoked.body}</span>
          </div>
        ) : null}
        <p className="certificate-brand">{view.lang === "ar" ? "كوهورت" : "Cohort"}</p>
        <h1 id="certificate-heading" className="certificate-heading">
          {view.heading}
        </h1>
        <p className="certificate-line">{view.presented}</p>
        <p className="certificate-name user-text">{view.name}</p>
        <p className="certificate-line">{view.completed}</p>
        <p className="certificate-course user-text">{view.course}</p>
        {view.taught ? <p className="certificate-line user-text">{view.taught}</p> : null}
        {view.dates ? <p className="certificate-line">{view.dates}</p> : null}
        <footer className="certificate-foot">
          <div className="certificate-facts">
            <p>{view.issued}</p>
            <p>
              <bdi dir="ltr">{view.id}</bdi>
            </p>
            <p>
              {view.check}{" "}
              <bdi dir="ltr" className="certificate-url">
                {view.url}
              </bdi>
            </p>
          </div>
          <div className="certificate-qr" role="img" aria-label={t("certificate.qr")} dangerouslySetInnerHTML={{ __html: view.qr }} />
        </footer>
      </article>
      <section className="certificate-actions" aria-label={t("certificate.pageTitle", { name: view.name, course: view.course })}>
        <div className="certificate-buttons">
          <button type="button" className="btn btn-primary" onClick={() => window.print()}>
            {t("certificate.print")}
          </button>
          {view.revoked ? null : (
            <a className="btn btn-ghost" href={view.linkedIn} target="_blank" rel="noopener noreferrer">
              {t("certificate.linkedin")}
            </a>
          )}
          <a className="btn btn-ghost" href={view.json} type="application/json">
            {t("certificate.json")}
          </a>
        </div>
        <p className="field-hint field-hint-block">{t("certificate.printHint")}</p>
        <p className="field-hint field-hint-block">{t("certificate.jsonHint")}</p>
      </section>
    </main>
  );
}
