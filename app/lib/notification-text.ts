/**
 * A notification's text in the reader's language. Notifications store their kind and parameters (names, titles,
 * a variant such as a decision); each page renders them with its own dictionary. Rows written before parameters
 * existed, and kinds without a text, show the English title they were stored with. Client-safe.
 */
import { format, type Params } from "../i18n/translate";
import { isolate } from "./bidi";
import type { Messages, MessageKey } from "../i18n/en";

export type NotificationParams = Params & { variant?: string };

export function notificationKey(kind: string, params: NotificationParams | null | undefined): MessageKey | null {
  if (!params) return null;
  const key = params.variant ? `notification.${kind}.${params.variant}` : `notification.${kind}`;
  return key as MessageKey;
}

type Shown = { kind: string; title: string; params?: NotificationParams | null };

/** With a dictionary (the server's English title). */
export function notificationText(messages: Messages, n: Shown): string {
  const key = notificationKey(n.kind, n.params);
  return key && key in messages ? format(messages, key, n.params ?? undefined) : n.title;
}

/**
 * Each name and title set apart from the sentence around it (`isolate`): an Arabic name at the start of an English
 * sentence, or a Latin title inside an Arabic one, keeps the sentence in the page's direction and its words in order.
 */
function isolated(params: NotificationParams): Params {
  const out: Params = {};
  for (const [name, value] of Object.entries(params)) out[name] = typeof value === "string" && name !== "variant" ? isolate(value) : value;
  return out;
}

/** With a page's `t` (which answers an unknown key with the key itself), to be shown in the page's direction. */
export function localNotificationText(t: (key: MessageKey, params?: Params) => string, n: Shown): string {
  const key = notificationKey(n.kind, n.params);
  const text = key && n.params ? t(key, isolated(n.params)) : null;
  return text && text !== key ? text : n.title;
}
