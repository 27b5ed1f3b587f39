import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/server-runtime";
import { isRouteErrorResponse, useLoaderData, useParams, useRouteError } from "@remix-run/react";
import { ErrorScreen, GeneralErrorBoundary } from "~/components/error-boundary";
import { CertificateDocument } from "~/components/lifecycle/certificate-document";
import { CertificateLookup } from "~/components/lifecycle/certificate-lookup";
import { certificateView } from "~/lib/certificate-view.server";
import { useT } from "~/lib/i18n";
import { canonicalCertificateCode } from "~/lib/lifecycle-rules";
import { metaT, pageMeta } from "~/lib/meta";
import { notFoundResponse, orNotFound } from "~/lib/not-found.server";
import { sheets } from "~/styles/sheets";
import { publicCertificate } from "../../worker/services/certificates";

export const links: LinksFunction = () => sheets("certificate");

/**
 * A certificate anyone can open from its address (issue 22): the graduate's name, the course, the instructor, the
 * dates and the issue date in the certificate's language, its QR code, a print view on one page, LinkedIn's "add
 * certification" link and the signed statement beside it. A revoked certificate says so.
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const code = canonicalCertificateCode(params.code ?? "");
  if (!code) throw notFoundResponse();
  // An ID typed another way (lower case, no dashes, spaces) goes to the certificate's one address.
  if (code !== params.code) throw redirect(`/certificates/${code}`);
  const cert = await orNotFound(publicCertificate(context.svc, code));
  return {
    view: certificateView(cert),
    // What the reader's language says about it, whatever the certificate's own language.
    check: { name: cert.recipientName, course: cert.courseTitle, issuedAt: cert.issuedAt, revokedAt: cert.revoked?.at ?? null },
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaT(matches);
  if (!data) return pageMeta(matches, t("certificate.notFoundTitle"), t("certificate.notFoundBody"));
  return [
    ...pageMeta(matches, t("certificate.pageTitle", { name: data.view.name, course: data.view.course }), `${data.view.heading}: ${data.view.course}`),
    { tagName: "link", rel: "alternate", type: "application/json", href: data.view.json },
  ];
};

export default function CertificatePage() {
  const { view, check } = useLoaderData<typeof loader>();
  return <CertificateDocument view={view} check={check} />;
}

/** An ID that is no certificate: said in those words, with the box to type it again. */
export function ErrorBoundary() {
  const error = useRouteError();
  const { code } = useParams();
  const { t } = useT();
  if (!isRouteErrorResponse(error) || error.status !== 404) return <GeneralErrorBoundary />;
  return (
    <ErrorScreen code={404} title={t("certificate.notFoundTitle")} className="certificate-missing">
      <p>{t("certificate.notFoundBody")}</p>
      <CertificateLookup value={code ?? ""} />
    </ErrorScreen>
  );
}
