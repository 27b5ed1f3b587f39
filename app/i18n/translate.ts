import type { Messages, MessageKey } from "./en";

export type Params = Record<string, string | number>;

/** Fills `{name}` placeholders. Unknown keys fall back to the key itself, so a gap is visible, never a crash. */
export function format(messages: Messages, key: MessageKey, params?: Params): string {
  const template = messages[key] ?? key;
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (_, name: string) => (name in params ? String(params[name]) : `{${name}}`));
}
