import { Outlet } from "@remix-run/react";
import { BackToTop } from "~/components/back-to-top";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SiteFooter } from "~/components/site-footer";
import { SiteHeader } from "~/components/site-header";
import { useT } from "~/lib/i18n";

/**
 * The public area's shared layout (pathless): skip link, header, the page, footer and back-to-top.
 * Each page renders its own <main id="main">, so an error screen (which is a <main> too) never nests.
 */
function PublicShell({ children }: { children: React.ReactNode }) {
  const { t } = useT();
  return (
    <div className="public-shell">
      <span id="top" tabIndex={-1} className="top-anchor" />
      <a href="#main" className="skip-link">
        {t("nav.skip")}
      </a>
      <SiteHeader />
      <div className="public-content">{children}</div>
      <SiteFooter />
      <BackToTop />
    </div>
  );
}

export default function PublicLayout() {
  return (
    <PublicShell>
      <Outlet />
    </PublicShell>
  );
}

export function ErrorBoundary() {
  return (
    <PublicShell>
      <GeneralErrorBoundary />
    </PublicShell>
  );
}
