import { NavLink } from "@remix-run/react";
import type { ReactNode } from "react";
import type { MessageKey } from "~/i18n/en";
import { useT } from "~/lib/i18n";
import { useRevealCurrent } from "~/lib/use-reveal-current";
import { SiteHeader } from "./site-header";

export interface AreaLink {
  to: string;
  key: MessageKey;
  icon: ReactNode;
  /** Active only on this exact path (the area's overview). */
  end?: boolean;
}

/**
 * The staff areas' frame (/dashboard, /instructor): the site header, then a side navigation beside the page.
 * Below 880 px the side navigation becomes a row of links above the page that scrolls sideways.
 * Pages render their own <main id="main">, exactly as in the public area.
 */
export function AreaShell({ labelKey, links, children }: { labelKey: MessageKey; links: AreaLink[]; children: ReactNode }) {
  const { t } = useT();
  const row = useRevealCurrent<HTMLUListElement>();
  return (
    <div className="area-shell">
      <a href="#main" className="skip-link">
        {t("nav.skip")}
      </a>
      <SiteHeader />
      <div className="container area-layout">
        <nav className="area-nav" aria-label={t(labelKey)}>
          <p className="area-nav-title" aria-hidden="true">
            {t(labelKey)}
          </p>
          <ul role="list" className="area-nav-list" ref={row}>
            {links.map((l) => (
              <li key={l.to}>
                <NavLink to={l.to} end={l.end} prefetch="intent" className="area-nav-link">
                  {l.icon}
                  <span>{t(l.key)}</span>
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="area-content">{children}</div>
      </div>
    </div>
  );
}

/** The frame without the side navigation, for errors of the area's own guard (403) and other failures. */
export function AreaErrorShell({ children }: { children: ReactNode }) {
  const { t } = useT();
  return (
    <div className="area-shell">
      <a href="#main" className="skip-link">
        {t("nav.skip")}
      </a>
      <SiteHeader />
      {children}
    </div>
  );
}

/** A staff page's heading block: title, optional lead and actions. */
export function AreaPageHeader({ title, lead, children }: { title: string; lead?: string; children?: ReactNode }) {
  return (
    <header className="area-page-header">
      <div>
        <h1 className="area-page-title">{title}</h1>
        {lead ? <p className="area-page-lead">{lead}</p> : null}
      </div>
      {children ? <div className="area-page-actions">{children}</div> : null}
    </header>
  );
}
