import { NavLink } from "@remix-run/react";
import type { MessageKey } from "~/i18n/en";
import { useT } from "~/lib/i18n";
import { useRevealCurrent } from "~/lib/use-reveal-current";

export interface GroupTab {
  /** Relative to the group's base path ("" for the overview). */
  to: string;
  key: MessageKey;
}

/**
 * The sections of one group's staff pages as a row of links (each is its own page, so links with
 * aria-current rather than ARIA tabs). Only sections whose pages exist are listed.
 */
export function GroupTabs({ base, tabs }: { base: string; tabs: GroupTab[] }) {
  const { t } = useT();
  const row = useRevealCurrent<HTMLUListElement>();
  return (
    <nav className="group-tabs" aria-label={t("groups.tabs.label")}>
      <ul role="list" ref={row}>
        {tabs.map((tab) => (
          <li key={tab.to}>
            <NavLink to={tab.to ? `${base}/${tab.to}` : base} end={tab.to === ""} prefetch="intent" className="group-tab">
              {t(tab.key)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
