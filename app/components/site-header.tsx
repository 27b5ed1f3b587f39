import { Form, Link, NavLink, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useScriptless } from "~/hooks/use-scriptless";
import { useViewer, type ClientViewer } from "~/hooks/use-viewer";
import type { MessageKey } from "~/i18n/en";
import { accountPath } from "~/lib/areas";
import { useT } from "~/lib/i18n";
import { clearSession } from "~/lib/session-client";
import { HeaderExtras } from "./header-extras";
import { CloseIcon, LogoMark, MenuIcon } from "./icons";
import { LanguageSwitcher } from "./language-switcher";

/** `section`: other paths that belong to the link's part of the site (course pages belong to Courses). */
type HeaderLink = { to: string; key: MessageKey; end?: boolean; section?: string; except?: string };

const VISITOR_LINKS: HeaderLink[] = [
  { to: "/", key: "nav.home", end: true },
  { to: "/courses", key: "nav.courses", section: "/content/" },
  { to: "/contact", key: "nav.contact" },
];

/** Signed in (platform-spec §2): Home, Profile, My Courses (members only), and the staff area. */
function viewerLinks(viewer: ClientViewer, hasCourses: boolean): HeaderLink[] {
  const links: HeaderLink[] = [
    { to: "/", key: "nav.home", end: true },
    { to: accountPath(viewer.role), key: "nav.profile" },
  ];
  if (hasCourses) links.push({ to: "/my-courses", key: "nav.myCourses", section: "/course/" });
  // The staff account page lives inside the area: there, Profile is the current link, not the area.
  if (viewer.role === "admin") links.push({ to: "/dashboard", key: "nav.dashboard", except: accountPath("admin") });
  if (viewer.role === "instructor") links.push({ to: "/instructor", key: "nav.teaching", except: accountPath("instructor") });
  return links;
}

/** Without JavaScript the menu button cannot work, so small screens show the links in the header instead. */
const NO_SCRIPT_MENU = `@media (max-width: 54.99rem) {
  .site-header-inner { flex-wrap: wrap; }
  .menu-toggle { display: none; }
  .site-menu { display: flex; position: static; inline-size: 100%; box-shadow: none; border: 0; padding: 0 0 1rem; }
}`;

/**
 * The site header: logo, main links, language switcher and Log In (or, signed in, Log out, a POST form to
 * /auth/logout that also clears the browser's session markers, and the header extras, which stay in the bar
 * after the menu so the notifications bell is visible on every screen width). Below 880 px the links fold
 * into a menu opened by a real button (aria-expanded); Escape closes it and returns focus to the button, and it
 * closes when focus moves on past the header.
 */
export function SiteHeader() {
  const { t } = useT();
  const { viewer, hasCourses } = useViewer();
  const navigation = useNavigation();
  const loggingOut = navigation.formAction === "/auth/logout";
  const links = viewer ? viewerLinks(viewer, hasCourses) : VISITOR_LINKS;
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const scriptless = useScriptless();

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
    <header
      className="site-header"
      data-menu-open={open}
      // The open menu covers the page: when the keyboard's focus moves on past the header, it closes rather than
      // leave focus on links hidden under it.
      onBlur={(e) => {
        if (open && e.relatedTarget instanceof Node && !e.currentTarget.contains(e.relatedTarget)) setOpen(false);
      }}
    >
      {/* A screen sent without its scripts takes the same form as a browser that runs none. */}
      {scriptless ? (
        <style>{NO_SCRIPT_MENU}</style>
      ) : (
        <noscript>
          <style>{NO_SCRIPT_MENU}</style>
        </noscript>
      )}
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
              {links.map((l) => (
                <li key={l.to}>
                  <NavLink
                    to={l.to}
                    end={l.end || (l.except !== undefined && location.pathname.startsWith(l.except))}
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
            {viewer ? (
              <Form method="post" action="/auth/logout" className="logout-form" onSubmit={() => clearSession()}>
                <button type="submit" className="btn btn-outline btn-sm">
                  {t("nav.logout")}
                </button>
              </Form>
            ) : (
              <Link to="/auth/login" className="btn btn-primary btn-sm">
                {t("nav.login")}
              </Link>
            )}
          </div>
        </div>
        {/* The bell's live connection closes as soon as "Log out" is sent, so it never asks for a ticket with a
            session that is being revoked. */}
        {viewer && !loggingOut ? <HeaderExtras /> : null}
      </div>
    </header>
  );
}
