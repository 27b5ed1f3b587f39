import { Link, NavLink, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { MessageKey } from "~/i18n/en";
import { useT } from "~/lib/i18n";
import { CloseIcon, LogoMark, MenuIcon } from "./icons";
import { LanguageSwitcher } from "./language-switcher";

/** `section`: other paths that belong to the link's part of the site (course pages belong to Courses). */
const LINKS: { to: string; key: MessageKey; end?: boolean; section?: string }[] = [
  { to: "/", key: "nav.home", end: true },
  { to: "/courses", key: "nav.courses", section: "/content/" },
  { to: "/contact", key: "nav.contact" },
];

/** Without JavaScript the menu button cannot work, so small screens show the links in the header instead. */
const NO_SCRIPT_MENU = `@media (max-width: 54.99rem) {
  .site-header-inner { flex-wrap: wrap; }
  .menu-toggle { display: none; }
  .site-menu { display: flex; position: static; inline-size: 100%; box-shadow: none; border: 0; padding: 0 0 1rem; }
}`;

/**
 * The public header: logo, main links, language switcher and Log In. Below 880 px the links fold into a
 * menu opened by a real button (aria-expanded); Escape closes it and returns focus to the button.
 */
export function SiteHeader() {
  const { t } = useT();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);

  useEffect(() => setOpen(false), [location.pathname, location.search]);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        setOpen(false);
        toggleRef.current?.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  return (
    <header className="site-header" data-menu-open={open}>
      <noscript>
        <style>{NO_SCRIPT_MENU}</style>
      </noscript>
      <div className="container site-header-inner">
        <Link to="/" className="brand" aria-label={t("app.name")}>
          <LogoMark size={34} />
          <span className="brand-name">{t("app.name")}</span>
        </Link>

        <button
          ref={toggleRef}
          type="button"
          className="btn btn-ghost btn-icon menu-toggle"
          aria-expanded={open}
          aria-controls="site-menu"
          onClick={() => setOpen((v) => !v)}
        >
          {open ? <CloseIcon /> : <MenuIcon />}
          <span className="visually-hidden">{open ? t("nav.closeMenu") : t("nav.menu")}</span>
        </button>

        <div id="site-menu" className="site-menu">
          <nav aria-label={t("nav.main")}>
            <ul className="nav-list">
              {LINKS.map((l) => (
                <li key={l.to}>
                  <NavLink
                    to={l.to}
                    end={l.end}
                    prefetch="intent"
                    className={l.section && location.pathname.startsWith(l.section) ? "nav-link nav-link-section" : "nav-link"}
                  >
                    {t(l.key)}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="site-menu-actions">
            <LanguageSwitcher />
            <Link to="/auth/login" className="btn btn-primary btn-sm">
              {t("nav.login")}
            </Link>
          </div>
        </div>
      </div>
    </header>
  );
}
