import { useMemo, useState } from "react";
import { useT } from "~/lib/i18n";
import { foldForSearch } from "~/lib/search-fold";

/**
 * A staff list's students, narrowed by a name typed into `NameSearch`: folded as every name search of the site folds
 * (app/lib/search-fold.ts: "احمد" finds أحمد, "emile" finds Émile). The list is already in the page (a cohort's
 * Progress, a lecture's roll, the quiz results, the certificates), so it is narrowed in the browser, as typed.
 */
/** The name of an item that carries its own (`nameOf` for most lists): one function, so the folding is kept per list. */
export const ownName = (item: { name: string }) => item.name;

export function useNameSearch<T>(items: readonly T[], nameOf: (item: T) => string) {
  const [query, setQuery] = useState("");
  const term = foldForSearch(query);
  // Each name folded once per list, not once per key typed.
  const folded = useMemo(() => items.map((item) => foldForSearch(nameOf(item))), [items, nameOf]);
  const shown = useMemo(() => (term === "" ? items : items.filter((_, i) => folded[i]!.includes(term))), [items, folded, term]);
  return { query, setQuery, term, shown, total: items.length };
}

/**
 * The search box above such a list, and what it did: how many of the students are shown (said to screen readers as
 * it changes), or that none matches. `controls`: the id of the list it narrows.
 */
export function NameSearch({ id, controls, search }: { id: string; controls?: string; search: ReturnType<typeof useNameSearch<unknown>> }) {
  const { t } = useT();
  const { query, setQuery, term, shown, total } = search;
  return (
    <div className="name-search">
      <label htmlFor={id} className="visually-hidden">
        {t("nameSearch.label")}
      </label>
      <input
        id={id}
        type="search"
        value={query}
        placeholder={t("nameSearch.label")}
        autoComplete="off"
        dir="auto"
        aria-controls={controls}
        aria-describedby={`${id}-result`}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape" && query !== "") {
            e.preventDefault();
            setQuery("");
          }
        }}
      />
      <p id={`${id}-result`} className="name-search-result muted" role="status">
        {term === "" ? "" : shown.length === 0 ? t("nameSearch.none", { name: query.trim() }) : t("nameSearch.shown", { shown: shown.length, total })}
      </p>
    </div>
  );
}
