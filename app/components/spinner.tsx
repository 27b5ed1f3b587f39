import { useT } from "~/lib/i18n";

/** The loading state of a list: a spinner with "Loading..." (announced politely). */
export function LoadingState({ className }: { className?: string }) {
  const { t } = useT();
  return (
    <div className={["loading-state", className ?? ""].join(" ")} role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{t("common.loading")}</span>
    </div>
  );
}
