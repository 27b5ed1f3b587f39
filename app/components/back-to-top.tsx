import { useEffect, useState } from "react";
import { useT } from "~/lib/i18n";
import { ArrowUpIcon } from "./icons";

/** Back-to-top threshold (spec §9). */
export const BACK_TO_TOP_AFTER_PX = 500;

/** Appears once the page is scrolled more than 500 px; takes the visitor (and the focus) back to the top. */
export function BackToTop() {
  const { t } = useT();
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    const update = () => setVisible(window.scrollY > BACK_TO_TOP_AFTER_PX);
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, []);

  if (!visible) return null;
  return (
    <button
      type="button"
      className="back-to-top"
      aria-label={t("common.backToTop")}
      title={t("common.backToTop")}
      onClick={() => {
        const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
        window.scrollTo({ top: 0, behavior: reduce ? "auto" : "smooth" });
        document.getElementById("top")?.focus({ preventScroll: true });
      }}
    >
      <ArrowUpIcon />
    </button>
  );
}
