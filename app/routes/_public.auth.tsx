import type { LinksFunction } from "@remix-run/cloudflare";
import { sheets } from "~/styles/sheets";
import { Outlet } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { CheckIcon, LogoMark } from "~/components/icons";
import { useT } from "~/lib/i18n";

export const links: LinksFunction = () => sheets("accounts");

/**
 * The sign-in screens' frame (/auth/login, register, verif-email, forget-password) inside the public layout:
 * a short reminder of what Cohort is beside the form; on small screens only the form. Each page renders its
 * own <main id="main" className="auth-card">.
 */
function AuthFrame({ children }: { children: React.ReactNode }) {
  const { t } = useT();
  return (
    <div className="auth-page">
      <div className="container auth-wrap">
        <aside className="auth-aside" aria-labelledby="auth-aside-title">
          <LogoMark size={44} />
          <p id="auth-aside-title" className="auth-aside-title">{t("auth.aside.title")}</p>
          <ul role="list" className="auth-aside-list">
            {(["auth.aside.point1", "auth.aside.point2", "auth.aside.point3"] as const).map((key) => (
              <li key={key}>
                <CheckIcon />
                {t(key)}
              </li>
            ))}
          </ul>
        </aside>
        {children}
      </div>
    </div>
  );
}

export default function AuthLayout() {
  return (
    <AuthFrame>
      <Outlet />
    </AuthFrame>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
