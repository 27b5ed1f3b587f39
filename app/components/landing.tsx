import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import type { MessageKey } from "~/i18n/en";
import { useT } from "~/lib/i18n";
import { ArrowIcon, CodeIcon, LayersIcon, SparkIcon, UsersIcon } from "./icons";

/** The landing page's static sections. The lists (catalogue, feedback) are their own components. */

export function LandingHero() {
  const { t } = useT();
  return (
    <section className="hero" aria-labelledby="hero-title">
      <div className="hero-bg" aria-hidden="true" />
      <div className="container hero-inner">
        <p className="eyebrow eyebrow-light">{t("app.tagline")}</p>
        <h1 id="hero-title" className="hero-title">{t("hero.title")}</h1>
        <p className="hero-subtitle">{t("hero.subtitle")}</p>
        <div className="hero-actions">
          <a href="#courses" className="btn btn-accent btn-lg">
            {t("hero.cta")}
            <ArrowIcon />
          </a>
          <a href="#how" className="btn btn-glass btn-lg">
            {t("hero.secondary")}
          </a>
        </div>
        <ul className="hero-tracks" aria-label={t("hero.tracksLabel")}>
          {(["track.frontend", "track.backend", "track.mobile", "track.devops"] as const).map((k) => (
            <li key={k}>{t(k)}</li>
          ))}
        </ul>
      </div>
    </section>
  );
}

const BENEFITS: { key: "projects" | "ai" | "collab" | "tracks"; icon: ReactNode }[] = [
  { key: "projects", icon: <CodeIcon /> },
  { key: "ai", icon: <SparkIcon /> },
  { key: "collab", icon: <UsersIcon /> },
  { key: "tracks", icon: <LayersIcon /> },
];

export function LandingBenefits() {
  const { t } = useT();
  return (
    <section id="why" className="section" aria-labelledby="why-title">
      <div className="container">
        <header className="section-header">
          <h2 id="why-title" className="section-title">{t("why.title")}</h2>
          <p className="section-subtitle">{t("why.subtitle")}</p>
        </header>
        <ul className="benefit-grid" role="list">
          {BENEFITS.map((b) => (
            <li key={b.key} className="card benefit-card">
              <span className="benefit-icon" aria-hidden="true">{b.icon}</span>
              <h3>{t(`why.${b.key}.title` as MessageKey)}</h3>
              <p>{t(`why.${b.key}.body` as MessageKey)}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

const STEPS = [1, 2, 3, 4] as const;

export function LandingSteps() {
  const { t } = useT();
  return (
    <section id="how" className="section section-tinted" aria-labelledby="how-title">
      <div className="container">
        <header className="section-header">
          <h2 id="how-title" className="section-title">{t("how.title")}</h2>
          <p className="section-subtitle">{t("how.subtitle")}</p>
        </header>
        <ol className="steps">
          {STEPS.map((n) => (
            <li key={n} className="step">
              <span className="step-number" aria-hidden="true">{n}</span>
              <h3>{t(`how.step${n}.title` as MessageKey)}</h3>
              <p>{t(`how.step${n}.body` as MessageKey)}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

const FAQ = [1, 2, 3, 4] as const;

export function LandingFaq() {
  const { t } = useT();
  return (
    <section id="faq" className="section" aria-labelledby="faq-title">
      <div className="container container-narrow">
        <header className="section-header">
          <h2 id="faq-title" className="section-title">{t("faq.title")}</h2>
        </header>
        <div className="faq-list">
          {FAQ.map((n) => (
            <details key={n} className="faq-item">
              <summary>
                <span>{t(`faq.q${n}` as MessageKey)}</span>
              </summary>
              <p>{t(`faq.a${n}` as MessageKey)}</p>
            </details>
          ))}
        </div>
      </div>
    </section>
  );
}

export function LandingCta() {
  const { t } = useT();
  return (
    <section className="section cta-section" aria-labelledby="cta-title">
      <div className="container">
        <div className="cta-panel">
          <div>
            <h2 id="cta-title">{t("cta.title")}</h2>
            <p>{t("cta.body")}</p>
          </div>
          <div className="cta-actions">
            <Link to="/courses" className="btn btn-accent btn-lg">
              {t("cta.primary")}
              <ArrowIcon />
            </Link>
            <Link to="/contact" className="btn btn-glass btn-lg">
              {t("nav.contact")}
            </Link>
          </div>
        </div>
      </div>
    </section>
  );
}
