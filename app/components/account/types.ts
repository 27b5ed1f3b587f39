import type { MessageKey } from "~/i18n/en";

/** What the account forms' action answers (app/lib/account.server.ts); client-safe. */
export type AccountIntent = "profile" | "password" | "revoke" | "delete" | "setPassword";

export interface AccountResult {
  intent: AccountIntent;
  ok: boolean;
  /** Field name → message key. */
  errors: Partial<Record<string, MessageKey>>;
  formError?: MessageKey;
  /** setPassword: where the code was sent. */
  email?: string;
}
