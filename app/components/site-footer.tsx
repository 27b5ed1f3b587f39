import { Link } from "@remix-run/react";
import type { MessageKey } from "~/i18n/en";
import { useSite } from "~/hooks/use-site";
import { useViewer } from "~/hooks/use-viewer";
import { accountPath } from "~/lib/areas";
import { useT } from "~/lib/i18n";
import { LogoMark, MailIcon, PhoneIcon, SocialIcon } from "./icons";

const SOCIAL_KEYS: Record<string, MessageKey> = {
  facebook: "social.facebook",
  x: "social.x",
  linkedin: "social.linkedin",
  youtube: "social.youtube",
  github: "social.github",
  instagram: "social.instagram",
};

/**
 * The public footer: about, links that fit the viewer (Log In for visitors; My Courses, the account page and, for
 * staff, the API reference for signed-in people), contact details and social links (all from the site settings).
 */
export function SiteFooter() {
  const { t } = useT();
  const site = useSite();
  const { viewer, hasCourses } = useViewer();
  const social = Object.entries(site.socialLinks);
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <div className="footer-about">
          <Link to="/" className="brand brand-footer">
            <LogoMark size={30} />
            <span className="brand-name">{t("app.name")}</span>
          </Link>
          <p>{t("footer.about")}</p>
          {social.length > 0 ? (
            <>
              <h2 className="visually-hidden">{t("footer.follow")}</h2>
              <ul className="social-list">
                {social.map(([network, href]) => {
                  const key = SOCIAL_KEYS[network];
                  const label = key ? t(key) : network;
                  return (
                    <li key={network}>
                      <a href={href} className="social-link" target="_blank" rel="noopener noreferrer" aria-label={`${label} ${t("common.newTab")}`}>
                        <SocialIcon network={network} />
                      </a>
                    </li>
                  );
                })}
              </ul>
            </>
          ) : null}
        </div>

        <nav className="footer-col" aria-labelledby="footer-links-title">
          <h2 id="footer-links-title" className="footer-title">{t("footer.links")}</h2>
          <ul>
            <li><Link to="/">{t("nav.home")}</Link></li>
            <li><Link to="/courses">{t("nav.courses")}</Link></li>
            <li><Link to="/contact">{t("nav.contact")}</Link></li>
            <li><Link to="/certificates">{t("footer.checkCertificate")}</Link></li>
            {viewer ? (
              <>
                {hasCourses ? <li><Link to="/my-courses">{t("nav.myCourses")}</Link></li> : null}
                <li><Link to={accountPath(viewer.role)}>{t("nav.profile")}</Link></li>
                {/* The API reference is for the people who run the site (and developers), not for every visitor. */}
                {viewer.role !== "user" ? <li><a href="/api/docs">{t("footer.apiDocs")}</a></li> : null}
              </>
            ) : (
              <li><Link to="/auth/login">{t("nav.login")}</Link></li>
            )}
          </ul>
        </nav>

        <div className="footer-col">
          <h2 className="footer-title">{t("footer.contact")}</h2>
          <ul className="footer-contact">
            <li>
              <MailIcon />
              <a href={`mailto:${site.contactEmail}`} dir="ltr">{site.contactEmail}</a>
            </li>
            <li>
              <PhoneIcon />
              <a href={`tel:${site.contactPhone.replace(/[^\d+]/g, "")}`} dir="ltr">{site.contactPhone}</a>
            </li>
          </ul>
        </div>
      </div>
      <div className="container footer-bottom">
        <p>{t("footer.rights", { year: String(new Date().getFullYear()) })}</p>
      </div>
    </footer>
  );
}
