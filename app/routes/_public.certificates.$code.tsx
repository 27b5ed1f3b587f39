import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { CertificateDocument } from "~/components/lifecycle/certificate-document";
import { certificateView } from "~/lib/certificate-view.server";
import { CERTIFICATE_CODE } from "~/lib/lifecycle-schemas";
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
  const code = (params.code ?? "").toUpperCase();
  if (!CERTIFICATE_CODE.test(code)) throw notFoundResponse();
  const cert = await orNotFound(publicCertificate(context.svc, code));
  return { view: certificateView(cert) };
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
  const { view } = useLoaderData<typeof loader>();
  return <CertificateDocument view={view} />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
