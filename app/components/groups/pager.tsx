import { Link } from "@remix-run/react";
import { useT } from "~/lib/i18n";
import { ArrowIcon } from "../icons";

/** Previous / "Page x of y" / Next as links (they work without JavaScript); hidden when there is one page. */
export function Pager({ page, pageCount, hrefFor }: { page: number; pageCount: number; hrefFor: (page: number) => string }) {
  const { t } = useT();
  if (pageCount <= 1) return null;
  return (
    <nav className="gpager" aria-label={t("groups.pager.label")}>
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} className="btn btn-outline btn-sm" rel="prev">
          <ArrowIcon className="icon-back" />
          {t("common.previous")}
        </Link>
      ) : (
        <span className="btn btn-outline btn-sm" aria-disabled="true">
          <ArrowIcon className="icon-back" />
          {t("common.previous")}
        </span>
      )}
      <span className="gpager-count">{t("groups.pager.page", { page, count: pageCount })}</span>
      {page < pageCount ? (
        <Link to={hrefFor(page + 1)} className="btn btn-outline btn-sm" rel="next">
          {t("common.next")}
          <ArrowIcon />
        </Link>
      ) : (
        <span className="btn btn-outline btn-sm" aria-disabled="true">
          {t("common.next")}
          <ArrowIcon />
        </span>
      )}
    </nav>
  );
}
