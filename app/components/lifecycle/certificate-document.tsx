import { useT } from "~/lib/i18n";
import type { CertificateView } from "~/lib/certificate-view.server";

/**
 * The certificate as a document: its words in the certificate's own language and direction (`lang`, `dir`), the
 * reader's language around it. Printing shows the document alone, on one landscape A4 or Letter page.
 */
export function CertificateDocument({ view }: { view: CertificateView }) {
  const { t } = useT();
  return (
    <main id="main" tabIndex={-1} className="page certificate-page">
      <article className={`certificate${view.revoked ? " certificate-revoked" : ""}`} lang={view.lang} dir={view.dir} aria-labelledby="certificate-heading">
        {view.revoked ? (
          <div className="certificate-revoked-banner" role="note">
            <strong>{view.revoked.title}</strong>
            <span className="user-text">{view.revoked.body}</span>
          </div>
        ) : null}
        <p className="certificate-brand">Cohort</p>
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
