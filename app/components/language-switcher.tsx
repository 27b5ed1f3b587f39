import { Form, useLocation } from "@remix-run/react";
import { useT } from "~/lib/i18n";
import { GlobeIcon } from "./icons";

/**
 * English / العربية. A plain form posted to /set-language (works without JavaScript); the action stores
 * the choice in the `lang` cookie and sends the visitor back to the same page.
 */
export function LanguageSwitcher({ className }: { className?: string }) {
  const { t, lang } = useT();
  const location = useLocation();
  const other = lang === "ar" ? "en" : "ar";
  return (
    <Form method="post" action="/set-language" className={["lang-switch", className ?? ""].join(" ")} preventScrollReset>
      <input type="hidden" name="lang" value={other} />
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <button type="submit" className="btn btn-ghost btn-sm lang-switch-button" aria-label={`${t("lang.switch")} (${t("lang.switchLabel")})`}>
        <GlobeIcon />
        <span lang={other}>{t("lang.switch")}</span>
      </button>
    </Form>
  );
}
