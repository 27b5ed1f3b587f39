import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/server-runtime";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { CertificateLookup } from "~/components/lifecycle/certificate-lookup";
import { useT } from "~/lib/i18n";
import { canonicalCertificateCode } from "~/lib/lifecycle-rules";
import { metaT, pageMeta } from "~/lib/meta";
import { sheets } from "~/styles/sheets";

export const links: LinksFunction = () => sheets("certificate");

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, metaT(matches)("certificate.lookup.title"), metaT(matches)("certificate.lookup.lead"));

/**
 * Check a certificate (issue 22): an employer types the ID printed on it. A well-formed ID goes to its page (which
 * says whether it exists and whether it was revoked); anything else is answered here, with what was typed kept.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const typed = new URL(request.url).searchParams.get("code");
  if (typed === null) return { typed: "", malformed: false };
  const code = canonicalCertificateCode(typed);
  if (code) throw redirect(`/certificates/${code}`);
  return { typed: typed.slice(0, 40), malformed: true };
}

export default function CheckCertificate() {
  const { typed, malformed } = useLoaderData<typeof loader>();
  const { t } = useT();
  return (
    <main id="main" tabIndex={-1} className="page certificate-check-page">
      <div className="container container-narrow">
        <h1 className="page-title">{t("certificate.lookup.title")}</h1>
        <p className="page-lead">{t("certificate.lookup.lead")}</p>
        <CertificateLookup value={typed} error={malformed ? t("certificate.lookup.malformed") : null} />
      </div>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
