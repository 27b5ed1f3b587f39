import type { MetaDescriptor } from "@remix-run/react";
import { isLang } from "~/i18n/config";
import type { MessageKey, Messages } from "~/i18n/en";
import { messagesFor } from "~/i18n/store";
import { format, type Params } from "~/i18n/translate";

export interface MatchLike {
  id: string;
  data: unknown;
}

/** The active dictionary, for the language of the root loader's data, inside a `meta` function. */
function rootMessages(matches: readonly MatchLike[]): Messages | null {
  const root = matches.find((m) => m.id === "root")?.data as { lang?: unknown } | undefined;
  return (isLang(root?.lang) ? messagesFor(root.lang) : undefined) ?? null;
}

/** A `t()` for `meta` functions, where hooks are not available. */
export function metaT(matches: readonly MatchLike[]) {
  const messages = rootMessages(matches);
  return (key: MessageKey, params?: Params) => (messages ? format(messages, key, params) : "");
}

/**
 * Title ("Page | Cohort") and description for a page, in the visitor's language.
 * `title` and `description` are already translated (or user content such as a course title).
 */
export function pageMeta(matches: readonly MatchLike[], title: string | null, description?: string): MetaDescriptor[] {
  const t = metaT(matches);
  const app = t("app.name") || "Cohort";
  const fullTitle = title ? `${title} | ${app}` : `${app} | ${t("app.tagline")}`;
  const desc = description || t("meta.description");
  return [
    { title: fullTitle },
    { name: "description", content: desc },
    { property: "og:title", content: fullTitle },
    { property: "og:description", content: desc },
    { property: "og:type", content: "website" },
  ];
}
